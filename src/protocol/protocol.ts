/**
 * The typed, versioned boundary between the UI and the engine that owns the log.
 *
 * The engine runs in a web worker (src/worker) or in-process (src/client, tests and fallback).
 * The UI never holds the event log: it asks for windows of rows, one event's details, the
 * surface at a step, and so on. Every payload here is structured-clone friendly (plain objects,
 * arrays, typed arrays). Bump {@link PROTOCOL_VERSION} on any breaking change.
 */
import type { DecodeErrorInfo, Diagnostic, SessionFormat, Severity, SurfaceErrorInfo } from '../core/model';
import type { Family } from '../core/analyze/family';
import type { CompactionLoss } from '../core/analysis/loss';
import type { PrefixBreak } from '../core/analysis/requests';
import type { ModelUsage, TurnUsage, UsageTotals } from '../core/analysis/usage';
import type { TimeWindow } from '../core/analysis/timing-window';
import type { Comparison } from '../core/analysis/compare';
export type { Comparison } from '../core/analysis/compare';
export type { LaneWindow, TimeItem, TimeWindow } from '../core/analysis/timing-window';
export type { TimeLane } from '../core/analysis/timing';
export { TIME_LANES } from '../core/analysis/timing';

export type { DecodeErrorInfo, Diagnostic, SessionFormat, Severity, SurfaceErrorInfo };

/** Version of this protocol; the client refuses an engine that answers with another. */
export const PROTOCOL_VERSION = 2;

/** Answer to the handshake. */
export interface Hello {
  protocolVersion: number;
}

/** What to open. Bytes are transferred, not copied. */
export type OpenRequest = (
  | { kind: 'bytes'; name: string; buffer: ArrayBuffer }
  /**
   * A file the user picked, read by the engine as a stream (a `File` crosses to the worker as a
   * handle, not a copy): raw JSONL is decoded while the rest of the file is still being read.
   */
  | { kind: 'file'; name: string; file: Blob }
  | { kind: 'text'; name: string; text: string }
  /** Fetched by the engine only because the user asked for this URL. */
  | { kind: 'url'; url: string }
  /** A guided demo, by id (see {@link CoreApi.demos}). */
  | { kind: 'demo'; id: string }
) &
  LoadOptions;

/**
 * Options any open request may carry. The engine gives every load a memory budget and stops it
 * cleanly (a `decode/memory-limit` decode error, the prefix kept) before it would exceed it.
 */
export interface LoadOptions {
  /** Bytes the load may hold, instead of the limit the engine derives (tests set a small one). */
  memoryLimitBytes?: number;
  /**
   * The page's `performance.memory.jsHeapSizeLimit`, where the browser has it (Chromium gives it
   * to pages, not to workers): the worker client fills it in for the engine to derive its limit.
   */
  hostHeapLimitBytes?: number;
}

/**
 * Where the open session's new bytes come from (see {@link CoreApi.grow}). The engine reads only
 * what the source gained: a range request for a URL, a slice past the known size for a file.
 */
export type GrowRequest =
  /** The URL the session was opened from, asked again with `Range: bytes=<size>-`. */
  | { kind: 'url' }
  /** The picked file as it is now (a handle's `getFile()`): only its new bytes are read. */
  | { kind: 'file'; file: Blob }
  /** Bytes a host read itself: those after the known size, or (`whole`) the whole content. */
  | { kind: 'bytes'; buffer: ArrayBuffer; whole: boolean };

/** What one look at the open session's source did (see {@link CoreApi.grow}). */
export interface GrowResult {
  /**
   * `appended`: complete lines or frames arrived; `pending`: bytes arrived, nothing complete
   * yet; `unchanged`; `reread`: the source shrank or its start changed and it was read again
   * from the start; `stopped`: damage in the appended part ended the following.
   */
  kind: 'appended' | 'pending' | 'unchanged' | 'reread' | 'stopped';
  /** Events gained (after a re-read: all of them). */
  newEvents: number;
  /** Source bytes held, and of them complete. */
  size: number;
  committed: number;
  /** What to tell the user (a re-read, a stop, a server without range support), else null. */
  note: string | null;
  /** False once following has ended (damage); later calls change nothing. */
  following: boolean;
  /** The load as it is now when it changed (a new `loadId`: views refetch), else null. */
  summary: LoadSummary | null;
  /** Engine time of this look: a follower waits at least about twice that before the next. */
  elapsedMs: number;
}

