/** The generator's public options and results (see `generate.ts`). */

/**
 * The rule violations the generator can inject (one per log). Each maps to one surface-fold
 * check of surface.md §3, except `unparsable-line` and `torn-tail`, which damage the JSONL
 * itself (log-format.md §1.2 step 4–5).
 */
export const VIOLATION_KINDS = [
  /** C1: one event's seq skips a number. */
  'seq-gap',
  /** C2a: a log-only event carries `surfaceOp: "append"`. */
  'surfaceop-on-log-only',
  /** C2b: a log-only event carries `sourceEventSeqs`. */
  'sources-on-log-only',
  /** C3: a surface event without `surfaceOp`. */
  'missing-surfaceop',
  /** C5: a surface event with `surfaceOp: "Append"`. */
  'invalid-surfaceop',
  /** C6: a compaction checkpoint whose replace object has an extra key. */
  'invalid-replace-op',
  /** R1: a checkpoint whose `start` is not on the surface. */
  'replace-start-not-found',
  /** R2: a checkpoint whose `end` is not on the surface. */
  'replace-end-not-found',
  /** R3: a checkpoint with `start` and `end` swapped (range of at least two nodes). */
  'replace-start-after-end',
  /** P2: a tool result with `sourceEventSeqs: []`. */
  'sources-empty',
  /** P4: an assistant message citing one chunk twice. */
  'sources-duplicate',
  /** P5: an assistant message citing its own seq. */
  'sources-not-earlier',
  /** P6: a checkpoint that does not cite its last shadowed node. */
  'replace-missing-shadowed-source',
  /** T3: a tool-result prune copy that also changes `meta`. */
  'tool-result-changes-meta',
  /** A line in the middle that is not valid JSON (a truncated record). */
  'unparsable-line',
  /** The log ends inside a turn with a truncated last line and no final LF (a crash). */
  'torn-tail',
] as const;

/** One of {@link VIOLATION_KINDS}. */
export type ViolationKind = (typeof VIOLATION_KINDS)[number];

/** Summarizing compaction settings (events.md §6.1–§6.2). */
export interface CompactionOptions {
  /**
   * Estimated context, in tokens (text characters of the current surface / 4), above which an
   * automatic compaction runs at the next step start. Default 20000.
   */
  thresholdTokens?: number | undefined;
  /** Share of the estimated context kept verbatim after the compacted range. Default 0.3. */
  keepRatio?: number | undefined;
  /** Probability that a compaction attempt fails (`compaction/start` + error `compaction/end`). Default 0.12. */
  failureRate?: number | undefined;
  /** Probability of a manual `/compact` command between two turns. Default 0.06. */
  manualRate?: number | undefined;
}

/** Options of {@link generateLog}. Everything not given is derived from `seed`. */
export interface GenOptions {
  /** Seed of the whole log; the same options always give the same bytes. */
  seed: number;
  /**
   * Target event count (expanded events, i.e. packed rows count their members). Generation
   * stops at the first turn boundary at or after it, or, with `openTail`, inside the turn
   * that is open shortly after it — in both cases only once a requested violation has been
   * placed, which may take a little longer.
   */
  events: number;
  /** Session id in the header. Default: a uuid derived from the seed. */
  sessionId?: string | undefined;
  /** Pack delta runs of 3+ into chunk rows (log-format.md §3 writer rules). Default true. */
  packChunks?: boolean | undefined;
  /** Compaction settings, or `false` to never compact. */
  compaction?: CompactionOptions | false | undefined;
  /**
   * Tool results with more text than this many code points are pruned at the next step start
   * (events.md §6.3), keeping the first 4096 and last 1024 code points (proportionally fewer
   * below the default). Default 8192 (upstream's default); `Infinity` disables pruning.
   */
  pruneThreshold?: number | undefined;
  /** Share of tool results long enough to be pruned. Default 0.06. */
  longToolResultRate?: number | undefined;
  /**
   * Size range of a long tool result's text, in characters `[min, max]`. Default: just over
   * the prune threshold (threshold + 200 … threshold × 1.5).
   */
  longToolResultChars?: readonly [number, number] | undefined;
  /**
   * Scale of the streamed deltas per assistant block (reasoning and text pieces). Default 1;
   * larger values give longer chunk runs, hence packed rows with more members.
   */
  deltaScale?: number | undefined;
  /** Inject exactly one violation of this kind. Default none. */
  violation?: ViolationKind | null | undefined;
  /**
   * Event index at or after which the violation is injected (the first suitable event from
   * there on). Default: a seeded point between 30% and 70% of `events`.
   */
  violationAt?: number | undefined;
  /** End inside an open turn, as after a crash (no closing `turn/end`). Default false. */
  openTail?: boolean | undefined;
  /** Epoch ms of the header's `createdAt` and the first event. Default 1785400000000. */
  startTime?: number | undefined;
}

/** Where the injected violation is and what a conforming fold reports for it. */
export interface ViolationInfo {
  kind: ViolationKind;
  /**
   * The offending event's `seq` as written (for `seq-gap` the wrong value). For
   * `unparsable-line` and `torn-tail`: the seq the damaged line starts with.
   */
  seq: number;
  /** Position of the offending event in the decoded event array (= events before it). */
  index: number;
  /** 1-based line in the logical text (the header is line 1). */
  line: number;
  /**
   * The exact first surface error of the fold (surface.md §3), or `null` when the damage is
   * to the JSONL itself (`unparsable-line`: decode error at `line`; `torn-tail`: the line is
   * ignored and the fold of the rest succeeds).
   */
  foldMessage: string | null;
}

/** Counters of what the generator wrote, for tests and reports. */
export interface GenStats {
  turns: number;
  steps: number;
  toolCalls: number;
  /** Successful summarizing compactions (in-turn and manual). */
  compactions: number;
  /** Successful compactions whose range contained an earlier checkpoint. */
  nestedCompactions: number;
  /** Checkpoints whose `start` seq is numerically greater than `end`. */
  startAfterEndRanges: number;
  failedCompactions: number;
  manualCompactions: number;
  /** Tool-result prunes (each one `compaction/prune` + one replacing `tool/result`). */
  prunes: number;
  /** `assistant/message` events with `content: []`. */
  emptyAssistantMessages: number;
  interruptedMessages: number;
  retries: number;
  packedRows: number;
}

/** Facts about a generated log. Complete once the lines have been fully consumed. */
export interface GenMeta {
  sessionId: string;
  /** Events written (expanded), including a damaged line's events, excluding a torn last line. */
  events: number;
  /** Lines written, including the header and a torn last line. */
  lines: number;
  /** False when the text must end without a final LF (`torn-tail`). */
  finalNewline: boolean;
  /** The turn left open at the end (`openTail`/`torn-tail`), else null. */
  openTurn: number | null;
  /**
   * The surface as the generator tracked it after the last written event. Equals the fold's
   * `nodes` when no violation was injected.
   */
  nodes: number[];
  violation: ViolationInfo | null;
  stats: GenStats;
}

/** A generated log: lazy lines plus the facts filled in while they are consumed. */
export interface GeneratedLog {
  /** Logical JSONL lines without their LF: the header first, then storage records. Single use. */
  lines: Generator<string, GenMeta, undefined>;
  /** Filled in as `lines` is consumed; final when it is exhausted. */
  meta: GenMeta;
}
