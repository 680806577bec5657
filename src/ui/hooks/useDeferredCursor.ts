/**
 * The cursor (step and selected seq) for panels that may follow a seek a moment later: the
 * timeline, the inspector, the shadowed ranges.
 *
 * A seek must first paint what changes at once: the transport, and the surface, whose request
 * is already on its way (see panels/surface/useSurfaceFeed.ts). Components that read the store
 * with `useAppStore` re-render synchronously with every store update, so these panels do not:
 * they keep their own copy of the cursor, update it once the surface has painted the new step
 * (seekPacer.ts: the frame after, or 100 ms at most), and in a transition (`startTransition`), so
 * their re-render runs in the background, in slices, and yields to anything urgent. A new
 * session is followed at once, never with the cursor of the previous one.
 */
import { startTransition, useEffect, useState } from 'react';
import { useAppStore, useAppStoreApi } from '../../store/react';
import { selectSessionKey } from '../../store/selectors';
import type { AppState } from '../../store/types';
import { afterSurface } from './seekPacer';

export interface Cursor {
  step: number;
  selectedSeq: number | null;
}

interface Tagged<T> {
  scope: string;
  value: T;
}

function useDeferredFromStore<T>(pick: (state: AppState) => T, same: (a: T, b: T) => boolean): T {
  const store = useAppStoreApi();
  const scope = useAppStore(selectSessionKey);
  const [copy, setCopy] = useState<Tagged<T>>(() => ({ scope, value: pick(store.getState()) }));
  useEffect(() => {
    let last: Tagged<T> | null = null;
    let lastStep = store.getState().step;
    let cancel = (): void => {};
    const follow = (state: AppState): void => {
      const next = { scope: selectSessionKey(state), value: pick(state) };
      if (last !== null && last.scope === next.scope && same(last.value, next.value)) return;
      // A seek within the session waits for the surface; anything else is followed at once.
      const stepMoved = last !== null && last.scope === next.scope && state.step !== lastStep;
      last = next;
      lastStep = state.step;
      const apply = (): void =>
        startTransition(() => setCopy((previous) => (previous.scope === next.scope && same(previous.value, next.value) ? previous : next)));
      cancel();
      cancel = stepMoved ? afterSurface(store, state.step, apply) : (apply(), () => {});
    };
    // Catch up with changes between the first render and this subscription.
    follow(store.getState());
    const unsubscribe = store.subscribe(follow);
    return () => {
      cancel();
      unsubscribe();
    };
    // `pick` and `same` are module-level functions of the hooks below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [store]);
  return copy.scope === scope ? copy.value : pick(store.getState());
}

const pickCursor = (s: AppState): Cursor => ({ step: s.step, selectedSeq: s.selectedSeq });
const sameCursor = (a: Cursor, b: Cursor): boolean => a.step === b.step && a.selectedSeq === b.selectedSeq;
const pickStep = (s: AppState): number => s.step;
const sameNumber = (a: number, b: number): boolean => a === b;

export function useDeferredCursor(): Cursor {
  return useDeferredFromStore(pickCursor, sameCursor);
}

/** The deferred step alone, for panels that do not show the selection. */
export function useDeferredStep(): number {
  return useDeferredFromStore(pickStep, sameNumber);
}
