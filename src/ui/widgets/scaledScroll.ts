/**
 * Geometry of a fixed-row-height list whose full height may exceed what a browser can lay out
 * (element heights top out near 33.5M px in Chrome and 17.9M px in Firefox; 1,000,000 rows of
 * 22 px is 22M px).
 *
 * The list is laid out in a compressed space: each row takes `pitch` px of scroll range, where
 * `pitch = min(rowHeight, MAX_SCROLL_PX / count)`, so the scrollable height never exceeds about
 * 10M px. A scroll offset `o` maps to the fractional first visible row `o / pitch`, and rows are
 * drawn at their real height from there (see {@link rowTop}). A padding of
 * `viewport × (1 − pitch / rowHeight)` at the end makes the last row land exactly at the bottom
 * of the viewport at the largest offset. When everything fits, pitch = rowHeight and this is an
 * ordinary list (row i at i × rowHeight).
 */

/** The largest scroll range we lay out, well below every browser's cap. */
export const MAX_SCROLL_PX = 10_000_000;

export interface ScrollGeometry {
  count: number;
  rowHeight: number;
  viewport: number;
  /** Scroll range per row. */
  pitch: number;
  /** Extra scroll range after the last row. */
  paddingEnd: number;
  /** Height of the scrollable content. */
  totalSize: number;
  /** Largest scroll offset. */
  maxOffset: number;
}

export function scrollGeometry(count: number, rowHeight: number, viewport: number, cap = MAX_SCROLL_PX): ScrollGeometry {
  const n = Math.max(0, count);
  const pitch = n * rowHeight <= cap || n === 0 ? rowHeight : cap / n;
  const visibleRows = viewport / rowHeight;
  const paddingEnd = Math.max(0, viewport - visibleRows * pitch);
  const totalSize = n * pitch + paddingEnd;
  return { count: n, rowHeight, viewport, pitch, paddingEnd, totalSize, maxOffset: Math.max(0, totalSize - viewport) };
}

/** The fractional row at the top of the viewport. */
export function firstRowAt(g: ScrollGeometry, offset: number): number {
  return g.pitch > 0 ? Math.max(0, offset) / g.pitch : 0;
}

/** Top of row `index` in content px, given the current scroll offset. */
export function rowTop(g: ScrollGeometry, index: number, offset: number): number {
  if (g.pitch === g.rowHeight) return index * g.rowHeight;
  return offset + (index - firstRowAt(g, offset)) * g.rowHeight;
}

/** Rows whose top lies inside the viewport (whole or partly visible), clamped to the list. */
export function visibleRange(g: ScrollGeometry, offset: number): { first: number; last: number } {
  if (g.count === 0) return { first: 0, last: -1 };
  const top = firstRowAt(g, offset);
  const first = Math.min(g.count - 1, Math.floor(top));
  const last = Math.min(g.count - 1, Math.max(first, Math.ceil(top + g.viewport / g.rowHeight) - 1));
  return { first, last };
}

export type Align = 'auto' | 'start' | 'center' | 'end';

/** The scroll offset that shows row `index` with the given alignment. */
export function offsetForIndex(g: ScrollGeometry, index: number, align: Align, currentOffset: number): number {
  const visibleRows = g.viewport / g.rowHeight;
  const first = firstRowAt(g, currentOffset);
  let target: number;
  switch (align) {
    case 'start':
      target = index;
      break;
    case 'end':
      target = index + 1 - visibleRows;
      break;
    case 'center':
      target = index + 0.5 - visibleRows / 2;
      break;
    case 'auto':
      if (index < first) target = index;
      else if (index + 1 > first + visibleRows) target = index + 1 - visibleRows;
      else return Math.min(g.maxOffset, Math.max(0, currentOffset));
      break;
  }
  return Math.min(g.maxOffset, Math.max(0, target * g.pitch));
}
