/**
 * A bounded copy of a decoded event, for showing an event too large to send whole (a 200 MB tool
 * result): long strings keep their start, long containers their first entries, and a marker
 * says how much was left out. The copy is a plain JSON value; the original is not modified.
 */

/** Strings up to this length are always kept whole, whatever the budget (ids, types, roles). */
const SHORT_STRING = 256;
/**
 * Entries of the event's envelope and of its `data` (depths 0 and 1) kept even when the budget
 * is spent, so `type`, `seq`, `surfaceOp` and the like always arrive.
 */
const ALWAYS_ENTRIES = 64;
/** Containers deeper than this are replaced by a marker (keeps the walk off the stack limit). */
const MAX_DEPTH = 200;
/** Budget charged per container entry besides its content (key, punctuation). */
const ENTRY_COST = 8;

/** The marker that ends a clipped string. */
export function clippedStringMarker(kept: number, length: number): string {
  return `… [clipped: ${kept} of ${length} characters]`;
}

/** Result of {@link clipJsonValue}. */
export interface ClippedValue {
  value: unknown;
  /** True when anything was shortened or left out. */
  clipped: boolean;
}

/**
 * A copy of `value` whose text stays near `budget` characters: strings are cut (keeping at least
 * their first {@link SHORT_STRING} characters) and entries after the budget is spent are left
 * out, with markers. Strings that are kept whole are shared, not copied; cut ones are fresh
 * strings, so the copy does not keep the original's long strings alive.
 */
export function clipJsonValue(value: unknown, budget: number): ClippedValue {
  const state = { left: budget, clipped: false };
  return { value: clipNode(value, 0, state), clipped: state.clipped };
}

function clipNode(value: unknown, depth: number, state: { left: number; clipped: boolean }): unknown {
  if (typeof value === 'string') return clipString(value, state);
  if (value === null || typeof value !== 'object') {
    state.left -= 8;
    return value;
  }
  if (depth >= MAX_DEPTH) {
    state.clipped = true;
    return `… [clipped: nested deeper than ${MAX_DEPTH} levels]`;
  }
  const always = depth <= 1 ? ALWAYS_ENTRIES : 0;
  if (Array.isArray(value)) {
    const out: unknown[] = [];
    for (let i = 0; i < value.length; i++) {
      if (state.left <= 0 && i >= always) {
        state.clipped = true;
        out.push(`… [clipped: ${value.length - i} more items]`);
        break;
      }
      state.left -= ENTRY_COST;
      out.push(clipNode(value[i], depth + 1, state));
    }
    return out;
  }
  const out: Record<string, unknown> = {};
  const keys = Object.keys(value);
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i] as string;
    if (state.left <= 0 && i >= always) {
      state.clipped = true;
      // Defined as data (a log may carry a `__proto__` key; assignment would set the prototype).
      Object.defineProperty(out, '…', {
        value: `[clipped: ${keys.length - i} more keys]`,
        enumerable: true,
        writable: true,
        configurable: true,
      });
      break;
    }
    state.left -= ENTRY_COST + key.length;
    Object.defineProperty(out, key, {
      value: clipNode((value as Record<string, unknown>)[key], depth + 1, state),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

function clipString(text: string, state: { left: number; clipped: boolean }): string {
  const keep = Math.min(text.length, Math.max(SHORT_STRING, state.left));
  state.left -= keep;
  if (keep === text.length) return text;
  state.clipped = true;
  // `slice` would share the original's storage (and keep all of it alive); a round trip through
  // JSON makes a fresh string.
  const head = JSON.parse(JSON.stringify(text.slice(0, keep))) as string;
  return head + clippedStringMarker(keep, text.length);
}
