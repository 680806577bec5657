/**
 * The single streaming pass over a session's events: the conformance fold, the time-travel
 * index, the timeline columns and every diagnostic check see each parsed event once, and none
 * of them keeps it.
 */
import type { EventCheck } from '../checks/check';
import type { TextEventSink } from '../decode/jsonl';
import type { PackedMembers } from '../decode/packed';
import { CompactionQaCheck } from '../qa/compaction';
import { deriveEventMessage } from '../fold/manager';
import type { Plan, SurfaceState } from '../fold/surface';
import { applyPlan, describeFoldError, emptySurfaceState, planEvent } from '../fold/surface';
import { AnalysisRecorder } from '../analysis/recorder';
import type { SessionAnalytics } from '../analysis/recorder';
import { TimeTravelBuilder } from '../index/timetravel';
import type { TimeTravelIndex } from '../index/timetravel';
import type {
  DecodeErrorInfo,
  Diagnostic,
  EventLog,
  EventOrigin,
  Replacement,
  SessionForm,
  SessionFormat,
  SurfaceErrorInfo,
} from '../model';
import { formatLabel } from '../model';
import type { CitedBy, EventColumns } from './columns';
import { buildCitedBy, CitedByIndex, ColumnsBuilder } from './columns';
import { ColumnTally } from './tally';

/** Everything known about one session after loading. */
export interface SessionAnalysis {
  /** Display path (`file`, or `archive.zip!member`). */
  path: string;
  /** The form's label ({@link formatLabel}). */
  format: SessionFormat;
  /** How it was stored: container and text form. */
  form: SessionForm;
  header: Record<string, unknown> | null;
  sessionId: string | null;
  parentSession: string | null;
  /**
   * The header's `seedLength` of a child session (session-store.md §2): its first `seedLength`
   * events are inherited from the parent's history, not the child's own. Null when absent, not a
   * non-negative integer, or the session names no parent.
   */
  seedLength: number | null;
  log: EventLog;
  /** Seq of event 0 (non-zero only for stream-json windows). */
  baseSeq: number;
  partial: boolean;
  columns: EventColumns;
  /**
   * Running totals over `columns` (events per type, the time facts), shared by every snapshot
   * of a growing session: each read counts only the events added since the last.
   */
  readonly tally: ColumnTally;
  /** The reverse of `sourceEventSeqs`, built on first read (the CLI never needs it). */
  readonly citedBy: CitedBy;
  /** The conformance result: the state after the accepted prefix, and the first refusal. */
  fold: {
    accepted: number;
    nodes: number[];
    /** `nodes.length`, without copying the list (a growing session is summarised after every append). */
    nodeCount: number;
    replacements: Replacement[];
    replaceGeneration: number;
    error: SurfaceErrorInfo | null;
  };
  index: TimeTravelIndex;
  /** Model requests and what each replace lost, over the accepted prefix (docs/ANALYSIS.md); absent when the analysis was not run. */
  analytics: SessionAnalytics | null;
  decodeError: DecodeErrorInfo | null;
  diagnostics: Diagnostic[];
}

/** Options for {@link SessionAnalyzer}. */
export interface AnalyzerOptions {
  path: string;
  form: SessionForm;
  header: Record<string, unknown> | null;
  log: EventLog;
  /** Seq of the first event; `null` takes it from the first event (stream-json windows). */
  baseSeq: number | null;
  /** Creates the diagnostic checks to run on every event (they may ask the fold's verdicts). */
  checksFor?: (fold: FoldProbe) => EventCheck[];
  /** Checkpoint interval of the time-travel index (tests); chosen from the size if omitted. */
  checkpointEvery?: number;
  /** Run the compaction QA check (default true). */
  qa?: boolean;
  /** Record model requests and compaction loss (default true). */
  analytics?: boolean;
}

/** Lets a check ask whether the fold refused the event it is looking at. */
export interface FoldProbe {
  /** The fold's exact message when it refused event `index` (always asked after folding it). */
  errorAt(index: number): string | null;
  /** A copy of the fold state when the fold has accepted exactly `count` events, else `null`. */
  stateAfter(count: number): SurfaceState | null;
}

/** False when a surface event's derived message is null (surface.md §7), without copying it. */
function projectsToMessage(value: unknown): boolean {
  try {
    return deriveEventMessage(value) !== null;
  } catch {
    return true;
  }
}

/** A child's `seedLength` when it is a usable count of inherited events (see {@link SessionAnalysis.seedLength}). */
function seedLengthOf(header: Record<string, unknown> | null): number | null {
  const value = header?.seedLength;
  if (typeof header?.parentSession !== 'string' || typeof value !== 'number' || !Number.isSafeInteger(value) || value <= 0) return null;
  return value;
}

