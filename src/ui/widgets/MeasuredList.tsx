/**
 * A virtualized list of rows of different heights (the aligned rows of the two views): TanStack
 * Virtual with `measureElement`, behind a small handle the panel drives. Rows are laid out from
 * their measured heights (an estimate before they render); only the rows in and near the
 * viewport are rendered. When a row above the viewport changes height (a span opened, a page of
 * messages arrived) the virtualizer moves the scroll position by as much, so what the user reads
 * does not jump.
 *
 * For very long lists of fixed-height rows use {@link VirtualList} instead (O(1) per scroll).
 * Without layout (jsdom) the list takes the fixed viewport of `VirtualViewportProvider` (or
 * `fallbackHeight`) and every row keeps its estimate.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useImperativeHandle, useRef, useState } from 'react';
import type { HTMLAttributes, ReactNode, Ref } from 'react';
import { useFixedViewport } from './VirtualList';
import { measureOptions } from './virtualMeasure';

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
  /** Rows rendered beyond each edge of the viewport. @default 3 */
  overscan?: number;
  /** Viewport height when the host has no layout and no fixed viewport is provided. @default 600 */
  fallbackHeight?: number;
  onRangeChange?: (first: number, last: number) => void;
  handleRef?: Ref<MeasuredListHandle>;
}

/** Whether the host lays elements out (jsdom gives every element a zero-sized box). */
function hasLayout(): boolean {
  return typeof document !== 'undefined' && document.documentElement.getBoundingClientRect().height > 0;
}

export function MeasuredList({
  count,
  estimate,
  renderRow,
  rowKey,
  as: Inner = 'div',
  innerProps,
  scrollerProps,
  overscan = 3,
  fallbackHeight = 600,
  onRangeChange,
  handleRef,
}: MeasuredListProps) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const provided = useFixedViewport();
  // Asked once: reading layout at every render would force a synchronous layout each time.
  const [layout] = useState(hasLayout);
  const fixed = provided ?? (layout ? null : { width: 0, height: fallbackHeight });
  // The app is not built with React Compiler; the virtualizer's functions are used as documented.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLElement>({
    count,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => estimate,
    overscan,
    // Heights are cached by row identity: a row keeps its height when rows before it come and go.
    ...(rowKey ? { getItemKey: rowKey } : {}),
    ...measureOptions(fixed),
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? -1;

  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  useImperativeHandle(handleRef, () => {
    const clamp = (index: number) => Math.max(0, Math.min(count - 1, index));
    return {
      scrollToIndex(index) {
        if (count > 0) virtualizer.scrollToIndex(clamp(index), { align: 'start' });
      },
      scrollIntoView(index) {
        const item = count > 0 ? virtualizer.measurementsCache[clamp(index)] : undefined;
        if (!item) return;
        const current = virtualizer.scrollOffset ?? 0;
        const height = virtualizer.scrollRect?.height ?? 0;
        // By index, so the virtualizer corrects the target as the rows on the way are measured. A
        // row taller than the view shows its top (TanStack's 'auto' would show its bottom).
        if (item.start < current) virtualizer.scrollToIndex(item.index, { align: 'start' });
        else if (item.end > current + height) virtualizer.scrollToIndex(item.index, { align: item.size > height ? 'start' : 'end' });
      },
      scrollToEnd() {
        if (count > 0) virtualizer.scrollToIndex(count - 1, { align: 'end' });
      },
    };
  }, [count, virtualizer]);

  // Without layout there is nothing to measure: rows keep their estimated height.
  const measureRef = fixed ? undefined : virtualizer.measureElement;
  const Row = Inner === 'div' ? 'div' : 'li';
  const { className: scrollerClass, ...restScroller } = scrollerProps ?? {};
  const { className: innerClass, ...restInner } = innerProps ?? {};
  return (
    <div ref={scrollRef} className={`mlist ${scrollerClass ?? ''}`} {...restScroller}>
      <Inner className={`mlist-rows ${innerClass ?? ''}`} style={{ height: virtualizer.getTotalSize() }} {...restInner}>
        {items.map((item) => (
          <Row key={item.key} ref={measureRef} data-index={item.index} className="mlist-row" style={{ top: item.start }}>
            {renderRow(item.index)}
          </Row>
        ))}
      </Inner>
    </div>
  );
}
