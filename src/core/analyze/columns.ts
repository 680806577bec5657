/**
 * Per-event columns for the timeline and the checks that need only envelope facts: type id,
 * time, turn, step and surface-op kind, plus `sourceEventSeqs` of surface events in compressed
 * sparse rows. A few bytes per event instead of an object.
 */
import { GrowArray } from '../util/grow';

/** Sentinel for "no turn / no step / no time". */
export const NONE = -2147483648;

/** Surface-op kind codes. */
export const OpCode = { None: 0, Append: 1, Replace: 2, Invalid: 3 } as const;
export type OpCode = (typeof OpCode)[keyof typeof OpCode];

/** Type id 0 stands for an event whose `type` is not a string. */
export const NO_TYPE = '(no type)';

/** The finished columns. */
export interface EventColumns {
  /** Index into `types` per event. */
  typeId: Uint16Array;
  types: string[];
  time: Float64Array;
  turn: Int32Array;
  step: Int32Array;
  op: Uint8Array;
  /** CSR of sourceEventSeqs: event i's sources are `sources[sourceOffset[i] … sourceOffset[i+1])`. */
  sourceOffset: Uint32Array;
  sources: Int32Array;
}

const MAX_TYPES = 65535;
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Builds {@link EventColumns} one event at a time. */
export class ColumnsBuilder {
  private readonly typeIds = new Map<string, number>([[NO_TYPE, 0]]);
  private readonly types: string[] = [NO_TYPE];
  private readonly typeId = new GrowArray(Uint16Array);
  private readonly time = new GrowArray(Float64Array);
  private readonly turn = new GrowArray(Int32Array);
  private readonly step = new GrowArray(Int32Array);
  private readonly op = new GrowArray(Uint8Array);
  private readonly sourceOffset = new GrowArray(Uint32Array);
  private readonly sources = new GrowArray(Int32Array);

  constructor() {
    this.sourceOffset.push(0);
  }

  private intern(type: unknown): number {
    if (typeof type !== 'string') return 0;
    let id = this.typeIds.get(type);
    if (id === undefined) {
      // A hostile log could invent millions of types; past the table's size they share one id.
      if (this.types.length >= MAX_TYPES) return 0;
      id = this.types.length;
      this.types.push(type);
      this.typeIds.set(type, id);
    }
    return id;
  }

  /** Record one event. */
  add(value: any): void {
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
    const type = isObject ? value.type : undefined;
    this.typeId.push(this.intern(type));
    const time = isObject ? value.time : undefined;
    this.time.push(typeof time === 'number' ? time : NaN);
    const data = isObject ? value.data : undefined;
    const hasData = data !== null && typeof data === 'object';
    const turn = hasData ? data.turn : undefined;
    const step = hasData ? data.step : undefined;
    this.turn.push(Number.isSafeInteger(turn) && Math.abs(turn) < 2 ** 31 ? turn : NONE);
    this.step.push(Number.isSafeInteger(step) && Math.abs(step) < 2 ** 31 ? step : NONE);
    const op = isObject ? value.surfaceOp : undefined;
    this.op.push(
      op === undefined
        ? OpCode.None
        : op === 'append'
          ? OpCode.Append
          : op !== null && typeof op === 'object' && op.op === 'replace'
            ? OpCode.Replace
            : OpCode.Invalid,
    );
    const src = isObject ? value.sourceEventSeqs : undefined;
    if (Array.isArray(src)) {
      for (const x of src) if (Number.isSafeInteger(x) && x >= 0 && x < 2 ** 31) this.sources.push(x);
    }
    this.sourceOffset.push(this.sources.length);
  }

  finish(): EventColumns {
    return {
      typeId: this.typeId.finish(),
      types: this.types,
      time: this.time.finish(),
      turn: this.turn.finish(),
      step: this.step.finish(),
      op: this.op.finish(),
      sourceOffset: this.sourceOffset.finish(),
      sources: this.sources.finish(),
    };
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The sources of event `i`. */
export function sourcesOf(columns: EventColumns, i: number): number[] {
  const out: number[] = [];
  const end = columns.sourceOffset[i + 1] ?? 0;
  for (let j = columns.sourceOffset[i] ?? 0; j < end; j++) out.push(columns.sources[j] as number);
  return out;
}

/** Reverse index of sourceEventSeqs: for each seq, the later events that cite it (ascending). */
export interface CitedBy {
  offset: Uint32Array;
  citers: Int32Array;
}

/**
 * Build the "cited by" index (counting sort over the CSR).
 * @param baseSeq seq of event 0; citations outside the log are ignored
 */
export function buildCitedBy(columns: EventColumns, baseSeq: number): CitedBy {
  const n = columns.typeId.length;
  const counts = new Uint32Array(n + 1);
  for (let i = 0; i < n; i++) {
    for (let j = columns.sourceOffset[i] as number; j < (columns.sourceOffset[i + 1] as number); j++) {
      const target = (columns.sources[j] as number) - baseSeq;
      if (target >= 0 && target < n) counts[target + 1] = (counts[target + 1] as number) + 1;
    }
  }
  for (let i = 0; i < n; i++) counts[i + 1] = (counts[i + 1] as number) + (counts[i] as number);
  const offset = counts.slice();
  const fill = counts.slice(0, n);
  const citers = new Int32Array(offset[n] as number);
  for (let i = 0; i < n; i++) {
    for (let j = columns.sourceOffset[i] as number; j < (columns.sourceOffset[i + 1] as number); j++) {
      const target = (columns.sources[j] as number) - baseSeq;
      if (target >= 0 && target < n) {
        citers[fill[target] as number] = i + baseSeq;
        fill[target] = (fill[target] as number) + 1;
      }
    }
  }
  return { offset, citers };
}

/** The seqs that cite event `i`. */
export function citersOf(cited: CitedBy, i: number): number[] {
  const out: number[] = [];
  const end = cited.offset[i + 1] ?? 0;
  for (let j = cited.offset[i] ?? 0; j < end; j++) out.push(cited.citers[j] as number);
  return out;
}
