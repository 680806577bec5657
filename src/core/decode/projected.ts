/**
 * Envelope-projected session snapshots (log-format.md §1.2 step 9a, §14): upstream's committed
 * test snapshots keep the header line but drop `seq` and `time` from every body record (`seq0`
 * and `time0` on packed rows). Upstream's replay reads them by giving each record the count of
 * events decoded before it as its seq and 0 as its time; this module does the same, so the
 * events folded here are the events upstream's replay folds.
 */
import { ROW_TAGS } from './packed';

/** Rule and text of the info diagnostic that reports the form (log-format.md §14). */
export const PROJECTED_RULE = 'decode/projected-snapshot';
export const PROJECTED_MESSAGE =
  "envelope-projected snapshot: seq and time are not recorded; seq assigned by position and time set to 0, as dsh replay's parseSessionLog does";

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/**
 * Whether the first body record (the first non-blank line after the header) makes the text a
 * projected snapshot: an object with neither a `seq` nor a `seq0` key. A record that has either
 * key means a persisted log, where nothing is synthesized.
 */
export function isProjectedFirstRecord(value: unknown): boolean {
  return isObject(value) && !Object.prototype.hasOwnProperty.call(value, 'seq') && !Object.prototype.hasOwnProperty.call(value, 'seq0');
}

/**
 * Give a body record of a projected snapshot its envelope in place: a missing seq key (`seq0`
 * for a packed row) becomes `position`, the number of events decoded before this record, and a
 * missing time key (`time0`) becomes 0. A key that is present keeps its value, whatever it is
 * (the fold then judges it). Arrays and scalars are left alone: they have no envelope to fill.
 * @returns the same value
 */
export function completeEnvelope(value: unknown, position: number): unknown {
  if (!isObject(value)) return value;
  const packed = ROW_TAGS.has(value.type);
  const seqKey = packed ? 'seq0' : 'seq';
  const timeKey = packed ? 'time0' : 'time';
  if (!Object.prototype.hasOwnProperty.call(value, seqKey)) value[seqKey] = position;
  if (!Object.prototype.hasOwnProperty.call(value, timeKey)) value[timeKey] = 0;
  return value;
}
