/**
 * Paces a seek: the surface paints first, the other panels follow.
 *
 * After a cursor move the Surface panel's request is already on its way (useSurfaceFeed). The
 * panels that follow a deferred cursor (timeline, inspector, shadowed ranges: useDeferredCursor)
 * wait until the surface has painted that step, then update in the task after that frame, so
 * their renders, their requests to the engine and their layout never compete with the surface's.
 * They never wait for long: when no surface is on screen, or its answer is slow, they go ahead
 * after {@link MAX_WAIT_MS}.
 */
import type { AppStore } from '../../store/createAppStore';

/** Longest a deferred panel waits for the surface of a step. */
export const MAX_WAIT_MS = 100;

interface Waiter {
  step: number;
  run: () => void;
}

interface Pacer {
  /** Surface panels on screen. */
  surfaces: number;
  /** The step the surface showed last. */
  shown: number | null;
  waiters: Set<Waiter>;
}

const pacers = new WeakMap<AppStore, Pacer>();

function pacerOf(store: AppStore): Pacer {
  let pacer = pacers.get(store);
  if (!pacer) {
    pacer = { surfaces: 0, shown: null, waiters: new Set() };
    pacers.set(store, pacer);
  }
  return pacer;
}

/** Runs `run` once the task after the next frame comes (after that frame's paint). */
function afterNextPaint(run: () => void): void {
  if (typeof requestAnimationFrame !== 'function' || typeof MessageChannel !== 'function') {
    setTimeout(run, 0);
    return;
  }
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      run();
    };
    channel.port2.postMessage(null);
  });
}

/** A surface panel is on screen (returns its unregister function). */
export function registerSurface(store: AppStore): () => void {
  const pacer = pacerOf(store);
  pacer.surfaces += 1;
  return () => {
    pacer.surfaces -= 1;
    if (pacer.surfaces === 0) for (const waiter of [...pacer.waiters]) waiter.run();
  };
}

/** The surface committed `step` (before the paint): releases the panels waiting for it. */
export function surfaceShown(store: AppStore, step: number): void {
  const pacer = pacerOf(store);
  pacer.shown = step;
  const ready = [...pacer.waiters].filter((waiter) => waiter.step === step);
  if (ready.length > 0) afterNextPaint(() => ready.forEach((waiter) => waiter.run()));
}

/**
 * Calls `run` once the surface has painted `step`, at once if it already has or if no surface
 * is on screen, and after {@link MAX_WAIT_MS} at the latest. Returns a cancel function.
 */
export function afterSurface(store: AppStore, step: number, run: () => void): () => void {
  const pacer = pacerOf(store);
  if (pacer.surfaces === 0 || pacer.shown === step) {
    run();
    return () => {};
  }
  let done = false;
  const waiter: Waiter = {
    step,
    run: () => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      pacer.waiters.delete(waiter);
      run();
    },
  };
  const timer = setTimeout(waiter.run, MAX_WAIT_MS);
  pacer.waiters.add(waiter);
  return () => {
    done = true;
    clearTimeout(timer);
    pacer.waiters.delete(waiter);
  };
}
