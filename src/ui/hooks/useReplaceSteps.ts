/**
 * The steps at which a replace was applied, fetched once per session. Besides the scrubber
 * ticks, it tells views whose data changes only at replaces (shadowed ranges, brackets) when
 * they need to refetch: between two replaces, nothing they show can change.
 */
import { useCallback } from 'react';
import { useAppStore } from '../../store/react';
import { selectClient, selectIsReady, selectSessionId, selectSessionKey } from '../../store/selectors';
import type { AppState } from '../../store/types';
import { useRemote } from './useRemote';

/** Number of entries of the sorted `steps` that are ≤ `step`. */
export function countAtOrBefore(steps: Int32Array, step: number): number {
  let lo = 0;
  let hi = steps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((steps[mid] ?? 0) <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

export function useReplaceSteps(): Int32Array | null {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const key = ready ? `${sessionKey}|replaceSteps` : null;
  const remote = useRemote<Int32Array>(key, () => client.replaceSteps({ session }));
  return remote.dataKey === key ? remote.data : null;
}

/**
 * A key part that changes only when the set of replaces applied at `step` changes (the step
 * itself until the replace steps are known).
 */
export function replaceEpochAt(steps: Int32Array | null, step: number): string {
  return steps ? `g${countAtOrBefore(steps, step)}` : `s${step}`;
}

/** True once an epoch of {@link replaceEpochAt} comes from the replace steps, not the step. */
export function isReplaceEpoch(epoch: string): boolean {
  return epoch.startsWith('g');
}

/**
 * {@link replaceEpochAt} the live cursor, or at `step` when given (a deferred cursor). Without
 * `step`, the component re-renders only when the epoch changes, not at every step.
 */
export function useReplaceEpoch(step?: number): string {
  const steps = useReplaceSteps();
  const live = useAppStore(useCallback((s: AppState) => replaceEpochAt(steps, s.step), [steps]));
  return step === undefined ? live : replaceEpochAt(steps, step);
}
