/**
 * A virtualized list of fixed-height rows that scales to millions of rows.
 *
 * Built on TanStack Virtual, which observes the scroller, tracks the offset and picks the range.
 * Beyond ~450,000 rows the scroll range is compressed (see scaledScroll.ts): TanStack works in
 * the compressed space, where each row is `pitch` px, and we draw the rows it picks at their real
 * height from the fractional first row. TanStack's range covers `viewport / pitch` rows, more
 * than fit, so a range extractor trims it to what the viewport shows plus overscan.
 *
 * jsdom has no layout: tests provide a viewport height with {@link VirtualViewportProvider}.
 */
import { createContext, Fragment, useCallback, useContext, useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { CSSProperties, HTMLAttributes, ReactNode, Ref } from 'react';
import { defaultRangeExtractor, observeElementRect, useVirtualizer } from '@tanstack/react-virtual';
import type { Range, Rect, Virtualizer } from '@tanstack/react-virtual';
import { offsetForIndex, rowTop, scrollGeometry, visibleRange } from './scaledScroll';
import type { Align } from './scaledScroll';

/** A fixed viewport for hosts without layout (jsdom); `null` measures the element. */
const ViewportContext = createContext<Rect | null>(null);
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
  /** Element holding the rows (`ul` for lists, `div` with a role for grids). */
  as?: 'div' | 'ul' | 'ol';
  innerProps?: HTMLAttributes<HTMLElement> & { ref?: Ref<HTMLElement> };
  /** Props of the scrolling element (aria-label, tabIndex, className…). */
  scrollerProps?: HTMLAttributes<HTMLDivElement>;
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
  const fixedRect = useContext(ViewportContext);
  const [measured, setMeasured] = useState(0);
  const viewport = fixedRect?.height ?? measured;
  const geometry = scrollGeometry(count, rowHeight, viewport);
  const { pitch, paddingEnd } = geometry;

  // TanStack's range covers viewport/pitch rows; keep the ones that fit, plus overscan.
  const trim = useCallback(
    (range: Range): number[] => {
      if (pitch === rowHeight) return defaultRangeExtractor(range);
      const fit = Math.ceil(viewport / rowHeight) + 1;
      const first = Math.max(0, range.startIndex - range.overscan);
      const last = Math.min(range.count - 1, range.startIndex + fit + range.overscan);
      const indexes: number[] = [];
      for (let i = first; i <= last; i++) indexes.push(i);
      return indexes;
    },
    [pitch, rowHeight, viewport],
  );

  const observeRect = useCallback(
    (instance: Virtualizer<HTMLDivElement, Element>, cb: (rect: Rect) => void) => {
      if (fixedRect) {
        cb(fixedRect);
        return () => {};
      }
      return observeElementRect(instance, (rect) => {
        cb(rect);
        setMeasured(rect.height);
      });
    },
    [fixedRect],
  );

  // The app does not run the React Compiler; this component re-renders on every virtualizer
  // change by design, so the compiler's memoization caveat does not apply.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, Element>({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => pitch,
    overscan,
    paddingEnd,
    rangeExtractor: trim,
    observeElementRect: observeRect,
    ...(fixedRect ? { initialRect: fixedRect } : {}),
  });

  const offset = Math.min(virtualizer.scrollOffset ?? 0, geometry.maxOffset);
  const positions: RowPosition[] = virtualizer
    .getVirtualItems()
    .map((item) => ({ index: item.index, top: rowTop(geometry, item.index, offset) }));

  const firstRendered = positions[0]?.index ?? 0;
  const lastRendered = positions[positions.length - 1]?.index ?? -1;
  useEffect(() => {
    onRangeChange?.(firstRendered, lastRendered);
  }, [firstRendered, lastRendered, onRangeChange]);

  useImperativeHandle(
    handleRef,
    () => ({
      scrollToIndex(index, align = 'auto') {
        if (count === 0) return;
        const target = offsetForIndex(geometry, Math.max(0, Math.min(count - 1, index)), align, virtualizer.scrollOffset ?? 0);
        virtualizer.scrollToOffset(target);
      },
      visibleRange() {
        return visibleRange(geometry, virtualizer.scrollOffset ?? 0);
      },
    }),
    [count, geometry, virtualizer],
  );

  const { className: scrollerClass, ...restScroller } = scrollerProps ?? {};
  const { className: innerClass, ...restInner } = innerProps ?? {};
  return (
    <div ref={scrollRef} className={`vlist ${scrollerClass ?? ''}`} {...restScroller}>
      <div className="vlist-content" style={{ height: geometry.totalSize }}>
        {renderOverlay?.(positions, rowHeight)}
        <Inner className={`vlist-rows ${innerClass ?? ''}`} {...(restInner as HTMLAttributes<HTMLElement>)}>
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