/** Load progress, sent while decoding. */
export interface ProgressEvent {
  loadId: number;
  /** Input bytes consumed. */
  bytes: number;
  totalBytes: number | null;
  events: number;
  /** Milliseconds since the load started. */
  elapsedMs: number;
  /**
   * Sent once, early in a large load of session text: the load so far (its first complete lines
   * or frames), which every query answers on until the load ends and its own summary replaces it.
   */
  preview?: LoadSummary;
}

export { FAMILIES } from '../core/analyze/family';
export { estimateTokens } from '../core/analyze/tokens';
export { ANY_MODEL, costOf, parsePriceList, sessionCost } from '../core/analysis/cost';
export type { Cost, PriceList } from '../core/analysis/cost';
import type { LoaderVerdict } from '../core/analyze/loader-verdict';
import type { TimeFacts } from '../core/analyze/time';
export type { LoaderVerdict, TimeFacts };
export { REPLACEMENT_KIND_LABEL } from '../core/analyze/labels';
export type { Family } from '../core/analyze/family';

/** One session of a load (an export ZIP holds several). */
export interface SessionSummary {
  /**
   * The engine's handle of the session: the `session` of every per-session request. Unique for
   * the engine's life (a new load's sessions, and a new playground, get new handles), so a
   * request about a session that is gone is refused rather than answered about another one.
   */
  id: number;
  /** Index of the session within its load. */
  index: number;
  /** Display path: the file name, or `archive.zip!subagents/x/session.jsonl`. */
  path: string;
  format: SessionFormat;
  sessionId: string | null;
  parentSession: string | null;
  /**
   * A forked child's `seedLength`: its first this many events are the parent's history it was
   * seeded with, not its own (session-store.md §2); null for a session without one.
   */
  seedLength: number | null;
  /** Logical events decoded. */
  events: number;
  /** Seq of the first event (non-zero only for a stream-json window). */
  baseSeq: number;
  /** True when the fold saw only a window of the session (baseSeq > 0). */
  partial: boolean;
  /** Events the fold accepted: the cursor ranges over 0…accepted. */
  accepted: number;
  surfaceError: SurfaceErrorInfo | null;
  decodeError: DecodeErrorInfo | null;
  /** How the session's times read (clock, synthetic, absent), its earliest time, out-of-order count. */
  time: TimeFacts;
  /** What dsh's own loader would do with the log (refuse, truncate, repair), or null: it loads as is. */
  loaderVerdict: LoaderVerdict | null;
  diagnosticCounts: Record<Severity, number>;
  /** Final state after `accepted` events. */
  nodes: number;
  replacements: number;
  replaceGeneration: number;
  messages: number;
  /** Event counts by family. */
  families: Partial<Record<Family, number>>;
  /** A content fingerprint, for deep links that must warn when opened on another file. */
  fingerprint: string;
}

/** Result of an open. */
export interface LoadSummary {
  loadId: number;
  /** Name of the opened file or URL. */
  file: string;
  /** Input size in bytes. */
  bytes: number;
  sessions: SessionSummary[];
  /** Findings about the container itself (ZIP members refused, ...). */
  findings: Diagnostic[];
  elapsedMs: number;
  /**
   * On a preview only (see {@link ProgressEvent.preview}): its first timeline rows, sent with it so
   * the timeline paints them at once instead of asking a worker that is busy loading the rest.
   */
  firstRows?: FirstRows;
}

/** The first rows of a preview's first session: unfiltered, at its last accepted step. */
export interface FirstRows {
  /** The session's {@link SessionSummary.id}. */
  session: number;
  step: number;
  window: RowWindow;
}

/** State of an event at a cursor (surface.md §9 classes plus devtool extras). */
export type EventState =
  | 'future' // not yet applied at the cursor
  | 'current' // on the surface at the cursor
  | 'shadowed' // was on the surface, removed by a replace at or before the cursor
  | 'log-only' // never enters the surface
  | 'rejected' // the event the fold refused
  | 'pending'; // after the refused event: never folded

/** Surface operation of an event, as written. */
export type SurfaceOpKind = 'append' | 'replace' | 'invalid' | null;

/** Timeline filter. An empty `families` list means every family. */
export interface RowFilter {
  families: Family[];
  surfaceOnly: boolean;
}

/** One timeline row: the minimum needed to draw it. */
export interface TimelineRow {
  /** Index in the session's event array. */
  index: number;
  /** The event's place as a seq (`baseSeq + index`): what selection and links use. */
  seq: number;
  /**
   * What the SEQ column shows: the event's own `seq` as written, or `—` when it has none; it
   * differs from `seq` only for an event the fold refuses for it.
   */
  seqLabel: string;
  time: number | null;
  /** True when this event's time is earlier than an event before it (the clock stepped back). */
  timeBack: boolean;
  type: string;
  family: Family;
  turn: number | null;
  step: number | null;
  op: SurfaceOpKind;
  /** One line, already clipped. Untrusted text: render as text only. */
  summary: string;
  state: EventState;
}

