/**
 * The surface fold, exactly as upstream dsh folds it (spec: surface.md §1–§4).
 *
 * `planEvent` runs every check in the spec's order against the current nodes without touching
 * them and returns a plan; `applyPlan` mutates. Everything else (full fold, incremental manager,
 * the analyzer's streaming fold) is built from these two, so there is one implementation of the
 * rules.
 */
import type { FoldResult, Replacement } from '../model';
import { SURFACE_TYPES, SurfaceError } from './errors';
import type { NodePositions } from './live';
import { LiveSurface } from './live';

export type { NodePositions } from './live';
export { LiveSurface } from './live';

/** A validated, not yet applied, change to the surface. */
export type Plan =
  | { kind: 'log-only'; seq: number }
  | { kind: 'append'; seq: number }
  | {
      kind: 'replace';
      seq: number;
      start: number;
      end: number;
      startIdx: number;
      endIdx: number;
      shadowed: number[];
    };

/** Looks up the log event with the given absolute seq (used only by the tool/result rule). */
export type EventLookup = (seq: number) => unknown;

/**
 * Fold state: the current nodes and how many replaces have been applied. The nodes are a
 * {@link LiveSurface}, so a replace finds and removes its range in O(log n) per node.
 */
export interface SurfaceState {
  nodes: LiveSurface;
  replaceGeneration: number;
}

/** The state before the first event. */
export function emptySurfaceState(): SurfaceState {
  return { nodes: new LiveSurface(), replaceGeneration: 0 };
}

// Property reads on `any` are deliberate throughout: upstream reads event fields with plain
// property access, and malformed events (null, scalars, missing `data`) must fail the same way
// (including the engine's TypeError texts, surface.md §3.2).
/* eslint-disable @typescript-eslint/no-explicit-any */

/** True for a non-negative safe integer (`-0` included, as `Number.isSafeInteger` has it). */
function isSeqNumber(x: unknown): x is number {
  return typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;
}

/** Exactly `{op:"replace", start, end}` with non-negative safe integer bounds (surface.md §2). */
function isReplaceShape(op: any): op is { op: 'replace'; start: number; end: number } {
  const keys = Object.keys(op);
  if (keys.length !== 3) return false;
  for (const key of keys) if (key !== 'op' && key !== 'start' && key !== 'end') return false;
  return op.op === 'replace' && isSeqNumber(op.start) && isSeqNumber(op.end);
}

const NO_SHADOWED: readonly number[] = [];

/** P4 without allocating for the common short lists (SameValueZero, as a Set compares). */
function hasDuplicates(list: readonly number[]): boolean {
  // Writers cite in ascending order (chunk seqs, tool calls): a strictly ascending list has none.
  let ascending = true;
  for (let i = 1; i < list.length && ascending; i++) ascending = list[i]! > list[i - 1]!;
  if (ascending) return false;
  if (list.length > 32) return new Set(list).size < list.length;
  for (let i = 1; i < list.length; i++) {
    for (let j = 0; j < i; j++) if (list[i] === list[j]) return true;
  }
  return false;
}

/** Provenance checks P1–P6 (surface.md §3.1). */
function checkProvenance(event: any, shadowed: readonly number[]): void {
  const src = event.sourceEventSeqs;
  const type = event.type;
  let list: readonly unknown[] = NO_SHADOWED;
  if (src !== undefined) {
    if (!Array.isArray(src)) {
      throw new SurfaceError(`sourceEventSeqs on event at seq ${event.seq} must be an array when present`, 'surface/sources-not-array');
    }
    if (src.length === 0 && type !== 'assistant/message') {
      throw new SurfaceError('sourceEventSeqs must not be empty except on assistant/message', 'surface/sources-empty');
    }
    // P3, P4 and P5 in one pass (an assistant message cites every chunk of its step): note the
    // first non-seq, whether the list ascends, and the first seq not earlier than the event's;
    // then report in the spec's order, P3 over the whole list before P4 before P5.
    const seq = event.seq;
    let ascending = true;
    let notEarlier = -1;
    let previous = -1;
    for (let i = 0; i < src.length; i++) {
      const x: unknown = src[i];
      if (!isSeqNumber(x)) {
        throw new SurfaceError(
          `session event "${type}" sourceEventSeqs must densely contain non-negative safe integers`,
          'surface/sources-not-seq',
        );
      }
      if (x <= previous) ascending = false;
      previous = x;
      if (notEarlier < 0 && x >= seq) notEarlier = i;
    }
    if (!ascending && hasDuplicates(src as number[])) {
      throw new SurfaceError('sourceEventSeqs must not contain duplicates', 'surface/sources-duplicate');
    }
    if (notEarlier >= 0) {
      throw new SurfaceError(
        `sourceEventSeqs must reference earlier events: ${src[notEarlier] as number} >= current seq ${seq}`,
        'surface/sources-not-earlier',
      );
    }
    list = src;
  }
  if (shadowed.length === 0) return;
  const cited = list.length > 8 ? new Set(list) : null;
  const missing: number[] = [];
  for (const s of shadowed) {
    if (!(cited ? cited.has(s) : list.includes(s))) missing.push(s);
  }
  if (missing.length > 0) {
    throw new SurfaceError(
      `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`,
      'surface/missing-shadowed-source',
    );
  }
}

