/**
 * The line scanner for logical JSONL text (log-format.md §1.2, §2, §4, §9).
 *
 * Bytes arrive in chunks; each complete line is decoded once, parsed once, expanded (packed
 * rows), registered in a {@link LineLog} and handed to the session's sink while the parsed value
 * is alive. Alongside the fold-input decoding it tracks the upstream loader's view of the same
 * lines (torn tail vs fatal damage), which only ever becomes diagnostics.
 */
import type { DecodeErrorInfo, EventOrigin, EventSink, TextForm } from '../model';
import type { ByteBuffer } from '../util/grow';
import { LineLog, RowKind } from './line-log';
import { expandPackedRow, isPackedRow, PackedMembers, PackedRowError, ROW_TAGS, validatePackedRow } from './packed';
import type { PackedRow } from './packed';
import { completeEnvelope, isProjectedFirstRecord } from './projected';
import { isJsonRpcNotification, rpcContextNote, rpcSessionEvent } from './jsonrpc';

/** A session found in the text. */
export interface TextSession {
  format: TextForm;
  /** The parsed header record (session JSONL), else null. */
  header: Record<string, unknown> | null;
  /** stream-json and JSON-RPC captures: the `sessionId` the events were grouped by. */
  streamSessionId: string | null;
  /**
   * The text's first line (the header candidate) when the session was found, or null when
   * there was no line yet. Sessions are found on a committed line, so the first line is final.
   */
  firstLine: string | null;
  log: LineLog;
  sink: TextEventSink;
}

/** An {@link EventSink} that is also handed the text of the line each event came from. */
export interface TextEventSink extends EventSink {
  event(value: unknown, index: number, origin: EventOrigin, text?: string): void;
  /**
   * The members of one validated packed row, in order; `first` is the first member's event
   * index and `origin.member` is 0. Must have the same effect as calling {@link event} with
   * `members.event(k)` and index `first + k` for each member; a sink may use what the row
   * guarantees (every member is a log-only `assistant/chunk` with seq `seq0 + k` and no surface
   * fields) to skip per-event work and build only the events it needs. Optional: without it the
   * scanner builds every member and calls `event` for each.
   */
  packedRow?(members: PackedMembers, first: number, origin: EventOrigin, text: string): void;
}

/** What the upstream loader's line scanner would make of the text (log-format.md §4). */
export interface LoaderScan {
  /** Events the loader would accept (its contiguous prefix). */
  accepted: number;
  /** The first problem recorded (exact upstream text), or null. */
  issue: string | null;
  /** Logical line (header excluded) of the issue. */
  issueLine: number | null;
  /** True when a `turn/end` follows the damage: upstream refuses the log with `issue`. */
  fatal: boolean;
  /** Bytes after the last LF (an unterminated final line), ignored by both views. */
  tornBytes: number;
  /** Offset of the end of the last complete line. */
  committedBytes: number;
}

/** Creates the sink for each session as it is discovered. */
export type SinkFactory = (session: Omit<TextSession, 'sink'>) => TextEventSink;

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
const LF = 0x0a;
/**
 * Bytes of lines handled per step of `advance` (each line is decoded on its own). The memory
 * budget's estimate of a step's transient cost uses it as the longest text decoded at once when
 * the step's first line is shorter (analyze/pipeline.ts).
 */
export const REGION = 64 * 1024;

function isBlank(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x09 && c !== 0x0d) return false;
  }
  return true;
}

function typeOf(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? (value as { type?: unknown }).type : undefined;
}

function hasTurnEnd(values: readonly unknown[]): boolean {
  for (const value of values) if (typeOf(value) === 'turn/end') return true;
  return false;
}

