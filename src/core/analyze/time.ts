/**
 * What a session's times can be trusted for (log-format.md §2: `time` is epoch ms and not
 * monotonic; §14: projected snapshots have synthetic times). Computed once per session so every
 * view shows time the same way: as elapsed time from the earliest event (never negative), or as
 * wall-clock time, or not at all when the times carry no clock.
 */
import type { Diagnostic } from '../model';
import { PROJECTED_RULE } from '../decode/projected';

/** A time column's running facts: what {@link factsOfTally} needs of it. */
export interface TimeTally {
  /** The first numeric time, or null when none yet. */
  first: number | null;
  /** Whether some numeric time differs from the first. */
  distinct: boolean;
  /** The earliest and the latest numeric time so far (±Infinity before the first). */
  origin: number;
  max: number;
  /** Events whose time is earlier than an event before them. */
  outOfOrder: number;
}

/** How a session's times read. */
export interface TimeFacts {
  /**
   * `clock`: real epoch times. `synthetic`: an envelope-projected snapshot, or every time the
   * same (a zeroed fixture): no clock to show. `absent`: no event has a numeric time.
   */
  kind: 'clock' | 'synthetic' | 'absent';
  /** The earliest numeric time (elapsed times count from it, so none is negative), or null. */
  origin: number | null;
  /** Events whose time is earlier than an event before them (the clock stepped back). */
  outOfOrder: number;
  /** Why no clock is shown, for a note beside the time column; null for `clock`. */
  note: string | null;
}

/** The running facts of a time column (see {@link tallyTimes}), before any time is seen. */
export function emptyTimeTally(): TimeTally {
  return { first: null, distinct: false, origin: Infinity, max: -Infinity, outOfOrder: 0 };
}

/**
 * Continue `t` over `times[from…to)`. A column that grows at the end is tallied once per event
 * however often its facts are asked (a growing session is summarised after every append).
 */
export function tallyTimes(t: TimeTally, times: ArrayLike<number>, from: number, to: number): void {
  let { first, distinct, origin, max, outOfOrder } = t;
  for (let i = from; i < to; i++) {
    const x = times[i]!;
    if (Number.isNaN(x)) continue;
    if (first === null) first = x;
    else if (x !== first) distinct = true;
    if (x < max) outOfOrder++;
    if (x > max) max = x;
    if (x < origin) origin = x;
  }
  t.first = first;
  t.distinct = distinct;
  t.origin = origin;
  t.max = max;
  t.outOfOrder = outOfOrder;
}

/** The facts from a session's time column (NaN where an event has no numeric time). */
export function timeFacts(times: ArrayLike<number>, diagnostics: readonly Diagnostic[]): TimeFacts {
  const t = emptyTimeTally();
  tallyTimes(t, times, 0, times.length);
  return factsOfTally(t, diagnostics);
}

/** The facts from a time column's running tally (see {@link tallyTimes}). */
export function factsOfTally(t: TimeTally, diagnostics: readonly Diagnostic[]): TimeFacts {
  const { first, origin, outOfOrder } = t;
  if (first === null) return { kind: 'absent', origin: null, outOfOrder: 0, note: 'no event records a time' };
  if (diagnostics.some((d) => d.rule === PROJECTED_RULE)) {
    return {
      kind: 'synthetic',
      origin,
      outOfOrder,
      note: 'an envelope-projected snapshot records no times: they are set to 0 (packed rows keep their offsets)',
    };
  }
  if (!t.distinct)
    return {
      kind: 'synthetic',
      origin,
      outOfOrder: 0,
      note: `every event has the same time (${first}): the log's times were zeroed or not recorded`,
    };
  return { kind: 'clock', origin, outOfOrder, note: null };
}

/**
 * For each event, whether its time is earlier than an event before it: 1 byte per event,
 * computed once per event. A column that grows at the end is continued where it stopped (in a
 * buffer that doubles), so a growing session's flags cost what each append added.
 */
export class OutOfOrderFlags {
  private flags = new Uint8Array(0);
  private length = 0;
  private max = -Infinity;

  /** The flags of `times` (a view, valid until the next call); `times` must be the column flagged before, grown at the end. */
  update(times: ArrayLike<number>): Uint8Array {
    const n = times.length;
    if (n < this.length) {
      this.length = 0;
      this.max = -Infinity;
    }
    if (n > this.flags.length) {
      const grown = new Uint8Array(this.length === 0 ? n : Math.max(n, 2 * this.flags.length));
      grown.set(this.flags.subarray(0, this.length));
      this.flags = grown;
    }
    const flags = this.flags;
    let max = this.max;
    for (let i = this.length; i < n; i++) {
      const t = times[i]!;
      flags[i] = 0;
      if (Number.isNaN(t)) continue;
      if (t < max) flags[i] = 1;
      else max = t;
    }
    this.max = max;
    this.length = n;
    return flags.subarray(0, n);
  }
}