/** Consumes one session's events in order and produces its {@link SessionAnalysis}. */
export class SessionAnalyzer implements TextEventSink {
  private readonly options: AnalyzerOptions;
  private baseSeq: number;
  private readonly columns = new ColumnsBuilder();
  private readonly tally = new ColumnTally();
  /** The "cited by" index of the snapshots, extended from one to the next (see {@link snapshot}). */
  private cited: CitedByIndex | null = null;
  private builder: TimeTravelBuilder | null = null;
  private readonly state: SurfaceState = emptySurfaceState();
  private readonly replacements: Replacement[] = [];
  private error: SurfaceErrorInfo | null = null;
  private accepted = 0;
  private readonly checks: EventCheck[];
  /**
   * The compaction QA check is called directly rather than through `checks`: it needs the
   * plan just applied, and a fifth class at that call site makes it megamorphic for all.
   */
  private readonly qa: CompactionQaCheck | null;
  private lastPlan: Plan | null = null;
  private lastPlanIndex = -1;
  private readonly lookup = (seq: number): unknown => this.options.log.event(seq - this.baseSeq);
  private readonly analytics: AnalysisRecorder | null;

  constructor(options: AnalyzerOptions) {
    this.options = options;
    this.baseSeq = options.baseSeq ?? 0;
    const probe: FoldProbe = {
      errorAt: (index) => (this.error !== null && this.error.index === index ? this.error.message : null),
      stateAfter: (count) =>
        this.accepted === count ? { nodes: this.state.nodes.clone(), replaceGeneration: this.state.replaceGeneration } : null,
    };
    this.checks = options.checksFor ? options.checksFor(probe) : [];
    this.qa =
      options.qa === false
        ? null
        : new CompactionQaCheck({
            planAt: (index) => (index === this.lastPlanIndex ? this.lastPlan : null),
            nodes: () => this.state.nodes,
            eventAt: this.lookup,
          });
    this.analytics = options.analytics === false ? null : new AnalysisRecorder(this.lookup);
    if (options.baseSeq !== null) this.builder = new TimeTravelBuilder(this.baseSeq);
  }

  /**
   * Make room for about `count` events in the per-event columns, each in one allocation: grown
   * by doubling instead, every column leaves its earlier copies behind as garbage (as much
   * again as the column) until a full collection. A low estimate only means doubling after it.
   */
  reserveEvents(count: number): void {
    this.columns.reserve(count);
  }

  /** `text`: the line the event came from, when there is one (see {@link EventCheck.event}). */
  event(value: unknown, index: number, origin: EventOrigin, text?: string): void {
    if (!this.builder) {
      const seq = value !== null && typeof value === 'object' ? (value as { seq?: unknown }).seq : undefined;
      this.baseSeq = typeof seq === 'number' && Number.isSafeInteger(seq) && seq >= 0 ? seq : 0;
      this.builder = new TimeTravelBuilder(this.baseSeq);
    }
    this.columns.add(value);
    // After the fold's refusal nothing is applied: the index keeps nothing for the events after it.
    if (this.error === null) this.fold(value, index, origin);
    const line = origin.line > 0 ? origin.line : null;
    for (const check of this.checks) check.event(value, index, line, text);
    this.qa?.event(value, index, line);
    if (this.analytics) {
      if (this.lastPlanIndex === index && this.lastPlan) this.analytics.event(value, this.baseSeq + index, this.lastPlan, line);
      else this.analytics.stop();
    }
  }

  /**
   * The members of one validated packed row (see {@link TextEventSink.packedRow}). Each member
   * is a log-only chunk, so the fold's only question is contiguity, which the row answers for
   * all members at once: `seq0` at the expected seq. Everything else sees each member as through
   * {@link event}; the checks and the QA check ask the fold only about events it has already
   * decided, so deciding the whole row first changes none of their verdicts. Member events are
   * built only where a fold refusal or a check needs them.
   */
  packedRow(members: PackedMembers, first: number, origin: EventOrigin, text: string): void {
    const n = members.length;
    if (this.builder === null) {
      for (let k = 0; k < n; k++) this.event(members.event(k), first + k, origin, text);
      return;
    }
    this.columns.addPackedRow(members);
    // Log-only members make no node: the index keeps nothing for them (only nodes have rows).
    if (this.error === null && members.seq(0) === this.baseSeq + first) this.accepted = first + n;
    else {
      // The fold applies nothing after its refusal: the rest of the row gets no node.
      for (let k = 0; k < n && this.error === null; k++) this.fold(members.event(k), first + k, origin);
    }
    const line = origin.line > 0 ? origin.line : null;
    if (this.analytics) {
      if (this.error === null || this.error.index > first)
        this.analytics.chunkRow(members.row.turn, members.row.step, members.seq(0), members.time(0), line);
      if (this.error !== null) this.analytics.stop();
    }
    for (const check of this.checks) {
      if (check.packedRow !== undefined && line !== null) check.packedRow(members, first, line, text);
      else for (let k = 0; k < n; k++) check.event(members.event(k), first + k, line, text);
    }
    this.qa?.packedRow(members, first, line);
  }