/** The masked payload of surface.md §3.2, with the same property reads in the same order. */
function maskToolData(event: any): unknown {
  const data = event.data;
  const message = data.message;
  const content = message.content;
  const first = content[0];
  return { ...data, message: { ...message, content: [{ ...first, content: null }] } };
}

/** JSON deep equality: key order is irrelevant, `null` equals only `null`. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  const aArray = Array.isArray(a);
  if (aArray !== Array.isArray(b)) return false;
  if (aArray) {
    const x = a as unknown[];
    const y = b as unknown[];
    if (x.length !== y.length) return false;
    for (let i = 0; i < x.length; i++) if (!jsonEqual(x[i], y[i])) return false;
    return true;
  }
  const x = a as Record<string, unknown>;
  const y = b as Record<string, unknown>;
  const keys = Object.keys(x);
  if (keys.length !== Object.keys(y).length) return false;
  for (const key of keys) {
    if (!Object.prototype.hasOwnProperty.call(y, key)) return false;
    if (!jsonEqual(x[key], y[key])) return false;
  }
  return true;
}

/** The tool/result content-only rewrite rule T1–T3 (surface.md §3.2). */
function checkToolRewrite(event: any, shadowed: readonly number[], lookup: EventLookup): void {
  if (shadowed.length !== 1) {
    throw new SurfaceError('tool/result surface replacement must rewrite exactly one current node', 'surface/tool-multiple-nodes');
  }
  const original: any = lookup(shadowed[0]!);
  if (original.type !== 'tool/result') {
    throw new SurfaceError('tool/result surface replacement must target a current tool/result', 'surface/tool-target');
  }
  if (!jsonEqual(maskToolData(original), maskToolData(event))) {
    throw new SurfaceError('tool/result surface replacement may change only content', 'surface/tool-change');
  }
}

/**
 * Run the fold checks for one event against the current nodes, in the spec's order, without
 * mutating anything (surface.md §3).
 *
 * @param event the decoded event (any JSON value)
 * @param expected the seq this event must carry (`baseSeq + position`)
 * @param nodes the current surface (the fold's {@link LiveSurface}, or a plain array)
 * @param lookup finds the original event of a tool/result rewrite by seq
 * @returns the plan to apply
 * @throws SurfaceError with the exact upstream message; a TypeError for the engine-level
 *   failures of malformed events, as upstream in V8
 */
