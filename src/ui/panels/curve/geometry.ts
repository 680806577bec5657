/** Pure geometry of the context curve: scales, SVG paths, and the step under a point. */
import type { CurveData, CurveRequest, CurveRequests } from '../../../protocol/protocol';

export interface Plot {
  width: number;
  height: number;
  /** Inner padding: left/right and top/bottom. */
  padX: number;
  padTop: number;
  padBottom: number;
}

export type Bucket = CurveData['buckets'][number];

export function xOf(plot: Plot, steps: number, step: number): number {
  const inner = Math.max(1, plot.width - 2 * plot.padX);
  return plot.padX + (steps > 0 ? (step / steps) * inner : 0);
}

/** One mark of the plot: the first of the items it stands for, its x, and how many it stands for. */
export interface Mark<T> {
  item: T;
  x: number;
  count: number;
}

/**
 * Marks for items in ascending x, each its own while there are few enough to tell apart (one per
 * 4 px of the plot), else one per pixel column: a log with 100,000 replaces must not put 100,000
 * elements in the plot, and no more than a column's worth can be seen or clicked anyway.
 */
export function marksOf<T>(items: readonly T[], plot: Plot, x: (item: T) => number): Mark<T>[] {
  if (items.length * 4 <= plot.width) return items.map((item) => ({ item, x: x(item), count: 1 }));
  const marks: Mark<T>[] = [];
  let last: Mark<T> | undefined;
  for (const item of items) {
    const at = x(item);
    if (last !== undefined && Math.round(at) === Math.round(last.x)) last.count += 1;
    else marks.push((last = { item, x: at, count: 1 }));
  }
  return marks;
}

export function yOf(plot: Plot, max: number, value: number): number {
  const inner = Math.max(1, plot.height - plot.padTop - plot.padBottom);
  return plot.padTop + inner - (max > 0 ? (value / max) * inner : 0);
}

/** The step under x (clamped to 0…steps). */
export function stepAt(plot: Plot, steps: number, x: number): number {
  const inner = Math.max(1, plot.width - 2 * plot.padX);
  const fraction = (x - plot.padX) / inner;
  return Math.max(0, Math.min(steps, Math.round(fraction * steps)));
}

/** A coordinate to a tenth of a pixel (paths stay short: `9.3`, not `9.299999999999999`). */
export const tenth = (n: number): number => Math.round(n * 10) / 10;
/**
 * `tenth(n)` as text, the same as `tenth(n).toString()`: a non-negative coordinate is written from
 * integers, which the engine formats several times faster than a fraction (a curve writes tens of
 * thousands of them).
 */
export function tenthText(n: number): string {
  const t = Math.round(n * 10);
  if (!(t >= 0 && t <= 0x3fffffff)) return (t / 10).toString();
  const whole = Math.floor(t / 10);
  const digit = t - whole * 10;
  return digit === 0 ? `${whole}` : `${whole}.${digit}`;
}
const r = tenthText;

/**
 * The marks of one kind as a single path: one small shape per mark, drawn by `shape` at its x.
 * The plot holds one element per kind of mark, not one per mark (a 1M-event log has thousands:
 * as elements they were most of the page's style and layout work when the curve was drawn).
 */
export function marksPath<T>(marks: readonly Mark<T>[], shape: (x: number) => string): string {
  return marks.map((m) => shape(tenth(m.x))).join(' ');
}

/** The mark nearest to x within `reach` pixels, or null. */
export function markNear<T>(marks: readonly Mark<T>[], x: number, reach: number): Mark<T> | null {
  let best: Mark<T> | null = null;
  for (const m of marks) {
    const d = Math.abs(m.x - x);
    if (d <= reach && (best === null || d < Math.abs(best.x - x))) best = m;
  }
  return best;
}

/** Where a bucket ends on the x axis: where the next one starts (the last ends at its `to`). */
function bucketEnd(curve: CurveData, i: number): number {
  const next = curve.buckets[i + 1];
  return next ? next.from : (curve.buckets[i]?.to ?? 0);
}

