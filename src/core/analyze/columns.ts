/**
 * Per-event columns for the timeline, filters and navigation: type id, time and surface-op kind,
 * plus `sourceEventSeqs` of the few events that cite any, in compressed sparse rows. About 11
 * bytes per event instead of an object; everything else (turn, step, text) is parsed from the
 * event's line when shown.
 */
import type { PackedMembers } from '../decode/packed';
import { GrowArray } from '../util/grow';
import { firstAtLeast, indexOfAscending } from '../util/sorted';

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
  /**
   * The events that cite other events (`sourceEventSeqs` with a usable seq), ascending indexes.
   * Most events cite none (every chunk, every turn and step marker), so the citations are kept
   * per citing event, not per event: 4 bytes a citing event instead of 4 bytes every event.
   */
  citing: Int32Array;
  /** CSR over {@link citing}: the sources of `citing[r]` are `sources[sourceOffset[r] … sourceOffset[r+1])`. */
  sourceOffset: Int32Array;
  sources: Int32Array;
}

/** The row of event `i` in {@link EventColumns.citing}, or -1 when it cites nothing. */
export function citingRow(columns: Pick<EventColumns, 'citing'>, i: number): number {
  return indexOfAscending(columns.citing, columns.citing.length, i);
}

const MAX_TYPES = 65535;
/* eslint-disable @typescript-eslint/no-explicit-any */

