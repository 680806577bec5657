/** Search in ascending numeric arrays (seqs of nodes and entries, kept in the order they came). */

/**
 * Index of `value` among the first `count` entries of ascending `values`, or -1. Binary search:
 * the seqs a fold or a check keeps arrive in ascending order, so no hash map is needed beside them.
 */
export function indexOfAscending(values: ArrayLike<number>, count: number, value: number): number {
  let lo = 0;
  let hi = count - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >>> 1;
    const at = values[mid]!;
    if (at === value) return mid;
    if (at < value) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/** The first of the first `count` entries of ascending `values` that is at least `value` (`count` when none). */
export function firstAtLeast(values: ArrayLike<number>, count: number, value: number): number {
  let lo = 0;
  let hi = count;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
