/**
 * A virtualized list of fixed-height rows that scales to millions of rows.
 *
 * Why not TanStack Virtual here (the Surface panel does use it): its Virtualizer materialises a
 * measurement for every row whenever the count changes (a Float64Array of 2 × count plus a key
 * per row), 20–70 ms on the main thread for a 1,000,000-row timeline, over the 50 ms long-task
 * budget. It also lays rows out in real pixels, and 1,000,000 rows of 22 px exceed what browsers
 * can lay out. With fixed heights none of the measuring is needed: the rendered range comes
 * straight from the scroll offset in O(1), and scaledScroll.ts compresses the scroll range
 * beyond ~450,000 rows so the content stays under every browser's element-height cap.
 *
 * Rendering is kept cheap for scrolling and seeking:
 * - rows are placed relative to an anchor row (a multiple of {@link ANCHOR_ROWS}) inside a block
 *   moved with a transform, and each row keeps the same `style` object while its place in the
 *   block is the same, so memoized rows skip rendering when the list re-renders;
 * - a scroll that keeps the rendered range only moves the block (directly on the element, in the
 *   scroll event, so compressed rows never lag a frame); a scroll that changes the range renders
 *   synchronously in the scroll event for the same reason;
 * - `scrollToIndex` renders the new range first and writes `scrollTop` once, after the commit
 *   (one layout per reveal instead of a forced layout before the rows change and another after).
 *
 * A list that grows (a followed session) either sticks to its end (`stickToEnd`: every new last
 * row is scrolled into view) or keeps what is on screen where it is: rows arrive below, and when
 * the compressed geometry changes its pitch the first visible row is kept at the top. Scrolls
 * the user makes (a wheel, the scrollbar, keys) are told apart from those the list makes by
 * their offset: every `scrollTop` the list writes is remembered, and a scroll event that lands
 * elsewhere is the user's (`onUserScroll`).
 *
 * jsdom has no layout: tests provide a viewport height with {@link VirtualViewportProvider}.
 */
