/**
 * Seed validation (log-format.md §5): the per-event checks S1–S7 that upstream runs when it
 * builds a session from events (`Session.create` / `Session.fromRestore`), plus S8 — the surface
 * fold step — through a caller-supplied {@link SurfaceStep}. Like upstream, only the first
 * failure counts.
 *
 * Cost notes (this runs on every event of million-event logs): a `for…in` over an object costs
 * V8 several times a property read, so the common paths avoid it where the answer is already
 * known — see {@link SeedCheck} for how a line's text is used.
 */
import type { Diagnostic } from '../model';
import type { EventCheck, FirstFailure, SurfaceStep } from './check';
import { diagnostic, forkStep, isNonNegativeSafeInteger, isRecord } from './check';
import type { SessionBuildMode } from './header';
import { isLosslessJson, isLosslessNumber, mayHoldLossyNumber } from './lossless';
import { messageShapeProblem, requestHeaderProblem } from './shapes';

/** A failed seed check: our rule id and the exact upstream message. */
export interface SeedProblem {
  rule: string;
  message: string;
}

/** The keys S3 allows in an envelope. */
function isEnvelopeKey(key: string): boolean {
  // A `switch` beats a Set here: parsed keys are internalized, so each case is a pointer test.
  switch (key) {
    case 'type':
    case 'seq':
    case 'time':
    case 'data':
    case 'surfaceOp':
    case 'sourceEventSeqs':
    case 'ignorable':
      return true;
    default:
      return false;
  }
}

/** S3's key rule: every own key is an envelope key. */
function hasOnlyEnvelopeKeys(event: Record<string, unknown>): boolean {
  for (const key in event) if (!isEnvelopeKey(key)) return false;
  return true;
}

/** {@link topLevelPass} flag: some value is not lossless (S1 fails). */
const LOSSY = 1;
/** {@link topLevelPass} flag: some key is not an envelope key (S3 fails). */
const FOREIGN_KEY = 2;

/**
 * S1 and S3's key rule in one pass over the event's own keys (one `for…in` instead of two): the
 * values are checked for losslessness, nested ones walked.
 *
 * @returns {@link LOSSY} and {@link FOREIGN_KEY} flags
 */
function topLevelPass(event: Record<string, unknown>): number {
  let flags = 0;
  for (const key in event) {
    if (!isEnvelopeKey(key)) flags |= FOREIGN_KEY;
    const x = event[key];
    if (typeof x === 'number' ? !isLosslessNumber(x) : typeof x === 'object' && x !== null && !isLosslessJson(x)) {
      // S1 is reported before S3, so the keys after this one do not matter.
      return flags | LOSSY;
    }
  }
  return flags;
}

/**
 * S3 without its key rule (`keysOk` brings that): well-typed `type`, `seq`, `time`, `data`,
 * `ignorable`.
 */
function isValidEnvelope(event: Record<string, unknown>, keysOk: boolean): boolean {
  const time = event.time;
  const ignorable = event.ignorable;
  return (
    keysOk &&
    typeof event.type === 'string' &&
    isNonNegativeSafeInteger(event.seq) &&
    typeof time === 'number' &&
    Number.isSafeInteger(time) &&
    (ignorable === undefined || ignorable === true) &&
    // A JSON value's `data` is its own property: `Object.prototype` has none.
    (event.data !== undefined || Object.hasOwn(event, 'data'))
  );
}

/**
 * S2–S7 for an `assistant/chunk` event, the commonest (S2, S4 and S6 do not apply to it): S3
 * and the seq. The same tests as {@link isValidEnvelope}, written out again on purpose: V8 keeps
 * property-access feedback per function, and this one sees only the few shapes chunk events
 * have (the packed-row expansion's and the writer's), so its reads stay fast.
 */
