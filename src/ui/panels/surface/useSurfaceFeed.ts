/**
 * The surface at the cursor, fetched the moment the cursor moves.
 *
 * A seek must paint the new surface within a frame, so its request does not wait for React: the
 * feed subscribes to the store itself and sends `surface(session, step, window)` from inside the
 * store update, before any component re-renders and before the other panels (which follow a
 * deferred cursor) send theirs. The engine answers requests in order, so the surface's answer
 * comes back first. One request per cursor move, latest-wins: while one is in flight, newer moves
 * replace each other and only the last is sent after it (a scrubber drag sends a handful).
 *
 * The window is aligned to blocks of top-level indexes around the rendered range, so scrolling
 * the surface list refetches only when it leaves the block.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { createLatestWins } from '../../../client/latestWins';
import { errorMessage, isAbortError } from '../../../client/errors';
import type { SurfaceWindow } from '../../../protocol/protocol';
import type { AppStore } from '../../../store/createAppStore';
import { useAppStore, useAppStoreApi } from '../../../store/react';
import { selectIsReady, selectSessionId, selectSessionKey } from '../../../store/selectors';
import type { AppState } from '../../../store/types';

const BLOCK = 64;
const MARGIN = 16;

export interface SurfaceAnswer {
  /** Session the answer belongs to (see `selectSessionKey`). */
  scope: string;
  window: SurfaceWindow | null;
  error: string | null;
}

export interface SurfaceFeed {
  /** Stops listening; answers still in flight are dropped. */
  stop(): void;
  /** Top-level indexes of the rendered rows: refetches when they leave the current block. */
  setRange(first: number, last: number): void;
}

/**
 * Sends the surface request for the store's cursor now and after every change of session or
 * step (or of the range), and hands every answer to `deliver`.
 */
export function createSurfaceFeed(store: AppStore, deliver: (answer: SurfaceAnswer) => void): SurfaceFeed {
  const lanes = createLatestWins();
  let block = { start: 0, end: BLOCK };
  let sent: string | null = null;
  let alive = true;

  const request = (state: AppState): void => {
    if (!selectIsReady(state)) {
      sent = null;
      return;
    }
    const scope = selectSessionKey(state);
    const { client, step } = state;
    const session = selectSessionId(state);
    const { start, end } = block;
    const key = `${scope}|${step}|${start}|${end}`;
    if (key === sent) return;
    sent = key;
    lanes
      .run('surface', () => client.surface({ session, step, start, count: end - start }))
      .then(
        (window) => {
          if (alive) deliver({ scope, window, error: null });
        },
        (error: unknown) => {
          if (alive && !isAbortError(error)) deliver({ scope, window: null, error: errorMessage(error) });
        },
      );
  };

  request(store.getState());
  const unsubscribe = store.subscribe((state) => request(state));
  return {
    stop() {
      alive = false;
      unsubscribe();
      lanes.cancelPending();
    },
    setRange(first, last) {
      const start = Math.max(0, Math.floor((first - MARGIN) / BLOCK) * BLOCK);
      const end = Math.max(start + BLOCK, Math.ceil((last + MARGIN + 1) / BLOCK) * BLOCK);
      if (start === block.start && end === block.end) return;
      block = { start, end };
      request(store.getState());
    },
  };
}

export interface SurfaceData {
  /** The last answer for this session (it may be for a step the cursor just left). */
  window: SurfaceWindow | null;
  error: string | null;
  setRange(first: number, last: number): void;
}

/** The surface feed of the store in context, for the Surface panel. */
export function useSurfaceFeed(): SurfaceData {
  const store = useAppStoreApi();
  const scope = useAppStore(selectSessionKey);
  const [answer, setAnswer] = useState<SurfaceAnswer>({ scope: '', window: null, error: null });
  const feed = useRef<SurfaceFeed | null>(null);
  useEffect(() => {
    const current = createSurfaceFeed(store, (next) =>
      // Rendered at once, in the task that received the answer: the new surface makes the very
      // next frame. A failed request keeps the last surface on screen, with the error beside it.
      flushSync(() =>
        setAnswer((previous) => (next.window === null && previous.scope === next.scope ? { ...previous, error: next.error } : next)),
      ),
    );
    feed.current = current;
    return () => {
      current.stop();
      feed.current = null;
    };
  }, [store]);
  const setRange = useCallback((first: number, last: number) => feed.current?.setRange(first, last), []);
  const mine = answer.scope === scope;
  return { window: mine ? answer.window : null, error: mine ? answer.error : null, setRange };
}