export interface RowWindow {
  /** Rows matching the filter. */
  total: number;
  start: number;
  rows: TimelineRow[];
}

/** What step k changed (the event applied at step k is index k-1). */
export interface StepChange {
  kind: 'start' | 'append' | 'replace' | 'log-only';
  /** Seq of the event applied at step k (null at step 0). */
  seq: number | null;
  type: string | null;
  /** For a replace: declared start/end and the shadowed node seqs. */
  start?: number;
  end?: number;
  shadowed?: number[];
  /** E.g. "appended 412", "replaced 37…118 (12 nodes) with 905". */
  text: string;
}

/** A node of the surface list. */
export interface SurfaceNode {
  seq: number;
  type: string;
  /** Family of its type (as the timeline rows give it). */
  family: Family;
  role: string | null;
  preview: string;
  /** True when the node entered by a replace. */
  replacement: boolean;
  /** Nodes it shadowed directly (0 for appends). */
  shadowedCount: number;
  /** True when the node's message projects to nothing (empty usage-only assistant message). */
  empty: boolean;
}

/** The surface at a step, windowed. */
export interface SurfaceWindow {
  step: number;
  /** Number of nodes at the step. */
  total: number;
  replaceGeneration: number;
  /** Derived model messages (nodes whose message is not null). */
  messages: number;
  change: StepChange;
  start: number;
  nodes: SurfaceNode[];
}

/** Kind of a replacement, for display. */
export type ReplacementKind = 'compaction' | 'prune' | 'other';

/** A replacement applied at or before the cursor. */
export interface ReplacementRow {
  seq: number;
  /** The step at which it was applied (seq - baseSeq + 1). */
  step: number;
  start: number;
  end: number;
  shadowedSeqs: number[];
  kind: ReplacementKind;
  /** Replacement that later shadowed this one, if any at the cursor. */
  shadowedBy: number | null;
  /**
   * The surface node that stands for it at the cursor: itself, or the outermost replacement
   * over it (following `shadowedBy` to the top).
   */
  visible: number;
}

/** A gutter bracket: the seq span a replacement covers, with nesting depth. */
export interface Bracket {
  replacement: number;
  /** Smallest and largest seq of every node it covers, directly or through nested replaces. */
  first: number;
  last: number;
  /** 0 for outermost. */
  depth: number;
  kind: ReplacementKind;
}

/** Everything the inspector shows for one event. */
export interface EventDetail {
  index: number;
  seq: number;
  line: number;
  byte: number;
  /** Member index inside a packed chunk row, or -1. */
  member: number;
  /**
   * The raw line (the whole row for packed members), or its first characters when `clipped` is
   * set. Untrusted text.
   */
  raw: string;
  /** The decoded event (long strings shortened when `clipped` says so). Untrusted: render as text only. */
  event: unknown;
  /**
   * Present when the raw line is over {@link DETAIL_RAW_LIMIT} characters: `raw` is the start of
   * the line; strings and containers of `event` are shortened, with markers, only when the line
   * is over about 1 MB (`eventClipped`). The whole line is available through
   * {@link CoreApi.exportEvent}.
   */
  clipped?: DetailClip;
  state: EventState;
  sourceEventSeqs: number[];
  citedBy: number[];
  /** The replacement that shadowed it, at the cursor. */
  replacedBy: number | null;
  /** Replacements following replacedBy at the cursor. */
  replacementChain: number[];
  /** For a replacement: the nodes it shadowed. */
  replacedEventSeqs: number[];
  diagnostics: Diagnostic[];
}

/**
 * Characters of a raw line sent in an {@link EventDetail}: as many as the inspector's raw pane
 * renders. Longer lines arrive `clipped`; the event's own strings are cut only past about 1 MB.
 */
export const DETAIL_RAW_LIMIT = 20_000;

/** How an {@link EventDetail} was clipped. */
export interface DetailClip {
  /** Characters of the whole raw line (`raw` holds the first `raw.length` of them). */
  rawLength: number;
  /** True when strings or containers of `event` were shortened too. */
  eventClipped: boolean;
}

/**
 * A search over the timeline rows matching a filter, in the query language of `core/search`
 * (words, "phrases", /regex/, type:, tool:, turn:, step:, seq:, is:, -term).
 */