import {
  createContext,
  Fragment,
  useCallback,
  useContext,
  useEffect,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import type { CSSProperties, HTMLAttributes, ReactNode, Ref } from 'react';
import { flushSync } from 'react-dom';
import { firstRowAt, offsetForIndex, rowTop, scrollGeometry, visibleRange } from './scaledScroll';
import type { Align, ScrollGeometry } from './scaledScroll';

export interface ViewportSize {
  width: number;
  height: number;
}

/** A fixed viewport for hosts without layout (jsdom); `null` measures the element. */
const ViewportContext = createContext<ViewportSize | null>(null);
export const VirtualViewportProvider = ViewportContext.Provider;

/** The viewport fixed by {@link VirtualViewportProvider}, if any (hosts without layout). */
export function useFixedViewport(): ViewportSize | null {
  return useContext(ViewportContext);
}

export interface VirtualListHandle {
  /** Scrolls row `index` into view; `byUser` when a key the user pressed asked for it (see `onUserScroll`). */
  scrollToIndex(index: number, align?: Align, options?: { byUser?: boolean }): void;
  /** Rows currently in the viewport (not counting overscan). */
  visibleRange(): { first: number; last: number };
}

export interface RowPosition {
  index: number;
  /** Top of the row within the rendered block (see `renderOverlay`). */
  top: number;
}

export interface VirtualListProps {
  count: number;
  rowHeight: number;
  /**
   * Renders row `index`; the element must use `style` (absolute position and height). The same
   * style object comes back while the row stays in place, so memoized rows can compare it.
   */
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
  /** Drawn under the rows, in the coordinates of the rendered block (e.g. a gutter). */
  renderOverlay?: (rows: RowPosition[], rowHeight: number) => ReactNode;
  /**
   * Reuse row elements: rows are keyed by their slot in a ring rather than by index, so a jump
   * to another part of the list updates the rendered rows in place instead of replacing them
   * all, and a scroll by one row reuses the element of the row that left. Only for rows without
   * focusable content or state of their own (a reused element shows another row). @default false
   */
  recycleRows?: boolean;
  handleRef?: Ref<VirtualListHandle>;
  /** Keep the last row in view whenever the list grows or this turns on (a followed end). @default false */
  stickToEnd?: boolean;
  /**
   * The user scrolled (not the list itself), and the list now ends at its last row (`atEnd`)
   * or not. Also called for a `scrollToIndex` marked `byUser` that moves the list.
   */
  onUserScroll?: (atEnd: boolean) => void;
}

/** How close to the largest offset still counts as the end (browsers round offsets to device pixels). */
const END_SLACK_PX = 2;

/** Rows are positioned relative to a multiple of this row index. */
export const ANCHOR_ROWS = 1024;

interface Window {
  first: number;
  last: number;
  anchor: number;
}

function windowAt(g: ScrollGeometry, offset: number, overscan: number): Window {
  const view = visibleRange(g, Math.min(offset, g.maxOffset));
  const first = Math.max(0, view.first - overscan);
  const last = Math.min(g.count - 1, view.last + overscan);
  return { first, last, anchor: Math.floor(first / ANCHOR_ROWS) * ANCHOR_ROWS };
}

/**
 * One style object per place in a block, shared by every list and reused across renders (see
 * the file comment). Places are bounded (a block spans about ANCHOR_ROWS rows plus a viewport),
 * so the cache is too; it is dropped if a host ever fills it.
 */
const styleCache = new Map<number, Map<number, CSSProperties>>();
const STYLE_CACHE_LIMIT = 16 * ANCHOR_ROWS;

function rowStyle(top: number, height: number): CSSProperties {
  let byTop = styleCache.get(height);
  if (!byTop || byTop.size > STYLE_CACHE_LIMIT) {
    byTop = new Map();
    styleCache.set(height, byTop);
  }
  let style = byTop.get(top);
  if (!style) {
    style = Object.freeze({ position: 'absolute', top, left: 0, right: 0, height });
    byTop.set(top, style);
  }
  return style;
}

/** The smallest power of two ≥ both sizes (stable while the viewport keeps its size). */
function ringSize(expected: number, rendered: number): number {
  let size = 16;
  while (size < expected || size < rendered) size *= 2;
  return size;
}

/** Writes `scrollTop` as the list's own scroll (its event is not the user's) and the last offset seen. */
function writeScrollTop(element: HTMLElement, top: number, own: { current: number | null }, last: { current: number }): void {
  own.current = top;
  last.current = top;
  element.scrollTop = top;
}

const blockTransform = (g: ScrollGeometry, anchor: number, offset: number): string =>
  `translateY(${rowTop(g, anchor, Math.min(offset, g.maxOffset))}px)`;

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
  recycleRows = false,
  handleRef,
  stickToEnd = false,
  onUserScroll,
}: VirtualListProps) {
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const blockRef = useRef<HTMLDivElement | null>(null);
  const fixed = useContext(ViewportContext);
  // Until the first observation the window's height stands in (see the layout effect below).
  const [measured, setMeasured] = useState(() => (typeof window === 'undefined' ? 0 : window.innerHeight));
  const [offset, setOffset] = useState(0);
  /** Bumped by `scrollToIndex`, so its `scrollTop` write happens after the commit even if the offset did not change. */
  const [scrollRequest, setScrollRequest] = useState(0);
  // No list shows more rows than the window has room for: if a layout ever leaves the scroller
  // unbounded (it then grows to its content), the list still renders a window's worth of rows.
  const viewport = fixed?.height ?? Math.min(measured, typeof window === 'undefined' ? measured : window.innerHeight || measured);
  const geometry = useMemo(() => scrollGeometry(count, rowHeight, viewport), [count, rowHeight, viewport]);
  const scaled = geometry.pitch !== rowHeight;
  const current = Math.min(offset, geometry.maxOffset);
  const { first, last, anchor } = windowAt(geometry, current, overscan);

  // The height comes from a ResizeObserver, whose first callback runs after the browser's own
  // layout of the frame that mounted the list. Reading `clientHeight` here, in the commit, would
  // force that layout inside it: a workspace of lists mounting took a 30 ms layout in its commit.
  useLayoutEffect(() => {
    const element = scrollRef.current;
    if (fixed || !element) return;
    if (typeof ResizeObserver === 'undefined') {
      setMeasured(element.clientHeight);
      return;
    }
    const observer = new ResizeObserver(() => setMeasured(element.clientHeight));
    observer.observe(element);
    return () => observer.disconnect();
  }, [fixed]);

  const latest = useRef({ geometry, first, last, anchor, scaled, overscan });
  // The last scroll offset seen. Reading `scrollTop` outside a scroll event forces a layout of
  // the whole page (measured: ~8 ms per seek), so the handle answers from this instead.
  const lastTop = useRef(0);
  /** A `scrollTop` to write after the next commit (see `scrollToIndex`). */
  const pendingScroll = useRef<number | null>(null);
  /** The last `scrollTop` the list wrote itself, until its scroll event: that event is not the user's. */
  const ownWrite = useRef<number | null>(null);
  const userScroll = useRef(onUserScroll);
  useLayoutEffect(() => {
    latest.current = { geometry, first, last, anchor, scaled, overscan };
    userScroll.current = onUserScroll;
  });
  useLayoutEffect(() => {
    const element = scrollRef.current;
    const target = pendingScroll.current;
    if (!element || target === null) return;
    pendingScroll.current = null;
    writeScrollTop(element, target, ownWrite, lastTop);
  }, [scrollRequest]);

  // The compressed geometry reserves a viewport-sized padding at the end, so a list scrolled to
  // its end would no longer end exactly at its last row after the viewport changes size (a
  // panel above or below it grows): keep such a list pinned to its end.
  //
  // A list that sticks to its end shows its last row whatever changed (rows arrived, the
  // viewport moved). One that does not keeps its first visible row when its count changes: in
  // plain geometry the offset already does, but a compressed one changes its pitch with the
  // count, and the same offset would show other rows (a jump of thousands on a million).
  const previousGeometry = useRef(geometry);
  useLayoutEffect(() => {
    const previous = previousGeometry.current;
    previousGeometry.current = geometry;
    const element = scrollRef.current;
    if (!element || geometry.count === 0) return;
    let target: number;
    if (stickToEnd) target = geometry.maxOffset;
    else if (previous === geometry) return;
    else if (previous.count !== geometry.count) {
      if (previous.pitch === geometry.pitch || previous.count === 0) return;
      target = Math.min(geometry.maxOffset, firstRowAt(previous, lastTop.current) * geometry.pitch);
    } else {
      const atEnd = previous.maxOffset > 0 && lastTop.current >= previous.maxOffset - 1;
      if (!atEnd) return;
      target = geometry.maxOffset;
    }
    if (lastTop.current === target) return;
    writeScrollTop(element, target, ownWrite, lastTop);
    setOffset(target);
  }, [geometry, stickToEnd]);

  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    const onScroll = () => {
      const l = latest.current;
      const top = element.scrollTop;
      lastTop.current = top;
      const own = ownWrite.current;
      ownWrite.current = null;
      // Our own write lands where it was written (to within the rounding to device pixels), or
      // at the element's real end when it asked for more than the element can scroll.
      const end = Math.min(l.geometry.maxOffset, element.scrollHeight > 0 ? element.scrollHeight - element.clientHeight : Infinity);
      const ours = own !== null && (Math.abs(top - own) <= 1 || (own > top && top >= end - 1));
      if (!ours) userScroll.current?.(top >= end - END_SLACK_PX);
      const next = windowAt(l.geometry, top, l.overscan);
      if (next.first !== l.first || next.last !== l.last || next.anchor !== l.anchor) {
        flushSync(() => setOffset(top));
        return;
      }
      // Same rows: move the block now (compressed rows move faster than the content), and let
      // the state catch up without blocking the scroll.
      if (l.scaled && blockRef.current) blockRef.current.style.transform = blockTransform(l.geometry, l.anchor, top);
      setOffset(top);
    };
    element.addEventListener('scroll', onScroll, { passive: true });
    return () => element.removeEventListener('scroll', onScroll);
  }, []);

  useEffect(() => {
    onRangeChange?.(first, last);
  }, [first, last, onRangeChange]);

  const scrollToIndex = useCallback(
    (index: number, align: Align = 'auto', options: { byUser?: boolean } = {}) => {
      if (count === 0) return;
      const target = offsetForIndex(geometry, Math.max(0, Math.min(count - 1, index)), align, lastTop.current);
      if (target === lastTop.current) return;
      if (options.byUser) userScroll.current?.(target >= geometry.maxOffset - END_SLACK_PX);
      lastTop.current = target;
      pendingScroll.current = target;
      setOffset(target);
      setScrollRequest((n) => n + 1);
    },
    [count, geometry],
  );

  useImperativeHandle(
    handleRef,
    () => ({
      scrollToIndex,
      visibleRange() {
        return visibleRange(geometry, Math.min(lastTop.current, geometry.maxOffset));
      },
    }),
    [scrollToIndex, geometry],
  );

  // A ring at least as long as the rendered range: consecutive indexes get distinct slots.
  const ring = recycleRows ? ringSize(Math.ceil(viewport / rowHeight) + 2 * overscan + 2, last - first + 1) : 0;
  const positions: RowPosition[] = [];
  for (let index = first; index <= last; index++) positions.push({ index, top: (index - anchor) * rowHeight });

  const { className: scrollerClass, ...restScroller } = scrollerProps ?? {};
  const { className: innerClass, ...restInner } = innerProps ?? {};
  return (
    <div ref={scrollRef} className={`vlist ${scrollerClass ?? ''}`} {...restScroller}>
      <div className="vlist-content" style={{ height: geometry.totalSize }}>
        <div ref={blockRef} className="vlist-block" style={{ transform: blockTransform(geometry, anchor, current) }}>
          {renderOverlay?.(positions, rowHeight)}
          <Inner className={`vlist-rows ${innerClass ?? ''}`} {...restInner}>
            {positions.map(({ index, top }) => (
              <Fragment key={ring > 0 ? index % ring : index}>{renderRow(index, rowStyle(top, rowHeight))}</Fragment>
            ))}
          </Inner>
        </div>
      </div>
    </div>
  );
}
