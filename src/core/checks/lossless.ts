/**
 * The lossless-JSON test of seed validation S1 (log-format.md §5). For JSON-decoded input the
 * only values that do not survive a `JSON.stringify` round trip are `-0` and numbers that
 * overflowed to ±Infinity, so only numbers are inspected.
 */

// One scratch stack shared by all walks: the walk is synchronous and non-reentrant, and reusing
// the array avoids an allocation per event. Slots are cleared as they are popped so no event
// object outlives its walk.
const scratch: unknown[] = [];
/** Above this many slots the scratch array is shrunk again after a walk. */
const SCRATCH_KEEP = 4096;

function isLosslessNumber(x: number): boolean {
  return Number.isFinite(x) && !Object.is(x, -0);
}

/**
 * True when every number inside `value` is finite and not `-0`. Iterative (explicit stack), so
 * deeply nested input such as 100,000 nested arrays cannot overflow the call stack.
 */
export function isLosslessJson(value: unknown): boolean {
  if (typeof value === 'number') return isLosslessNumber(value);
  if (typeof value !== 'object' || value === null) return true;
  const stack = scratch;
  let top = 0;
  stack[top++] = value;
  let ok = true;
  while (top > 0) {
    const node = stack[--top] as object;
    stack[top] = undefined;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const x: unknown = node[i];
        if (typeof x === 'number') {
          if (!isLosslessNumber(x)) ok = false;
        } else if (typeof x === 'object' && x !== null) {
          stack[top++] = x;
        }
      }
    } else {
      const record = node as Record<string, unknown>;
      for (const key in record) {
        const x = record[key];
        if (typeof x === 'number') {
          if (!isLosslessNumber(x)) ok = false;
        } else if (typeof x === 'object' && x !== null) {
          stack[top++] = x;
        }
      }
    }
    if (!ok) break;
  }
  // Drop any references still on the stack after an early exit.
  for (let i = 0; i < top; i++) stack[i] = undefined;
  if (stack.length > SCRATCH_KEEP) stack.length = 0;
  return ok;
}