  private fold(value: unknown, index: number, origin: EventOrigin): void {
    const builder = this.builder as TimeTravelBuilder;
    let plan: Plan;
    try {
      plan = planEvent(value, this.baseSeq + index, this.state.nodes, this.lookup);
    } catch (thrown) {
      const seq = value !== null && typeof value === 'object' ? (value as { seq?: unknown }).seq : undefined;
      this.error = { index, seq: seq === undefined ? null : seq, line: origin.line > 0 ? origin.line : null, ...describeFoldError(thrown) };
      return;
    }
    const record = applyPlan(this.state, plan);
    if (record) this.replacements.push(record);
    this.lastPlan = plan;
    this.lastPlanIndex = index;
    builder.add(index, plan, plan.kind === 'log-only' || projectsToMessage(value));
    this.accepted = index + 1;
  }

  /** Close the pass. */
  finish(decodeError: DecodeErrorInfo | null, extra: Diagnostic[] = []): SessionAnalysis {
    return this.analysis(decodeError, extra, false);
  }

  /**
   * The analysis of the events so far, for a session that goes on growing: what {@link finish}
   * would give if the log ended here, while the pass stays open for more events. The columns
   * and the time-travel index are the same objects from call to call, extended in place; the
   * checks answer from copies or peeks; a call costs about what was added since the last.
   */
  snapshot(decodeError: DecodeErrorInfo | null, extra: Diagnostic[] = []): SessionAnalysis {
    return this.analysis(decodeError, extra, true);
  }

  /** The fold result of a snapshot; its node list is copied only when read (a growing session is summarised after every append). */
  private liveFold(): SessionAnalysis['fold'] {
    const nodes = this.state.nodes;
    let copy: number[] | null = null;
    return {
      accepted: this.accepted,
      get nodes(): number[] {
        copy ??= nodes.slice();
        return copy;
      },
      nodeCount: nodes.length,
      replacements: this.replacements,
      replaceGeneration: this.state.replaceGeneration,
      error: this.error,
    };
  }

  private analysis(decodeError: DecodeErrorInfo | null, extra: Diagnostic[], live: boolean): SessionAnalysis {
    this.builder ??= new TimeTravelBuilder(this.baseSeq);
    const builder = this.builder;
    const columns = live ? this.columns.snapshot() : this.columns.finish();
    const diagnostics: Diagnostic[] = [...extra];
    // The checks name an event by its index in the log; a diagnostic names it by its seq (the
    // two differ for a stream-json window, which starts at a later seq).
    const shift = this.baseSeq;
    for (const check of this.checks) {
      const found = live && check.provisional ? check.provisional() : check.finish();
      for (const d of found) diagnostics.push(d.seq === null || shift === 0 ? d : { ...d, seq: d.seq + shift });
    }
    if (this.qa) diagnostics.push(...(live ? this.qa.provisional() : this.qa.finish()));
    const analytics = this.analytics ? this.analytics.finish() : null;
    if (analytics) diagnostics.push(...analytics.findings);
    const header = this.options.header;
    const str = (x: unknown): string | null => (typeof x === 'string' ? x : null);
    const baseSeq = this.baseSeq;
    // Made at the first snapshot with events (a stream-json window takes its base seq from its first event).
    if (live && this.cited?.baseSeq !== baseSeq) this.cited = new CitedByIndex(baseSeq);
    const cited = live ? this.cited : null;
    return {
      path: this.options.path,
      format: formatLabel(this.options.form),
      form: this.options.form,
      header,
      sessionId: str(header?.id),
      parentSession: str(header?.parentSession),
      seedLength: seedLengthOf(header),
      log: this.options.log,
      baseSeq: this.baseSeq,
      partial: this.baseSeq > 0,
      columns,
      tally: this.tally,
      get citedBy(): CitedBy {
        // A growing session's index is extended for what each append added; a finished one is built once.
        if (cited !== null) return cited.update(columns);
        const value = buildCitedBy(columns, baseSeq);
        Object.defineProperty(this, 'citedBy', { value, enumerable: true });
        return value;
      },
      fold: live
        ? this.liveFold()
        : {
            accepted: this.accepted,
            nodes: this.state.nodes.slice(),
            nodeCount: this.state.nodes.length,
            replacements: this.replacements,
            replaceGeneration: this.state.replaceGeneration,
            error: this.error,
          },
      index: live ? builder.live(this.accepted, this.options.checkpointEvery) : builder.finish(this.accepted, this.options.checkpointEvery),
      analytics,
      decodeError,
      diagnostics,
    };
  }
}
