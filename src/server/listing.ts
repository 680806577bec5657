/**
 * The store as the server lists it: rows from each file's header (cached by device, inode,
 * size and modification time, the identity upstream lists snapshots by), details read lazily,
 * opaque ids, and the changes between two listings (what the events stream pushes).
 */
import { createHash } from 'node:crypto';
import { sep } from 'node:path';
import type { StoreChange, StoreDetails, StoreListing, StoreSessionRow } from '../protocol/store-api';
import { readDetails } from './details';
import type { SessionDetails } from './details';
import { readHeader } from './header';
import { storeSessionId } from './session-id';
import type { HeaderInfo } from './header';
import { errnoReason, readAt } from './store-fs';
import type { StoreFs } from './store-fs';
import { walkStore } from './walk';
import type { WalkedFile } from './walk';

/** A session that grew within this many milliseconds is `live`. */
export const LIVE_MS = 5000;
const HEAD_BYTES = 4096;

interface Known {
  file: WalkedFile;
  key: string;
  row: StoreSessionRow;
  head: string | null;
}

/** Options of {@link SessionStore}. */
export interface SessionStoreOptions {
  fs: StoreFs;
  /** What the user gave (or the resolved root). */
  paths: readonly string[];
  /** The clock, for `live`. */
  now?: () => number;
}

const idOf = (file: WalkedFile): string => storeSessionId(file.root, file.rel);

const keyOf = (file: WalkedFile): string => `${file.stats.dev}:${file.stats.ino}:${file.stats.size}:${file.stats.mtimeMs}`;

function inside(root: string, path: string): boolean {
  return path === root || path.startsWith(root.endsWith(sep) ? root : root + sep);
}

/** The store: listing, details, and files resolved for reading by id. */
export class SessionStore {
  private readonly fs: StoreFs;
  private readonly paths: readonly string[];
  private readonly now: () => number;
  private known = new Map<string, Known>();
  private readonly headers = new Map<string, HeaderInfo>();
  private readonly details = new Map<string, Promise<SessionDetails>>();
  private listing: StoreListing = { roots: [], sessions: [], skipped: [] };
  private refreshing: Promise<StoreChange[]> | null = null;
  private again = false;

  constructor(options: SessionStoreOptions) {
    this.fs = options.fs;
    this.paths = options.paths;
    this.now = options.now ?? Date.now;
  }

  /** The latest listing (call {@link refresh} first). */
  current(): StoreListing {
    return this.listing;
  }