function chunkShapeProblem(event: Record<string, unknown>, i: number, keysOk: boolean): SeedProblem | null {
  const seq = event.seq;
  const time = event.time;
  const ignorable = event.ignorable;
  if (
    !keysOk ||
    !isNonNegativeSafeInteger(seq) ||
    typeof time !== 'number' ||
    !Number.isSafeInteger(time) ||
    (ignorable !== undefined && ignorable !== true) ||
    (event.data === undefined && !Object.hasOwn(event, 'data'))
  ) {
    return envelopeProblem(i);
  }
  return seq === i ? null : contiguityProblem(seq, i);
}

/**
 * Seed checks S1–S7 for the event at index `i`, in upstream's order (S8 is the fold's).
 *
 * Non-object events (possible in JSON-array input) fail S3; upstream would throw a TypeError
 * for `null` instead, which no stored log can contain.
 *
 * @param text the text the event was parsed from, or one containing it (see
 *   {@link EventCheck.event}); it only lets S1 skip the walk when no literal can be lossy
 * @returns the first failing check, or `null`
 */
export function seedEventProblem(event: unknown, i: number, mode: SessionBuildMode, text?: string): SeedProblem | null {
  if (mode === 'create' && !((text !== undefined && !mayHoldLossyNumber(text)) || isLosslessJson(event))) {
    return losslessProblem(i);
  }
  if (!isRecord(event)) return envelopeProblem(i);
  const keysOk = hasOnlyEnvelopeKeys(event);
  return event.type === 'assistant/chunk' ? chunkShapeProblem(event, i, keysOk) : recordShapeProblem(event, i, keysOk);
}

function losslessProblem(i: number): SeedProblem {
  return { rule: 'seed/lossless', message: `seed event at index ${i} is not losslessly JSON-serializable` };
}

/**
 * Seed checks S2–S7 (all restore mode runs) for a record of any type ({@link chunkShapeProblem}
 * is the same for `assistant/chunk`), given S3's key rule. They depend on the event and its
 * index only, so create and restore agree on them for the same event.
 */
function recordShapeProblem(event: Record<string, unknown>, i: number, keysOk: boolean): SeedProblem | null {
  const type = event.type;
  if (type === 'request/header-delta') {
    return { rule: 'seed/legacy', message: `seed event at index ${i} uses unsupported legacy request/header-delta format` };
  }
  if (!isValidEnvelope(event, keysOk)) return envelopeProblem(i);
  const data = event.data;
  if (type === 'request/header') {
    const problem = requestHeaderProblem(data);
    if (problem !== null) return { rule: 'seed/request-header', message: `seed request/header at index ${i} ${problem}` };
    if (isRecord(data) && data.reason === 'fallback') {
      return { rule: 'seed/legacy', message: `seed event at index ${i} uses unsupported legacy request/header reason "fallback"` };
    }
  } else {
    const problem = messageShapeProblem(type, data);
    if (problem !== null) return { rule: 'seed/message', message: `seed ${String(type)} at index ${i} ${problem}` };
  }
  const seq = event.seq;
  return seq === i ? null : contiguityProblem(seq, i);
}

function contiguityProblem(seq: unknown, i: number): SeedProblem {
  return {
    rule: 'seed/contiguity',
    message: `seed event at index ${i} has seq ${String(seq)} (expected ${i}); seed must be contiguous from 0`,
  };
}

function envelopeProblem(i: number): SeedProblem {
  return { rule: 'seed/envelope', message: `seed event at index ${i} has an invalid event envelope` };
}

/**
 * The first seed error upstream reports, given the first S1–S7 failure and the fold's first
 * refusal (S8): whichever comes first by index; at the same index S1–S7 wins, because upstream
 * checks them before folding the event.
 *
 * @returns the winning failure, a fold refusal worded `invalid seed event at index ${i}: ${m}`
 */
