/**
 * The lossless-JSON test of seed validation S1 (log-format.md §5). For JSON-decoded input the
 * only values that do not survive a `JSON.stringify` round trip are `-0` and numbers that
 * overflowed to ±Infinity, so only numbers are inspected.
 */

/**
 * A literal with an exponent of three or more digits (a digit always precedes the `e` of a JSON
 * number), or a run of 16 digits. Written out digit by digit: irregexp runs `\d{16}` far slower.
 */
const BIG_LITERAL = new RegExp(`\\d[eE][+-]?\\d\\d\\d|${'\\d'.repeat(16)}`);

/**
 * False only when no JSON number literal in `text` can parse to `-0` or ±Infinity, so a value
 * parsed from (a part of) `text` is lossless without walking it. A literal
 * `-?int(.frac)?(e±exp)?` parses to
 * - `-0` when it is negative and rounds to zero: either its integer part is `0` (the text holds
 *   `-0`), or its magnitude, at least 10^exp, is below 2^-1075, so exp ≤ -324 (three digits);
 * - ±Infinity when its magnitude, below 10^(digits of int + exp), reaches about 1.8e308: so
 *   digits + exp ≥ 309, which needs exp ≥ 100 (three digits) or at least 210 integer digits.
 * Both are screened for, conservatively: `-0` anywhere (also inside strings), a three-digit
 * exponent, or 16 digits in a row. Screening costs a few instructions per character, more than
 * walking most events, so it pays only where one screen stands for several walks.
 */
export function mayHoldLossyNumber(text: string): boolean {
  return text.includes('-0') || BIG_LITERAL.test(text);
}

// One scratch stack shared by the deep walks: the walk is synchronous and non-reentrant, and
// reusing the array avoids an allocation per walk. Slots are cleared as they are popped so no
// event object outlives its walk.
const scratch: unknown[] = [];
/** Above this many slots the scratch array is shrunk again after a walk. */
const SCRATCH_KEEP = 4096;
/**
 * Nesting handled by plain recursion, which is cheaper than the explicit stack (whose stores
 * into a long-lived array each cost V8 a write barrier); deeper values go to the stack walk.
 */
const RECURSION_LIMIT = 32;

/** A number `JSON.stringify` writes back as itself: finite and not `-0`. */
export function isLosslessNumber(x: number): boolean {
  return Number.isFinite(x) && !Object.is(x, -0);
}

/**
 * True when every number inside `value` is finite and not `-0`. Deeply nested input such as
 * 100,000 nested arrays cannot overflow the call stack: past a small depth the walk continues
 * with an explicit stack.
 */
export function isLosslessJson(value: unknown): boolean {
  if (typeof value === 'number') return isLosslessNumber(value);
  if (typeof value !== 'object' || value === null) return true;
  return isLosslessNode(value, 0);
}

/** {@link isLosslessJson} of an object or array at nesting `depth`. */
function isLosslessNode(node: object, depth: number): boolean {
  if (depth >= RECURSION_LIMIT) return isLosslessDeep(node);
  if (Array.isArray(node)) {
    for (let i = 0; i < node.length; i++) {
      const x: unknown = node[i];
      if (typeof x === 'number') {
        if (!isLosslessNumber(x)) return false;
      } else if (typeof x === 'object' && x !== null && !isLosslessNode(x, depth + 1)) {
        return false;
      }
    }
    return true;
  }
  const record = node as Record<string, unknown>;
  for (const key in record) {
    const x = record[key];
    if (typeof x === 'number') {
      if (!isLosslessNumber(x)) return false;
    } else if (typeof x === 'object' && x !== null && !isLosslessNode(x, depth + 1)) {
      return false;
    }
  }
  return true;
}

/** {@link isLosslessJson} of an object or array with an explicit stack (any depth). */
function isLosslessDeep(value: object): boolean {
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
