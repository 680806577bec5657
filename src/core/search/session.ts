/**
 * Search subjects for the events of one analysed session: what the columns know without a
 * parse (seq, type, surface op), the state at a cursor, and the tool a result answers (through
 * its `sourceEventSeqs`, which name the call).
 */
import { sourcesOf } from '../analyze/columns';
import type { SessionAnalysis } from '../analyze/session';
import { eventStateAt } from '../analyze/state';
import type { Match, Matcher, SearchSubject } from './match';

const OPS: ReadonlyArray<SearchSubject['op']> = [null, 'append', 'replace', 'invalid'];

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
    type: columns.types[columns.typeId[index] as number] as string,
    op: OPS[columns.op[index] as number] ?? null,
    event: () => get(index),
    ...(step === null ? {} : { state: () => eventStateAt(session, index, step) }),
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

