/**
 * Applies engine answers once per frame. A seek or a scroll brings several answers (rows,
 * brackets, details, ranges…) in separate messages; applied one by one, each is its own React
 * render, commit, layout and often its own painted frame. Queued here, they are applied together
 * in the next animation frame, synchronously (`flushSync`), so they land in that frame: one
 * render and one layout for all of them, and nothing painted half-updated.
 *
 * A frame may not come (a hidden tab, a host without `requestAnimationFrame`): a timer applies
 * the queue then.
 */
import { flushSync } from 'react-dom';

const queue: (() => void)[] = [];
let scheduled = false;
/** Longest wait for a frame before applying anyway. */
const FALLBACK_MS = 100;

function flush(): void {
  if (!scheduled) return;
  scheduled = false;
  const jobs = queue.splice(0);
  flushSync(() => {
    for (const job of jobs) job();
  });
}

/** Runs `apply` (a state update) in the next frame, with every other update queued before it. */
export function inNextFrame(apply: () => void): void {
  queue.push(apply);
  if (scheduled) return;
  scheduled = true;
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(flush);
  setTimeout(flush, FALLBACK_MS);
}