export function combineSeedError(seedFirst: FirstFailure | null, foldError: FirstFailure | null): FirstFailure | null {
  if (foldError !== null && (seedFirst === null || foldError.index < seedFirst.index)) {
    return { index: foldError.index, message: `invalid seed event at index ${foldError.index}: ${foldError.message}` };
  }
  return seedFirst;
}

/** Options of {@link SeedCheck}. */
export interface SeedCheckOptions {
  /** `create` (default) also runs S1, the lossless-JSON check; `restore` does not. */
  mode?: SessionBuildMode;
  /** Runs the fold step S8 on each event that passed S1–S7. Without it only S1–S7 are checked. */
  surface?: SurfaceStep;
}

/** `{`: a line starting with it holds one object (an event, a packed row or an envelope). */
const OPEN_BRACE = 0x7b;

// Screen results, kept as small integers: storing them never needs a write barrier.
const UNKNOWN = 0;
const NO = 1;
const YES = 2;

/**
 * Streaming seed validation. It keeps two small records and nothing per event; once a failure
 * is found, later events are ignored (upstream throws on the first).
 *
 * When the caller passes each event's line text, runs of consecutive events with the same text
 * share work. A line's events are a function of its text, so such a run is one line's events,
 * possibly repeated (identical lines). For a line that is one object (it starts with `{`) the
 * events are those of one packed row or the line's single event:
 * - a packed row's members share their keys (the expansion's `{type, seq, time, data}`), their
 *   `turn`, `step`, `index` and strings, and have validated safe-integer times; member k+1's seq
 *   and time are member k's plus 1 and plus a safe integer, which cannot turn a lossless number
 *   into `-0` or ±Infinity (a sum is `-0` only when both terms are);
 * - a repeated line's events equal the first copy's.
 * So once an event passed S1–S6, the next event of the run passes S1, S2 and S4–S6 too, and S3
 * but for the seq being a safe integer (a packed row's last seqs may pass 2^53), which is tested
 * with S7. As the check stops at its first failure, every event it still examines follows events
 * that passed everything.
 * For any other line (a JSON array of events) {@link mayHoldLossyNumber} screens the line once
 * for S1 on behalf of its second and later events.
 */
export class SeedCheck implements EventCheck {
  private readonly mode: SessionBuildMode;
  private surface: SurfaceStep | undefined;
  private first: (SeedProblem & { index: number; line: number | null }) | null = null;
  private fold: (FirstFailure & { line: number | null }) | null = null;
  /** Set by the first failure of either kind: later events are only counted. */
  private stopped = false;
  private count = 0;
  private endsWithEndSeed = false;
  /** The last event whose S2–S7 verdict this check computed, and that verdict. */
  private judgedIndex = -1;
  private judged: SeedProblem | null = null;
  /** The last event that passed every check here. */
  private passedIndex = -1;
  /** The text of the previous event (dropped at the next line and by {@link finish}). */
  private lineText: string | undefined = undefined;
  /** Whether {@link lineText} holds one object. */
  private lineObject = false;
  /** Whether the screen cleared {@link lineText} (`UNKNOWN` until asked). */
  private lineSafe = UNKNOWN;

  constructor(options: SeedCheckOptions = {}) {
    this.mode = options.mode ?? 'create';
    this.surface = options.surface;
  }

  /**
   * A copy that goes on from this check's state without touching it (its records are replaced,
   * never mutated), with a copy of its fold step (see `forkStep`).
   */
  fork(): SeedCheck {
    const copy = Object.assign(Object.create(SeedCheck.prototype) as SeedCheck, this);
    copy.surface = forkStep(this.surface);
    return copy;
  }

  /**
   * Replace the fold step S8 from the next event on (the loader moves from the raw fold's
   * verdicts to its own fold when the upgrade first changes an event).
   */
  setSurface(surface: SurfaceStep): void {
    this.surface = surface;
  }