/**
 * A polyline drawn at the plot's resolution (x and y in pixels). The vertices that fall in one
 * pixel column of one subpath are reduced to the first, the lowest, the highest and the last of
 * them, in the order they came: each column keeps the whole polyline's vertical extent and
 * where it enters and leaves (only antialiased edges inside a column can differ), with at most
 * four vertices a column. A 1M-event log's curve has 9,000 model requests in about 1,000
 * columns: formatting every vertex of their two step lines was most of the main thread's work
 * when the curve came. A column of four vertices or fewer is drawn as it is.
 */
export class PixelPolyline {
  private readonly parts: string[] = [];
  private subpathOpen = false;
  private column = Number.NaN;
  // The current column's vertices (reused from column to column).
  private readonly xs: number[] = [];
  private readonly ys: number[] = [];
  private count = 0;

  /** Start a new subpath at (x, y): a gap in the line. */
  move(x: number, y: number): void {
    this.flush();
    this.subpathOpen = false;
    this.to(x, y);
  }

  /** Continue the line to (x, y) (the first vertex starts a subpath). */
  to(x: number, y: number): void {
    const px = tenth(x);
    const column = Math.floor(px);
    if (column !== this.column) {
      this.flush();
      this.column = column;
    }
    this.xs[this.count] = px;
    this.ys[this.count] = tenth(y);
    this.count += 1;
  }

  /** The path's `d`. */
  toString(): string {
    this.flush();
    return this.parts.join(' ');
  }

  private vertex(i: number): void {
    this.parts.push(`${this.subpathOpen ? 'L' : 'M'}${r(this.xs[i] as number)} ${r(this.ys[i] as number)}`);
    this.subpathOpen = true;
  }

  private flush(): void {
    const n = this.count;
    this.count = 0;
    this.column = Number.NaN;
    if (n <= 4) {
      for (let i = 0; i < n; i++) this.vertex(i);
      return;
    }
    const ys = this.ys;
    let lo = 0;
    let hi = 0;
    for (let i = 1; i < n; i++) {
      if ((ys[i] as number) < (ys[lo] as number)) lo = i;
      if ((ys[i] as number) > (ys[hi] as number)) hi = i;
    }
    // First, the two extremes in the order they came (each once), last.
    const last = n - 1;
    const [p, q] = lo <= hi ? [lo, hi] : [hi, lo];
    this.vertex(0);
    if (p !== 0 && p !== last) this.vertex(p);
    if (q !== p && q !== 0 && q !== last) this.vertex(q);
    this.vertex(last);
  }
}

/** A value per bucket as a step line: flat over each bucket, a vertical jump between buckets. */
export function linePath(plot: Plot, curve: CurveData, value: (b: Bucket) => number, max: number): string {
  const line = new PixelPolyline();
  curve.buckets.forEach((b, i) => {
    const y = yOf(plot, max, value(b));
    line.to(xOf(plot, curve.steps, b.from), y);
    line.to(xOf(plot, curve.steps, bucketEnd(curve, i)), y);
  });
  return line.toString();
}

/** The band between the smallest and largest size in each bucket, closed. */
export function bandPath(plot: Plot, curve: CurveData): string {
  if (curve.buckets.length === 0) return '';
  const top: string[] = [];
  const bottom: string[] = [];
  for (const [i, b] of curve.buckets.entries()) {
    const x0 = r(xOf(plot, curve.steps, b.from));
    const x1 = r(xOf(plot, curve.steps, bucketEnd(curve, i)));
    top.push(`${x0} ${r(yOf(plot, curve.bytesMax, b.bytesMax))}`, `${x1} ${r(yOf(plot, curve.bytesMax, b.bytesMax))}`);
    bottom.push(`${x0} ${r(yOf(plot, curve.bytesMax, b.bytesMin))}`, `${x1} ${r(yOf(plot, curve.bytesMax, b.bytesMin))}`);
  }
  return `M${top.join(' L')} L${bottom.reverse().join(' L')} Z`;
}