export interface SearchQuery {
  session: number;
  text: string;
  filter: RowFilter;
  /** The cursor, for `is:surface`, `is:shadowed` and `is:log-only`. */
  step: number;
  /** Row to start from (exclusive). -1 searches from the top (forward). */
  fromRow: number;
  direction: 1 | -1;
}

/** What is wrong with a query, and where (`[start, end)` in its text). */
export interface QueryErrorInfo {
  message: string;
  start: number;
  end: number;
}

export interface SearchResult {
  /** Row index within the filtered rows, or null when nothing matches. */
  row: number | null;
  seq: number | null;
  /** True when the search wrapped around. */
  wrapped: boolean;
  /** Rows that match, in all. */
  total: number;
  /** Set when the query was refused (nothing was searched). */
  error: QueryErrorInfo | null;
}

/** {@link CoreApi.searchMatches}: a window of the rows a query matches. */
export interface MatchesParams {
  session: number;
  text: string;
  filter: RowFilter;
  step: number;
  start: number;
  count: number;
}

/** One matching row, as the match list shows it. Untrusted text: render as text only. */
export interface MatchRow {
  /** Row index within the filtered rows. */
  row: number;
  seq: number;
  type: string;
  snippet: string;
  /** `[start, end)` ranges of `snippet` that matched. */
  marks: Array<[number, number]>;
}

/** A window of matches. */
export interface MatchWindow {
  total: number;
  start: number;
  matches: MatchRow[];
  error: QueryErrorInfo | null;
}

/** Where the transport can jump. */
export type NavigateKind = 'next-change' | 'prev-change' | 'next-replace' | 'prev-replace' | 'next-break' | 'prev-break';

/** A content block flattened to text for display (untrusted: render as text only). */
export interface MessageBlock {
  kind: 'text' | 'reasoning' | 'tool-call' | 'tool-result' | 'image' | 'other';
  text: string;
  /** True when `text` was clipped; the full event is available through `detail`. */
  truncated: boolean;
  /** Tool name (tool-call). */
  name?: string;
  /** Tool call id (tool-call, tool-result). */
  callId?: string;
  isError?: boolean;
}

/** One message as a chat row. */
export interface ViewMessage {
  seq: number;
  type: string;
  /** Family of its type. */
  family: Family;
  role: string | null;
  /** `replacement` for model-only events that entered by a replace. */
  origin: 'append' | 'replacement';
  replacementKind: ReplacementKind | null;
  state: EventState;
  blocks: MessageBlock[];
  /** True when the message projects to nothing for the model (empty usage-only message). */
  empty: boolean;
}

/**
 * Transcript messages a {@link ViewRow} carries: as many as a collapsed span shows. A compaction
 * can stand for thousands of messages, and the views are re-fetched at every step while playing,
 * so the rest are paged on request with {@link CoreApi.transcript}.
 */
export const VIEW_TRANSCRIPT_PREVIEW = 3;

/** Most messages one {@link CoreApi.transcript} page carries; a larger `count` is cut to it. */
export const TRANSCRIPT_PAGE_LIMIT = 500;

/**
 * One row of the aligned views at a step: a model-view message and the human-transcript
 * messages it stands for (itself for a current append; every append it shadows, directly or
 * through nested replaces, for a replacement).
 */
export interface ViewRow {
  model: ViewMessage;
  /**
   * The first {@link VIEW_TRANSCRIPT_PREVIEW} (at most) of the transcript messages the row stands
   * for, in log order; {@link CoreApi.transcript} pages through all of them.
   */
  transcript: ViewMessage[];
  /** How many transcript messages the row stands for (`transcript` holds the first of them). */
  transcriptTotal: number;
  /** For a replacement: the replacements nested inside it, outermost first. */
  nested: number[];
}

/** A page of the transcript messages one model-view row stands for (see {@link CoreApi.transcript}). */
export interface TranscriptPage {
  /** Transcript messages the row stands for (its {@link ViewRow.transcriptTotal}). */
  total: number;
  /** Index of the first message of `messages` (the requested start, clamped to `total`). */
  start: number;
  /** Messages [start, start + count), in log order, as {@link CoreApi.views} builds them. */
  messages: ViewMessage[];
}

/** Where an event appears in the two views at a step (see {@link CoreApi.viewPlace}). */
export interface ViewPlace {
  /** Index of the row (model-view message) among the rows at the step. */
  row: number;
  /** The row's model-view seq. */
  rowSeq: number;
  /**
   * The event's index in the row's transcript (0 for an append that is its own row); -1 for a
   * replacement: the row's own model message, or one nested in it.
   */
  index: number;
}

export interface ViewsWindow {
  step: number;
  /** Rows (model-view messages) at the step. */
  total: number;
  start: number;
  rows: ViewRow[];
}

