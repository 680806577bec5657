/**
 * Walk what a user points at — a session root, a project directory, a session directory, any
 * plain folder, a single file or an export ZIP — and list the session logs in it, naming every
 * entry it passes over and why (session-store.md §2: a viewer lists refused entries with the
 * reason instead of hiding them, and never refuses a whole root for them).
 *
 * The walk only reads directories and `stat`s entries; it never opens, creates or locks anything
 * (a store has one writer, the owning dsh process). Opening is `read.ts`.
 */
import * as fsp from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';

/** The fixed file names of a stored session (session-store.md §2). */
export const STORE_FILE_NAMES = ['session.jsonl', 'session.jsonl.zstd'] as const;

/** What a listed log is. */
export type SourceKind =
  /** `<project>/<session>/session.jsonl(.zstd)`, or that file name anywhere. */
  | 'store-session'
  /** A `.zip`: the web client's export (root session plus descendants). */
  | 'export-zip'
  /** Any other log file: named on the command line, or with a log suffix in a plain folder. */
  | 'file';

/** A log the walk found. Opening it may still yield zero, one or several sessions. */
export interface SessionSource {
  /** The path as reached from the input (relative inputs stay relative). */
  path: string;
  kind: SourceKind;
  /** Storage encoding of a store session (`session.jsonl.zstd` → `zstd`), else null. */
  encoding: 'jsonl' | 'zstd' | null;
  /** Name of the project directory (`--<key>--`, `_no-cwd`) when the layout is the store's, else null. */
  project: string | null;
  /** Name of the session directory (the encoded id) when the layout is the store's, else null. */
  sessionDir: string | null;
  /** Size in bytes when listed. */
  size: number;
  /**
   * Identity when listed (session-store.md §3: device, inode, size and timestamps without parsing):
   * a cache key for a listing, and how the walk notices a file reached twice.
   */
  identity: string;
}

/** Why an entry was passed over. */
export type SkipReason =
  /** `<project>/<id>.jsonl*`: the old flat layout, which dsh refuses. */
  | 'flat-layout'
  /** A file beside `session.jsonl(.zstd)` in a session directory: a session-owned artifact. */
  | 'session-artifact'
  /** A file in a plain folder whose name is not a log's. */
  | 'not-a-log'
  /** A name starting with `.` (not descended into). */
  | 'hidden'
  /**
   * A directory in a project directory without `session.jsonl(.zstd)`: a session that never
   * appended (dsh creates the file with the first event), or not a session directory.
   */
  | 'no-session-file'
  /** A symbolic link whose target leaves the input it was reached from (with {@link WalkOptions.confine}). */
  | 'outside-root'
  /** A FIFO, socket or device: reading it could block or never end. */
  | 'special-file'
  /** The same file or directory reached a second time (a symlink, overlapping inputs). */
  | 'duplicate'
  /** `stat` or `readdir` failed (permissions, a dangling symlink, a file removed meanwhile). */
  | 'unreadable';

/** An entry the walk passed over, with the reason in words. */
export interface SkippedEntry {
  path: string;
  reason: SkipReason;
  message: string;
}

/** Something about the store as a whole that a reader should know, though nothing was skipped. */
export interface StoreNote {
  path: string;
  /** `store/mixed-encoding`: a root holding both encodings, which dsh refuses. */
  rule: string;
  message: string;
}

/** Everything a walk found. */
export interface WalkResult {
  /** Logs to open, in a stable order: inputs as given, then by name within each directory. */
  sources: SessionSource[];
  skipped: SkippedEntry[];
  notes: StoreNote[];
}

/**
 * The read-only file-system calls the walk makes: Node's `fs/promises` unless a caller passes
 * others (a test injecting failures, the CLI's synchronous ones: `sync-fs.ts`).
 */
export interface WalkFs {
  readdir(path: string): Promise<string[]>;
  stat(path: string): Promise<Stats>;
  lstat(path: string): Promise<Stats>;
  realpath(path: string): Promise<string>;
}