/** The bucket holding `step` (buckets are sorted and contiguous). */
export function bucketAt(curve: CurveData, step: number): Bucket | null {
  let lo = 0;
  let hi = curve.buckets.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const b = curve.buckets[mid] as Bucket;
    if (step < b.from) hi = mid - 1;
    else if (step > b.to) lo = mid + 1;
    else return b;
  }
  return null;
}

/** How many buckets to ask for at a width: about one per 2 px, in steps of 50 (fewer refetches). */
export function bucketsFor(width: number): number {
  return Math.max(50, Math.min(1500, Math.round(width / 2 / 50) * 50));
}

/** The number of model requests on the curve. */
export const requestCount = (curve: CurveData): number => curve.requests?.step.length ?? 0;

/**
 * The prefix each model request could reuse, as a step line in the curve's byte scale: from a
 * request's step to the next one's at its reused size (the part of what it sent that the
 * previous request had sent too).
 */
export function reusedPath(plot: Plot, curve: CurveData): string {
  const q = curve.requests;
  if (!q) return '';
  const line = new PixelPolyline();
  const n = q.step.length;
  for (let i = 0; i < n; i++) {
    const y = yOf(plot, curve.bytesMax, q.reusedChars[i] as number);
    line.to(xOf(plot, curve.steps, q.step[i] as number), y);
    line.to(xOf(plot, curve.steps, i + 1 < n ? (q.step[i + 1] as number) : curve.steps), y);
  }
  return line.toString();
}

/**
 * Characters per estimated token: the estimate is ⌈chars ÷ 4⌉ (core/analyze/tokens.ts), so a
 * recorded token count is drawn in the curve's byte scale at four characters a token.
 */
export const CHARS_PER_TOKEN = 4;

/**
 * The recorded cache reads of every request, as a step line in the curve's byte scale (tokens ×
 * {@link CHARS_PER_TOKEN}), beside the estimated reused prefix: flat from a request's step to
 * the next one's. A request that recorded no cache reads leaves a gap. Values above the plot's
 * maximum are drawn at its top (a provider's count also covers the system prompt and tools,
 * which are not messages). Empty when no request recorded any.
 */
export function cacheReadPath(plot: Plot, curve: CurveData): string {
  const q = curve.requests;
  if (!q) return '';
  const line = new PixelPolyline();
  const n = q.step.length;
  let open = false;
  for (let i = 0; i < n; i++) {
    const read = q.cacheRead[i] as number;
    if (Number.isNaN(read)) {
      open = false;
      continue;
    }
    const y = yOf(plot, curve.bytesMax, Math.min(curve.bytesMax, read * CHARS_PER_TOKEN));
    const x0 = xOf(plot, curve.steps, q.step[i] as number);
    if (open) line.to(x0, y);
    else line.move(x0, y);
    line.to(xOf(plot, curve.steps, i + 1 < n ? (q.step[i + 1] as number) : curve.steps), y);
    open = true;
  }
  return line.toString();
}

/** Request `i` of the curve, read out of its columns (what broke its prefix found among the breaks). */
export function requestOf(requests: CurveRequests, i: number): CurveRequest {
  const { breaks } = requests;
  let lo = 0;
  let hi = breaks.length - 1;
  let brokenBy: CurveRequest['brokenBy'] = null;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const b = breaks[mid]!;
    if (b.index === i) {
      brokenBy = b.brokenBy;
      break;
    }
    if (b.index < i) lo = mid + 1;
    else hi = mid - 1;
  }
  const cacheRead = requests.cacheRead[i] as number;
  return {
    step: requests.step[i] as number,
    seq: requests.seq[i] as number,
    tokens: requests.tokens[i] as number,
    reusedTokens: requests.reusedTokens[i] as number,
    reusedChars: requests.reusedChars[i] as number,
    cacheRead: Number.isNaN(cacheRead) ? null : cacheRead,
    brokenBy,
  };
}

/** The last model request made at or before `step` (requests are sorted by step), or null. */
export function requestAt(curve: CurveData, step: number): CurveRequest | null {
  const q = curve.requests;
  if (!q) return null;
  let lo = 0;
  let hi = q.step.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    if ((q.step[mid] as number) <= step) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found < 0 ? null : requestOf(q, found);
}