/** Incremental JSONL decoder over a growing byte buffer. */
export class JsonlScanner {
  private readonly text: ByteBuffer;
  private readonly makeSink: SinkFactory;
  private committed = 0;
  private lineNo = 0;
  private mode: 'detect' | 'jsonl' | 'stream' | 'rpc' = 'detect';
  private headerLineNo = 0;
  private primary: TextSession | null = null;
  private readonly streams = new Map<string, TextSession>();
  private readonly order: TextSession[] = [];
  /** The fold-input decode error (first unparsable line or malformed row), if any. */
  decodeError: DecodeErrorInfo | null = null;
  /** Format decided from the first line. */
  format: TextForm = 'jsonl';
  /** Whether the text started with a UTF-8 byte-order mark, dropped before decoding (log-format.md §1.1). */
  bom = false;
  /**
   * Whether the text is an envelope-projected snapshot (log-format.md §1.2 step 9a): decided by
   * the first body record after a header; from then on every record's missing seq and time
   * are filled in by position before it is decoded.
   */
  projected = false;
  /** Whether the first body record after the header has been seen. */
  private bodySeen = false;
  /**
   * JSON-RPC captures: the notifications shown beside the events (`subagent.*`), with their
   * 1-based line.
   */
  readonly contextNotes: { line: number; message: string }[] = [];
  private events = 0;
  readonly loader: LoaderScan = {
    accepted: 0,
    issue: null,
    issueLine: null,
    fatal: false,
    tornBytes: 0,
    committedBytes: 0,
  };

  /**
   * @param text the buffer the caller appends to; the scanner reads it and keeps it as the log
   * @param makeSink called once per session discovered
   */
  constructor(text: ByteBuffer, makeSink: SinkFactory) {
    this.text = text;
    this.makeSink = makeSink;
  }

  /** Events decoded so far (all sessions). */
  get eventCount(): number {
    return this.events;
  }

  /** Lines processed so far (blank ones included): the next line is `lines + 1`. */
  get lines(): number {
    return this.lineNo;
  }

  /** Sessions discovered so far, in order of discovery. */
  get sessions(): readonly TextSession[] {
    return this.order;
  }

  /** Offset of the end of the last complete line processed. */
  get committedBytes(): number {
    return this.committed;
  }

  /** Bytes already searched for LF (see `advance`). */
  private scanned = 0;

  /** The first line's text (the header candidate), or null before any line. */
  firstLine: string | null = null;

  /**
   * Process every complete line in the buffer up to byte `limit` (default: all of it), region
   * by region. LF is a single byte in UTF-8, never part of a multi-byte sequence, so the lines
   * of the bytes are the lines of the text.
   */
  advance(limit?: number): void {
    const bytes = this.text.view();
    const end = limit === undefined ? bytes.length : Math.min(limit, bytes.length);
    if (end <= this.scanned) return;
    // Look for the last LF among the bytes not scanned yet only: a long line arriving in many
    // small pieces would otherwise be rescanned from its start on every call (quadratic).
    const from = Math.max(this.scanned, this.committed);
    const rel = bytes.subarray(from, end).lastIndexOf(LF);
    this.scanned = end;
    const last = rel === -1 ? -1 : from + rel;
    while (this.committed <= last) {
      let stop = this.committed + REGION - 1 >= last ? last : bytes.lastIndexOf(LF, this.committed + REGION - 1);
      if (stop < this.committed) stop = bytes.indexOf(LF, this.committed);
      this.region(bytes, stop);
    }
    this.loader.committedBytes = this.committed;
  }

  /**
   * Process the complete lines in bytes [committed, stop], where `stop` is an LF. Each line is
   * decoded on its own: a line of ASCII (most of them) then becomes a one-byte string, which
   * `JSON.parse` and everything reading its values scan faster than a slice of a region's
   * two-byte string (one non-ASCII character anywhere in a region makes all of it two-byte).
   * Decoding line by line gives the same text: LF is never part of a multi-byte sequence.
   */
  private region(bytes: Uint8Array, stop: number): void {
    let byteStart = this.committed;
    while (byteStart <= stop) {
      const byteEnd = bytes.indexOf(LF, byteStart);
      this.lineNo += 1;
      let text = decoder.decode(bytes.subarray(byteStart, byteEnd));
      let lineStart = byteStart;
      if (this.lineNo === 1) {
        // The loader view judges the header line as written, byte-order mark included.
        this.firstLine = text;
        if (text.charCodeAt(0) === 0xfeff) {
          this.bom = true;
          text = text.slice(1);
          lineStart += 3;
        }
      }
      this.line(text, lineStart);
      byteStart = byteEnd + 1;
    }
    this.committed = stop + 1;
  }

  /** The input is complete: whatever follows the last LF is ignored (a torn final line). */
  end(): void {
    this.settle(this.text.length);
  }

  /**
   * {@link end} as if the text ended at byte `end` (the rest not yet there): a growing input
   * settles a prefix and scans on later; the next call sets `tornBytes` again.
   */
  settle(end: number): void {
    this.advance(end);
    this.loader.tornBytes = end - this.committed;
    if (this.mode === 'detect' && this.order.length === 0) this.ensurePrimary('jsonl', null);
  }