export function planEvent(event: any, expected: number, nodes: NodePositions, lookup: EventLookup): Plan {
  const seq = event.seq;
  if (seq !== expected) {
    throw new SurfaceError(`session event seq ${seq} is not contiguous; expected ${expected}`, 'surface/contiguity');
  }
  const type = event.type;
  const hasOp = event.surfaceOp !== undefined;
  if (!SURFACE_TYPES.has(type)) {
    if (hasOp) {
      throw new SurfaceError(`session event "${type}" is not surface-eligible and cannot carry surfaceOp`, 'surface/op-on-log-only');
    }
    if (event.sourceEventSeqs !== undefined) {
      throw new SurfaceError(
        `session event "${type}" is not surface-eligible and cannot carry sourceEventSeqs`,
        'surface/sources-on-log-only',
      );
    }
    return { kind: 'log-only', seq };
  }
  if (!hasOp) {
    throw new SurfaceError(`session event "${type}" is surface-eligible and requires a surfaceOp marker`, 'surface/missing-op');
  }
  const op = event.surfaceOp;
  if (op === 'append') {
    checkProvenance(event, NO_SHADOWED);
    return { kind: 'append', seq };
  }
  if (op === null || typeof op !== 'object' || Array.isArray(op)) {
    throw new SurfaceError(`session event "${type}" carries an invalid surfaceOp`, 'surface/invalid-op');
  }
  if (!isReplaceShape(op)) {
    throw new SurfaceError(`session event "${type}" carries an invalid replace surfaceOp`, 'surface/invalid-replace-op');
  }
  const { start, end } = op;
  const startIdx = nodes.indexOf(start);
  if (startIdx === -1) {
    throw new SurfaceError(`surface replace: start seq ${start} not found in surface`, 'surface/replace-range');
  }
  const endIdx = nodes.indexOf(end);
  if (endIdx === -1) {
    throw new SurfaceError(`surface replace: end seq ${end} not found in surface`, 'surface/replace-range');
  }
  if (startIdx > endIdx) {
    throw new SurfaceError(
      `surface replace: start seq ${start} (index ${startIdx}) is after end seq ${end} (index ${endIdx})`,
      'surface/replace-range',
    );
  }
  const shadowed = nodes.slice(startIdx, endIdx + 1);
  checkProvenance(event, shadowed);
  if (type === 'tool/result') checkToolRewrite(event, shadowed, lookup);
  return { kind: 'replace', seq, start, end, startIdx, endIdx, shadowed };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/**
 * Apply a plan (surface.md §3.3). Returns the replacement record for a replace, else null.
 */
export function applyPlan(state: SurfaceState, plan: Plan): Replacement | null {
  if (plan.kind === 'append') {
    state.nodes.push(plan.seq);
    return null;
  }
  if (plan.kind === 'replace') {
    state.nodes.replace(plan.startIdx, plan.endIdx, plan.seq);
    state.replaceGeneration += 1;
    return { seq: plan.seq, start: plan.start, end: plan.end, shadowedSeqs: plan.shadowed };
  }
  return null;
}

/**
 * Fold a whole log from seq 0 (surface.md §4). Throws on the first event the fold refuses.
 */
export function foldSurface(events: readonly unknown[]): FoldResult {
  const state = emptySurfaceState();
  const replacements: Replacement[] = [];
  const lookup: EventLookup = (seq) => events[seq];
  for (let i = 0; i < events.length; i++) {
    const record = applyPlan(state, planEvent(events[i], i, state.nodes, lookup));
    if (record) replacements.push(record);
  }
  return { nodes: state.nodes.slice(), replacements };
}

/** Outcome of folding events one by one until the first refusal (the conformance output). */
export interface StepwiseFold extends FoldResult {
  /** Events accepted before the refusal (all of them when there is none). */
  accepted: number;
  replaceGeneration: number;
  error: { index: number; seq: unknown; message: string; rule: string } | null;
}

/** Describe any thrown value as a fold refusal (rule ids for the engine-level failures). */
export function describeFoldError(error: unknown): { message: string; rule: string } {
  if (error instanceof SurfaceError) return { message: error.message, rule: error.rule };
  if (error instanceof Error) return { message: error.message, rule: 'surface/malformed-event' };
  return { message: String(error), rule: 'surface/malformed-event' };
}

/**
 * Feed events one by one and stop at the first refusal; report the state of the accepted prefix
 * and the refusal (surface.md §4 "Conformance output").
 */
export function foldStepwise(events: readonly unknown[], baseSeq = 0): StepwiseFold {
  const state = emptySurfaceState();
  const replacements: Replacement[] = [];
  const lookup: EventLookup = (seq) => events[seq - baseSeq];
  for (let i = 0; i < events.length; i++) {
    const event: unknown = events[i];
    let plan: Plan;
    try {
      plan = planEvent(event, baseSeq + i, state.nodes, lookup);
    } catch (error) {
      const seq = event !== null && typeof event === 'object' ? (event as { seq?: unknown }).seq : undefined;
      return {
        nodes: state.nodes.slice(),
        replacements,
        accepted: i,
        replaceGeneration: state.replaceGeneration,
        error: { index: i, seq: seq === undefined ? null : seq, ...describeFoldError(error) },
      };
    }
    const record = applyPlan(state, plan);
    if (record) replacements.push(record);
  }
  return {
    nodes: state.nodes.slice(),
    replacements,
    accepted: events.length,
    replaceGeneration: state.replaceGeneration,
    error: null,
  };
}