  event(value: unknown, index: number, line: number | null, text?: string): void {
    const record = isRecord(value) ? value : null;
    const type = record?.type;
    if (type === 'assistant/chunk') {
      this.chunkEvent(record as Record<string, unknown>, index, line, text);
      return;
    }
    this.count++;
    this.endsWithEndSeed = type === 'session/end-seed';
    if (this.stopped) return;
    const sameLine = this.enterLine(text);
    if (record === null) {
      if (this.mode === 'create' && !((sameLine && this.isLineSafe()) || isLosslessJson(value))) {
        this.fail(losslessProblem(index), index, line);
        return;
      }
      this.judge(value, index, line, envelopeProblem(index));
      return;
    }
    const keysOk = this.checkLossless(record, sameLine);
    if (keysOk === null) {
      this.fail(losslessProblem(index), index, line);
      return;
    }
    this.judge(record, index, line, recordShapeProblem(record, index, keysOk));
  }

  /**
   * {@link event} for an event the caller knows to be a record of type `assistant/chunk`.
   *
   * @param text the event's line, as for {@link event}
   * @param sameLine true when the caller knows `text` is the previous event's text (it saves
   *   comparing them again)
   */
  chunkEvent(event: Record<string, unknown>, index: number, line: number | null, text?: string, sameLine?: boolean): void {
    this.count++;
    this.endsWithEndSeed = false;
    // `=== true`: a plain test of a boolean field costs V8 a full ToBoolean.
    if (this.stopped === true) return;
    let problem: SeedProblem | null;
    const seq = event.seq;
    if (text !== undefined && (sameLine === true || text === this.lineText) && this.lineObject === true) {
      // The next event of a line whose events so far passed S1–S6 (see the class comment): with
      // a right and safe seq, all of S3 and S7 pass; else S3 decides between envelope and
      // contiguity.
      problem = seq === index && isNonNegativeSafeInteger(seq) ? null : chunkShapeProblem(event, index, true);
    } else {
      const keysOk = this.checkLossless(event, this.enterLine(text));
      if (keysOk === null) {
        this.fail(losslessProblem(index), index, line);
        return;
      }
      problem = chunkShapeProblem(event, index, keysOk);
    }
    this.judgedIndex = index;
    if (problem !== null) {
      this.judged = problem;
      this.fail(problem, index, line);
      return;
    }
    this.judged = null;
    const surface = this.surface;
    if (surface !== undefined) {
      const message = surface(event, index);
      if (message !== null) {
        this.failFold(index, message, line);
        return;
      }
    }
    this.passedIndex = index;
  }

  /**
   * {@link chunkEvent} for `count` chunk events ending at position `last` that continue the line
   * of the previous event (`sameLine`), each with seq equal to its position (so a safe integer)
   * and accepted by the fold step S8. They pass S1–S6 with the previous event (see the class
   * comment) and S7 and S8 by the premise, so only the counts move.
   */
  chunkRun(count: number, last: number): void {
    this.count += count;
    this.endsWithEndSeed = false;
    if (this.stopped === true) return;
    this.judgedIndex = last;
    this.judged = null;
    this.passedIndex = last;
  }

  /**
   * {@link event} for an event whose S2–S7 verdict is already known: `problem` must be what
   * {@link shapeVerdict} of another check returned for this very object at this index (S1, which
   * only create mode runs, is still checked here).
   *
   * @param isEndSeed whether the event is a record of type `session/end-seed`
   */
  judgedEvent(value: unknown, isEndSeed: boolean, index: number, line: number | null, problem: SeedProblem | null): void {
    this.count++;
    this.endsWithEndSeed = isEndSeed;
    if (this.stopped) return;
    if (this.lineText !== undefined) this.enterLine(undefined);
    if (this.mode === 'create' && !isLosslessJson(value)) {
      this.fail(losslessProblem(index), index, line);
      return;
    }
    this.afterShape(value, index, line, problem);
  }

