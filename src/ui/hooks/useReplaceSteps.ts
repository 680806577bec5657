/**
 * The steps at which a replace was applied, fetched once per session. Besides the scrubber
 * ticks, it tells views whose data changes only at replaces (shadowed ranges, brackets) when
 * they need to refetch: between two replaces, nothing they show can change.
 */
import { useAppStore } from '../../store/react';
import { selectClient, selectIsReady, selectSessionIndex, selectSessionKey, selectStep } from '../../store/selectors';
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
  const session = useAppStore(selectSessionIndex);
  const sessionKey = useAppStore(selectSessionKey);
  const key = ready ? `${sessionKey}|replaceSteps` : null;
  const remote = useRemote<Int32Array>(key, () => client.replaceSteps(session));
  return remote.dataKey === key ? remote.data : null;
}

/**
 * A key part that changes only when the set of replaces applied at the cursor changes
 * (falls back to the step itself until the replace steps are known).
 */
export function useReplaceEpoch(): string {
  const steps = useReplaceSteps();
  const step = useAppStore(selectStep);
  return steps ? `g${countAtOrBefore(steps, step)}` : `s${step}`;
}
