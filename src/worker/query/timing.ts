/**
 * The time track: the session's spans, computed once on the first request (`core/analysis/
 * timing.ts`) and kept per analysis, then one window per request for the range in view.
 */
import { timeSpans } from '../../core/analysis/timing';
import type { TimeSpans } from '../../core/analysis/timing';
import { timeWindow } from '../../core/analysis/timing-window';
import type { TimeTrackData, TimeTrackParams } from '../../protocol/protocol';
import type { QuerySession } from './session';
import type { SessionAnalysis } from '../../core/analyze/session';

/**
 * Spans per analysis: a grown session has a new one after every append (its spans are computed
 * again when next asked), and a new load new sessions, so nothing outlives what it was of.
 */
const spansOf = new WeakMap<SessionAnalysis, TimeSpans>();

export function timeTrack(q: QuerySession, { from, to, width, step }: TimeTrackParams): TimeTrackData {
  let spans = spansOf.get(q.session);
  if (spans === undefined) {
    spans = timeSpans(q.session);
    spansOf.set(q.session, spans);
  }
  const k = q.clampStep(step);
  const t = k > 0 ? q.session.columns.time[k - 1]! : NaN;
  return { ...timeWindow(spans, from, to, width), cursorTime: Number.isNaN(t) || spans.from === null ? null : t };
}
