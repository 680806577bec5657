/**
 * An {@link EventLog} that keeps the logical text as bytes plus a few integers per row and per
 * event, and parses an event only when asked (design: keep bytes, not objects).
 */
import type { EventLog, EventOrigin, RawPreview } from '../model';
import { GrowArray } from '../util/grow';
import type { ByteBuffer } from '../util/grow';
import { PackedMembers, expandPackedRow, validatePackedRow } from './packed';
import { completeEnvelope } from './projected';

/** How an event sits in its row. */
export const RowKind = {
  /** The row is the event. */
  Plain: 0,
  /** The row is a packed chunk row; the event is member `member`. */
  Packed: 1,
  /** The row is a stream-json envelope; the event is its `event` field. */
  StreamEnvelope: 2,
  /** The row is a JSON array; the event is element `member`. */
  ArrayElement: 3,
  /** The row is a JSON-RPC `session.event` notification; the event is its `params.event`. */
  RpcEnvelope: 4,
} as const;
/** One of {@link RowKind}'s values. */
export type RowKind = (typeof RowKind)[keyof typeof RowKind];

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const LF = 0x0a;
/** A long row is decoded this much at a time when it is only measured. */
const MEASURE_PIECE = 1 << 20;

/**
 * Event storage backed by the logical text. Per row (line) it keeps its byte offset, line,
 * kind and first event; an event's row is found by binary search over the rows' first events
 * (a row's events are consecutive), and its member index is its distance from that first
 * event. Nothing is kept per event: a packed log has about ten events per row.
 */
export class LineLog implements EventLog {
  private readonly text: ByteBuffer;
  private readonly rowStart = new GrowArray(Int32Array);
  private readonly rowLine = new GrowArray(Int32Array);
  private readonly rowKind = new GrowArray(Int32Array);
  /** Index of each row's first event (the event count when it was added, for a row without one). */
  private readonly rowFirst = new GrowArray(Int32Array);
  private events = 0;

  /**
   * An envelope-projected snapshot (log-format.md §1.2 step 9a): each parsed record gets the
   * envelope the scanner gave it (its missing seq by position, its missing time 0), so an event
   * read back equals the event folded.
   */
  projected = false;

  /** @param text the logical text the rows point into (shared with the scanner) */
  constructor(text: ByteBuffer) {
    this.text = text;
  }

  get length(): number {
    return this.events;
  }

  /** Register a row (a line of the logical text). Returns its row id. */
  addRow(start: number, line: number, kind: RowKind): number {
    this.rowStart.push(start);
    this.rowLine.push(line);
    this.rowKind.push(kind);
    this.rowFirst.push(this.events);
    return this.rowStart.length - 1;
  }

  /**
   * Register the next event as member `member` (-1 for the whole row) of row `row`, the last row
   * added: a row's events are added right after it, members in order from 0.
   */
  addEvent(row: number, member: number): void {
    if (row !== this.rowStart.length - 1 || (member >= 0 && member !== this.events - this.rowFirst.get(row))) {
      throw new Error(`LineLog: event ${this.events} is not the next one of the last row`);
    }
    this.events++;
  }

  /** Register the next `count` events as members 0…count-1 of row `row` (the last row added). */
  addEvents(row: number, count: number): void {
    if (row !== this.rowStart.length - 1 || this.events !== this.rowFirst.get(row)) {
      throw new Error(`LineLog: events from ${this.events} are not the first ones of the last row`);
    }
    this.events += count;
  }

