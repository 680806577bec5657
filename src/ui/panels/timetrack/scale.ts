/** Pure geometry of the time track: the time ↔ x scale, zooming and panning a range, axis ticks, durations. */

export interface Range {
  from: number;
  to: number;
}

/** The plot's horizontal extent: x of `range.from` and of `range.to`. */
export interface Scale {
  range: Range;
  x0: number;
  x1: number;
}

export function xOfTime(s: Scale, t: number): number {
  const span = s.range.to - s.range.from;
  return s.x0 + (span > 0 ? ((t - s.range.from) / span) * (s.x1 - s.x0) : 0);
}

export function timeOfX(s: Scale, x: number): number {
  const w = Math.max(1, s.x1 - s.x0);
  return s.range.from + ((x - s.x0) / w) * (s.range.to - s.range.from);
}

/** Narrowest range a zoom reaches: 10 ms. */
export const MIN_SPAN_MS = 10;

/** Keep a range inside the session's and at least {@link MIN_SPAN_MS} wide (shifting rather than cutting it). */
export function clampRange(r: Range, whole: Range): Range {
  const span = Math.min(whole.to - whole.from, Math.max(MIN_SPAN_MS, r.to - r.from));
  let from = Math.max(whole.from, Math.min(r.from, whole.to - span));
  if (!Number.isFinite(from)) from = whole.from;
  return { from, to: from + span };
}

/** Zoom by `factor` (< 1 in, > 1 out) around time `at`, which stays where it is on screen. */
export function zoomRange(r: Range, factor: number, at: number, whole: Range): Range {
  const from = at - (at - r.from) * factor;
  const to = at + (r.to - at) * factor;
  return clampRange({ from, to }, whole);
}

/** Move by a fraction of the range's width (negative: earlier). */
export function panRange(r: Range, fraction: number, whole: Range): Range {
  const d = (r.to - r.from) * fraction;
  return clampRange({ from: r.from + d, to: r.to + d }, whole);
}

const STEPS = [
  1, 2, 5, 10, 20, 50, 100, 200, 500, 1e3, 2e3, 5e3, 1e4, 15e3, 3e4, 6e4, 12e4, 3e5, 6e5, 9e5, 18e5, 36e5, 72e5, 108e5, 216e5, 432e5, 864e5,
];

/** Tick times every "round" step, about `count` of them over the range. */
export function ticks(r: Range, count: number): { step: number; times: number[] } {
  const want = (r.to - r.from) / Math.max(1, count);
  const step = STEPS.find((s) => s >= want) ?? Math.ceil(want / 864e5) * 864e5;
  const times: number[] = [];
  for (let t = Math.ceil(r.from / step) * step; t <= r.to && times.length < 1000; t += step) times.push(t);
  return { step, times };
}

/** `340 ms`, `12.3 s`, `4 min 05 s`, `2 h 03 min`. */
export function formatDuration(ms: number): string {
  const v = Math.max(0, ms);
  if (v < 1000) return `${Math.round(v)} ms`;
  if (v < 60_000) return `${(v / 1000).toFixed(v < 10_000 ? 2 : 1)} s`;
  if (v < 3_600_000) {
    const m = Math.floor(v / 60_000);
    return `${m} min ${String(Math.floor((v % 60_000) / 1000)).padStart(2, '0')} s`;
  }
  const h = Math.floor(v / 3_600_000);
  return `${h} h ${String(Math.floor((v % 3_600_000) / 60_000)).padStart(2, '0')} min`;
}

/** An axis label: the time since the session's first event, as `+1:05`, `+12.5 s`, `+2:03:10`. */
export function formatOffset(ms: number, step: number): string {
  if (step < 1000) return `+${(ms / 1000).toFixed(step < 10 ? 3 : step < 100 ? 2 : 1)} s`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const mmss = `${String(m).padStart(h > 0 ? 2 : 1, '0')}:${String(s).padStart(2, '0')}`;
  return `+${h > 0 ? `${h}:` : ''}${mmss}`;
}
