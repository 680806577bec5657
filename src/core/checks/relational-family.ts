/**
 * What the three relational invariant families (events.md §7) share: each replays the log in
 * order and stops at its first violation.
 */
import { isRecord } from './check';

/** The first violation of one family: where, and the invariant's own message (unprefixed). */
export interface Violation {
  index: number;
  line: number | null;
  message: string;
}

/** One relational family, fed every decoded event in order. */
export interface InvariantFamily {
  /** The upstream package that owns the invariant (for the `invariant violated by` prefix). */
  readonly packageName: string;
  /** Our rule id. */
  readonly rule: string;
  /** `event` is the decoded event when it is an object, else `null`. */
  event(event: Record<string, unknown> | null, index: number, line: number | null): void;
  /** The first violation, once every event has been seen (a family may need the whole log). */
  finish(): Violation | null;
  /** Optional: what {@link finish} would say if the log ended here, changing nothing (default: `finish`, for a family whose `finish` changes nothing). */
  provisional?(): Violation | null;
}

// Upstream reads payload fields with plain property access. A payload that is not an object
// would make it throw a TypeError instead of reporting a violation; we read such payloads as
// empty so the family reports what the missing fields imply.
const EMPTY: Record<string, unknown> = Object.freeze({});

/** The event's `data` as a record (empty when it is not one). */
export function dataOf(event: Record<string, unknown>): Record<string, unknown> {
  const data = event.data;
  return isRecord(data) ? data : EMPTY;
}

/** A field of a nested record, `undefined` when the parent is not a record. */
export function field(parent: unknown, key: string): unknown {
  return isRecord(parent) ? parent[key] : undefined;
}
