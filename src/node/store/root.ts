/**
 * Where the user's dsh sessions live (session-store.md §1): an explicit path, else
 * `$DSH_SESSION_ROOT`, else `$DSH_HOME/sessions`, else `~/.dsh/sessions`.
 */
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** Which rule gave the root. */
export type RootSource = 'argument' | 'DSH_SESSION_ROOT' | 'DSH_HOME' | 'default';

/** A resolved session root. */
export interface SessionRoot {
  /** Absolute path; it may not exist (a user with no sessions yet). */
  path: string;
  source: RootSource;
}

/** What {@link resolveSessionRoot} reads; injectable so tests do not depend on the machine. */
export interface RootEnvironment {
  env?: Readonly<Record<string, string | undefined>>;
  home?: string;
}

/**
 * Resolve the session root in the order upstream's compositions use.
 * An empty environment variable counts as unset (a shell's `DSH_HOME=` clears it).
 */
export function resolveSessionRoot(explicit?: string, environment: RootEnvironment = {}): SessionRoot {
  const env = environment.env ?? process.env;
  if (explicit !== undefined && explicit !== '') return { path: resolve(explicit), source: 'argument' };
  const sessionRoot = env['DSH_SESSION_ROOT'];
  if (sessionRoot) return { path: resolve(sessionRoot), source: 'DSH_SESSION_ROOT' };
  const dshHome = env['DSH_HOME'];
  if (dshHome) return { path: resolve(dshHome, 'sessions'), source: 'DSH_HOME' };
  return { path: join(environment.home ?? homedir(), '.dsh', 'sessions'), source: 'default' };
}
