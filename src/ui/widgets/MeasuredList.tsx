/**
 * A virtualized list of rows of different heights (chat messages, diffs). Rows are laid out from
 * a height per row: measured once rendered (ResizeObserver), estimated before. Only the rows in
 * and near the viewport are rendered. When a row above the viewport changes height the scroll
 * position is corrected, so what the user reads does not jump.
 *
 * For very long lists of fixed-height rows use {@link VirtualList} instead (O(1) per scroll); this
 * one recomputes offsets in O(rows) when a height changes, fine for tens of thousands of rows.
 * Without layout (jsdom) every row keeps its estimate and the viewport is `fallbackHeight`.
 */
import { useCallback, useEffect, useImperativeHandle, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { HTMLAttributes, ReactNode, Ref } from 'react';

export interface MeasuredListHandle {
  /** Puts the top of row `index` at the top of the viewport. */
  scrollToIndex(index: number): void;
  /** Scrolls as little as needed to show row `index` (its top when it is taller than the view). */
  scrollIntoView(index: number): void;
  scrollToEnd(): void;
}

export interface MeasuredListProps {
  count: number;
  /** Height of a row before it is measured. */
  estimate: number;
  renderRow: (index: number) => ReactNode;
  /** Identity of row `index` for the height cache (e.g. its seq). @default the index */
  rowKey?: (index: number) => string | number;
  /** Element holding the rows; rows are `li` in a `ul`/`ol`, else `div`. */
  as?: 'div' | 'ul' | 'ol';
  innerProps?: HTMLAttributes<HTMLElement>;
  scrollerProps?: HTMLAttributes<HTMLDivElement>;
  /** Pixels rendered beyond each edge of the viewport. @default 400 */
  overscan?: number;
  /** Viewport height when the element has none (hosts without layout). @default 600 */
  fallbackHeight?: number;
  onRangeChange?: (first: number, last: number) => void;
  handleRef?: Ref<MeasuredListHandle>;
}

/** Index of the last row whose top is ≤ `y` (binary search over row tops). */
export function rowAtOffset(tops: Float64Array, count: number, y: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >>> 1;
    if ((tops[mid] ?? 0) <= y) lo = mid;
    else hi = mid - 1;
  }
  return Math.max(0, lo);
}

export function MeasuredList({
  count,
  estimate,
  renderRow,
  rowKey,
  as: Inner = 'div',
  innerProps,
  scrollerProps,
  overscan = 400,
  fallbackHeight = 600,
  onRangeChange,
  handleRef,
}: MeasuredListProps) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  // Measured heights by row key: a cache mutated by the observer, which then bumps `version`.
  const [heights] = useState(() => new Map<string | number, number>());
  const [version, setVersion] = useState(0);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(0);
  const keyOf = useCallback((index: number) => (rowKey ? rowKey(index) : index), [rowKey]);

  // Row tops from the measured or estimated heights (version bumps when a measurement changes).
  const tops = useMemo(() => {
    const out = new Float64Array(count + 1);
    for (let i = 0; i < count; i++) out[i + 1] = (out[i] ?? 0) + (heights.get(keyOf(i)) ?? estimate);
    return out;
    // `version` changes when `heights` was updated in place.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [count, estimate, keyOf, heights, version]);
  const total = tops[count] ?? 0;
  const height = viewport > 0 ? viewport : fallbackHeight;
  const first = count === 0 ? 0 : rowAtOffset(tops, count, Math.max(0, scrollTop - overscan));
  const last = count === 0 ? -1 : rowAtOffset(tops, count, scrollTop + height + overscan);

  const latest = useRef({ tops, first, keyOf });
  useEffect(() => {
    latest.current = { tops, first, keyOf };
  });

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    setViewport(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setViewport(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);

  // One observer measures every rendered row; made when the first row mounts.
  const observer = useRef<ResizeObserver | null>(null);
  const onResize = (entries: ResizeObserverEntry[]) => {
    let changed = false;
    let shift = 0;
    const { tops: currentTops, first: firstRendered, keyOf: key } = latest.current;
    const scroller = scrollRef.current;
    for (const entry of entries) {
      const element = entry.target as HTMLElement;
      const index = Number(element.dataset.index);
      if (!Number.isFinite(index)) continue;
      const measured = element.offsetHeight;
      if (measured <= 0) continue;
      const id = key(index);
      const before = heights.get(id) ?? (currentTops[index + 1] ?? 0) - (currentTops[index] ?? 0);
      if (Math.abs(before - measured) < 0.5) continue;
      heights.set(id, measured);
      changed = true;
      // Rows above what the user reads push it down: scroll by as much to keep it in place.
      if (scroller && index < firstRendered && (currentTops[index] ?? 0) < scroller.scrollTop) shift += measured - before;
    }
    if (!changed) return;
    if (scroller && shift !== 0) scroller.scrollTop += shift;
    setVersion((v) => v + 1);
  };
  const resizeHandler = useRef(onResize);
  useEffect(() => {
    resizeHandler.current = onResize;
  });
  const measure = useCallback((element: HTMLElement | null) => {
    if (!element || typeof ResizeObserver === 'undefined') return;
    const ro = (observer.current ??= new ResizeObserver((entries) => resizeHandler.current(entries)));
    ro.observe(element);
    // React 19 calls this when the row unmounts: stop observing it (no leak while scrolling).
    return () => ro.unobserve(element);
  }, []);
  useEffect(() => () => observer.current?.disconnect(), []);

  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  useImperativeHandle(handleRef, () => {
    const scrollTo = (top: number) => {
      const element = scrollRef.current;
      if (!element) return;
      const next = Math.max(0, Math.min(top, total - height));
      element.scrollTop = next;
      // Hosts without layout fire no scroll event for a programmatic scroll.
      setScrollTop(next);
    };
    const clamp = (index: number) => Math.max(0, Math.min(count - 1, index));
    return {
      scrollToIndex(index) {
        if (count > 0) scrollTo(tops[clamp(index)] ?? 0);
      },
      scrollIntoView(index) {
        const element = scrollRef.current;
        if (!element || count === 0) return;
        const top = tops[clamp(index)] ?? 0;
        const bottom = tops[clamp(index) + 1] ?? top;
        const current = element.scrollTop;
        if (top < current) scrollTo(top);
        else if (bottom > current + height) scrollTo(Math.min(top, bottom - height));
      },
      scrollToEnd() {
        scrollTo(total - height);
      },
    };
  }, [count, tops, total, height]);

  const Row = Inner === 'div' ? 'div' : 'li';
  const rows: ReactNode[] = [];
  for (let index = first; index <= last; index++) {
    rows.push(
      <Row key={keyOf(index)} ref={measure} data-index={index} className="mlist-row" style={{ top: tops[index] ?? 0 }}>
        {renderRow(index)}
      </Row>,
    );
  }

  const { className: scrollerClass, ...restScroller } = scrollerProps ?? {};
  const { className: innerClass, ...restInner } = innerProps ?? {};
  return (
    <div
      ref={scrollRef}
      className={`mlist ${scrollerClass ?? ''}`}
      onScroll={(event) => setScrollTop(event.currentTarget.scrollTop)}
      {...restScroller}
    >
      <Inner className={`mlist-rows ${innerClass ?? ''}`} style={{ height: total }} {...restInner}>
        {rows}
      </Inner>
    </div>
  );
}
