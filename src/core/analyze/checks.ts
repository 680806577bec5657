/**
 * The standard set of diagnostic checks run over every session, and the second fold the loader
 * view needs (upstream's loader folds the upgraded events, not the raw ones).
 */
import type { EventCheck, ForkableStep, SurfaceStep } from '../checks/check';
import type { PackedMembers } from '../decode/packed';
import { isRecord } from '../checks/check';
import type { HeaderLineResult } from '../checks/header';
import { upgradeLegacyEvent } from '../checks/legacy';
import { LoaderCheck } from '../checks/loader';
import type { LoaderResult } from '../checks/loader';
import { RelationalCheck } from '../checks/relational';
import { SeedCheck } from '../checks/seed';
import type { SurfaceState } from '../fold/surface';
import { applyPlan, describeFoldError, emptySurfaceState, planEvent } from '../fold/surface';
import type { Diagnostic, EventLog, TextForm } from '../model';
import type { FoldProbe } from './session';

/** What the checks of one session need to know. */
export interface CheckContext {
  /** The text form (the container does not change what is checked). */
  format: TextForm;
  /** The header-line verdict, for session JSONL (null for forms without a header line). */
  header: HeaderLineResult | null;
  /** The raw fold's verdicts. */
  fold: FoldProbe;
  log: EventLog;
}

/**
 * A streaming fold over the loader's upgraded events (log-format.md §11 L7, S8). For a log with
 * no legacy shapes it agrees with the raw fold, so the loader asks the raw fold's verdicts until
 * the upgrade first changes an event (see `LoaderCheckOptions.rawSurface`); only from there on,
 * and for the crash-repair closers, does this fold run. On its first call, at index `i`, it
 * starts from the state after the log's events `0…i-1`: the raw fold's own state when that is
 * where the raw fold stands (always so for the closers), else a refold of those events from the
 * log (a legacy upgrade in the middle of a log; legacy logs are small).
 */
function loaderFold(fold: FoldProbe, log: EventLog, sessionId: string, from: SurfaceState | null = null): ForkableStep {
  let state: SurfaceState | null = from;
  const quiet = { sessionId, messageIdAt: () => undefined, upgraded: () => {} };
  const lookup = (seq: number): unknown => {
    try {
      return upgradeLegacyEvent(log.event(seq), quiet);
    } catch {
      return log.event(seq);
    }
  };
  const catchUp = (count: number): SurfaceState => {
    const raw = fold.stateAfter(count);
    if (raw !== null) return raw;
    // The loader accepted these events unchanged, so the raw fold accepted them too: no refusal.
    const fresh = emptySurfaceState();
    for (let i = 0; i < count; i++) applyPlan(fresh, planEvent(log.event(i), i, fresh.nodes, lookup));
    return fresh;
  };
  const step: SurfaceStep = (event, index) => {
    state ??= catchUp(index);
    try {
      applyPlan(state, planEvent(event, index, state.nodes, lookup));
      return null;
    } catch (error) {
      return describeFoldError(error).message;
    }
  };
  // A copy with its own state, for a check that finishes a copy of itself (a growing session).
  const fork = (): ForkableStep =>
    loaderFold(fold, log, sessionId, state === null ? null : { nodes: state.nodes.clone(), replaceGeneration: state.replaceGeneration });
  return Object.assign(step, { fork });
}

/** How the `loader/result` summary of a refused log begins; upstream's exact message follows. */
export const LOADER_REFUSES_PREFIX = "upstream's loader refuses this log: ";

/** The loader's final verdict as one summary line. */
function loaderSummary({ loadError, appended }: LoaderResult): Diagnostic {
  const message =
    loadError === null ? `upstream's loader accepts this log and appends ${appended.join(', ')}` : `${LOADER_REFUSES_PREFIX}${loadError}`;
  return { severity: 'info', rule: 'loader/result', seq: null, line: null, message };
}

/** `{`: a line starting with it holds one object (an event, a packed row or an envelope). */
const OPEN_BRACE = 0x7b;

/**
 * All standard checks behind one {@link EventCheck}: the analyzer's per-event call stays
 * monomorphic, each check is called directly, and the loader can reuse the seed check's work.
 * Findings come in the fixed order seed, loader, loader summary, relational.
 *
 * Most events are `assistant/chunk`s, mostly members of packed rows; each check has a path for
 * them that skips what cannot apply. A line that holds one object and yields several events is
 * a packed row, whose members are all chunks with one `turn` and `step`, so its later members
 * need no type test. A line is recognised by its number (see {@link EventCheck.event}), which is
 * cheaper to compare than its text.
 *
 * Better still, such a later member whose seq equals its position (so is a safe integer) and
 * which the raw fold accepted changes nothing in any check but counters and "last seen" values,
 * provided each check said so when the run began (`canTakeChunkRun`): those members are only
 * counted here and handed over as one run (`chunkRun`) before anything else reaches the checks.
 */
