/**
 * The width of an element, kept current with a ResizeObserver: what a drawn panel (the context
 * curve, the time track) lays its plot out in.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';
import { flushSync } from 'react-dom';

/** What is drawn before the first layout, and where there is none (jsdom). */
const FALLBACK_WIDTH = 600;

/** A ref to attach to the element, and its width in CSS pixels. */
export function useWidth(): { ref: RefObject<HTMLDivElement | null>; width: number } {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    if (typeof ResizeObserver === 'undefined') {
      setWidth(element.clientWidth);
      return;
    }
    // The width comes from the observer, whose first callback runs after the browser's layout of
    // the frame that mounted the element, before it is painted: reading `clientWidth` here, in
    // the commit, forced that layout inside it (about 40 ms when the workspace mounts). The
    // render it asks for is synchronous, so the first painted frame already has the right width.
    const observer = new ResizeObserver(() => flushSync(() => setWidth(element.clientWidth)));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width: width > 0 ? width : FALLBACK_WIDTH };
}
