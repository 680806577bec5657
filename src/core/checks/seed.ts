/**
 * Seed validation (log-format.md §5): the per-event checks S1–S7 that upstream runs when it
 * builds a session from events (`Session.create` / `Session.fromRestore`), plus S8 — the surface
 * fold step — through a caller-supplied {@link SurfaceStep}. Like upstream, only the first
 * failure counts.
 */
import type { Diagnostic } from '../model';
import type { EventCheck, FirstFailure, SurfaceStep } from './check';
import { diagnostic, isNonNegativeSafeInteger, isRecord } from './check';
import type { SessionBuildMode } from './header';
import { isLosslessJson } from './lossless';
import { messageShapeProblem, requestHeaderProblem } from './shapes';

/** A failed seed check: our rule id and the exact upstream message. */
export interface SeedProblem {
  rule: string;
  message: string;
}

/** The envelope keys S3 allows; any other key makes the envelope invalid. */
const ENVELOPE_KEYS: ReadonlySet<string> = new Set([
  'type',
  'seq',
  'time',
  'data',
  'surfaceOp',
  'sourceEventSeqs',
  'ignorable',
]);

/** S3: the envelope has only known keys and well-typed `type`, `seq`, `time`, `data`, `ignorable`. */
function isValidEnvelope(event: Record<string, unknown>): boolean {
  for (const key in event) if (!ENVELOPE_KEYS.has(key)) return false;
  const time = event.time;
  return (
    typeof event.type === 'string' &&
    isNonNegativeSafeInteger(event.seq) &&
    typeof time === 'number' &&
    Number.isSafeInteger(time) &&
    Object.hasOwn(event, 'data') &&
    (event.ignorable === undefined || event.ignorable === true)
  );
}

/**
 * Seed checks S1–S7 for the event at index `i`, in upstream's order (S8 is the fold's).
 *
 * Non-object events (possible in JSON-array input) fail S3; upstream would throw a TypeError
 * for `null` instead, which no stored log can contain.
 *
 * @returns the first failing check, or `null`
 */
export function seedEventProblem(event: unknown, i: number, mode: SessionBuildMode): SeedProblem | null {
  if (mode === 'create' && !isLosslessJson(event)) {
    return { rule: 'seed/lossless', message: `seed event at index ${i} is not losslessly JSON-serializable` };
  }
  if (!isRecord(event)) return envelopeProblem(i);
  const type = event.type;
  if (type === 'request/header-delta') {
    return { rule: 'seed/legacy', message: `seed event at index ${i} uses unsupported legacy request/header-delta format` };
  }
  if (!isValidEnvelope(event)) return envelopeProblem(i);
  const data = event.data;
  if (type === 'request/header') {
    const problem = requestHeaderProblem(data);
    if (problem !== null) return { rule: 'seed/request-header', message: `seed request/header at index ${i} ${problem}` };
  } else {
    const problem = messageShapeProblem(type, data);
    if (problem !== null) return { rule: 'seed/message', message: `seed ${String(type)} at index ${i} ${problem}` };
  }
  if (type === 'request/header' && isRecord(data) && data.reason === 'fallback') {
    return { rule: 'seed/legacy', message: `seed event at index ${i} uses unsupported legacy request/header reason "fallback"` };
  }
  const seq = event.seq;
  if (seq !== i) {
    return {
      rule: 'seed/contiguity',
      message: `seed event at index ${i} has seq ${String(seq)} (expected ${i}); seed must be contiguous from 0`,
    };
  }
  return null;
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

/**
 * Streaming seed validation. It keeps two small records and nothing per event; once a failure
 * is found, later events are ignored (upstream throws on the first).
 */
export class SeedCheck implements EventCheck {
  private readonly mode: SessionBuildMode;
  private readonly surface: SurfaceStep | undefined;
  private first: (SeedProblem & { index: number; line: number | null }) | null = null;
  private fold: (FirstFailure & { line: number | null }) | null = null;
  private count = 0;
  private endsWithEndSeed = false;

  constructor(options: SeedCheckOptions = {}) {
    this.mode = options.mode ?? 'create';
    this.surface = options.surface;
  }

  event(value: unknown, index: number, line: number | null): void {
    this.count++;
    this.endsWithEndSeed = isRecord(value) && value.type === 'session/end-seed';
    if (this.first !== null || this.fold !== null) return;
    const problem = seedEventProblem(value, index, this.mode);
    if (problem !== null) {
      this.first = { ...problem, index, line };
      return;
    }
    if (this.surface !== undefined) {
      const message = this.surface(value, index);
      if (message !== null) this.fold = { index, message, line };
    }
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
    if (this.first !== null || this.fold !== null) return null;
    return this.endsWithEndSeed ? this.count : this.count + 1;
  }

  finish(): Diagnostic[] {
    // At most one of the two is set: the check stops at whichever failure comes first.
    const error = this.seedError();
    if (error === null) return [];
    const rule = this.first?.rule ?? 'seed/surface';
    const line = this.first?.line ?? this.fold?.line ?? null;
    return [diagnostic('error', rule, error.index, line, error.message)];
  }
}
