/**
 * The time track: the session's spans, computed once on the first request (`core/analysis/
 * timing.ts`) and kept per analysis, then one window per request for the range in view.
 */
import { timeSpans } from '../../core/analysis/timing';
import type { TimeSpans } from '../../core/analysis/timing';
import { timeWindow } from '../../core/analysis/timing-window';
import type { StepParams, TimeTrackData, TimeTrackParams } from '../../protocol/protocol';
import type { QuerySession } from './session';
import type { SessionAnalysis } from '../../core/analyze/session';

/**
 * Spans per analysis: a grown session has a new one after every append (its spans are computed
 * again when next asked), and a new load new sessions, so nothing outlives what it was of.
 */
const spansOf = new WeakMap<SessionAnalysis, TimeSpans>();

function spansFor(q: QuerySession): TimeSpans {
  let spans = spansOf.get(q.session);
  if (spans === undefined) {
    spans = timeSpans(q.session);
    spansOf.set(q.session, spans);
  }
  return spans;
}

export function timeTrack(q: QuerySession, { from, to, width }: TimeTrackParams): TimeTrackData {
  return timeWindow(spansFor(q), from, to, width);
}

export function timeAt(q: QuerySession, { step }: StepParams): number | null {
  const k = q.clampStep(step);
  const t = k > 0 ? q.session.columns.time[k - 1]! : NaN;
  return Number.isNaN(t) || spansFor(q).from === null ? null : t;
}
