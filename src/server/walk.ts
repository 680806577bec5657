/**
 * What `surface-lens view` lists, from the store walker every command uses
 * (`src/node/store`: session-store.md §2), with links confined to the given paths. The walker
 * decides what each entry is and why one is passed over; this module only turns that into the
 * listing's terms: files under a root with their stats, the entries dsh would refuse listed as
 * refused rows (the old flat layout, the other encoding of a root), the rest as skipped entries
 * with the reason in words. Reads directories and metadata only.
 */
import { basename, dirname, relative, sep } from 'node:path';
import type { Stats } from 'node:fs';
import { walkSessions } from '../node/store';
import type { SessionSource, SkippedEntry, SkipReason } from '../node/store';
import type { StoreFormat, StoreSkipped } from '../protocol/store-api';
import { errnoReason } from './store-fs';
import type { StoreFs } from './store-fs';

/** One file to list. */
export interface WalkedFile {
  /** The root it was found under (its real path). */
  root: string;
  /** Its path relative to the root (stable across runs: the id is made from it). */
  rel: string;
  /** Its path (under the root; a link inside the root stays a link, resolved at read time). */
  path: string;
  projectDir: string;
  fileName: string;
  format: StoreFormat;
  stats: Stats;
  /** Why upstream would not read it here; null when it would. */
  refusal: string | null;
}

/** The walk of every given path. */
export interface WalkResult {
  roots: string[];
  files: WalkedFile[];
  skipped: StoreSkipped[];
}

/** The listing's words for an entry passed over (its path is shown beside them). */
const SKIP_WORDS: Record<Exclude<SkipReason, 'flat-layout' | 'unreadable'>, string> = {
  'no-session-file': 'no session.jsonl.zstd or session.jsonl (a session never appended, or not a session directory)',
  'outside-root': 'a symbolic link out of the root: not followed',
  'session-artifact': 'an artifact of the session beside it, not a log',
  'not-a-log': 'not a session directory',
  hidden: 'hidden (its name starts with "."): not read',
  'special-file': 'not a regular file',
  duplicate: 'the same file or directory as one already listed',
};

const FLAT_REFUSAL = 'an old flat layout file (<project>/<id>.jsonl*): upstream reads only <project>/<id>/session.jsonl(.zstd)';

function formatOf(name: string): StoreFormat {
  if (/\.zip$/i.test(name)) return 'zip';
  return /\.zstd?$/i.test(name) ? 'zstd' : 'jsonl';
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The given root a walked path is under (the deepest, when given paths nest). */
function rootOf(roots: readonly string[], path: string): string {
  let best: string | null = null;
  for (const root of roots) if (inside(root, path) && (best === null || root.length > best.length)) best = root;
  return best ?? dirname(path);
}

/**
 * The code of a failed `stat`, from the walker's message (`cannot open PATH: CODE`), in the
 * listing's words.
 */
function unreadableWords(entry: SkippedEntry): string {
  const code = /: ([A-Z][A-Z0-9_]+)$/.exec(entry.message)?.[1];
  return code ? errnoReason(Object.assign(new Error(entry.message), { code })) : entry.message;
}

/**
 * A root holds one encoding (session-store.md §2): the walker notes a root with both; here the
 * files of its minority encoding are refused, named (Zstandard, the default, wins a tie).
 */
function refuseOtherEncoding(files: WalkedFile[], mixedRoots: ReadonlySet<string>): void {
  const byRoot = new Map<string, WalkedFile[]>();
  for (const file of files) {
    if (file.format === 'zip' || file.refusal !== null) continue;
    // The store root of a store session: the parent of its project directory.
    const storeRoot = dirname(dirname(dirname(file.path)));
    if (!mixedRoots.has(storeRoot)) continue;
    const list = byRoot.get(storeRoot) ?? [];
    list.push(file);
    byRoot.set(storeRoot, list);
  }
  for (const list of byRoot.values()) {
    const zstd = list.filter((file) => file.format === 'zstd').length;
    const rootFormat = zstd * 2 >= list.length ? 'zstd' : 'jsonl';
    for (const file of list) {
      if (file.format === rootFormat) continue;
      const ours = rootFormat === 'zstd' ? 'session.jsonl.zstd' : 'session.jsonl';
      file.refusal = `a different encoding in this root: ${file.rel} is ${file.format === 'zstd' ? "compression: 'zstd'" : "compression: 'none'"}, the root's sessions are ${ours}; upstream refuses a root where both appear`;
    }
  }
}

/**
 * Walks every given path. A path that cannot be read is a skipped entry, never a failure: the
 * server lists what it can.
 */
export async function walkStore(fs: StoreFs, paths: readonly string[]): Promise<WalkResult> {
  const result: WalkResult = { roots: [], files: [], skipped: [] };
  // Each given path by its real path: ids are made relative to it, and links may not leave it.
  const inputs: string[] = [];
  for (const given of paths) {
    try {
      const real = await fs.realpath(given);
      const stats = await fs.stat(real);
      result.roots.push(real);
      inputs.push(real);
      if (stats.isFile()) result.roots[result.roots.length - 1] = dirname(real);
    } catch (error) {
      result.skipped.push({ where: given, reason: errnoReason(error) });
    }
  }
  const singleFiles = new Set(inputs.filter((input, i) => input !== result.roots[i]));
  const walked = await walkSessions(inputs, { fs, confine: true });

  const add = (path: string, stats: Stats, projectDir: string, refusal: string | null): void => {
    const root = rootOf(result.roots, path);
    const fileName = basename(path);
    result.files.push({ root, rel: relative(root, path), path, projectDir, fileName, format: formatOf(fileName), stats, refusal });
  };
  const projectOf = (source: SessionSource): string =>
    source.project ?? (singleFiles.has(source.path) ? basename(dirname(dirname(source.path))) : basename(dirname(source.path)));
  // The walker has `stat`ed each source; the listing needs the stats themselves (its cache key).
  for (const source of walked.sources) {
    try {
      add(source.path, await fs.stat(source.path), projectOf(source), null);
    } catch (error) {
      result.skipped.push({ where: relative(rootOf(result.roots, source.path), source.path) || source.path, reason: errnoReason(error) });
    }
  }
  for (const entry of walked.skipped) {
    const where = relative(rootOf(result.roots, entry.path), entry.path) || basename(entry.path);
    if (entry.reason === 'flat-layout') {
      // Refused by dsh, so listed as a row with the reason rather than hidden.
      try {
        add(entry.path, await fs.stat(entry.path), basename(dirname(entry.path)), FLAT_REFUSAL);
        continue;
      } catch (error) {
        result.skipped.push({ where, reason: errnoReason(error) });
        continue;
      }
    }
    result.skipped.push({ where, reason: entry.reason === 'unreadable' ? unreadableWords(entry) : SKIP_WORDS[entry.reason] });
  }
  refuseOtherEncoding(result.files, new Set(walked.notes.filter((note) => note.rule === 'store/mixed-encoding').map((note) => note.path)));
  return result;
}