  /** The logical line number of the header (0 when there is none). */
  get headerLine(): number {
    return this.headerLineNo;
  }

  private ensurePrimary(format: TextForm, header: Record<string, unknown> | null): TextSession {
    if (!this.primary) {
      const base = { format, header, streamSessionId: null, firstLine: this.firstLine, log: new LineLog(this.text) };
      this.primary = { ...base, sink: this.makeSink(base) };
      this.order.push(this.primary);
      this.format = format;
    }
    return this.primary;
  }

  private streamSession(id: string, format: 'stream-json' | 'jsonrpc'): TextSession {
    let session = this.streams.get(id);
    if (!session) {
      const base = { format, header: null, streamSessionId: id, firstLine: this.firstLine, log: new LineLog(this.text) };
      session = { ...base, sink: this.makeSink(base) };
      this.streams.set(id, session);
      this.order.push(session);
    }
    return session;
  }

  /** Loader line number: lines after the header, from 1. */
  private loaderLine(): number {
    return this.lineNo - this.headerLineNo;
  }

  private loaderUnparsable(): void {
    this.loader.issue ??= `corrupt session log: unparsable committed event at line ${this.loaderLine()}`;
    this.loader.issueLine ??= this.loaderLine();
  }

  /** Upstream's scanner step for a decoded line (log-format.md §4). */
  private loaderDecoded(values: readonly unknown[]): void {
    const loader = this.loader;
    if (loader.fatal) return;
    if (loader.issue !== null) {
      if (hasTurnEnd(values)) loader.fatal = true;
      return;
    }
    const before = loader.accepted;
    for (const value of values) {
      const seq = value !== null && typeof value === 'object' ? (value as { seq?: unknown }).seq : undefined;
      if (seq !== loader.accepted) {
        loader.issue = `corrupt session log: seq gap in committed region at line ${this.loaderLine()} (expected ${loader.accepted}, got ${String(seq)})`;
        loader.issueLine = this.loaderLine();
        loader.accepted = before;
        if (hasTurnEnd(values)) loader.fatal = true;
        return;
      }
      loader.accepted += 1;
    }
  }

  /** {@link loaderDecoded} for a packed row's members: seqs `seq0 + k`, none a `turn/end`. */
  private loaderDecodedPacked(members: PackedMembers): void {
    const loader = this.loader;
    if (loader.fatal || loader.issue !== null) return;
    const seq0 = members.row.seq0;
    if (seq0 !== loader.accepted) {
      loader.issue = `corrupt session log: seq gap in committed region at line ${this.loaderLine()} (expected ${loader.accepted}, got ${String(seq0)})`;
      loader.issueLine = this.loaderLine();
      return;
    }
    loader.accepted += members.length;
  }

  private line(text: string, start: number): void {
    if (isBlank(text)) {
      // Fold input skips it; the upstream scanner fails to parse it.
      if (this.mode !== 'detect' || this.lineNo > 1) this.loaderUnparsable();
      return;
    }
    if (this.decodeError) {
      this.afterDecodeError(text);
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      this.fail(`line ${this.lineNo} is not valid JSON: ${(error as Error).message}`, start);
      if (this.mode === 'detect') this.ensurePrimary('jsonl', null);
      else this.loaderUnparsable();
      return;
    }
    if (this.mode === 'detect') {
      const type = typeOf(value);
      // Only line 1 can be the header (log-format.md §1.2 step 6); a session record after a
      // blank first line is an ordinary (invalid) event, as upstream's loader would refuse it.
      if (type === 'session' && this.lineNo === 1) {
        this.mode = 'jsonl';
        this.headerLineNo = this.lineNo;
        this.ensurePrimary('jsonl', value as Record<string, unknown>);
        return;
      }
      if (type === 'session_event') {
        this.mode = 'stream';
        this.format = 'stream-json';
      } else if (isJsonRpcNotification(value)) {
        this.mode = 'rpc';
        this.format = 'jsonrpc';
      } else {
        this.mode = 'jsonl';
        const headerless = (typeof type === 'string' && type.includes('/')) || ROW_TAGS.has(type);
        this.ensurePrimary(headerless ? 'headerless-jsonl' : 'jsonl', null);
      }
    }
    if (this.mode === 'stream') this.streamLine(value, start, text);
    else if (this.mode === 'rpc') this.rpcLine(value, start, text);
    else this.eventLine(value, start, text);
  }

