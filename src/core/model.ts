/**
 * Shared vocabulary of the core: diagnostics, fold results and the contracts between the
 * decoders, the analyzer and the time-travel index. Types only, plus a few tiny constructors.
 */

/** A JSON value as produced by `JSON.parse`. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** The input forms the decoders recognise (log-format.md §1.1). */
export type SessionFormat = 'jsonl' | 'jsonl-zstd' | 'jsonl-gzip' | 'stream-json' | 'jsonrpc' | 'json-array' | 'headerless-jsonl';

/** The text forms inside any container (log-format.md §1.1 rows 4–8). */
export type TextForm = 'jsonl' | 'headerless-jsonl' | 'stream-json' | 'jsonrpc' | 'json-array';

/** The container an input's text came out of; `none` for plain text. */
export type ContainerForm = 'none' | 'gzip' | 'zstd';

/** How a session was stored: its container and the text form inside it (a gzipped stream-json keeps both). */
export interface SessionForm {
  container: ContainerForm;
  text: TextForm;
}

/**
 * The form's one-word label (`SessionAnalysis.format`, shown and reported): session JSONL names
 * its container (`jsonl-zstd`, `jsonl-gzip`); the other text forms are named by the text alone.
 */
export function formatLabel(form: SessionForm): SessionFormat {
  if (form.text === 'jsonl' && form.container !== 'none') return form.container === 'zstd' ? 'jsonl-zstd' : 'jsonl-gzip';
  return form.text;
}

/** Severity of a diagnostic. Only `error` makes the CLI exit non-zero. */
export type Severity = 'error' | 'warning' | 'info';

/**
 * Anything we report that is not the conformance fold result: loader-view findings, seed and
 * envelope checks, relational invariants, QA checks. `rule` is a stable id such as
 * `loader/torn-tail` or `relational/session`; `message` carries the exact upstream text where
 * one exists. Non-upstream checks say so in their rule id (`extra/...`).
 */
export interface Diagnostic {
  severity: Severity;
  rule: string;
  /** The event's seq (its index in the decoded array), or null when not tied to an event. */
  seq: number | null;
  /** 1-based line in the logical text, or null. */
  line: number | null;
  message: string;
  /**
   * Set on a finding that depends on where the log ends (a torn tail, an interrupted turn's
   * closers, the loader's verdict) while the session is still growing: it may change or go away
   * when more is appended, and is final (the flag gone) once the session has ended.
   */
  provisional?: true;
}

/** One replace applied by the fold (surface.md §4). */
export interface Replacement {
  seq: number;
  /** Declared start seq from the surfaceOp. */
  start: number;
  /** Declared end seq from the surfaceOp. */
  end: number;
  /** The nodes actually removed, in surface order. */
  shadowedSeqs: number[];
}

/** `foldSurface` result (surface.md §4). */
export interface FoldResult {
  nodes: number[];
  replacements: Replacement[];
}

/** The first event the fold refused. */
export interface SurfaceErrorInfo {
  /** Index of the refused event in the decoded array. */
  index: number;
  /**
   * The refused event's own `seq` as decoded (surface.md §4: it may be a string or another
   * non-number), or null when it has none: never undefined, so a JSON record always carries it.
   */
  seq: unknown;
  /** 1-based line of the event in the logical text, or null. */
  line: number | null;
  /** The exact upstream fold message. */
  message: string;
  /** Stable rule id, e.g. `surface/contiguity`, `surface/replace-range`. */
  rule: string;
}

/** Where the input stopped being decodable (log-format.md §1.2 step 5). */
export interface DecodeErrorInfo {
  /** 1-based line in the logical text, or null for whole-input failures. */
  line: number | null;
  /** Byte offset in the logical text (or in the file for container damage), or null. */
  byte: number | null;
  message: string;
  /**
   * Rule id of a stop that has one of its own (`decode/memory-limit`: the load's memory budget
   * ran out); absent for damaged input, which is reported as `decode/error`.
   */
  rule?: string;
}

/** Where an event came from. */
export interface EventOrigin {
  /** 1-based line in the logical text (0 when the form has no lines, e.g. a JSON array). */
  line: number;
  /** Byte offset of the line start in the logical text (-1 when not applicable). */
  byte: number;
  /** Member index inside a packed chunk row, or -1 for a line holding one event. */
  member: number;
}

/**
 * Random access to the decoded events of one session. Events are kept as bytes and parsed on
 * demand, so `event(i)` returns a fresh object each call: do not rely on object identity.
 */
export interface EventLog {
  readonly length: number;
  /** The decoded event at index `i` (packed rows are expanded). */
  event(i: number): unknown;
  origin(i: number): EventOrigin;
  /** The raw text the event came from (the whole row for a packed member). */
  raw(i: number): string;
  /**
   * The start of `raw(i)`, at most `maxChars` characters, with the length of the whole: a 200 MB
   * line can be shown and measured without making a 200 MB string.
   */
  rawPreview(i: number, maxChars: number): RawPreview;
  /**
   * `rawPreview(i, maxChars)` and a parse of event `i` from one read of its text (a detail needs
   * both, and a 200 MB row should be decoded once). `event` throws as `event(i)` does.
   */
  rawAndEvent(i: number, maxChars: number): { raw: RawPreview; event: () => unknown };
  /**
   * A reader of events for one pass over nearby indexes: it may keep the last row it parsed, so
   * the members of one packed row (or of a JSON-array line) cost one parse, not one each.
   */
  reader(): (i: number) => unknown;
  /**
   * The UTF-8 bytes of the row holding event `i` where the log keeps bytes (a view, not a copy),
   * else null: a search reads a huge row piece by piece instead of making it a string.
   */
  rowBytes(i: number): Uint8Array | null;
}

/** The start of an event's raw text and the length of all of it (see {@link EventLog.rawPreview}). */
export interface RawPreview {
  text: string;
  /** Characters (UTF-16 code units) of the whole raw text; `text.length < length` when clipped. */
  length: number;
}

/**
 * Receives each decoded event exactly once, in order, while the parsed value is still alive.
 * The value must not be retained: the log keeps bytes, not objects.
 */
export interface EventSink {
  event(value: unknown, index: number, origin: EventOrigin): void;
}

/** Progress of a load, reported between chunks. */
export interface LoadProgress {
  /** Input bytes consumed so far. */
  bytes: number;
  /** Total input bytes, when known. */
  totalBytes: number | null;
  /** Events decoded so far (all sessions). */
  events: number;
}