  /**
   * The S2–S7 verdict this check computed for event `index` (`null`: it passed them), or
   * `undefined` when that was not the last event it examined (it stops at its first failure).
   * S2–S7 depend on the event and its index only, so create and restore agree on them.
   */
  shapeVerdict(index: number): SeedProblem | null | undefined {
    return this.judgedIndex === index ? this.judged : undefined;
  }

  /** Whether event `index` was the last event examined here and passed all of S1–S8. */
  passed(index: number): boolean {
    return this.passedIndex === index;
  }

  /** Note the event's text; true when it is the previous event's text. */
  private enterLine(text: string | undefined): boolean {
    if (text !== undefined && text === this.lineText) return true;
    this.lineText = text;
    this.lineObject = text !== undefined && text.charCodeAt(0) === OPEN_BRACE;
    this.lineSafe = UNKNOWN;
    return false;
  }

  private isLineSafe(): boolean {
    if (this.lineSafe === UNKNOWN) this.lineSafe = mayHoldLossyNumber(this.lineText as string) ? NO : YES;
    return this.lineSafe === YES;
  }

  /**
   * S1 (create mode only) and S3's key rule for a record, taking what the line's previous event
   * settles (see the class comment).
   *
   * @returns S3's key rule, or `null` when S1 fails
   */
  private checkLossless(event: Record<string, unknown>, sameLine: boolean): boolean | null {
    if (sameLine && this.lineObject) return true;
    if (this.mode === 'create' && !(sameLine && this.isLineSafe())) {
      const flags = topLevelPass(event);
      if ((flags & LOSSY) !== 0) return null;
      return (flags & FOREIGN_KEY) === 0;
    }
    return hasOnlyEnvelopeKeys(event);
  }

  /** Record an S2–S7 verdict (for {@link shapeVerdict}) and go on with it. */
  private judge(value: unknown, index: number, line: number | null, problem: SeedProblem | null): void {
    this.judgedIndex = index;
    this.judged = problem;
    this.afterShape(value, index, line, problem);
  }

  private afterShape(value: unknown, index: number, line: number | null, problem: SeedProblem | null): void {
    if (problem !== null) {
      this.fail(problem, index, line);
      return;
    }
    const surface = this.surface;
    if (surface !== undefined) {
      const message = surface(value, index);
      if (message !== null) {
        this.failFold(index, message, line);
        return;
      }
    }
    this.passedIndex = index;
  }

  private fail(problem: SeedProblem, index: number, line: number | null): void {
    this.first = { ...problem, index, line };
    this.stopped = true;
  }

  private failFold(index: number, message: string, line: number | null): void {
    this.fold = { index, message, line };
    this.stopped = true;
  }

  /** The first S1–S7 failure (S8 excluded), or `null`. */
  firstError(): FirstFailure | null {
    return this.first === null ? null : { index: this.first.index, message: this.first.message };
  }

  /** The fold's first refusal through the `surface` option (unwrapped), or `null`. */
  foldError(): FirstFailure | null {
    return this.fold === null ? null : { index: this.fold.index, message: this.fold.message };
  }

  /** The error upstream's constructor would throw, S1–S8 combined (see {@link combineSeedError}). */
  seedError(): FirstFailure | null {
    return combineSeedError(this.firstError(), this.foldError());
  }

  /**
   * The session's event count after construction: the events seen plus the `session/end-seed`
   * marker appended when the seed does not already end with one (§5.4); `null` after a failure.
   */
  sessionLength(): number | null {
    if (this.stopped) return null;
    return this.endsWithEndSeed ? this.count : this.count + 1;
  }

  finish(): Diagnostic[] {
    this.enterLine(undefined);
    // At most one of the two is set: the check stops at whichever failure comes first.
    const error = this.seedError();
    if (error === null) return [];
    const rule = this.first?.rule ?? 'seed/surface';
    const line = this.first?.line ?? this.fold?.line ?? null;
    return [diagnostic('error', rule, error.index, line, error.message)];
  }
}
