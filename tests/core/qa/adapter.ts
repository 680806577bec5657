/**
 * Test-only: a {@link QaFoldContext} over a plain events array, driven by the real fold
 * (`planEvent`/`applyPlan`), so the QA tests do not depend on the analyzer. It also enforces
 * the context's contract: `planAt` only for the event just fed, `eventAt` only for earlier
 * events, and records every `eventAt` call so tests can check that re-parsing stays lazy.
 */
import type { NodePositions, Plan, SurfaceState } from '../../../src/core/fold/surface';
import { applyPlan, describeFoldError, emptySurfaceState, planEvent } from '../../../src/core/fold/surface';
import type { Diagnostic } from '../../../src/core/model';
import type { CompactionQaOptions } from '../../../src/core/qa';
import { CompactionQaCheck } from '../../../src/core/qa';
import type { QaFoldContext } from '../../../src/core/qa';

/** Options of {@link runQa}. */
export interface RunQaOptions extends CompactionQaOptions {
  /** Seq of events[0] (a window); default: events[0].seq when it is a number, else 0. */
  baseSeq?: number;
  /** Answer `null` instead of the `log-only` plan (the context may do either). */
  logOnlyAsNull?: boolean;
  /** The 1-based line of event `i` (default: `i + 2`, a header line then one event per line). */
  lineOf?: (index: number) => number | null;
}

/** What {@link runQa} observed. */
export interface QaRun {
  diagnostics: Diagnostic[];
  /** The fold's refusal, if any. */
  foldError: { index: number; message: string } | null;
  /** Indices of the events the fold applied as replaces. */
  replaceIndices: number[];
  /** Every `eventAt` call: the index being processed and the seq asked for. */
  eventAtCalls: { index: number; seq: number }[];
  /** The surface at the end (accepted prefix). */
  nodes: number[];
}

/** The context the adapter hands to the check: the fold state as of event `current`. */
class ArrayFoldContext implements QaFoldContext {
  current = -1;
  plan: Plan | null = null;
  readonly calls: { index: number; seq: number }[] = [];

  constructor(
    private readonly events: readonly unknown[],
    private readonly baseSeq: number,
    private readonly state: SurfaceState,
    private readonly logOnlyAsNull: boolean,
  ) {}

  planAt(index: number): Plan | null {
    if (index !== this.current) throw new Error(`planAt(${index}) asked while at event ${this.current}`);
    if (this.plan !== null && this.plan.kind === 'log-only' && this.logOnlyAsNull) return null;
    return this.plan;
  }

  nodes(): NodePositions {
    return this.state.nodes;
  }

  eventAt(seq: number): unknown {
    const i = seq - this.baseSeq;
    if (!Number.isInteger(i) || i < 0 || i >= this.current) {
      throw new Error(`eventAt(${seq}) asked while at event ${this.current}: not an earlier event`);
    }
    this.calls.push({ index: this.current, seq });
    // A fresh object each call, as a re-parse gives.
    return structuredClone(this.events[i]);
  }
}

/** Fold `events` one by one and run a {@link CompactionQaCheck} beside the fold. */
export function runQa(events: readonly unknown[], options: RunQaOptions = {}): QaRun {
  const first = events[0] as { seq?: unknown } | undefined;
  const baseSeq = options.baseSeq ?? (typeof first?.seq === 'number' ? first.seq : 0);
  const state: SurfaceState = emptySurfaceState();
  const ctx = new ArrayFoldContext(events, baseSeq, state, options.logOnlyAsNull ?? false);
  const check = new CompactionQaCheck(ctx, options);
  const lookup = (seq: number): unknown => events[seq - baseSeq];
  const lineOf = options.lineOf ?? ((i: number) => i + 2);
  let foldError: QaRun['foldError'] = null;
  const replaceIndices: number[] = [];
  for (let i = 0; i < events.length; i++) {
    ctx.current = i;
    ctx.plan = null;
    if (foldError === null) {
      try {
        const plan = planEvent(events[i], baseSeq + i, state.nodes, lookup);
        applyPlan(state, plan);
        ctx.plan = plan;
        if (plan.kind === 'replace') replaceIndices.push(i);
      } catch (error) {
        foldError = { index: i, message: describeFoldError(error).message };
      }
    }
    check.event(events[i], i, lineOf(i));
  }
  return { diagnostics: check.finish(), foldError, replaceIndices, eventAtCalls: ctx.calls, nodes: state.nodes.slice() };
}

/** The `qa/*` diagnostics of `run` with this rule. */
export function byRule(run: QaRun, rule: string): Diagnostic[] {
  return run.diagnostics.filter((d) => d.rule === rule);
}
