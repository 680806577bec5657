/**
 * How the TanStack-virtualized lists (the surface, the two views) learn their sizes without a
 * synchronous layout inside React's commit.
 *
 * TanStack Virtual's defaults read `clientHeight` of the scroller when it starts observing and
 * `offsetHeight` of every item as its ref attaches, both in the commit: the first read forces
 * the layout of everything the commit inserted (10–20 ms when the workspace mounts, part of a
 * long task), and each item's position write before the next read forces another. Here both come
 * from ResizeObservers instead, whose callbacks run after the browser's own layout of the frame
 * and before its paint; until then the scroller is taken to be the window's size and an item
 * keeps its estimate (or its last measured size). Nor is a new list scrolled to where it is.
 */
import { elementScroll } from '@tanstack/react-virtual';
import type { Rect, Virtualizer, VirtualizerOptions } from '@tanstack/react-virtual';

/** The options of a list that say how it is measured. */
export type MeasureOptions<I extends Element> = Partial<
  Pick<VirtualizerOptions<HTMLDivElement, I>, 'initialRect' | 'observeElementRect' | 'measureElement' | 'scrollToFn'>
>;

/** A host without layout (jsdom): the viewport is fixed, and nothing is measured. */
function fixedRect<I extends Element>(rect: Rect) {
  return (_instance: Virtualizer<HTMLDivElement, I>, notify: (rect: Rect) => void) => {
    notify(rect);
    return () => {};
  };
}

/** The scroller's size from its observer (see the file comment). */
function observedRect<I extends Element>(instance: Virtualizer<HTMLDivElement, I>, notify: (rect: Rect) => void): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element || typeof ResizeObserver === 'undefined') return undefined;
  const observer = new ResizeObserver(() => notify({ width: element.clientWidth, height: element.clientHeight }));
  observer.observe(element, { box: 'content-box' });
  return () => observer.disconnect();
}

/** An item's size: from its observer's entry, else what the virtualizer already holds for it. */
function observedSize<I extends Element>(
  element: I,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<HTMLDivElement, I>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  if (entry) return Math.round(element.getBoundingClientRect().height);
  const index = instance.indexFromElement(element);
  return instance.measurementsCache[index]?.size ?? instance.options.estimateSize(index);
}

/**
 * Scrolls, unless the scroller is already at that offset: a virtualizer that starts observing
 * its scroller scrolls it to where it is (0 for a new list), and that write forces a layout.
 */
function scrollUnlessThere<I extends Element>(
  offset: number,
  options: { adjustments?: number; behavior?: ScrollBehavior },
  instance: Virtualizer<HTMLDivElement, I>,
): void {
  if (!options.adjustments && options.behavior !== 'smooth' && offset === instance.scrollOffset) return;
  elementScroll(offset, options, instance);
}

/** The virtualizer options of a list: fixed sizes without layout, observed sizes with it. */
export function measureOptions<I extends Element>(fixed: Rect | null): MeasureOptions<I> {
  if (fixed) return { initialRect: fixed, observeElementRect: fixedRect<I>(fixed) };
  const initialRect = typeof window === 'undefined' ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight };
  return { initialRect, observeElementRect: observedRect<I>, measureElement: observedSize<I>, scrollToFn: scrollUnlessThere<I> };
}