/** One part of a text diff. */
export interface DiffPart {
  op: 'same' | 'add' | 'remove';
  text: string;
}

/** Everything the replace inspector shows for one replacement. */
export interface ReplaceDetail {
  seq: number;
  step: number;
  kind: ReplacementKind;
  start: number;
  end: number;
  shadowedSeqs: number[];
  replacement: ViewMessage;
  shadowed: ViewMessage[];
  /** Size of the derived messages before (the shadowed ones) and after (the replacement). */
  bytesBefore: number;
  bytesAfter: number;
  tokensBefore: number;
  tokensAfter: number;
  /** How tokens are estimated, for the UI to state. */
  tokenMethod: string;
  /** Tool-result prune: the content before and after, and their diff. */
  prune: { before: string; after: string; diff: DiffPart[]; clipped: boolean } | null;
  /** Summarizing compaction: the linked bracket and what it declared. */
  compaction: {
    compactionId: string | null;
    startSeq: number | null;
    summarySeq: number | null;
    endSeq: number | null;
    declaredRange: { start: unknown; end: unknown } | null;
    declaredSeqs: unknown[] | null;
    /** True when the declared shadowed seqs equal what the fold shadowed. */
    declaredMatches: boolean;
    error: string | null;
  } | null;
  /** QA findings about this replacement. */
  findings: Diagnostic[];
  /** The cached prefix it invalidated and the literal items it kept and dropped (docs/ANALYSIS.md). */
  loss?: ReplaceLossInfo | null;
}

/** What a replace lost (see `CompactionLoss` in core/analysis/loss.ts). */
export type ReplaceLossInfo = CompactionLoss;

/**
 * The model requests on the context curve, by step: one entry per request in each column, only
 * what the curve draws and says of them. Columns rather than an object per request: a 1M-event
 * log has thousands, sent with every curve answer, and a typed array crosses to the page as one
 * copy of its bytes instead of thousands of objects to decode.
 */
export interface CurveRequests {
  /** The step showing the surface each request was sent (ascending). */
  step: Int32Array;
  seq: Float64Array;
  /** Estimated tokens sent, and of the prefix shared with the previous request. */
  tokens: Float64Array;
  reusedTokens: Float64Array;
  /** JSON characters of that shared prefix (drawn on the curve's byte scale). */
  reusedChars: Float64Array;
  /** Recorded cache-read tokens; NaN where the request's usage has none. */
  cacheRead: Float64Array;
  /** How many requests recorded cache reads. */
  cacheReads: number;
  /** The requests whose prefix broke, ascending: their index in the columns and what broke it. */
  breaks: { index: number; brokenBy: PrefixBreak }[];
}

/** One model request of {@link CurveRequests}, read out of its columns. */
export interface CurveRequest {
  step: number;
  seq: number;
  tokens: number;
  reusedTokens: number;
  reusedChars: number;
  /** Recorded cache-read tokens, when the request's usage has them. */
  cacheRead: number | null;
  brokenBy: PrefixBreak | null;
}

/** Recorded token usage per turn (with its steps) and in all. */
export interface CurveUsage {
  turns: TurnUsage[];
  /** With the usage per model, which prices apply to. */
  total: UsageTotals & { models: ModelUsage[] };
}

/**
 * What the curve says of the recorded usage: the session's totals and how many turns there are.
 * The turns themselves, a row each in a table closed by default, are asked for when it is opened
 * ({@link CoreApi.usageTurns}): a long session has thousands, with their steps, and the curve is
 * answered after every load.
 */
export interface CurveUsageSummary {
  total: CurveUsage['total'];
  turns: number;
}

/** The context curve, bucketed for plotting. */
export interface CurveData {
  steps: number;
  /** Each bucket covers steps [from, to]. */
  buckets: { from: number; to: number; bytesMin: number; bytesMax: number; messagesMax: number }[];
  /** Steps of replaces (the marked drops). */
  replaces: number[];
  bytesMax: number;
  tokenMethod: string;
  /** Every model request, by step (absent where no analysis ran, e.g. the playground). */
  requests?: CurveRequests;
  /** Recorded usage in all (the turns are asked for apart: {@link CoreApi.usageTurns}). */
  usage?: CurveUsageSummary;
}

/** What an export produces. */
export interface ExportFile {
  name: string;
  mime: string;
  text: string;
}

/** What can be exported. */
export type ExportKind = 'model-view' | 'surface' | 'report-json' | 'report-markdown';

