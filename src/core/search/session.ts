/**
 * Search subjects for the events of one analysed session: what the columns know without a
 * parse (seq, type, surface op), the state at a cursor, and the tool a result answers (through
 * its `sourceEventSeqs`, which name the call).
 */
import { sourcesOf } from '../analyze/columns';
import { LineLog } from '../decode/line-log';
import type { SessionAnalysis } from '../analyze/session';
import { eventStateAt } from '../analyze/state';
import type { Match, Matcher, SearchSubject } from './match';

const OPS: ReadonlyArray<SearchSubject['op']> = [null, 'append', 'replace', 'invalid'];

/**
 * Rows longer than this (in bytes) are not parsed for a search: their raw text is read in
 * pieces of {@link PIECE} bytes instead (a 200 MB line is never decoded whole).
 */
export const HUGE_ROW = 4 << 20;
const PIECE = 1 << 20;
/** Characters of a piece repeated at the start of the next, so matches across pieces are found. */
const CARRY = 1024;

/** The raw text of `bytes` in pieces, each starting with the last {@link CARRY} characters of the one before. */
function* piecesOf(bytes: Uint8Array): Generator<string> {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let carry = '';
  for (let at = 0; at < bytes.length; at += PIECE) {
    const end = Math.min(bytes.length, at + PIECE);
    const piece = carry + decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
    yield piece;
    carry = piece.slice(Math.max(0, piece.length - CARRY));
  }
}

/** The pieces of event `index` when it is a line too long to parse for a search, else null. */
function hugeRow(session: SessionAnalysis, index: number): Iterable<string> | null {
  const log = session.log;
  if (!(log instanceof LineLog)) return null;
  const origin = log.origin(index);
  if (origin.member >= 0) return null;
  // The next event's start bounds the row's length without scanning it for its end.
  const next = index + 1 < log.length ? log.origin(index + 1).byte : log.bytes().length;
  if (next - origin.byte <= HUGE_ROW) return null;
  const { start, end } = log.rowRange(index);
  return piecesOf(log.bytes().subarray(start, end));
}

/** Reads the parsed event at an index (the host may share parses between members of a row). */
export type EventRead = (index: number) => unknown;

function readSafely(session: SessionAnalysis, index: number): unknown {
  try {
    return session.log.event(index);
  } catch (error) {
    return { unreadable: (error as Error).message };
  }
}

/**
 * The subject of event `index`. `step` is the cursor for `is:surface`, `is:shadowed` and
 * `is:log-only` (null: no cursor, they match nothing).
 */
export function sessionSubject(session: SessionAnalysis, index: number, step: number | null, read?: EventRead): SearchSubject {
  const { columns, baseSeq } = session;
  const get = read ?? ((i: number) => readSafely(session, i));
  return {
    seq: index + baseSeq,
    type: columns.types[columns.typeId[index]!] as string,
    op: OPS[columns.op[index]!] ?? null,
    event: () => get(index),
    ...(step === null ? {} : { state: () => eventStateAt(session, index, step) }),
    hugeText: () => hugeRow(session, index),
    toolNameOfCall(callId: string): string | null {
      // A result cites its call; a pruned copy cites the result it replaces, which cites the call.
      let frontier = [index];
      for (let depth = 0; depth < 4 && frontier.length > 0; depth++) {
        const next: number[] = [];
        for (const at of frontier) {
          for (const seq of sourcesOf(columns, at)) {
            const source = seq - baseSeq;
            if (source < 0 || source >= at) continue;
            const event = get(source) as { type?: unknown; data?: { callId?: unknown; name?: unknown } } | null;
            if (event?.type === 'tool/call' && event.data?.callId === callId && typeof event.data.name === 'string') return event.data.name;
            if (event?.type === 'tool/result') next.push(source);
          }
        }
        frontier = next;
      }
      return null;
    },
  };
}

/** One matched event of a session. */
export interface SessionHit {
  index: number;
  subject: SearchSubject;
  match: Match;
}

/** Every event of `session` that `matcher` matches, in order (`step`: see {@link sessionSubject}). */
export function* matchSession(session: SessionAnalysis, matcher: Matcher, step: number | null): Generator<SessionHit> {
  for (let index = 0; index < session.log.length; index++) {
    const subject = sessionSubject(session, index, step);
    const match = matcher.match(subject);
    if (match) yield { index, subject, match };
  }
}
