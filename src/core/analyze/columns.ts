/**
 * Per-event columns for the timeline, filters and navigation: type id, time and surface-op kind,
 * plus `sourceEventSeqs` in compressed sparse rows. About 20 bytes per event instead of an
 * object; everything else (turn, step, text) is parsed from the event's line when shown.
 */
import type { PackedMembers } from '../decode/packed';
import { GrowArray } from '../util/grow';

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
  /** {@link OpCode} per event. */
  op: Uint8Array;
  /** CSR of sourceEventSeqs: event i's sources are `sources[sourceOffset[i] … sourceOffset[i+1])`. */
  sourceOffset: Int32Array;
  sources: Int32Array;
}

const MAX_TYPES = 65535;
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Builds {@link EventColumns} one event at a time. */
export class ColumnsBuilder {
  private readonly typeIds = new Map<string, number>([[NO_TYPE, 0]]);
  private readonly types: string[] = [NO_TYPE];
  /** Type id in the low 16 bits, op code above: one push per event instead of two. */
  private readonly typeOp = new GrowArray(Int32Array);
  private readonly time = new GrowArray(Float64Array);
  private readonly sourceOffset = new GrowArray(Int32Array);
  private readonly sources = new GrowArray(Int32Array);
  private chunkType: number | null = null;

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

  /** Make room for `count` events in one allocation per column (an estimate of the log's total). */
  reserve(count: number): void {
    this.typeOp.reserve(count);
    this.time.reserve(count);
    this.sourceOffset.reserve(count + 1);
  }

  /** Record one event. */
  add(value: any): void {
    const isObject = value !== null && typeof value === 'object' && !Array.isArray(value);
    const typeId = this.intern(isObject ? value.type : undefined);
    const time = isObject ? value.time : undefined;
    this.time.push(typeof time === 'number' ? time : NaN);
    const op = isObject ? value.surfaceOp : undefined;
    const code =
      op === undefined
        ? OpCode.None
        : op === 'append'
          ? OpCode.Append
          : op !== null && typeof op === 'object' && op.op === 'replace'
            ? OpCode.Replace
            : OpCode.Invalid;
    this.typeOp.push(typeId | (code << 16));
    const src = isObject ? value.sourceEventSeqs : undefined;
    if (Array.isArray(src)) {
      for (const x of src) if (Number.isSafeInteger(x) && x >= 0 && x < 2 ** 31) this.sources.push(x);
    }
    this.sourceOffset.push(this.sources.length);
  }

  /**
   * Record the members of a validated packed row: `assistant/chunk` events with the row's
   * cumulative times and no surface fields (the same columns {@link add} gives them).
   */
  addPackedRow(members: PackedMembers): void {
    this.chunkType ??= this.intern('assistant/chunk');
    const code = this.chunkType | (OpCode.None << 16);
    const offset = this.sources.length;
    const n = members.length;
    for (let k = 0; k < n; k++) {
      this.time.push(members.time(k));
      this.typeOp.push(code);
      this.sourceOffset.push(offset);
    }
  }

  finish(): EventColumns {
    const packed = this.typeOp.raw();
    const n = this.typeOp.length;
    const typeId = new Uint16Array(n);
    const op = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const v = packed[i] as number;
      typeId[i] = v & 0xffff;
      op[i] = v >>> 16;
    }
    return {
      typeId,
      types: this.types,
      time: this.time.finish(),
      op,
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