/** A file to send: the log cut at a step, or the self-contained page (see core/export/session.ts). */
import type { SessionExportRequest, SessionExportResult } from '../core/export/session';
export type { SessionExportRequest, SessionExportResult };
export type { RedactReport } from '../core/redact/redactor';

/** A guided demo, listed for the UI. */
export interface DemoInfo {
  id: string;
  title: string;
  summary: string;
  /** Narration by step. */
  notes: { step: number; text: string }[];
}

/** A playground candidate, from a template or raw JSON. */
export type PlaygroundTemplate =
  | { kind: 'user'; text: string }
  | { kind: 'assistant'; text: string; toolCalls: { name: string; arguments: string }[] }
  | { kind: 'tool-result'; callId: string; text: string; isError: boolean }
  | { kind: 'log-only'; type: string; data: string }
  | { kind: 'summary'; start: number; end: number; text: string }
  | { kind: 'prune'; target: number; text: string }
  /** Any event as JSON text; `seq` is filled in when absent. */
  | { kind: 'raw'; json: string };

/** The playground after an operation. */
export interface PlaygroundState {
  /** The playground's session handle (its {@link SessionSummary.id}), for every per-session request. */
  session: number;
  summary: SessionSummary;
  nextSeq: number;
  canUndo: boolean;
  canRedo: boolean;
  /** Tool calls still waiting for a result. */
  pendingCalls: { callId: string; name: string; callSeq: number | null }[];
}

export type PlaygroundResult =
  { ok: true; seq: number; state: PlaygroundState } | { ok: false; message: string; rule: string; state: PlaygroundState };

/** What every per-session request names: the session, by its {@link SessionSummary.id}. */
export interface SessionParams {
  session: number;
}

/** A window of a session at a step: items [start, start + count). */
export interface WindowParams extends SessionParams {
  step: number;
  start: number;
  count: number;
}

/** {@link CoreApi.rows}: timeline rows matching `filter`, with their state at the cursor `step`. */
export interface RowsParams extends WindowParams {
  filter: RowFilter;
}

/** {@link CoreApi.rowOf}. */
export interface RowOfParams extends SessionParams {
  filter: RowFilter;
  seq: number;
}

/** {@link CoreApi.transcript}: a page of the transcript of the model-view row `seq`. */
export interface TranscriptParams extends WindowParams {
  seq: number;
}

/** A session's event at a step ({@link CoreApi.detail}, {@link CoreApi.viewPlace}). */
export interface EventAtParams extends SessionParams {
  seq: number;
  step: number;
}

/** A session's event ({@link CoreApi.exportEvent}). */
export interface EventParams extends SessionParams {
  seq: number;
}

/** A session at a step ({@link CoreApi.timeAt}). */
export interface StepParams extends SessionParams {
  step: number;
}

/** {@link CoreApi.replacements}: the replacements applied by `step`, [start, start + count). */
export interface ReplacementsParams extends StepParams {
  start: number;
  count: number;
}

/** A page of the replacements applied by a step. */
export interface ReplacementsWindow {
  /** Replacements applied by the step, in all. */
  total: number;
  items: ReplacementRow[];
}

/** A replacement of a session, by its seq. */
export interface ReplacementParams extends SessionParams {
  replacement: number;
}

/** {@link CoreApi.brackets}. */
export interface BracketsParams extends StepParams {
  lo: number;
  hi: number;
}

/** {@link CoreApi.diagnostics}: diagnostics [start, start + count). */
export interface DiagnosticsParams extends SessionParams {
  start: number;
  count: number;
}

/** {@link CoreApi.navigate}. */
export interface NavigateParams extends StepParams {
  kind: NavigateKind;
}

/** {@link CoreApi.blockText}. */
export interface BlockTextParams extends EventParams {
  block: number;
}

/** {@link CoreApi.curve}. */
export interface CurveParams extends SessionParams {
  buckets: number;
}

/**
 * {@link CoreApi.timeTrack}: the time track's range [from, to] in epoch ms (null: the whole
 * session), drawn `width` pixels wide. The cursor's time is asked apart ({@link CoreApi.timeAt}):
 * a seek moves the cursor, not the lanes.
 */
export interface TimeTrackParams extends SessionParams {
  from: number | null;
  to: number | null;
  width: number;
}

/** {@link CoreApi.compare}: this session against another open one, by handle. */
export interface CompareParams extends SessionParams {
  other: number;
}

/** The comparison of two sessions (`core/analysis/compare.ts`) and each side's accepted events. */
export type SessionComparison = Comparison & { accepted: { a: number; b: number } };

/** {@link CoreApi.compareView}: the two model views at `step` (this session) and `otherStep` (the other). */
export interface CompareViewParams extends CompareParams {
  step: number;
  otherStep: number;
}

