/**
 * Search in a session with the query language of `core/search`. A query's matching rows are
 * found once, in slices with pauses between them (a million-event scan that matches nothing
 * does not hold up rows or seeks), and kept: next/previous and every window of the match list
 * are answered from them. A newer query on the session stops the older scan (`AbortError`).
 */
import { compileQuery, parseQuery, sessionSubject } from '../../core/search';
import type { Matcher } from '../../core/search';
import type { MatchesParams, MatchRow, MatchWindow, QueryErrorInfo, RowFilter, SearchQuery, SearchResult } from '../../protocol/protocol';
import { indexOfRow, rowCount } from './rows';
import { abortError, MAX_WINDOW } from './session';
import type { QuerySession } from './session';

/** Milliseconds a scan runs between two pauses. */
const SLICE_MS = 8;
/** Rows looked at between two looks at the clock. */
const CLOCK_EVERY = 256;

/** The rows a query matches (a sorted list of filtered row numbers), or why it was refused. */
export interface MatchSet {
  key: string;
  matcher: Matcher | null;
  rows: Int32Array;
  /** The filtered rows looked at: `[0, covered)` (a session that grows has more after them). */
  covered: number;
  error: QueryErrorInfo | null;
}

/** The scan in progress or done, per session (one: a new query replaces it). */
const scans = new WeakMap<QuerySession, { key: string; total: number; result: Promise<MatchSet> }>();

function keyOf(text: string, filter: RowFilter, step: number, usesCursor: boolean): string {
  const families = [...new Set(filter.families)].sort().join(',');
  return `${families}|${filter.surfaceOnly ? 1 : 0}|${usesCursor ? step : ''}|${text}`;
}

/**
 * Matches rows `[from, total)` of the filter into `found`, stopping early (returning the row to
 * go on from) once `yieldNow()` says the slice is over; returns `total` when done.
 */
function scanRows(
  q: QuerySession,
  matcher: Matcher,
  filter: RowFilter,
  step: number,
  from: number,
  found: number[],
  yieldNow: () => boolean,
): number {
  const total = rowCount(q, filter);
  const read = q.reader();
  for (let row = from; row < total; row++) {
    const index = indexOfRow(q, filter, row);
    if (matcher.match(sessionSubject(q.session, index, step, read))) found.push(row);
    if (row % CLOCK_EVERY === CLOCK_EVERY - 1 && yieldNow()) return row + 1;
  }
  return total;
}

async function scan(
  q: QuerySession,
  key: string,
  matcher: Matcher,
  filter: RowFilter,
  step: number,
  pause: () => Promise<void>,
  generation: number,
  from = 0,
  found: number[] = [],
): Promise<MatchSet> {
  const total = rowCount(q, filter);
  let row = from;
  for (;;) {
    const sliceStart = Date.now();
    row = scanRows(q, matcher, filter, step, row, found, () => Date.now() - sliceStart >= SLICE_MS);
    if (row >= total) break;
    await pause();
    if (q.searches !== generation) throw abortError('search superseded by a newer one');
  }
  return { key, matcher, rows: Int32Array.from(found), covered: row, error: null };
}

