/**
 * The HTTP API of `surface-lens view`: what the local server sends the page about the user's
 * session store. Read-only; sessions are named by opaque ids from the listing, never by path.
 *
 *   GET /api/store                      → {@link StoreListing}
 *   GET /api/store/details?ids=a,b,…    → {@link StoreDetails}[] (titles, event counts; lazily)
 *   GET /api/store/session/ID/file      → the file's bytes as they are on disk now
 *   GET /api/store/session/ID/bytes?from=N → whole lines / whole frames from byte N ({@link RANGE_HEADERS})
 *   GET /api/store/events               → server-sent events, one {@link StoreChange} per message
 *
 * Every `/api/` request needs the server's token (cookie or {@link TOKEN_HEADER}).
 */

/** The request header that may carry the token instead of the cookie. */
export const TOKEN_HEADER = 'x-surface-lens-token';
/** The cookie the server sets when the page is opened with `?token=…`. */
export const TOKEN_COOKIE = 'surface_lens_token';

/** Response headers of a byte-range request. */
export const RANGE_HEADERS = {
  /** The file's size when it was read. */
  size: 'x-store-size',
  /** Offset just past the last whole unit sent (= `from` + body length). */
  end: 'x-store-end',
  /** Fingerprint of the file's first bytes: a change means the file was rewritten. */
  head: 'x-store-head',
} as const;

/**
 * How a file is stored: `zstd` and `jsonl` are upstream's two encodings (`compression: 'zstd'`
 * and `'none'`); `zip` is an export ZIP given on the command line.
 */
export type StoreFormat = 'zstd' | 'jsonl' | 'zip';

/**
 * - `ok`: a readable session with a valid header.
 * - `live`: as `ok`, and it grew in the last seconds.
 * - `damaged`: the header frame or line is unreadable or not a session header.
 * - `refused`: listed but not a session upstream would read here (old flat layout, the other
 *   encoding in the root, unreadable, a symlink out of the root).
 */
export type StoreSessionState = 'ok' | 'live' | 'damaged' | 'refused';

/** One session file of the store, as the listing reads it (the header only). */
export interface StoreSessionRow {
  /** Opaque, stable for the same file under the same root. */
  id: string;
  /** The header's `id`; null when the header could not be read. */
  sessionId: string | null;
  /** The header's `cwd` (the project to show), else null. */
  cwd: string | null;
  /** The project directory's name in the store (`--<key>--`), for rows without a header. */
  projectDir: string;
  /** The file name (`session.jsonl.zstd`, `session.jsonl`, or an old-layout name). */
  fileName: string;
  format: StoreFormat;
  size: number;
  /** The header's `createdAt` (epoch ms), else null. */
  createdAt: number | null;
  /** The file's modification time (epoch ms). */
  modifiedAt: number;
  /** `parentSession`, `origin`, `delegationDepth`, `seedLength` of the header. */
  parentSession: string | null;
  origin: string | null;
  delegationDepth: number | null;
  seedLength: number | null;
  state: StoreSessionState;
  /** Why it is damaged or refused; null otherwise. */
  reason: string | null;
}

/** Something under a root that is not listed as a session, and why. */
export interface StoreSkipped {
  /** Where, relative to its root. */
  where: string;
  reason: string;
}

/** The listing of every root the server was given. */
export interface StoreListing {
  /** The roots, as given on the command line or resolved. */
  roots: string[];
  sessions: StoreSessionRow[];
  skipped: StoreSkipped[];
}

/** What the listing learns lazily about one session. */
export interface StoreDetails {
  id: string;
  /** The latest `session/title` seen, else the first user message's text, else null. */
  title: string | null;
  titleFrom: 'title' | 'first-message' | null;
  /** Events in the file, when the whole file was read; null when not known yet. */
  events: number | null;
}

/** A change pushed over the events stream. */
export interface StoreChange {
  kind: 'appeared' | 'grew' | 'rewritten' | 'removed';
  id: string;
  /** The row now (absent for `removed`). */
  row?: StoreSessionRow;
}

/** One session's part of a store-wide search answer. Untrusted text: render as text only. */
export interface StoreSearchSession {
  /** The listing id (open it with `/api/store/session/ID/file`). */
  id: string;
  /** The session's path inside its file (an export ZIP holds several). */
  path: string;
  sessionId: string | null;
  /** Matching events in this session. */
  total: number;
  /** The first matches: seq, type, snippet and the snippet's matched ranges. */
  matches: Array<{ seq: number; type: string; snippet: string; marks: Array<[number, number]> }>;
}

/**
 *   GET /api/store/search?q=QUERY → StoreSearchAnswer
 * Sessions with matches, most recently modified first. `index` says how far the background
 * index has got: until it is ready, every session is read.
 */
export interface StoreSearchAnswer {
  /** Set when the query was refused (`[start, end)` in its text). */
  error: { message: string; start: number; end: number } | null;
  sessions: StoreSearchSession[];
  /** Sessions read for this answer, and how many the index left to read. */
  scanned: number;
  candidates: number;
  /** True when more sessions may match than the answer lists. */
  more: boolean;
  index: { ready: boolean; indexed: number; total: number };
}
