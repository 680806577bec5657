/**
 * The streaming contract shared by every diagnostic check of the core (header, seed, loader,
 * relational), plus the few shape predicates they all need.
 *
 * Checks see each decoded event exactly once, while its parsed object is alive, and must not keep
 * it: a million-event log is analysed in one pass with only small per-check state. A check may
 * take a packed row's members at once (`packedRow`) and build only the member events it needs.
 */
import type { PackedMembers } from '../decode/packed';
import type { Diagnostic, Severity } from '../model';

/** A diagnostic check fed one decoded event at a time, in log order. */
export interface EventCheck {
  /**
   * Called once per decoded event in log order. `value` is the parsed event (any JSON value).
   * `line` is the 1-based line of the logical text it came from, or `null`: the events of one
   * line (a packed row's members) are consecutive and share it, and lines do not share numbers.
   * `text`, when given, is the JSON text `value` was parsed from or a text containing it (the
   * whole line: a packed row for its members, a stream-json envelope for its event). Every number
   * in `value` is then written in `text` as a literal, or computed by the packed-row expansion
   * from such literals. Checks must give the same verdicts with or without it.
   */
  event(value: unknown, index: number, line: number | null, text?: string): void;
  /**
   * Optional: the members of one validated packed row on line `line`, with event indexes from
   * `first` (see `TextEventSink.packedRow`). Must give the same verdicts as {@link event} called
   * with `members.event(k)` for each member; a check can build only the members it needs.
   */
  packedRow?(members: PackedMembers, first: number, line: number, text: string): void;
  /** Called once after the last event; returns the findings (may also have been accumulated). */
  finish(): Diagnostic[];
  /**
   * Optional: what {@link finish} would return if the log ended here, leaving the check able to
   * take more events (a session that grows). Checks without it are asked {@link finish} only at
   * the end.
   */
  provisional?(): Diagnostic[];
}

/**
 * A {@link SurfaceStep} that can be copied with its state, so a check can finish a copy of
 * itself (see {@link EventCheck.provisional}) without feeding its own fold.
 */
export interface ForkableStep extends SurfaceStep {
  fork(): ForkableStep;
}

/** A copy of a step that has state (see {@link ForkableStep}); a stateless step as it is. */
export function forkStep<T extends SurfaceStep | undefined>(step: T): T {
  const fork = (step as Partial<ForkableStep> | undefined)?.fork;
  return (fork === undefined ? step : fork.call(step)) as T;
}

/**
 * One step of a streaming surface fold (surface.md §3), supplied by the caller so the checks do
 * not depend on a particular fold implementation. It is called with each event in order and
 * returns the fold's exact message when it refuses that event, else `null`; after the first
 * refusal it is not called again.
 */
export type SurfaceStep = (event: unknown, index: number) => string | null;

/** The first failure of a check: the event's index and the exact upstream message. */
export interface FirstFailure {
  index: number;
  message: string;
}

/** A non-null, non-array object (upstream's `asRecord`). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A safe integer ≥ 0 (`-0` included, as `Number.isSafeInteger` has it). */
export function isNonNegativeSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** A string with at least one character. */
export function isNonEmptyString(value: unknown): value is string {
  return typeof value === 'string' && value.length > 0;
}

/**
 * `onlyKeys(obj, required, optional)` of log-format.md §12: every required key is present and no
 * key lies outside required ∪ optional.
 */
export function hasOnlyKeys(record: Record<string, unknown>, required: readonly string[], optional: readonly string[] = []): boolean {
  for (const key in record) {
    if (!required.includes(key) && !optional.includes(key)) return false;
  }
  for (const key of required) if (!Object.hasOwn(record, key)) return false;
  return true;
}

/** Build a diagnostic (keeps the object shape identical everywhere, which V8 likes). */
export function diagnostic(severity: Severity, rule: string, seq: number | null, line: number | null, message: string): Diagnostic {
  return { severity, rule, seq, line, message };
}