/** Builds {@link EventColumns} one event at a time. */
export class ColumnsBuilder {
  private readonly typeIds = new Map<string, number>([[NO_TYPE, 0]]);
  private readonly types: string[] = [NO_TYPE];
  /**
   * Type ids and op codes, written in place in their final types (a packed Int32 column
   * converted at the end held both forms at once: 7 bytes per event at the peak, not 3).
   */
  private idColumn = new Uint16Array(1024);
  private ops = new Uint8Array(1024);
  private count = 0;
  private readonly time = new GrowArray(Float64Array);
  private readonly citing = new GrowArray(Int32Array);
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
    this.room(count);
    this.time.reserve(count);
  }

  /** Room for `capacity` type ids and op codes. */
  private room(capacity: number): void {
    if (capacity <= this.idColumn.length) return;
    const typeIds = new Uint16Array(capacity);
    typeIds.set(this.idColumn.subarray(0, this.count));
    const ops = new Uint8Array(capacity);
    ops.set(this.ops.subarray(0, this.count));
    this.idColumn = typeIds;
    this.ops = ops;
  }

  private push(typeId: number, code: number): void {
    if (this.count === this.idColumn.length) this.room(this.count * 2);
    this.idColumn[this.count] = typeId;
    this.ops[this.count] = code;
    this.count++;
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
    const index = this.count;
    this.push(typeId, code);
    const src = isObject ? value.sourceEventSeqs : undefined;
    if (Array.isArray(src)) {
      const before = this.sources.length;
      for (const x of src) if (Number.isSafeInteger(x) && x >= 0 && x < 2 ** 31) this.sources.push(x);
      if (this.sources.length > before) {
        this.citing.push(index);
        this.sourceOffset.push(this.sources.length);
      }
    }
  }

  /**
   * Record the members of a validated packed row: `assistant/chunk` events with the row's
   * cumulative times and no surface fields (the same columns {@link add} gives them).
   */
  addPackedRow(members: PackedMembers): void {
    this.chunkType ??= this.intern('assistant/chunk');
    const type = this.chunkType;
    const n = members.length;
    for (let k = 0; k < n; k++) {
      this.time.push(members.time(k));
      this.push(type, OpCode.None);
    }
  }

  /**
   * The columns so far, for a session that goes on growing: views of the builder's arrays, valid
   * until the next event (a push may move a column to a larger array). The builder stays usable.
   */
  snapshot(): EventColumns {
    const n = this.count;
    const view = <T extends Int32Array | Float64Array>(a: GrowArray<T>): T => a.raw().subarray(0, a.length) as T;
    return {
      typeId: this.idColumn.subarray(0, n),
      types: this.types,
      time: view(this.time),
      op: this.ops.subarray(0, n),
      citing: view(this.citing),
      sourceOffset: view(this.sourceOffset),
      sources: view(this.sources),
    };
  }

  finish(): EventColumns {
    const n = this.count;
    // As `GrowArray.finish`: a view when at most an eighth is unused (never written), else a copy.
    const trim = <T extends Uint16Array | Uint8Array>(a: T): T => (a.length - n <= a.length >>> 3 ? a.subarray(0, n) : a.slice(0, n)) as T;
    return {
      typeId: trim(this.idColumn),
      op: trim(this.ops),
      types: this.types,
      time: this.time.finish(),
      citing: this.citing.finish(),
      sourceOffset: this.sourceOffset.finish(),
      sources: this.sources.finish(),
    };
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** The sources of event `i`. */
export function sourcesOf(columns: EventColumns, i: number): number[] {
  const out: number[] = [];
  const row = citingRow(columns, i);
  if (row < 0) return out;
  const end = columns.sourceOffset[row + 1]!;
  for (let j = columns.sourceOffset[row]!; j < end; j++) out.push(columns.sources[j]!);
  return out;
}

/**
 * Reverse index of sourceEventSeqs: for each seq, the later events that cite it (ascending).
 * A CSR over the first `offset.length - 1` events, plus (for a growing session, see
 * {@link CitedByIndex}) the citations that arrived after it, by cited event index.
 */
export interface CitedBy {
  offset: Uint32Array;
  citers: Int32Array;
  /** Citers of each event index not in the CSR (ascending seqs, all after the CSR's); absent when none. */
  later?: ReadonlyMap<number, readonly number[]>;
}

/**
 * Build the "cited by" index (counting sort over the CSR).
 * @param baseSeq seq of event 0; citations outside the log are ignored
 * @param outside called with (citer index, cited index) for each citation of an event at or
 *   past the end (the log may grow to it)
 */
export function buildCitedBy(columns: EventColumns, baseSeq: number, outside?: (citer: number, target: number) => void): CitedBy {
  const n = columns.typeId.length;
  const { citing, sourceOffset, sources } = columns;
  const counts = new Uint32Array(n + 1);
  for (let r = 0; r < citing.length; r++) {
    const i = citing[r]!;
    for (let j = sourceOffset[r]!; j < sourceOffset[r + 1]!; j++) {
      const target = sources[j]! - baseSeq;
      if (target >= 0 && target < n) counts[target + 1] = counts[target + 1]! + 1;
      else if (target >= n) outside?.(i, target);
    }
  }
  for (let i = 0; i < n; i++) counts[i + 1] = counts[i + 1]! + counts[i]!;
  const offset = counts.slice();
  const fill = counts.slice(0, n);
  const citers = new Int32Array(offset[n]!);
  for (let r = 0; r < citing.length; r++) {
    const i = citing[r]!;
    for (let j = sourceOffset[r]!; j < sourceOffset[r + 1]!; j++) {
      const target = sources[j]! - baseSeq;
      if (target >= 0 && target < n) {
        citers[fill[target]!] = i + baseSeq;
        fill[target] = fill[target]! + 1;
      }
    }
  }
  return { offset, citers };
}

/**
 * The "cited by" index of a growing session's columns, extended as they grow: the citations of
 * new events go to a map beside the CSR, and the CSR is built again over everything only once
 * the map holds as many citations as it does (so each citation is sorted O(1) times, amortised).
 */
export class CitedByIndex {
  private base: CitedBy | null = null;
  private later = new Map<number, number[]>();
  private laterCount = 0;
  /** Events whose citations are counted. */
  private counted = 0;

  /** @param baseSeq seq of event 0 */
  constructor(readonly baseSeq: number) {}

  /** The index of `columns` (the columns counted before, grown at the end). */
  update(columns: EventColumns): CitedBy {
    const n = columns.typeId.length;
    if (this.base === null || n < this.counted || this.laterCount > Math.max(1024, this.base.citers.length)) {
      this.later = new Map();
      this.laterCount = 0;
      this.base = buildCitedBy(columns, this.baseSeq, (citer, target) => this.cite(target, citer));
      this.counted = n;
    }
    const { citing, sourceOffset, sources } = columns;
    for (let r = firstAtLeast(citing, citing.length, this.counted); r < citing.length; r++) {
      const i = citing[r]!;
      for (let j = sourceOffset[r]!; j < sourceOffset[r + 1]!; j++) {
        const target = sources[j]! - this.baseSeq;
        if (target >= 0) this.cite(target, i);
      }
    }
    this.counted = n;
    const { offset, citers } = this.base;
    return this.laterCount === 0 ? { offset, citers } : { offset, citers, later: this.later };
  }

  private cite(target: number, citer: number): void {
    const list = this.later.get(target);
    if (list === undefined) this.later.set(target, [citer + this.baseSeq]);
    else list.push(citer + this.baseSeq);
    this.laterCount += 1;
  }
}

/** The seqs that cite event `i`. */
export function citersOf(cited: CitedBy, i: number): number[] {
  const out: number[] = [];
  const end = cited.offset[i + 1] ?? 0;
  for (let j = cited.offset[i] ?? 0; j < end; j++) out.push(cited.citers[j]!);
  const later = cited.later?.get(i);
  if (later !== undefined) out.push(...later);
  return out;
}
