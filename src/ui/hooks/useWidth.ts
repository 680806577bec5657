/**
 * The width of an element, kept current with a ResizeObserver: what a drawn panel (the context
 * curve, the time track) lays its plot out in.
 */
import { useLayoutEffect, useRef, useState } from 'react';
import type { RefObject } from 'react';

/** What is drawn before the first layout, and where there is none (jsdom). */
const FALLBACK_WIDTH = 600;

/** A ref to attach to the element, and its width in CSS pixels. */
export function useWidth(): { ref: RefObject<HTMLDivElement | null>; width: number } {
  const ref = useRef<HTMLDivElement | null>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    setWidth(element.clientWidth);
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(() => setWidth(element.clientWidth));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return { ref, width: width > 0 ? width : FALLBACK_WIDTH };
}