/** A message of a compared model view: its node, role, text preview and estimated tokens. */
export interface CompareMessage {
  seq: number;
  role: string;
  text: string;
  tokens: number;
}

/** The message-level diff of two model views. */
export interface CompareViewData {
  a: { step: number; messages: number };
  b: { step: number; messages: number };
  /** A view held more messages than are compared (the first 2,000 of each are). */
  clipped: boolean;
  rows: { kind: 'same' | 'changed' | 'a-only' | 'b-only'; a: CompareMessage | null; b: CompareMessage | null }[];
}

/** The time track of a range (see `core/analysis/timing-window.ts`). */
export type TimeTrackData = TimeWindow;

/** {@link CoreApi.exportText}. */
export interface ExportTextParams extends StepParams {
  kind: ExportKind;
}

/** {@link CoreApi.exportSession}: what to write of a session. */
export interface ExportSessionParams extends SessionParams, SessionExportRequest {}

/** A page of a session's diagnostics. */
export interface DiagnosticsWindow {
  total: number;
  items: Diagnostic[];
}

/**
 * The engine API. Each call is one request; responses are the resolved values. Errors reject
 * with an Error whose message is fit to show. Every per-session request takes one object naming
 * its `session` (a {@link SessionSummary.id}); {@link CORE_METHODS} lists every request once.
 */
export interface CoreApi {
  hello(): Promise<Hello>;
  /** Open a file; replaces whatever was open. Progress is reported through `onProgress`. */
  open(request: OpenRequest, onProgress: (progress: ProgressEvent) => void): Promise<LoadSummary>;
  /** Cancel the load in progress, if any (its `open` rejects with an AbortError). */
  cancel(): Promise<void>;
  /**
   * Look at the open session's source again and take what it gained: every query then answers
   * on the events decoded so far. Rejects when nothing is open or the source cannot be read
   * again (a sample, a demo, text).
   */
  grow(request: GrowRequest): Promise<GrowResult>;
  rows(params: RowsParams): Promise<RowWindow>;
  /** Row index of an event within the filtered rows (or of the nearest row after it). */
  rowOf(params: RowOfParams): Promise<number>;
  /** The next (or previous) matching row from a row, wrapping around, and how many match. */
  search(query: SearchQuery): Promise<SearchResult>;
  /** A window of the matching rows with snippets (the match list). */
  searchMatches(params: MatchesParams): Promise<MatchWindow>;
  surface(params: WindowParams): Promise<SurfaceWindow>;
  /** Nodes a replacement shadowed directly, as surface nodes (for recursive expansion). */
  shadowedBy(params: ReplacementParams): Promise<SurfaceNode[]>;
  /** A window of the replacements applied by a step (a log may have 100,000: never all at once). */
  replacements(params: ReplacementsParams): Promise<ReplacementsWindow>;
  /** Brackets of replacements applied at or before `step` that overlap seqs [lo, hi]. */
  brackets(params: BracketsParams): Promise<Bracket[]>;
  detail(params: EventAtParams): Promise<EventDetail>;
  diagnostics(params: DiagnosticsParams): Promise<DiagnosticsWindow>;
  /** Steps at which a replace was applied (for scrubber ticks). */
  replaceSteps(params: SessionParams): Promise<Int32Array>;
  /** The step the transport should move to, or null when there is none. */
  navigate(params: NavigateParams): Promise<number | null>;
  /** The human transcript aligned with the model view at a step, windowed by model rows. */
  views(params: WindowParams): Promise<ViewsWindow>;
  /**
   * A page of the transcript messages the model-view row `seq` stands for at a step (a
   * replacement's shadowed span; an append's page is the append itself): messages
   * [start, start + count) of what {@link ViewRow.transcript} previews, with `count` cut to
   * {@link TRANSCRIPT_PAGE_LIMIT}. Rejects when `seq` is not on the surface at the step.
   */
  transcript(params: TranscriptParams): Promise<TranscriptPage>;
  /**
   * Where the event `seq` appears in the two views at a step: the row that stands for it and its
   * index in that row's transcript, so the UI can bring a selection into view (and open its
   * span) wherever it is. Null when the event was not on the surface by that step.
   */
  viewPlace(params: EventAtParams): Promise<ViewPlace | null>;
  /**
   * The whole text of block `block` of event `seq`'s chat message, as {@link ViewMessage.blocks}
   * gives it clipped (`truncated`). Rejects when the event has no such block.
   */
  blockText(params: BlockTextParams): Promise<string>;
  /** The replace inspector's data for one replacement. */
  replaceDetail(params: ReplacementParams): Promise<ReplaceDetail>;
  /** The context curve over all steps, in at most `buckets` buckets. */
  curve(params: CurveParams): Promise<CurveData>;
  /** Recorded usage per turn, with its steps (the token table under the curve, when opened). */
  usageTurns(params: SessionParams): Promise<TurnUsage[]>;
  /** The time track's lanes over a range: spans in view, or their density when too many. */
  timeTrack(params: TimeTrackParams): Promise<TimeTrackData>;
  /** The time of the event applied last at `step`: null at step 0, or when the log has no wall clock. */
  timeAt(params: StepParams): Promise<number | null>;
  /** This session against another open one: common event prefix, divergence, request deltas. */
  compare(params: CompareParams): Promise<SessionComparison>;
  /** The two model views at a pair of steps, diffed message by message. */
  compareView(params: CompareViewParams): Promise<CompareViewData>;
  /**
   * Open a log to compare with, beside the load (which stays as it is): its sessions get
   * handles of their own, replacing the previous comparison's.
   */
  openCompare(request: OpenRequest): Promise<LoadSummary>;
  /** Drop the sessions opened to compare with. */
  closeCompare(): Promise<void>;
  /** Export the model view or surface at a step, or the diagnostics/QA report. */
  exportText(params: ExportTextParams): Promise<ExportFile>;
  /** The raw line of one event, whole (the inspector shows a clipped preview of a large one). */
  exportEvent(params: EventParams): Promise<ExportFile>;
  /** The log cut at a step or the self-contained page, optionally redacted (with its counts). */
  exportSession(params: ExportSessionParams): Promise<SessionExportResult>;
  /** The guided demos. */
  demos(): Promise<DemoInfo[]>;
  /** Start a playground, empty or from the first `step` events of a loaded session. */
  playgroundStart(from: { session: number; step: number } | null): Promise<PlaygroundState>;
  /** Offer a candidate; it enters the log only if the fold accepts it. */
  playgroundOffer(template: PlaygroundTemplate): Promise<PlaygroundResult>;
  playgroundUndo(): Promise<PlaygroundState>;
  playgroundRedo(): Promise<PlaygroundState>;
  /** The playground log as session JSONL. */
  playgroundExport(): Promise<ExportFile>;
}