/** Options of {@link walkSessions}. */
export interface WalkOptions {
  /** Called for each source as it is found (a listing that shows progress). */
  onSource?: (source: SessionSource) => void;
  /** @default Node's `fs/promises` */
  fs?: WalkFs;
  /**
   * Follow a symbolic link only when its target stays inside the input it was reached from (the
   * real path of a directory input; a file input's directory); skip it as `outside-root`
   * otherwise. For a server that must not read outside what it was given. @default false
   */
  confine?: boolean;
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** Suffixes of a log file in a plain folder (log-format.md §1.1 forms). */
const LOG_SUFFIX = /\.(jsonl|ndjson|json)(\.(zstd|zst|gz))?$|\.(zstd|zst|gz|zip)$/i;
/** A file name of the old flat layout directly in a project directory. */
const FLAT_SUFFIX = /\.jsonl(\.zstd)?$/;
/** Project directory names (session-store.md §2: `--<project-key>--`, `_no-cwd`). */
function isProjectName(name: string): boolean {
  return name === '_no-cwd' || (name.length >= 4 && name.startsWith('--') && name.endsWith('--'));
}

function storeEncoding(name: string): 'jsonl' | 'zstd' | null {
  return name === 'session.jsonl' ? 'jsonl' : name === 'session.jsonl.zstd' ? 'zstd' : null;
}

function identityOf(stats: Stats): string {
  return `${stats.dev}:${stats.ino}:${stats.size}:${stats.mtimeMs}`;
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/** Code-unit order: the same on every machine and locale. */
function byName(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

class Walk {
  readonly result: WalkResult = { sources: [], skipped: [], notes: [] };
  /** dev:ino of every file and directory listed or entered. */
  private readonly seen = new Map<string, string>();
  /** Encodings of store sessions per root-like directory (the parent of a project directory). */
  private readonly encodings = new Map<string, Set<'jsonl' | 'zstd'>>();

  private readonly fs: WalkFs;
  /** The real path of the input being walked, when links are confined to it. */
  private boundary: string | null = null;

  constructor(private readonly options: WalkOptions) {
    this.fs = options.fs ?? fsp;
  }

  /**
   * `stat` of an entry, or null (and a skip) when it is a symbolic link out of the input while
   * links are confined.
   */
  private async statEntry(path: string): Promise<Stats | null> {
    if (this.boundary !== null && (await this.fs.lstat(path)).isSymbolicLink()) {
      const target = await this.fs.realpath(path);
      if (!inside(this.boundary, target)) {
        this.skip(path, 'outside-root', `${path} is a symbolic link out of the root (to ${target}): not followed`);
        return null;
      }
    }
    return this.fs.stat(path);
  }

  skip(path: string, reason: SkipReason, message: string): void {
    this.result.skipped.push({ path, reason, message });
  }

  /** First sighting of a file or directory, or the path it was first reached by. */
  private firstSighting(path: string, stats: Stats): string | null {
    const key = `${stats.dev}:${stats.ino}`;
    const earlier = this.seen.get(key);
    if (earlier !== undefined) return earlier;
    this.seen.set(key, path);
    return null;
  }

  async input(path: string): Promise<void> {
    let stats: Stats;
    try {
      stats = await this.fs.stat(path);
      if (this.options.confine) {
        const real = await this.fs.realpath(path);
        this.boundary = stats.isDirectory() ? real : dirname(real);
      }
    } catch (error) {
      this.skip(path, 'unreadable', `cannot open ${path}: ${errorCode(error)}`);
      return;
    }
    if (stats.isDirectory()) await this.directory(path, stats, isProjectName(basename(dirname(path))));
    // A file named on purpose is read whatever its name.
    else this.file(path, stats, 'explicit');
  }

  private file(path: string, stats: Stats, context: 'explicit' | 'plain' | 'project' | 'session-dir'): void {
    if (!stats.isFile()) {
      this.skip(path, 'special-file', `${path} is not a regular file`);
      return;
    }
    const name = basename(path);
    const encoding = storeEncoding(name);
    if (encoding === null && context === 'project' && FLAT_SUFFIX.test(name)) {
      this.skip(
        path,
        'flat-layout',
        `${path} is in the old flat layout (<project>/<id>.jsonl); dsh refuses it, a session lives in <project>/<id>/${STORE_FILE_NAMES[0]}`,
      );
      return;
    }
    const zip = /\.zip$/i.test(name);
    if (encoding === null && !zip && context !== 'explicit' && !(context === 'plain' && LOG_SUFFIX.test(name))) {
      if (context === 'session-dir') this.skip(path, 'session-artifact', `${path} is an artifact of the session beside it, not a log`);
      else this.skip(path, 'not-a-log', `${path} does not have a log's name (.jsonl, .jsonl.zstd, .zip, …)`);
      return;
    }
    const earlier = this.firstSighting(path, stats);
    if (earlier !== null) {
      this.skip(path, 'duplicate', `${path} is the same file as ${earlier}`);
      return;
    }
    let project: string | null = null;
    let sessionDir: string | null = null;
    if (encoding !== null) {
      const sessionPath = dirname(path);
      const projectPath = dirname(sessionPath);
      if (isProjectName(basename(projectPath))) {
        project = basename(projectPath);
        sessionDir = basename(sessionPath);
        const root = dirname(projectPath);
        const set = this.encodings.get(root) ?? new Set();
        set.add(encoding);
        this.encodings.set(root, set);
      }
    }
    const source: SessionSource = {
      path,
      kind: encoding !== null ? 'store-session' : zip ? 'export-zip' : 'file',
      encoding,
      project,
      sessionDir,
      size: stats.size,
      identity: identityOf(stats),
    };
    this.result.sources.push(source);
    this.options.onSource?.(source);
  }

  private async directory(path: string, stats: Stats, inProject = false): Promise<void> {
    const earlier = this.firstSighting(path, stats);
    if (earlier !== null) {
      this.skip(
        path,
        'duplicate',
        earlier === path ? `${path} was already walked` : `${path} is the same directory as ${earlier} (already walked)`,
      );
      return;
    }
    let names: string[];
    try {
      names = (await this.fs.readdir(path)).sort(byName);
    } catch (error) {
      this.skip(path, 'unreadable', `cannot list ${path}: ${errorCode(error)}`);
      return;
    }
    const context = isProjectName(basename(path)) ? 'project' : names.some((n) => storeEncoding(n) !== null) ? 'session-dir' : 'plain';
    // Discovery reads only the fixed file name in a session directory: nothing below is a session.
    if (inProject && context === 'plain') {
      this.skip(
        path,
        'no-session-file',
        `${path} has no ${STORE_FILE_NAMES[1]} or ${STORE_FILE_NAMES[0]} (a session that never appended, or not a session directory)`,
      );
      return;
    }
    for (const name of names) {
      const child = join(path, name);
      if (name.startsWith('.')) {
        this.skip(child, 'hidden', `${child} is hidden (its name starts with ".")`);
        continue;
      }
      let childStats: Stats | null;
      try {
        childStats = await this.statEntry(child);
      } catch (error) {
        this.skip(child, 'unreadable', `cannot open ${child}: ${errorCode(error)}`);
        continue;
      }
      if (childStats === null) continue;
      if (childStats.isDirectory()) await this.directory(child, childStats, context === 'project');
      else this.file(child, childStats, context);
    }
  }

  finish(): WalkResult {
    for (const [root, set] of this.encodings) {
      if (set.size > 1) {
        this.result.notes.push({
          path: root,
          rule: 'store/mixed-encoding',
          message: `${root} holds both session.jsonl and session.jsonl.zstd sessions; dsh keeps one encoding per root and refuses this one (both are listed here)`,
        });
      }
    }
    return this.result;
  }
}

/**
 * List the session logs under each input path, in order. Never throws for a bad entry: a
 * missing input, an unreadable directory or a refused layout becomes a {@link SkippedEntry}.
 */
export async function walkSessions(inputs: readonly string[], options: WalkOptions = {}): Promise<WalkResult> {
  const walk = new Walk(options);
  for (const input of inputs) await walk.input(input);
  return walk.finish();
}