class StandardChecks implements EventCheck {
  /** The previous event's line and whether it holds one object and the event was a chunk. */
  private runLine: number | null = null;
  private runObjectChunk = false;
  /** The pending run: how many events, the first and last position, the last one's seq and time. */
  private pending = 0;
  private pendingFirst = 0;
  private pendingLast = 0;
  private pendingTime = 0;

  constructor(
    private readonly fold: FoldProbe,
    private readonly seed: SeedCheck,
    private readonly loader: LoaderCheck | null,
    private readonly relational: RelationalCheck,
  ) {}

  event(value: unknown, index: number, line: number | null, text?: string): void {
    if (line !== null && line === this.runLine && text !== undefined && this.runObjectChunk === true) {
      // The next member of a packed row (no other line holding one object has two events).
      const event = value as Record<string, unknown>;
      const time = event.time;
      if (typeof time === 'number' && this.takeLaterMember(event.seq, time, index)) return;
      this.flush();
      this.chunk(event, index, line, text, true);
      return;
    }
    this.flush();
    const chunk = isRecord(value) && value.type === 'assistant/chunk';
    this.runLine = line;
    this.runObjectChunk = chunk && text !== undefined && text.charCodeAt(0) === OPEN_BRACE;
    if (chunk) {
      this.chunk(value, index, line, text, false);
      return;
    }
    // The seed check goes first: the loader reuses its verdict on this event.
    this.seed.event(value, index, line, text);
    if (this.loader !== null) this.loader.event(value, index, line, text);
    this.relational.event(value, index, line);
  }

  /**
   * The members of a packed row, as {@link event} would see them one by one, building only the
   * member events a check has to look at: the first, and any later one not taken into a run.
   */
  packedRow(members: PackedMembers, first: number, line: number, text: string): void {
    this.event(members.event(0), first, line, text);
    const n = members.length;
    for (let k = 1; k < n; k++) {
      const index = first + k;
      if (!this.runObjectChunk) {
        this.event(members.event(k), index, line, text);
      } else if (!this.takeLaterMember(members.seq(k), members.time(k), index)) {
        this.flush();
        this.chunk(members.event(k), index, line, text, true);
      }
    }
  }

  /**
   * A later member of a packed row with the given seq and time: count it into the pending run
   * when nothing but counters can change for it (see the class comment). False when it needs
   * the checks.
   */
  private takeLaterMember(seq: unknown, time: number, index: number): boolean {
    if (seq !== index || this.fold.errorAt(index) !== null) return false;
    if (this.pending > 0) {
      this.pending++;
      this.pendingLast = index;
      this.pendingTime = time;
      return true;
    }
    if ((this.loader === null || this.loader.canTakeChunkRun(index)) && this.relational.canTakeChunkRun(index)) {
      this.pending = 1;
      this.pendingFirst = index;
      this.pendingLast = index;
      this.pendingTime = time;
      return true;
    }
    return false;
  }

  private chunk(event: Record<string, unknown>, index: number, line: number | null, text: string | undefined, sameLine: boolean): void {
    this.seed.chunkEvent(event, index, line, text, sameLine);
    if (this.loader !== null) this.loader.chunkEvent(event, index, line, text);
    // A line's chunks share their turn and step.
    this.relational.chunkEvent(event, index, line, sameLine);
  }

  /** Hand the pending run to the checks. */
  private flush(): void {
    const count = this.pending;
    if (count === 0) return;
    this.pending = 0;
    const last = this.pendingLast;
    this.seed.chunkRun(count, last);
    if (this.loader !== null) this.loader.chunkRun(count, last, this.pendingTime);
    this.relational.chunkRun(this.pendingFirst, last);
  }

  finish(): Diagnostic[] {
    this.flush();
    this.runLine = null;
    const out = this.seed.finish();
    if (this.loader !== null) out.push(...this.loader.finish(), loaderSummary(this.loader.loaderResult()));
    out.push(...this.relational.finish());
    return out;
  }

  /**
   * {@link finish} as if the log ended here, for a session that grows. Flushing the run and
   * forgetting the seed check's line only cost the next event some shared work (a snapshot is
   * taken between lines); the loader and the relational families finish copies or peek.
   */
  provisional(): Diagnostic[] {
    this.flush();
    this.runLine = null;
    const out = this.seed.finish();
    if (this.loader !== null) {
      const { diagnostics, result } = this.loader.provisionalResult();
      out.push(...diagnostics, loaderSummary(result));
    }
    out.push(...this.relational.provisional());
    return out;
  }
}

/** Build the checks for one session. */
export function standardChecks(ctx: CheckContext): EventCheck[] {
  const probe = ctx.fold;
  const rawSurface: SurfaceStep = (_event, index) => probe.errorAt(index);
  const seed = new SeedCheck({ surface: rawSurface });
  let loader: LoaderCheck | null = null;
  if (ctx.header !== null) {
    const surface = loaderFold(probe, ctx.log, ctx.header.sessionId ?? '');
    loader = new LoaderCheck(ctx.header, { surface, rawSurface, seed });
  }
  return [new StandardChecks(probe, seed, loader, new RelationalCheck())];
}
