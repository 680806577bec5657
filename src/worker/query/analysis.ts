/**
 * What the app shows of the session's analysis (core/analysis): model requests placed on the
 * curve's steps, recorded tokens per turn, each replace's loss, and the steps of prefix breaks.
 * The analysis itself ran once, in the load's pass; this only reshapes it for the page.
 */
import { lossAt } from '../../core/analysis/session-loss';
import { usageByTurn } from '../../core/analysis/usage';
import type { SessionAnalysis } from '../../core/analyze/session';
import type { CurveRequests, CurveUsageSummary, ReplaceLossInfo } from '../../protocol/protocol';
import type { TurnUsage } from '../../core/analysis/usage';
import type { QuerySession } from './session';

/**
 * Every model request at the step that shows the surface it was sent: the fold of every event
 * before its anchoring event, so step `seq - baseSeq`.
 */
export function curveRequests(session: SessionAnalysis): CurveRequests {
  const requests = session.analytics?.requests ?? [];
  const n = requests.length;
  const out: CurveRequests = {
    step: new Int32Array(n),
    seq: new Float64Array(n),
    tokens: new Float64Array(n),
    reusedTokens: new Float64Array(n),
    reusedChars: new Float64Array(n),
    cacheRead: new Float64Array(n),
    cacheReads: 0,
    breaks: [],
  };
  requests.forEach((r, i) => {
    out.step[i] = r.seq - session.baseSeq;
    out.seq[i] = r.seq;
    out.tokens[i] = r.tokens;
    out.reusedTokens[i] = r.reusedTokens;
    out.reusedChars[i] = r.reusedChars;
    const cacheRead = r.usage?.cacheRead ?? null;
    out.cacheRead[i] = cacheRead ?? Number.NaN;
    if (cacheRead !== null) out.cacheReads += 1;
    if (r.brokenBy !== null) out.breaks.push({ index: i, brokenBy: r.brokenBy });
  });
  return out;
}

/**
 * Usage per turn and in all, per analysis: the curve's totals and the token table's turns are
 * one computation (a grown session has a new analysis after every append, so nothing goes stale).
 */
const usageOf = new WeakMap<SessionAnalysis, ReturnType<typeof usageByTurn>>();

function usage(session: SessionAnalysis): ReturnType<typeof usageByTurn> {
  let found = usageOf.get(session);
  if (!found) {
    found = usageByTurn(session.analytics?.requests ?? []);
    usageOf.set(session, found);
  }
  return found;
}

/** The session's recorded usage in all, and its number of turns (the curve's answer). */
export function curveUsage(session: SessionAnalysis): CurveUsageSummary {
  const { turns, total } = usage(session);
  return { total, turns: turns.length };
}

/** Recorded usage per turn, with its steps (asked for when the token table is opened). */
export function usageTurns(q: QuerySession): TurnUsage[] {
  return usage(q.session).turns;
}

/** The loss of the replace whose replacement is `seq` (null when it is not an applied replace). */
export function replaceLossInfo(session: SessionAnalysis, seq: number): ReplaceLossInfo | null {
  return lossAt(session, seq);
}

/** Steps of the requests whose prefix broke, ascending. */
export function breakSteps(session: SessionAnalysis): number[] {
  return (session.analytics?.requests ?? []).filter((r) => r.brokenBy !== null).map((r) => r.seq - session.baseSeq);
}