  private fail(message: string, byte: number): void {
    this.decodeError = { line: this.lineNo, byte, message };
  }

  /** After the fold input stopped, keep classifying lines the way the upstream loader would. */
  private afterDecodeError(text: string): void {
    if (this.loader.fatal) return;
    let value: unknown;
    try {
      value = JSON.parse(text);
      if (isPackedRow(value)) value = expandPackedRow(validatePackedRow(value));
    } catch {
      this.loaderUnparsable();
      return;
    }
    this.loaderDecoded(Array.isArray(value) && isPackedRowArray(value) ? value : [value]);
  }

  private eventLine(value: unknown, start: number, text: string): void {
    const session = this.ensurePrimary(this.format, null);
    const log = session.log;
    if (this.headerLineNo > 0 && !this.bodySeen) {
      this.bodySeen = true;
      if (isProjectedFirstRecord(value)) {
        this.projected = true;
        log.projected = true;
      }
    }
    /** Whether the loader view already saw this line as written. */
    let judged = false;
    if (this.projected) {
      // Upstream's loader sees the record without the envelope it is given here: a packed row
      // without `seq0` does not validate (unparsable), an event without `seq` is a seq gap.
      if (isPackedRow(value)) {
        if (!Object.prototype.hasOwnProperty.call(value, 'seq0')) {
          this.loaderUnparsable();
          judged = true;
        }
      } else if (!Array.isArray(value)) {
        this.loaderDecoded([value]);
        judged = true;
      }
      completeEnvelope(value, log.length);
    }
    if (isPackedRow(value)) {
      let packed: PackedRow;
      try {
        packed = validatePackedRow(value);
      } catch (error) {
        if (!(error instanceof PackedRowError)) throw error;
        this.fail(error.message, start);
        this.loaderUnparsable();
        return;
      }
      const row = log.addRow(start, this.lineNo, RowKind.Packed);
      if (session.sink.packedRow === undefined) {
        const events = expandPackedRow(packed);
        if (!judged) this.loaderDecoded(events);
        for (let k = 0; k < events.length; k++) this.emit(session, events[k], row, k, start, text);
        return;
      }
      const members = new PackedMembers(packed);
      if (!judged) this.loaderDecodedPacked(members);
      const first = log.length;
      log.addEvents(row, members.length);
      this.events += members.length;
      session.sink.packedRow(members, first, { line: this.lineNo, byte: start, member: 0 }, text);
      return;
    }
    // The upstream loader sees an array line as one (malformed) event.
    if (!judged) this.loaderDecoded([value]);
    if (Array.isArray(value)) {
      const row = log.addRow(start, this.lineNo, RowKind.ArrayElement);
      for (let k = 0; k < value.length; k++) this.emit(session, value[k], row, k, start, text);
      return;
    }
    this.emit(session, value, log.addRow(start, this.lineNo, RowKind.Plain), -1, start, text);
  }

  private streamLine(value: unknown, start: number, text: string): void {
    if (typeOf(value) !== 'session_event') return; // `result` and other records carry no events
    const id = String((value as { sessionId?: unknown }).sessionId);
    const session = this.streamSession(id, 'stream-json');
    const row = session.log.addRow(start, this.lineNo, RowKind.StreamEnvelope);
    this.emit(session, (value as { event?: unknown }).event, row, -1, start, text);
  }

  /** A JSON-RPC capture line (log-format.md §9.1): a `session.event` carries one event. */
  private rpcLine(value: unknown, start: number, text: string): void {
    const carried = rpcSessionEvent(value);
    if (carried === null) {
      const note = rpcContextNote(value);
      if (note !== null) this.contextNotes.push({ line: this.lineNo, message: note });
      return;
    }
    const session = this.streamSession(carried.sessionId, 'jsonrpc');
    const row = session.log.addRow(start, this.lineNo, RowKind.RpcEnvelope);
    this.emit(session, carried.event, row, -1, start, text);
  }

  private emit(session: TextSession, value: unknown, row: number, member: number, byte: number, text: string): void {
    const log = session.log;
    const index = log.length;
    log.addEvent(row, member);
    this.events += 1;
    session.sink.event(value, index, { line: this.lineNo, byte, member }, text);
  }
}

function isPackedRowArray(values: unknown[]): boolean {
  return values.every((v) => typeOf(v) === 'assistant/chunk');
}
