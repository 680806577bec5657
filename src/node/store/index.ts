/**
 * The session store, from Node: resolve the user's root, walk what they point at, open what it
 * lists. Shared by the CLI and the local server; see docs/ARCHITECTURE.md.
 */
export { resolveSessionRoot } from './root';
export type { RootEnvironment, RootSource, SessionRoot } from './root';
export { STORE_FILE_NAMES, walkSessions } from './walk';
export type { SessionSource, SkipReason, SkippedEntry, SourceKind, StoreNote, WalkFs, WalkOptions, WalkResult } from './walk';
export { MAX_INPUT_BYTES, ReadError, openLogFile, readRegularFile } from './read';
