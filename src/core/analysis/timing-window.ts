/**
 * What the time track needs of the visible range: per lane, the spans that overlap it when they
 * are few enough to draw one by one, else their density in buckets of a few pixels, plus the
 * slowest spans (always sent: they are marked whatever the zoom) and the gaps in view. The
 * spans are computed once (`timing.ts`); a window costs one pass over the typed arrays.
 */
import { SPAN_CLAMPED, SPAN_OPEN, TIME_LANES } from './timing';
import type { LaneSpans, TimeGap, TimeLane, TimeSpans } from './timing';
import type { TimeFacts } from '../analyze/time';

/** One span as drawn. */
export interface TimeItem {
  lane: TimeLane;
  /** Its index in the lane (stable for a session). */
  index: number;
  start: number;
  end: number;
  /** The event that opened it, and the one that closed it (-1: none, or not an event). */
  seq: number;
  endSeq: number;
  label: string;
  /** Never closed: drawn to the log's last time. */
  open: boolean;
  /** Its end was earlier than its start (the clock stepped back): drawn as an instant. */
  clamped: boolean;
  /** Among the lane's slowest. */
  slow: boolean;
}

/** How many spans of a lane touch [from, to). */
export interface TimeBucket {
  from: number;
  to: number;
  count: number;
}

export interface LaneWindow {
  lane: TimeLane;
  /** Spans in the whole session, and overlapping the range. */
  total: number;
  visible: number;
  /** The spans in view, when at most one per {@link PX_PER_ITEM} pixels; else null. */
  items: TimeItem[] | null;
  /** Otherwise their density, one bucket per {@link PX_PER_BUCKET} pixels. */
  buckets: TimeBucket[] | null;
  /** The lane's slowest spans, longest first, wherever they are. */
  slowest: TimeItem[];
}

/** The answer for one range. */
export interface TimeWindow {
  time: TimeFacts;
  /** The session's first and last time (null when its times are no clock). */
  from: number | null;
  to: number | null;
  /** The range answered (clamped to the session's). */
  range: { from: number; to: number } | null;
  lanes: LaneWindow[];
  /** Gaps overlapping the range (at most {@link MAX_GAPS}, the longest), and how many there are in all. */
  gaps: TimeGap[];
  gapsTotal: number;
  gapThresholdMs: number;
}

/** Items are sent one by one while there is at least this much width per item. */
export const PX_PER_ITEM = 2;
/** Bucket width, in pixels. */
export const PX_PER_BUCKET = 3;
export const MAX_GAPS = 500;

function item(lane: TimeLane, spans: LaneSpans, i: number, slow: boolean): TimeItem {
  const flags = spans.flags[i]!;
  return {
    lane,
    index: i,
    start: spans.start[i]!,
    end: spans.end[i]!,
    seq: spans.seq[i]!,
    endSeq: spans.endSeq[i]!,
    label: spans.label[i] as string,
    open: (flags & SPAN_OPEN) !== 0,
    clamped: (flags & SPAN_CLAMPED) !== 0,
    slow,
  };
}

/**
 * The window of [from, to] (null: the whole session) drawn `width` pixels wide. A span
 * overlaps when it starts before `to` and ends at or after `from`.
 */
export function timeWindow(spans: TimeSpans, from: number | null, to: number | null, width: number): TimeWindow {
  const base = { time: spans.time, from: spans.from, to: spans.to, gapThresholdMs: spans.gapThresholdMs };
  if (spans.from === null || spans.to === null) return { ...base, range: null, lanes: [], gaps: [], gapsTotal: 0 };
  let lo = Math.max(spans.from, from ?? spans.from);
  let hi = Math.min(spans.to, to ?? spans.to);
  if (!(hi > lo)) {
    // An empty or inverted range: a millisecond around its start (a log whose events share one time).
    lo = Math.min(Math.max(lo, spans.from), spans.to);
    hi = lo + 1;
  }
  const px = Math.max(10, Math.min(10_000, Math.floor(width)));
  const lanes: LaneWindow[] = [];
  for (const lane of TIME_LANES) {
    const s = spans.lanes[lane];
    const n = s.start.length;
    const slowSet = new Set(s.slowest);
    const inView: number[] = [];
    for (let i = 0; i < n; i++) if (s.start[i]! <= hi && s.end[i]! >= lo) inView.push(i);
    const slowest = s.slowest.map((i) => item(lane, s, i, true));
    if (inView.length * PX_PER_ITEM <= px) {
      lanes.push({
        lane,
        total: n,
        visible: inView.length,
        items: inView.map((i) => item(lane, s, i, slowSet.has(i))),
        buckets: null,
        slowest,
      });
      continue;
    }
    const count = Math.max(1, Math.floor(px / PX_PER_BUCKET));
    const step = (hi - lo) / count;
    const diff = new Int32Array(count + 1);
    for (const i of inView) {
      const a = Math.max(0, Math.min(count - 1, Math.floor((s.start[i]! - lo) / step)));
      const b = Math.max(0, Math.min(count - 1, Math.floor((s.end[i]! - lo) / step)));
      diff[a] = diff[a]! + 1;
      diff[b + 1] = diff[b + 1]! - 1;
    }
    const buckets: TimeBucket[] = [];
    let running = 0;
    for (let b = 0; b < count; b++) {
      running += diff[b]!;
      if (running > 0) buckets.push({ from: lo + b * step, to: lo + (b + 1) * step, count: running });
    }
    lanes.push({ lane, total: n, visible: inView.length, items: null, buckets, slowest });
  }
  const visibleGaps = spans.gaps.filter((g) => g.from <= hi && g.to >= lo);
  const gaps =
    visibleGaps.length <= MAX_GAPS
      ? visibleGaps
      : [...visibleGaps]
          .sort((a, b) => b.to - b.from - (a.to - a.from))
          .slice(0, MAX_GAPS)
          .sort((a, b) => a.from - b.from);
  return { ...base, range: { from: lo, to: hi }, lanes, gaps, gapsTotal: spans.gaps.length };
}
