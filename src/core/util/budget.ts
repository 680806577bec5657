/**
 * The memory budget of one load.
 *
 * A browser tab that runs out of memory does not throw: it dies ("Aw, Snap!"), taking everything
 * decoded so far with it. So a load gets a budget, and the places where memory grows with the
 * input ask it BEFORE they allocate: the growth of the buffer holding the logical text, the
 * Zstandard decoder's per-frame output, the inflated ZIP members, a JSON array's parse, and the
 * per-event columns and index (estimated per event, so the analyzer itself need not know). When
 * the next allocation would not fit, the load stops there like a decode error, with everything
 * decoded before it kept (rule {@link MEMORY_LIMIT_RULE}).
 *
 * The accounting is an estimate, not a measurement: JavaScript cannot ask how much memory an
 * allocation will really take. The figures below err on the side of stopping early.
 */

/** Rule id of a load stopped by its memory budget. */
export const MEMORY_LIMIT_RULE = 'decode/memory-limit';

/**
 * Estimated bytes held per decoded event: the row table of the log, the timeline columns, the
 * time-travel index and the checks' per-event state. After a load these are about 50 bytes per
 * event (BENCHMARKS.md, worker memory); growing arrays double and are trimmed by a copy at the
 * end, which briefly needs more than twice that.
 */
export const BYTES_PER_EVENT = 128;

/**
 * A line is decoded to a string and parsed while it is handled: its transient cost is about this
 * many times its length in bytes (the string, the parsed values' strings, two bytes per
 * character outside Latin-1). It matters for very long lines (a 200 MB tool result).
 */
export const LINE_FACTOR = 3;

/** Events per byte assumed before any line has been read (generated logs: 1 per ~85 bytes). */
export const PRIOR_EVENTS_PER_BYTE = 1 / 64;

/**
 * A JSON array is parsed whole and its events kept as objects: about this many times its size
 * in bytes (the decoded text, then objects larger than the text they came from).
 */
export const JSON_ARRAY_FACTOR = 3;

/**
 * The load would go over its memory budget. Usually raised before the allocation it refuses, so
 * nothing of it was allocated; the scanner's check after a step (analyze/open.ts `ScanMeter`)
 * raises it once the step's events, more than estimated, are already held, so the load stops
 * before reading more.
 */
export class MemoryLimitError extends Error {
  override readonly name = 'MemoryLimitError';
  /** Bytes the load would hold with the allocation that was refused. */
  readonly needed: number;
  /** The budget's limit. */
  readonly limit: number;

  constructor(needed: number, limit: number) {
    const [need, cap] = formatBytePair(needed, limit);
    super(`would need about ${need}, over the memory limit of ${cap}`);
    this.needed = needed;
    this.limit = limit;
  }
}

/**
 * Bytes a load may hold, and bytes it is estimated to hold. `check` before allocating, `hold`
 * what stays allocated, `release` what was freed.
 */
export class MemoryBudget {
  /** The limit in bytes. */
  readonly limit: number;
  #held = 0;

  /** @param limit bytes the load may hold (the caller subtracts what is held already) */
  constructor(limit: number) {
    this.limit = Math.max(0, Math.floor(limit));
  }

  /** Bytes accounted as held. */
  get held(): number {
    return this.#held;
  }

  /** Bytes that can still be allocated (0 when over). */
  get available(): number {
    return Math.max(0, this.limit - this.#held);
  }

  /** Whether `bytes` more would stay within the limit. */
  fits(bytes: number): boolean {
    return this.#held + bytes <= this.limit;
  }

  /** Throws {@link MemoryLimitError} when `bytes` more (held or transient) would not fit. */
  check(bytes: number): void {
    if (!this.fits(bytes)) throw new MemoryLimitError(this.#held + bytes, this.limit);
  }

  /** Account `bytes` as held (after a successful {@link check}). */
  hold(bytes: number): void {
    this.#held += bytes;
  }

  /** Account `bytes` as freed. */
  release(bytes: number): void {
    this.#held = Math.max(0, this.#held - bytes);
  }
}

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'] as const;

/** A byte count for people: `512 bytes`, `1.5 MiB`, `734 MiB`, `2.1 GiB`. */
export function formatBytes(bytes: number, digits = 1): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  if (unit === 0) return `${Math.round(value)} bytes`;
  const shown = value < 10 || digits > 1 ? value.toFixed(digits) : String(Math.round(value));
  return `${shown} ${UNITS[unit] as string}`;
}

/** Two sizes formatted so that they read differently when they differ ("2.01 GiB" vs "2.00 GiB"). */
export function formatBytePair(a: number, b: number): [string, string] {
  for (let digits = 1; digits < 4; digits++) {
    const pair: [string, string] = [formatBytes(a, digits), formatBytes(b, digits)];
    if (pair[0] !== pair[1] || a === b) return pair;
  }
  return [formatBytes(a, 3), formatBytes(b, 3)];
}
