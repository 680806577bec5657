/**
 * A virtualized list of fixed-height rows that scales to millions of rows.
 *
 * The rendered range comes straight from the scroll offset and the fixed row height in O(1)
 * (see scaledScroll.ts, which also compresses the scroll range beyond ~450,000 rows so that the
 * content stays under every browser's element-height cap). We first built this on TanStack
 * Virtual, but its Virtualizer materialises a measurement for every row whenever the count
 * changes (a Float64Array of 2 × count plus a key per row): 20–70 ms on the main thread for a
 * 1,000,000-row timeline, over the 50 ms long-task budget. With fixed heights none of that is
 * needed, so the list computes its range itself.
 *
 * jsdom has no layout: tests provide a viewport height with {@link VirtualViewportProvider}.
 */
import { createContext, Fragment, useContext, useEffect, useImperativeHandle, useLayoutEffect, useRef, useState } from 'react';
import type { CSSProperties, HTMLAttributes, ReactNode, Ref } from 'react';
import { flushSync } from 'react-dom';
import { offsetForIndex, rowTop, scrollGeometry, visibleRange } from './scaledScroll';
import type { Align } from './scaledScroll';

export interface ViewportSize {
  width: number;
  height: number;
}

/** A fixed viewport for hosts without layout (jsdom); `null` measures the element. */
const ViewportContext = createContext<ViewportSize | null>(null);
export const VirtualViewportProvider = ViewportContext.Provider;

export interface VirtualListHandle {
  scrollToIndex(index: number, align?: Align): void;
  /** Rows currently in the viewport (not counting overscan). */
  visibleRange(): { first: number; last: number };
}

export interface RowPosition {
  index: number;
  top: number;
}

export interface VirtualListProps {
  count: number;
  rowHeight: number;
  /** Renders row `index`; the element must use `style` (absolute position and height). */
  renderRow: (index: number, style: CSSProperties) => ReactNode;
  /** Element holding the rows (`ul` for lists, `div` for grids). */
  as?: 'div' | 'ul' | 'ol';
  innerProps?: HTMLAttributes<HTMLElement>;
  /** Props of the scrolling element (role, aria-label, tabIndex, className…). */
  scrollerProps?: HTMLAttributes<HTMLDivElement>;
  /** Rows rendered beyond each edge of the viewport. @default 8 */
  overscan?: number;
  /** Called with the rendered range (with overscan) whenever it changes. */
  onRangeChange?: (first: number, last: number) => void;
  /** Drawn under the rows in content coordinates (e.g. a gutter), given the rendered rows. */
  renderOverlay?: (rows: RowPosition[], rowHeight: number) => ReactNode;
  handleRef?: Ref<VirtualListHandle>;
}

export function VirtualList({
  count,
  rowHeight,
  renderRow,
  as: Inner = 'div',
  innerProps,
  scrollerProps,
  overscan = 8,
  onRangeChange,
  renderOverlay,
  handleRef,
}: VirtualListProps) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const fixed = useContext(ViewportContext);
  const [measured, setMeasured] = useState(0);
  const [offset, setOffset] = useState(0);
  const viewport = fixed?.height ?? measured;
  const geometry = scrollGeometry(count, rowHeight, viewport);
  const scaled = geometry.pitch !== rowHeight;
  const current = Math.min(offset, geometry.maxOffset);
  const view = visibleRange(geometry, current);
  const first = Math.max(0, view.first - overscan);
  const last = Math.min(count - 1, view.last + overscan);

  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (fixed || !element) return;
    setMeasured(element.clientHeight);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setMeasured(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [fixed]);

  // Re-render on scroll only when it matters: always when scaled (rows are placed relative to
  // the offset), else when the rendered range changes. Synchronous, so rows never lag a frame.
  const latest = useRef({ geometry, first, last, scaled, overscan });
  // The last scroll offset seen. Reading `scrollTop` outside a scroll event forces a layout of
  // the whole page (measured: ~8 ms per seek), so the handle answers from this instead.
  const lastTop = useRef(0);
  useEffect(() => {
    latest.current = { geometry, first, last, scaled, overscan };
  });
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onScroll = () => {
      const l = latest.current;
      const top = element.scrollTop;
      lastTop.current = top;
      const next = visibleRange(l.geometry, top);
      const changed = Math.max(0, next.first - l.overscan) !== l.first || Math.min(l.geometry.count - 1, next.last + l.overscan) !== l.last;
      if (l.scaled || changed) flushSync(() => setOffset(top));
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  useImperativeHandle(
    handleRef,
    () => ({
      scrollToIndex(index, align = 'auto') {
        const element = scrollRef.current;
        if (!element || count === 0) return;
        const target = offsetForIndex(geometry, Math.max(0, Math.min(count - 1, index)), align, lastTop.current);
        element.scrollTop = target;
        lastTop.current = target;
        // Hosts without layout (jsdom) fire no scroll event for a programmatic scroll.
        setOffset(target);
      },
      visibleRange() {
        return visibleRange(geometry, Math.min(lastTop.current, geometry.maxOffset));
      },
    }),
    [count, geometry],
  );

  const positions: RowPosition[] = [];
  for (let index = first; index <= last; index++) positions.push({ index, top: rowTop(geometry, index, current) });

  const { className: scrollerClass, ...restScroller } = scrollerProps ?? {};
  const { className: innerClass, ...restInner } = innerProps ?? {};
  return (
    <div ref={scrollRef} className={`vlist ${scrollerClass ?? ''}`} {...restScroller}>
      <div className="vlist-content" style={{ height: geometry.totalSize }}>
        {renderOverlay?.(positions, rowHeight)}
        <Inner className={`vlist-rows ${innerClass ?? ''}`} {...restInner}>
          {positions.map(({ index, top }) => (
            <Fragment key={index}>
              {renderRow(index, { position: 'absolute', top, left: 0, right: 0, height: rowHeight })}
            </Fragment>
          ))}
        </Inner>
      </div>
    </div>
  );
}
