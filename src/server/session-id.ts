/**
 * The opaque id the view server gives a session file: a hash of the root it was found under and
 * its path relative to that root, stable across runs and never a path. `check --format html`
 * makes the same ids to link its rows to the app served by `surface-lens view`.
 */
import { createHash } from 'node:crypto';
import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve } from 'node:path';

/** The id of the file at `rel` under `root` (the root's real path). */
export function storeSessionId(root: string, rel: string): string {
  return createHash('sha256').update(`${root}\0${rel}`).digest('base64url').slice(0, 22);
}

/**
 * The id `surface-lens view PATH...` would give `file`, or null when none of `paths` holds it.
 * A file given as a path is its own root's only entry (the root is its folder), as the server's walk does.
 */
export function viewSessionId(paths: readonly string[], file: string): string | null {
  for (const given of paths) {
    let root: string;
    let isFile: boolean;
    try {
      root = realpathSync(given);
      isFile = statSync(root).isFile();
    } catch {
      continue;
    }
    if (isFile) {
      if (resolve(file) === resolve(given) || safeReal(file) === root) return storeSessionId(dirname(root), basename(root));
      continue;
    }
    const rel = relative(resolve(given), resolve(file));
    if (rel !== '' && !rel.startsWith('..') && !isAbsolute(rel)) return storeSessionId(root, rel);
  }
  return null;
}

function safeReal(path: string): string | null {
  try {
    return realpathSync(path);
  } catch {
    return null;
  }
}
