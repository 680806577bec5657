/** Text search over the timeline rows matching a filter. */
import type { SearchQuery, SearchResult } from '../../protocol/protocol';
import { indexOfRow, rowCount } from './rows';
import { abortError } from './session';
import type { EventReader, QuerySession } from './session';

/**
 * Rows longer than this (in bytes) are searched piece by piece: decoding and lower-casing a
 * 200 MB line whole would make two 200 MB strings per search.
 */
const SEARCH_PIECE = 1 << 20;
/** Rows a paced search looks at between two pauses (about 10 ms of a million-row log). */
const SEARCH_SLICE = 8192;
const NOT_FOUND: SearchResult = { row: null, seq: null, wrapped: false };

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/**
 * Whether the UTF-8 text `bytes`, lower-cased, contains `needle` (already lower-case), reading
 * it in pieces. Each piece is searched with the last `needle.length - 1` characters of the one
 * before it, so a match across two pieces is found (lower-casing never shortens a text, so a
 * match spans at most `needle.length` characters of the original).
 */
function includesFolded(bytes: Uint8Array, needle: string): boolean {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let carry = '';
  for (let at = 0; at < bytes.length; at += SEARCH_PIECE) {
    const end = Math.min(bytes.length, at + SEARCH_PIECE);
    const piece = carry + decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
    if (piece.toLowerCase().includes(needle)) return true;
    carry = needle.length > 1 ? piece.slice(Math.max(0, piece.length - (needle.length - 1))) : '';
  }
  return false;
}

function matches(q: QuerySession, index: number, needle: string, read: EventReader): boolean {
  const log = q.session.log;
  const origin = log.origin(index);
  let found: boolean;
  if (origin.member >= 0) {
    found = (JSON.stringify(read(index)) ?? '').toLowerCase().includes(needle);
  } else {
    // The row's end is found once (a scan of the whole row for its LF), and its bytes read once.
    const bytes = log.rowBytes(index);
    if (bytes === null) found = log.raw(index).toLowerCase().includes(needle);
    else found = bytes.length > SEARCH_PIECE ? includesFolded(bytes, needle) : utf8.decode(bytes).toLowerCase().includes(needle);
  }
  return found || String(q.seqOf(index)) === needle;
}

/**
 * A search in steps: `next(count)` looks at up to `count` more rows and returns the result, null
 * when every row was looked at without a match, or undefined to be called again.
 */
function searchScan(q: QuerySession, query: SearchQuery): { next(count: number): SearchResult | null | undefined } {
  const needle = query.text.toLowerCase();
  const total = rowCount(q, query.filter);
  const from = query.fromRow < 0 ? (query.direction === 1 ? -1 : total) : query.fromRow;
  const read = q.reader();
  let n = needle === '' ? total + 1 : 1;
  return {
    next: (count) => {
      const stop = Math.min(total, n - 1 + count);
      for (; n <= stop; n++) {
        const raw = from + query.direction * n;
        const row = ((raw % total) + total) % total;
        const index = indexOfRow(q, query.filter, row);
        if (matches(q, index, needle, read)) {
          const wrapped = query.direction === 1 ? raw >= total : raw < 0;
          n = total + 1;
          return { row, seq: q.seqOf(index), wrapped };
        }
      }
      return n > total ? null : undefined;
    },
  };
}

/** The next row whose text holds `query.text` (case-insensitive), wrapping around, in one go. */
export function searchNow(q: QuerySession, query: SearchQuery): SearchResult {
  return searchScan(q, query).next(Infinity) ?? NOT_FOUND;
}

/**
 * {@link searchNow} a slice of rows at a time, with `pause` between slices, so a search through a
 * million rows (a second or more when nothing matches) does not hold up the requests that
 * arrive meanwhile. Latest wins per session: when a newer search has begun on the session, this
 * one stops with an `AbortError` (the page ignores those).
 */
export async function search(q: QuerySession, query: SearchQuery, pause: () => Promise<void>): Promise<SearchResult> {
  const generation = ++q.searches;
  const scan = searchScan(q, query);
  for (;;) {
    const result = scan.next(SEARCH_SLICE);
    if (result !== undefined) return result ?? NOT_FOUND;
    await pause();
    if (q.searches !== generation) throw abortError('search superseded by a newer one');
  }
}