  /** The row holding event `i` (the last row whose first event is at or before it). */
  private rowOf(i: number): number {
    const first = this.rowFirst.raw();
    let lo = 0;
    let hi = this.rowFirst.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >>> 1;
      if (first[mid]! <= i) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /** Member index of event `i` in its row (-1 when the row is the event). */
  private memberOf(i: number, row: number): number {
    const kind = this.rowKind.get(row);
    return kind === RowKind.Packed || kind === RowKind.ArrayElement ? i - this.rowFirst.get(row) : -1;
  }

  /** End of a row: its LF (rows are complete lines), found on demand rather than stored. */
  private rowEnd(row: number): number {
    const bytes = this.text.view();
    const end = bytes.indexOf(LF, this.rowStart.get(row));
    return end === -1 ? bytes.length : end;
  }

  private rowText(row: number): string {
    return decoder.decode(this.text.view().subarray(this.rowStart.get(row), this.rowEnd(row)));
  }

  event(i: number): unknown {
    return this.eventFrom(i, this.rowText(this.rowOf(i)));
  }

  /** Event `i`, parsed from `text`, the text of its row. */
  private eventFrom(i: number, text: string): unknown {
    const row = this.rowOf(i);
    const member = this.memberOf(i, row);
    const value = this.parseRow(text, i - Math.max(member, 0));
    switch (this.rowKind.get(row) as RowKind) {
      case RowKind.Plain:
        return value;
      case RowKind.StreamEnvelope:
        return (value as { event?: unknown }).event;
      case RowKind.RpcEnvelope:
        return (value as { params: { event?: unknown } }).params.event;
      case RowKind.ArrayElement:
        return (value as unknown[])[member];
      case RowKind.Packed:
        return new PackedMembers(validatePackedRow(value as Record<string, unknown>)).event(member);
    }
  }

  /** Parse a row's text; `position` is the index of the row's first event. */
  private parseRow(text: string, position: number): unknown {
    const value: unknown = JSON.parse(text);
    return this.projected ? completeEnvelope(value, position) : value;
  }

  /**
   * Every event of the row holding event `i`, from one parse of the row, indexed by member
   * (`[event]` for a row holding one event). Walking the members of a large packed row one
   * `event(i)` at a time would parse the whole row once per member.
   */
  rowEvents(i: number): unknown[] {
    const row = this.rowOf(i);
    const value = this.parseRow(this.rowText(row), i - Math.max(this.memberOf(i, row), 0));
    switch (this.rowKind.get(row) as RowKind) {
      case RowKind.Plain:
        return [value];
      case RowKind.StreamEnvelope:
        return [(value as { event?: unknown }).event];
      case RowKind.RpcEnvelope:
        return [(value as { params: { event?: unknown } }).params.event];
      case RowKind.ArrayElement:
        return value as unknown[];
      case RowKind.Packed:
        return expandPackedRow(validatePackedRow(value as Record<string, unknown>));
    }
  }

  origin(i: number): EventOrigin {
    const row = this.rowOf(i);
    return { line: this.rowLine.get(row), byte: this.rowStart.get(row), member: this.memberOf(i, row) };
  }

  /** 1-based line of event `i`. */
  line(i: number): number {
    return this.rowLine.get(this.rowOf(i));
  }

  raw(i: number): string {
    return this.rowText(this.rowOf(i));
  }

  rawPreview(i: number, maxChars: number): RawPreview {
    const { start, end } = this.rowRange(i);
    const bytes = this.text.view();
    // A character takes at least one byte: a row of at most `maxChars` bytes fits whole.
    if (end - start <= maxChars) {
      const text = decoder.decode(bytes.subarray(start, end));
      return { text, length: text.length };
    }
    // Measure the row piece by piece (a streaming decoder keeps characters split between pieces
    // whole), keeping only its first `maxChars` characters.
    const stream = new TextDecoder('utf-8', { ignoreBOM: true });
    let text = '';
    let length = 0;
    for (let at = start; at < end; at += MEASURE_PIECE) {
      const stop = Math.min(end, at + MEASURE_PIECE);
      const piece = stream.decode(bytes.subarray(at, stop), { stream: stop < end });
      if (text.length < maxChars) text += piece.slice(0, maxChars - text.length);
      length += piece.length;
    }
    return { text, length };
  }

  /**
   * `rawPreview(i, maxChars)` and a parse of event `i` from one decode of the row: what a detail
   * needs, where the two calls would decode a 200 MB row twice (the parse needs all of it
   * decoded anyway). `event` parses the decoded text and throws as `event(i)` does; the preview
   * is a fresh string, so keeping it does not keep the row's text alive.
   */
  rawAndEvent(i: number, maxChars: number): { raw: RawPreview; event: () => unknown } {
    const text = this.rowText(this.rowOf(i));
    const raw: RawPreview =
      text.length <= maxChars
        ? { text, length: text.length }
        : // `slice` would share the row's storage; a round trip through JSON makes a fresh string.
          { text: JSON.parse(JSON.stringify(text.slice(0, maxChars))) as string, length: text.length };
    return { raw, event: () => this.eventFrom(i, text) };
  }

  reader(): (i: number) => unknown {
    let rowStart = -1;
    let values: unknown[] = [];
    return (i) => {
      const origin = this.origin(i);
      if (origin.member < 0) return this.event(i);
      if (origin.byte !== rowStart) {
        try {
          values = this.rowEvents(i);
        } catch {
          // The row no longer parses: say so as `event(i)` does.
          return this.event(i);
        }
        rowStart = origin.byte;
      }
      return values[origin.member];
    };
  }

  rowBytes(i: number): Uint8Array {
    const { start, end } = this.rowRange(i);
    return this.text.view().subarray(start, end);
  }

  /** Byte range of the row holding event `i` in the logical text. */
  rowRange(i: number): { start: number; end: number } {
    const row = this.rowOf(i);
    return { start: this.rowStart.get(row), end: this.rowEnd(row) };
  }

  /** The logical text bytes. */
  bytes(): Uint8Array {
    return this.text.view();
  }

  /** Approximate retained memory in bytes (text excluded: it may be shared). */
  columnBytes(): number {
    return this.rowStart.length * 16;
  }
}

/** An {@link EventLog} over parsed values (JSON array input, the playground). */
export class ValueLog implements EventLog {
  private readonly values: unknown[];
  private readonly lines: readonly number[] | null;
  private readonly firstMember: number;

  /**
   * @param lines each value's 1-based line, or null when the values are the elements of one array
   * @param firstMember the array index of value 0 (1 when element 0 was the session header)
   */
  constructor(values: unknown[], lines: readonly number[] | null = null, firstMember = 0) {
    this.values = values;
    this.lines = lines;
    this.firstMember = firstMember;
  }

  get length(): number {
    return this.values.length;
  }

  event(i: number): unknown {
    // A structured copy keeps callers from mutating the stored event.
    return JSON.parse(JSON.stringify(this.values[i] ?? null)) as unknown;
  }

  origin(i: number): EventOrigin {
    return { line: this.lines?.[i] ?? 0, byte: -1, member: this.lines ? -1 : this.firstMember + i };
  }

  raw(i: number): string {
    return JSON.stringify(this.values[i] ?? null);
  }

  rawPreview(i: number, maxChars: number): RawPreview {
    const raw = this.raw(i);
    if (raw.length <= maxChars) return { text: raw, length: raw.length };
    // A fresh string, not a slice that would keep all of `raw` alive.
    return { text: JSON.parse(JSON.stringify(raw.slice(0, maxChars))) as string, length: raw.length };
  }

  rawAndEvent(i: number, maxChars: number): { raw: RawPreview; event: () => unknown } {
    return { raw: this.rawPreview(i, maxChars), event: () => this.event(i) };
  }

  reader(): (i: number) => unknown {
    return (i) => this.event(i);
  }

  rowBytes(): null {
    return null;
  }

  /** Append an event (the playground's log grows). */
  push(value: unknown): void {
    this.values.push(value);
  }
}
