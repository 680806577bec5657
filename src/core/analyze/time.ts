/**
 * What a session's times can be trusted for (log-format.md §2: `time` is epoch ms and not
 * monotonic; §14: projected snapshots have synthetic times). Computed once per session so every
 * view shows time the same way: as elapsed time from the earliest event (never negative), or as
 * wall-clock time, or not at all when the times carry no clock.
 */
import type { Diagnostic } from '../model';
import { PROJECTED_RULE } from '../decode/projected';

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

/** The facts from a session's time column (NaN where an event has no numeric time). */
export function timeFacts(times: ArrayLike<number>, diagnostics: readonly Diagnostic[]): TimeFacts {
  let origin = Infinity;
  let max = -Infinity;
  let outOfOrder = 0;
  let distinct = false;
  let first: number | null = null;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (Number.isNaN(t)) continue;
    if (first === null) first = t;
    else if (t !== first) distinct = true;
    if (t < max) outOfOrder++;
    if (t > max) max = t;
    if (t < origin) origin = t;
  }
  if (first === null) return { kind: 'absent', origin: null, outOfOrder: 0, note: 'no event records a time' };
  if (diagnostics.some((d) => d.rule === PROJECTED_RULE)) {
    return {
      kind: 'synthetic',
      origin,
      outOfOrder,
      note: 'an envelope-projected snapshot records no times: they are set to 0 (packed rows keep their offsets)',
    };
  }
  if (!distinct)
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
 * computed in one pass.
 */
export function outOfOrderFlags(times: ArrayLike<number>): Uint8Array {
  const flags = new Uint8Array(times.length);
  let max = -Infinity;
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!;
    if (Number.isNaN(t)) continue;
    if (t < max) flags[i] = 1;
    else max = t;
  }
  return flags;
}
