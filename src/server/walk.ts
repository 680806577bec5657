/**
 * Walks what `surface-lens view` was given (a session root, a project directory, a session
 * directory, a log file or an export ZIP) into the session files to list and the entries it
 * skipped, with the reason (session-store.md §2). Reads directories and metadata only.
 */
import { basename, dirname, join, relative, sep } from 'node:path';
import type { Stats } from 'node:fs';
import type { StoreFormat, StoreSkipped } from '../protocol/store-api';
import { errnoReason } from './store-fs';
import type { StoreFs } from './store-fs';

/** The fixed file names discovery reads, by encoding. */
export const SESSION_FILES = { zstd: 'session.jsonl.zstd', jsonl: 'session.jsonl' } as const;

/** One file to list. */
export interface WalkedFile {
  /** The root it was found under (its real path). */
  root: string;
  /** Its path relative to the root (stable across runs: the id is made from it). */
  rel: string;
  /** Its real path. */
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

const PROJECT_DIR = /^--.*--$/;
const FLAT_FILE = /\.jsonl(\.zstd)?$/;

function formatOf(name: string): StoreFormat {
  if (name.endsWith('.zip')) return 'zip';
  return name.endsWith('.zstd') ? 'zstd' : 'jsonl';
}

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

class Walker {
  readonly files: WalkedFile[] = [];
  readonly skipped: StoreSkipped[] = [];
  constructor(
    private readonly fs: StoreFs,
    private readonly root: string,
  ) {}

  private skip(path: string, reason: string): void {
    this.skipped.push({ where: relative(this.root, path) || basename(path), reason });
  }

  /**
   * The real path and stats of a directory entry, following a symbolic link only when its
   * target stays inside the root; null (and a skipped entry) otherwise.
   */
  async resolve(path: string): Promise<{ path: string; stats: Stats } | null> {
    try {
      const lstats = await this.fs.lstat(path);
      if (!lstats.isSymbolicLink()) return { path, stats: lstats };
      const real = await this.fs.realpath(path);
      if (!inside(this.root, real)) {
        this.skip(path, 'a symbolic link out of the root: not followed');
        return null;
      }
      return { path: real, stats: await this.fs.stat(real) };
    } catch (error) {
      this.skip(path, errnoReason(error));
      return null;
    }
  }

  async list(dir: string): Promise<string[] | null> {
    try {
      return (await this.fs.readdir(dir)).sort();
    } catch (error) {
      this.skip(dir, errnoReason(error));
      return null;
    }
  }

  addFile(path: string, stats: Stats, projectDir: string, refusal: string | null): void {
    const fileName = basename(path);
    this.files.push({ root: this.root, rel: relative(this.root, path), path, projectDir, fileName, format: formatOf(fileName), stats, refusal });
  }

  /** A session directory: its `session.jsonl(.zstd)`, or a skip when it has neither. */
  async sessionDir(dir: string, projectDir: string): Promise<void> {
    let found = false;
    for (const name of [SESSION_FILES.zstd, SESSION_FILES.jsonl]) {
      const path = join(dir, name);
      let resolved;
      try {
        await this.fs.lstat(path);
        resolved = await this.resolve(path);
      } catch {
        continue;
      }
      found = true;
      if (!resolved) continue;
      if (!resolved.stats.isFile()) {
        this.skip(path, 'not a regular file');
        continue;
      }
      this.addFile(path, resolved.stats, projectDir, null);
    }
    if (!found) this.skip(dir, 'no session.jsonl.zstd or session.jsonl (a session never appended, or not a session directory)');
  }

  /** A project directory: one session directory per child; flat log files are the old layout. */
  async projectDir(dir: string): Promise<void> {
    const names = await this.list(dir);
    if (!names) return;
    const projectDir = basename(dir);
    for (const name of names) {
      const resolved = await this.resolve(join(dir, name));
      if (!resolved) continue;
      if (resolved.stats.isDirectory()) await this.sessionDir(join(dir, name), projectDir);
      else if (resolved.stats.isFile() && FLAT_FILE.test(name)) {
        this.addFile(join(dir, name), resolved.stats, projectDir, 'an old flat layout file (<project>/<id>.jsonl*): upstream reads only <project>/<id>/session.jsonl(.zstd)');
      } else this.skip(join(dir, name), 'not a session directory');
    }
  }

  /** A root: one project directory per child. */
  async rootDir(dir: string): Promise<void> {
    const names = await this.list(dir);
    if (!names) return;
    for (const name of names) {
      const resolved = await this.resolve(join(dir, name));
      if (!resolved) continue;
      if (resolved.stats.isDirectory()) await this.projectDir(join(dir, name));
      else this.skip(join(dir, name), 'not a project directory');
    }
  }
}

/** Which of the three directory kinds `dir` is, from its children. */
async function directoryKind(fs: StoreFs, dir: string): Promise<'root' | 'project' | 'session'> {
  const names = await fs.readdir(dir);
  if (names.includes(SESSION_FILES.zstd) || names.includes(SESSION_FILES.jsonl)) return 'session';
  if (basename(dir).match(PROJECT_DIR)) return 'project';
  if (names.some((name) => PROJECT_DIR.test(name) || name === '_no-cwd')) return 'root';
  return names.some((name) => FLAT_FILE.test(name)) ? 'project' : 'root';
}

/**
 * A root holds one encoding (session-store.md §2): the files of the other one are refused,
 * named. The root's encoding is the one most of its sessions use (Zstandard on a tie, the default).
 */
function refuseOtherEncoding(files: WalkedFile[]): void {
  const byRoot = new Map<string, WalkedFile[]>();
  for (const file of files) {
    if (file.format === 'zip' || file.refusal !== null) continue;
    const list = byRoot.get(file.root) ?? [];
    list.push(file);
    byRoot.set(file.root, list);
  }
  for (const list of byRoot.values()) {
    const zstd = list.filter((file) => file.format === 'zstd').length;
    const rootFormat = zstd * 2 >= list.length ? 'zstd' : 'jsonl';
    for (const file of list) {
      if (file.format === rootFormat) continue;
      const ours = rootFormat === 'zstd' ? SESSION_FILES.zstd : SESSION_FILES.jsonl;
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
  for (const given of paths) {
    let real: string;
    let stats: Stats;
    try {
      real = await fs.realpath(given);
      stats = await fs.stat(real);
    } catch (error) {
      result.skipped.push({ where: given, reason: errnoReason(error) });
      continue;
    }
    result.roots.push(real);
    if (stats.isFile()) {
      const walker = new Walker(fs, dirname(real));
      walker.addFile(real, stats, basename(dirname(dirname(real))), null);
      result.files.push(...walker.files);
      continue;
    }
    const walker = new Walker(fs, real);
    try {
      const kind = await directoryKind(fs, real);
      if (kind === 'session') await walker.sessionDir(real, basename(dirname(real)));
      else if (kind === 'project') await walker.projectDir(real);
      else await walker.rootDir(real);
    } catch (error) {
      walker.skipped.push({ where: given, reason: errnoReason(error) });
    }
    result.files.push(...walker.files);
    result.skipped.push(...walker.skipped);
  }
  refuseOtherEncoding(result.files);
  return result;
}