/** The name of a request. */
export type CoreMethod = keyof CoreApi;

/**
 * What a request is about, which is all the layers need to know to carry it:
 * - `engine`: the engine itself (handshake, demos);
 * - `load`: opening and cancelling the load (a view that shares an engine without owning its
 *   load refuses these);
 * - `session`: one session, named by the `session` of the request's one parameter (the engine
 *   dispatches these to the session's query code);
 * - `playground`: the playground's log.
 */
export type MethodScope = 'engine' | 'load' | 'session' | 'playground';

/**
 * Every request, once. The clients' forwarders, the shared-engine view and the engine's
 * dispatch are derived from this table: a new request is its entry here and in {@link CoreApi},
 * its query code and its consumer.
 */
export const CORE_METHODS = {
  hello: 'engine',
  open: 'load',
  cancel: 'load',
  grow: 'load',
  rows: 'session',
  rowOf: 'session',
  search: 'session',
  searchMatches: 'session',
  surface: 'session',
  shadowedBy: 'session',
  replacements: 'session',
  brackets: 'session',
  detail: 'session',
  diagnostics: 'session',
  replaceSteps: 'session',
  navigate: 'session',
  views: 'session',
  transcript: 'session',
  viewPlace: 'session',
  blockText: 'session',
  replaceDetail: 'session',
  curve: 'session',
  usageTurns: 'session',
  timeTrack: 'session',
  timeAt: 'session',
  compare: 'session',
  compareView: 'session',
  openCompare: 'load',
  closeCompare: 'load',
  exportText: 'session',
  exportEvent: 'session',
  exportSession: 'session',
  demos: 'engine',
  playgroundStart: 'playground',
  playgroundOffer: 'playground',
  playgroundUndo: 'playground',
  playgroundRedo: 'playground',
  playgroundExport: 'playground',
} as const satisfies Record<CoreMethod, MethodScope>;

/** The per-session requests. */
export type SessionMethod = { [K in CoreMethod]: (typeof CORE_METHODS)[K] extends 'session' ? K : never }[CoreMethod];

/** The parameter of a per-session request. */
export type SessionRequest<K extends SessionMethod> = Parameters<CoreApi[K]>[0];

/** The answer of a request. */
export type CoreResult<K extends CoreMethod> = Awaited<ReturnType<CoreApi[K]>>;
