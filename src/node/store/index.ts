/**
 * The session store, from Node: resolve the user's root, walk what they point at, open what it
 * lists. Shared by the CLI and the local server; see docs/ARCHITECTURE.md.
 */
export { resolveSessionRoot } from './root';
export { walkSessions } from './walk';
export { syncWalkFs } from './sync-fs';
export type { SessionSource, SkipReason, SkippedEntry } from './walk';
export { ReadError, openLogFile, readRegularFile } from './read';