/** The match set of a query: the kept one when it is the same query, else a new scan. */
export function matchSet(q: QuerySession, text: string, filter: RowFilter, step: number, pause: () => Promise<void>): Promise<MatchSet> {
  const parsed = parseQuery(text);
  if (!parsed.ok) {
    const { message, start, end } = parsed.error;
    return Promise.resolve({ key: '', matcher: null, rows: new Int32Array(0), covered: 0, error: { message, start, end } });
  }
  // A session grown in place keeps its rows and their matches (a match depends on the row's own
  // event and those before it, or on the cursor, which is in the key): the scan goes on from
  // the rows it covered. One read again from the start (`resets`) scans again.
  const key = `${q.resets}:${keyOf(text, filter, step, parsed.query.usesCursor)}`;
  const current = scans.get(q);
  const total = rowCount(q, filter);
  if (current && current.key === key && current.total === total) return current.result;
  const generation = ++q.searches;
  const result =
    current && current.key === key && current.total < total
      ? current.result.then((kept) =>
          kept.matcher === null || kept.covered >= total
            ? kept
            : scan(q, key, kept.matcher, filter, step, pause, generation, kept.covered, Array.from(kept.rows)),
        )
      : scan(q, key, compileQuery(parsed.query), filter, step, pause, generation);
  const entry = { key, total, result };
  scans.set(q, entry);
  // A scan that was stopped must not be reused by a later request for the same query.
  result.catch(() => {
    if (scans.get(q) === entry) scans.delete(q);
  });
  return result;
}

/** First index in the sorted `rows` whose value is greater than `row`. */
function after(rows: Int32Array, row: number): number {
  let lo = 0;
  let hi = rows.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid]! <= row) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The next (or previous) matching row of a match set from `query.fromRow`, wrapping around. */
function pick(q: QuerySession, set: MatchSet, query: SearchQuery): SearchResult {
  const rows = set.rows;
  const total = rows.length;
  if (set.error || total === 0) return { row: null, seq: null, wrapped: false, total, error: set.error };
  let at: number;
  let wrapped = false;
  if (query.direction === 1) {
    at = query.fromRow < 0 ? 0 : after(rows, query.fromRow);
    if (at >= total) {
      at = 0;
      wrapped = query.fromRow >= 0;
    }
  } else {
    const from = query.fromRow < 0 ? Number.MAX_SAFE_INTEGER : query.fromRow;
    at = after(rows, from - 1) - 1;
    if (at < 0) {
      at = total - 1;
      wrapped = query.fromRow >= 0;
    }
  }
  const row = rows[at]!;
  return { row, seq: q.seqOf(indexOfRow(q, query.filter, row)), wrapped, total, error: null };
}

/** The next (or previous) matching row from `query.fromRow`, wrapping around (paced). */
export async function search(q: QuerySession, query: SearchQuery, pause: () => Promise<void>): Promise<SearchResult> {
  return pick(q, await matchSet(q, query.text, query.filter, query.step, pause), query);
}

/** {@link search} in one go, without pauses (tests, fuzzing). */
export function searchNow(q: QuerySession, query: SearchQuery): SearchResult {
  const parsed = parseQuery(query.text);
  if (!parsed.ok) {
    const { message, start, end } = parsed.error;
    return pick(q, { key: '', matcher: null, rows: new Int32Array(0), covered: 0, error: { message, start, end } }, query);
  }
  const found: number[] = [];
  const covered = scanRows(q, compileQuery(parsed.query), query.filter, query.step, 0, found, () => false);
  return pick(q, { key: '', matcher: null, rows: Int32Array.from(found), covered, error: null }, query);
}

/** A window of the match list: each matching row with its snippet. */
export async function searchMatches(q: QuerySession, params: MatchesParams, pause: () => Promise<void>): Promise<MatchWindow> {
  const set = await matchSet(q, params.text, params.filter, params.step, pause);
  const total = set.rows.length;
  const first = Math.max(0, Math.min(params.start, total));
  const last = Math.min(total, first + Math.min(params.count, MAX_WINDOW));
  const matches: MatchRow[] = [];
  const read = q.reader();
  for (let i = first; i < last && set.matcher; i++) {
    const row = set.rows[i]!;
    const index = indexOfRow(q, params.filter, row);
    const subject = sessionSubject(q.session, index, params.step, read);
    const match = set.matcher.match(subject);
    const snippet = match ? set.matcher.snippet(match, subject) : { text: '', marks: [] };
    matches.push({ row, seq: subject.seq, type: subject.type, snippet: snippet.text, marks: snippet.marks });
  }
  return { total, start: first, matches, error: set.error };
}