  /**
   * Walks again and returns what changed since the previous walk. Concurrent calls share one
   * walk, and a call made while one runs schedules one more.
   */
  refresh(): Promise<StoreChange[]> {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    const run = async (): Promise<StoreChange[]> => {
      const changes: StoreChange[] = [];
      do {
        this.again = false;
        changes.push(...(await this.walk()));
      } while (this.again);
      return changes;
    };
    this.refreshing = run().finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  private async head(file: WalkedFile): Promise<string | null> {
    try {
      const bytes = await readAt(this.fs, file.path, 0, HEAD_BYTES);
      return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
    } catch {
      return null;
    }
  }

  private async rowOf(file: WalkedFile, id: string, key: string, previous: Known | undefined): Promise<StoreSessionRow> {
    let info = this.headers.get(key);
    let readError: string | null = null;
    if (!info) {
      try {
        info = await readHeader(this.fs, file.path, file.format, file.stats.size);
        this.headers.set(key, info);
      } catch (error) {
        readError = errnoReason(error);
      }
    }
    const header = info?.header ?? null;
    const grewAt = previous && file.stats.size > previous.file.stats.size ? this.now() : null;
    const recent =
      this.now() - file.stats.mtimeMs < LIVE_MS && (previous === undefined || grewAt !== null || previous.row.state === 'live');
    let state: StoreSessionRow['state'] = 'ok';
    let reason: string | null = null;
    if (readError !== null) [state, reason] = ['refused', readError];
    else if (file.refusal !== null) [state, reason] = ['refused', file.refusal];
    else if (info?.damage) [state, reason] = ['damaged', info.damage];
    else if (recent && file.format !== 'zip') state = 'live';
    return {
      id,
      sessionId: header?.sessionId ?? null,
      cwd: header?.cwd ?? null,
      projectDir: file.projectDir,
      fileName: file.fileName,
      format: file.format,
      size: file.stats.size,
      createdAt: header?.createdAt ?? null,
      modifiedAt: Math.round(file.stats.mtimeMs),
      parentSession: header?.parentSession ?? null,
      origin: header?.origin ?? null,
      delegationDepth: header?.delegationDepth ?? null,
      seedLength: header?.seedLength ?? null,
      state,
      reason,
    };
  }

  private async walk(): Promise<StoreChange[]> {
    const walked = await walkStore(this.fs, this.paths);
    const next = new Map<string, Known>();
    const changes: StoreChange[] = [];
    for (const file of walked.files) {
      const id = idOf(file);
      const key = keyOf(file);
      const previous = this.known.get(id);
      if (previous && previous.key === key && previous.file.refusal === file.refusal) {
        // Unchanged; only `live` can lapse with time.
        const row =
          previous.row.state === 'live' && this.now() - file.stats.mtimeMs >= LIVE_MS
            ? { ...previous.row, state: 'ok' as const }
            : previous.row;
        next.set(id, { ...previous, file, row });
        continue;
      }
      const row = await this.rowOf(file, id, key, previous);
      const head = previous ? await this.head(file) : null;
      next.set(id, { file, key, row, head });
      if (!previous) changes.push({ kind: 'appeared', id, row });
      else {
        const previousHead = previous.head ?? (await this.head(previous.file));
        const rewritten =
          file.stats.size < previous.file.stats.size ||
          (head !== null && previousHead !== null && head !== previousHead && previous.file.stats.size >= HEAD_BYTES);
        changes.push({ kind: rewritten ? 'rewritten' : 'grew', id, row });
      }
    }
    for (const id of this.known.keys()) if (!next.has(id)) changes.push({ kind: 'removed', id });
    this.known = next;
    // The header cache keeps only what the current files can hit.
    const keys = new Set([...next.values()].map((k) => k.key));
    for (const key of this.headers.keys()) if (!keys.has(key)) this.headers.delete(key);
    for (const key of this.details.keys()) if (!keys.has(key)) this.details.delete(key);
    this.listing = { roots: walked.roots, sessions: [...next.values()].map((k) => k.row), skipped: walked.skipped };
    return changes;
  }

  /** Details of the given ids (unknown ids are left out); read once per file identity. */
  async detailsOf(ids: readonly string[]): Promise<StoreDetails[]> {
    const out: StoreDetails[] = [];
    for (const id of ids) {
      const known = this.known.get(id);
      if (!known) continue;
      if (known.row.state === 'refused' && known.file.refusal === null) {
        out.push({ id, title: null, titleFrom: null, events: null });
        continue;
      }
      let pending = this.details.get(known.key);
      if (!pending) {
        pending = readDetails(this.fs, known.file.path, known.file.format, known.file.stats.size).catch(() => ({
          title: null,
          titleFrom: null,
          events: null,
        }));
        this.details.set(known.key, pending);
      }
      out.push({ id, ...(await pending) });
    }
    return out;
  }

  /**
   * The real path of a listed file, checked again now (it may have been replaced by a link out
   * of its root since the listing): null for an unknown id or a path that left its root.
   */
  async pathOf(id: string): Promise<{ path: string; row: StoreSessionRow } | null> {
    const known = this.known.get(id);
    if (!known) return null;
    const real = await this.fs.realpath(known.file.path);
    if (!inside(known.file.root, real)) return null;
    return { path: real, row: known.row };
  }
}
