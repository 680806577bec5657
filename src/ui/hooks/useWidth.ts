/**
 * The width of an element, kept current with a ResizeObserver: what a drawn panel (the context
 * curve, the time track) lays its plot out in, and asks the engine for.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { flushSync } from 'react-dom';

/** The width where layout gives none (jsdom, a hidden element). */
const FALLBACK_WIDTH = 600;

/**
 * A ref to attach to the element, and its width in CSS pixels: `null` until the first layout
 * measured it, so that nothing is drawn or asked for at a width the element does not have.
 */
export function useWidth(): { ref: RefObject<HTMLDivElement | null>; width: number | null } {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState<number | null>(null);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      setWidth(element.clientWidth);
      return;
    }
    // The width comes from the observer, whose first callback runs after the browser's layout of
    // the frame that mounted the element, before it is painted: reading `clientWidth` here, in
    // the commit, would force that layout inside it (about 40 ms when the workspace mounts).
    // The first width is an ordinary update, rendered in a task of its own after that frame:
    // flushing it synchronously would also run the mounting commit's effects (every panel's
    // first requests) inside the frame, one long task instead of two short ones. Nothing is
    // drawn before it, so there is nothing to flash. A later resize is rendered at once, so no
    // frame paints the plot at the old width in the new box.
    let measured = false;
    const observer = new ResizeObserver(() => {
      if (measured) flushSync(() => setWidth(element.clientWidth));
      else {
        measured = true;
        setWidth(element.clientWidth);
      }
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width: width === null ? null : width > 0 ? width : FALLBACK_WIDTH };
}
