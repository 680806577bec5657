/**
 * Deterministic generator of realistic dsh session logs (logical JSONL, log-format.md §2–§3).
 *
 * Used by tests, benchmarks and bundled samples. The output mimics what upstream writes
 * (events.md §5–§6): turns with steps, streamed assistant chunks (packed into chunk rows like the
 * live writer does), tool calls and results, log-only plugin events, summarizing compactions
 * (including nested ones and failures), manual `/compact`, and tool-result pruning. The
 * generator tracks the surface itself so every replace it writes is valid, and can inject
 * exactly one rule violation at a known place.
 *
 * Streaming: lines are produced lazily, step by step; memory stays proportional to the current
 * surface (which compaction keeps bounded), never to the whole log.
 */

import { Rng, fmix32 } from './rng';

// ---------------------------------------------------------------------------------------------
// Public API
// ---------------------------------------------------------------------------------------------

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

/** Generate a log lazily; see {@link GeneratedLog}. */
export function generateLog(opts: GenOptions): GeneratedLog {
  const gen = new LogGenerator(opts);
  return { lines: gen.run(), meta: gen.meta };
}

/**
 * The logical JSONL lines of a log (header first, no trailing LF on each). The generator's
 * return value is the final {@link GenMeta}.
 */
export function* generateLines(opts: GenOptions): Generator<string, GenMeta, undefined> {
  return yield* new LogGenerator(opts).run();
}

/**
 * The whole log as one string: lines joined with LF plus a final LF (none after a torn tail).
 * For small logs only; stream {@link generateLines} for big ones.
 */
export function generateText(opts: GenOptions): string {
  const { lines, meta } = generateLog(opts);
  const text = Array.from(lines).join('\n');
  return meta.finalNewline ? text + '\n' : text;
}

// ---------------------------------------------------------------------------------------------
// Content vocabulary
// ---------------------------------------------------------------------------------------------

const PROVIDER = 'deepseek-official';
const MODELS = ['deepseek-v4-flash', 'deepseek-v4-pro'] as const;

const WORDS = (
  'the a to of and in that is for it this with on as be we file function test error value ' +
  'type module config build check run output input path line change update read write add ' +
  'remove fix issue result call return import export const let string number array object ' +
  'event log session surface node seq turn step tool message user assistant model context ' +
  'compaction summary range start end replace append chunk stream block text reasoning ' +
  'handler parser decoder encoder index cache buffer worker request response header status ' +
  'command script package version dependency directory source target branch commit diff ' +
  'patch review comment note warning failure success expected actual should would could ' +
  'need want first next then after before because so but not only also still already now ' +
  'here there which when where why how all each every some any more less same different ' +
  'small large simple clear correct wrong missing empty valid invalid strict loose safe'
).split(' ');

const VERBS = 'check read open look inspect run update fix add remove rename verify compare trace confirm'.split(' ');
const CJK = ['日志', '会话', '文件', '测试', '结构', '输出', '问题', '修改', '检查', '完成', '。', '，'];
const FILES = [
  'src/index.ts', 'src/core/fold/surface.ts', 'src/core/decode/jsonl.ts', 'src/cli/main.ts',
  'src/ui/App.tsx', 'src/worker/loader.ts', 'package.json', 'README.md', 'tests/fold.test.ts',
  'docs/ARCHITECTURE.md', 'src/core/util/grow.ts', 'scripts/build.ts', 'vite.config.ts',
  'src/store/session.ts', 'src/protocol/messages.ts', 'tsconfig.json',
];
const IDENTS = 'value result events nodes index offset line buffer state config options entry record row seq start end'.split(' ');
const KEYWORDS = ['const', 'let', 'return', 'if', 'for', 'export function', 'import', 'await', 'throw new Error'];

/** Fixed preamble of a compaction checkpoint (events.md §6.1). */
const CHECKPOINT_PREAMBLE =
  'This is an automatically generated checkpoint condensing an earlier span of the conversation to ' +
  'free up context. Treat the captured context as established background and build on it without ' +
  'restating it. Continue the task directly from the messages that follow, without acknowledging ' +
  'this checkpoint.\n\n<compacted-summary>';

const PRUNE_MARKER = '\n\n[... tool result middle pruned ...]\n\n';

const SYSTEM_PROMPT =
  'You are an AI agent powered by DeepSeek Harness.\n\nYou are a coding assistant. Verify your work ' +
  'by running the code or tests. Keep answers brief and factual.\n\nUse the read tool to inspect ' +
  'text files, the edit tool for targeted changes and bash for commands. Check the [exit code: N] ' +
  'marker on every bash result; investigate failures before moving on.';

const TOOL_SCHEMAS = [
  { name: 'bash', description: 'Execute a bash command and return its stdout/stderr.', parameters: { type: 'object', properties: { command: { type: 'string' }, description: { type: 'string' } }, required: ['command'] } },
  { name: 'read', description: 'Read a UTF-8 text file and return line-numbered content.', parameters: { type: 'object', properties: { file_path: { type: 'string' }, offset: { type: 'number' }, limit: { type: 'number' } }, required: ['file_path'] } },
  { name: 'edit', description: 'Edit an existing UTF-8 text file by replacing literal text.', parameters: { type: 'object', properties: { file_path: { type: 'string' }, old_string: { type: 'string' }, new_string: { type: 'string' } }, required: ['file_path', 'old_string', 'new_string'] } },
  { name: 'write', description: 'Create or fully replace a UTF-8 text file.', parameters: { type: 'object', properties: { file_path: { type: 'string' }, content: { type: 'string' } }, required: ['file_path', 'content'] } },
  { name: 'grep', description: 'Search file contents with a regular expression.', parameters: { type: 'object', properties: { pattern: { type: 'string' }, path: { type: 'string' } }, required: ['pattern'] } },
  { name: 'run_code', description: 'Run a JavaScript snippet that can call other tools.', parameters: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] } },
  { name: 'todo_write', description: 'Record and update a structured task list.', parameters: { type: 'object', properties: { todos: { type: 'array' } }, required: ['todos'] } },
  { name: 'workflow', description: 'Run a workflow script that orchestrates subagents.', parameters: { type: 'object', properties: { script: { type: 'string' } }, required: ['script'] } },
];

type ToolName = 'bash' | 'read' | 'edit' | 'write' | 'grep' | 'run_code' | 'todo_write' | 'workflow';
const TOOL_WEIGHTS: readonly (readonly [ToolName, number])[] = [
  ['bash', 30], ['read', 28], ['edit', 14], ['grep', 10], ['write', 5], ['run_code', 5], ['todo_write', 5], ['workflow', 3],
];

// ---------------------------------------------------------------------------------------------
// Internal types
// ---------------------------------------------------------------------------------------------

type Obj = Record<string, unknown>;

/** One node of the surface as the generator tracks it. */
interface SurfaceNode {
  seq: number;
  /** Estimated tokens of its text (characters / 4). */
  tokens: number;
  /** +k for an assistant message with k tool calls, −1 for a tool result, 0 otherwise (§6.4). */
  balance: number;
  checkpoint: boolean;
  /** Original `data` of a tool result still long enough to prune; dropped once pruned/shadowed. */
  prunable: Obj | null;
}

type DeltaKind = 'text' | 'reasoning' | 'tool';

/** A delta whose seq is assigned but whose line is not written yet (packing needs the run). */
interface PendingDelta {
  seq: number;
  time: number;
  kind: DeltaKind;
  turn: number;
  step: number;
  index: number;
  id: string;
  /** `undefined` = no `name` key on this delta. */
  name: string | undefined;
  text: string;
}

/** An assistant content block being produced, with its stream pieces. */
type PlannedBlock =
  | { type: 'reasoning' | 'text'; pieces: string[] }
  | { type: 'tool-call'; id: string; name: ToolName; pieces: string[]; args: string; nameOnAll: boolean };

type ToolCallBlock = Extract<PlannedBlock, { type: 'tool-call' }>;

type StepVariant = 'normal' | 'max-tokens-empty' | 'max-tokens-partial' | 'cancel';

/** Thrown to unwind generation when an open tail or torn tail has been reached. */
const STOP = Symbol('stop');

const REPLACEMENT_KINDS: ReadonlySet<ViolationKind> = new Set<ViolationKind>([
  'invalid-replace-op',
  'replace-start-not-found',
  'replace-end-not-found',
  'replace-start-after-end',
  'replace-missing-shadowed-source',
]);

/** Number of code points in `s` (surrogate pairs count once), as upstream's prune threshold does. */
function codePointLength(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

/** First `n` code points of `s`. */
function headCodePoints(s: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, i);
}

/** Last `n` code points of `s`. */
function tailCodePoints(s: string, n: number): string {
  let i = s.length;
  for (let k = 0; k < n && i > 0; k++) {
    const c = s.charCodeAt(i - 1);
    i -= c >= 0xdc00 && c <= 0xdfff && i - 2 >= 0 ? 2 : 1;
  }
  return s.slice(i);
}

/** Estimated tokens of a text length, the generator's context measure. */
const tokensOf = (chars: number): number => Math.ceil(chars / 4);

// ---------------------------------------------------------------------------------------------
// The generator
// ---------------------------------------------------------------------------------------------

class LogGenerator {
  readonly meta: GenMeta;

  private readonly target: number;
  private readonly pack: boolean;
  private readonly compactionOn: boolean;
  private readonly threshold: number;
  private readonly keepRatio: number;
  private readonly failureRate: number;
  private readonly manualRate: number;
  private readonly pruneThreshold: number;
  private readonly longChars: readonly [number, number] | null;
  private readonly deltaScale: number;
  private readonly longRate: number;
  private readonly openTail: boolean;

  /** Structure and content decisions. */
  private readonly rng: Rng;
  /** Packed-row splitting only, so packing never changes the decoded events. */
  private readonly packRng: Rng;
  /** Violation placement only, so a clean log and a violated one share their prefix. */
  private readonly violationRng: Rng;
  /** Ids, so adding an id never shifts content. */
  private readonly idRng: Rng;

  private readonly header: string;
  private out: string[] = [];
  private count = 0;
  private nextSeq = 0;
  private lineNo = 1;
  private time: number;
  private idCounter = 0;
  private readonly idMask: number;
  private readonly commandPrefix: string;
  private commandCounter = 0;

  private nodes: SurfaceNode[] = [];
  private contextTokens = 0;

  private turnNo = 0;
  private openTurn: number | null = null;
  private model: string;
  private headerDue: 'initial' | 'change' | null = 'initial';
  private contextDue = true;
  private planMode = false;
  private sandbox: 'read-only' | 'workspace-write' | 'danger-full-access' = 'workspace-write';
  private titleDone = false;

  private run_: PendingDelta[] = [];

  private readonly violation: ViolationKind | null;
  private readonly violationAt: number;
  private violationDone = false;
  /** Recorded for the line about to be written; published once that line is queued. */
  private pendingViolation: ViolationInfo | null = null;
  /** Event count after which an open tail stops (target plus a seeded overshoot). */
  private readonly stopAfter: number;

  constructor(opts: GenOptions) {
    this.target = Math.max(0, Math.floor(opts.events));
    this.pack = opts.packChunks ?? true;
    const comp = opts.compaction === false ? null : (opts.compaction ?? {});
    this.compactionOn = comp !== null;
    this.threshold = comp?.thresholdTokens ?? 20000;
    this.keepRatio = comp?.keepRatio ?? 0.3;
    this.failureRate = comp?.failureRate ?? 0.12;
    this.manualRate = comp?.manualRate ?? 0.06;
    this.pruneThreshold = opts.pruneThreshold ?? 8192;
    this.longRate = opts.longToolResultRate ?? 0.06;
    this.longChars = opts.longToolResultChars ?? null;
    this.deltaScale = opts.deltaScale ?? 1;
    this.violation = opts.violation ?? null;
    this.openTail = (opts.openTail ?? false) || this.violation === 'torn-tail';

    const root = new Rng(opts.seed);
    this.rng = root.fork('structure');
    this.packRng = root.fork('pack');
    this.violationRng = root.fork('violation');
    this.idRng = root.fork('ids');
    this.violationAt =
      opts.violationAt ?? Math.floor(this.target * (0.3 + 0.4 * this.violationRng.next()));
    this.stopAfter = this.target + this.violationRng.int(0, 40);
    this.time = opts.startTime ?? 1785400000000;
    this.model = MODELS[0];
    this.commandPrefix = this.idRng.hex(8);
    this.idMask = this.idRng.u32();

    const sessionId = opts.sessionId ?? this.uuid();
    this.header = JSON.stringify({
      type: 'session',
      version: 0,
      id: sessionId,
      createdAt: this.time,
      cwd: '/home/dev/surface-lens',
      delegationDepth: 0,
    });
    this.meta = {
      sessionId,
      events: 0,
      lines: 1,
      finalNewline: this.violation !== 'torn-tail',
      openTurn: null,
      nodes: [],
      violation: null,
      stats: {
        turns: 0, steps: 0, toolCalls: 0, compactions: 0, nestedCompactions: 0, startAfterEndRanges: 0,
        failedCompactions: 0, manualCompactions: 0, prunes: 0, emptyAssistantMessages: 0,
        interruptedMessages: 0, retries: 0, packedRows: 0,
      },
    };
  }

  // ----- driver ------------------------------------------------------------------------------

  *run(): Generator<string, GenMeta, undefined> {
    yield this.header;
    try {
      this.prelude();
      yield* this.drain();
      for (;;) {
        if (this.turnNo > 0) {
          this.betweenTurns();
          yield* this.drain();
        }
        for (const _ of this.turn()) yield* this.drain();
        yield* this.drain();
        if (!this.openTail && this.count >= this.target && this.violationSettled()) break;
      }
    } catch (e) {
      if (e !== STOP) throw e;
    }
    yield* this.drain();
    this.meta.events = this.count;
    this.meta.lines = this.lineNo;
    this.meta.openTurn = this.openTurn;
    this.meta.nodes = this.nodes.map((n) => n.seq);
    return this.meta;
  }

  private *drain(): Generator<string, void, undefined> {
    if (this.out.length === 0) return;
    const lines = this.out;
    this.out = [];
    yield* lines;
  }

  private violationSettled(): boolean {
    return this.violation === null || this.violation === 'torn-tail' || this.violationDone;
  }

  /** The violation waiting for a suitable event, if its point has been reached. */
  private armed(): ViolationKind | null {
    return !this.violationDone && this.violation !== null && this.count >= this.violationAt ? this.violation : null;
  }

  /** Note that the next line written carries the violation (its event starts at `seq`). */
  private recordViolation(seq: number, foldMessage: string | null): void {
    this.violationDone = true;
    this.pendingViolation = {
      kind: this.violation as ViolationKind,
      seq,
      index: this.count,
      line: this.lineNo + 1,
      foldMessage,
    };
  }

  // ----- writing -----------------------------------------------------------------------------

  /**
   * Queue one storage line holding `n` events. An open tail stops here (before the line), so the
   * state mutated so far matches exactly the lines written; a torn tail writes half the line.
   */
  private pushLine(line: string, n: number, firstSeq: number): void {
    if (
      this.openTail &&
      this.openTurn !== null &&
      this.count >= this.stopAfter &&
      this.violationSettled() &&
      this.pendingViolation === null
    ) {
      if (this.violation === 'torn-tail') {
        this.recordViolation(firstSeq, null);
        this.out.push(line.slice(0, Math.max(1, line.length >> 1)));
        this.lineNo++;
        this.meta.violation = this.pendingViolation;
      }
      throw STOP;
    }
    this.out.push(line);
    this.lineNo++;
    this.count += n;
    if (this.pendingViolation !== null) {
      this.meta.violation = this.pendingViolation;
      this.pendingViolation = null;
    }
  }

  /**
   * Write one event (any type except packed deltas) with the live writer's key order
   * `type, seq, time, data, [sourceEventSeqs], [surfaceOp]`, applying a generic violation when
   * one is armed and this event suits it. Returns the seq.
   */
  private ev(type: string, data: unknown, sources?: number[] | null, op?: unknown): number {
    this.flushRun();
    this.time += this.rng.int(0, 2);
    let seq = this.nextSeq;
    let src: unknown = sources ?? undefined;
    let surfaceOp: unknown = op ?? undefined;
    let damage = false;
    const kind = this.armed();
    if (kind !== null) {
      const eligible = type === 'user/message' || type === 'assistant/message' || type === 'tool/result';
      const isAppend = surfaceOp === 'append';
      switch (kind) {
        case 'seq-gap':
          this.recordViolation(seq + 1, `session event seq ${seq + 1} is not contiguous; expected ${this.count}`);
          seq += 1;
          break;
        case 'surfaceop-on-log-only':
          if (!eligible) {
            surfaceOp = 'append';
            this.recordViolation(seq, `session event "${type}" is not surface-eligible and cannot carry surfaceOp`);
          }
          break;
        case 'sources-on-log-only':
          if (!eligible && seq > 0) {
            src = [seq - 1];
            this.recordViolation(seq, `session event "${type}" is not surface-eligible and cannot carry sourceEventSeqs`);
          }
          break;
        case 'missing-surfaceop':
          if (eligible && isAppend) {
            surfaceOp = undefined;
            this.recordViolation(seq, `session event "${type}" is surface-eligible and requires a surfaceOp marker`);
          }
          break;
        case 'invalid-surfaceop':
          if (eligible && isAppend) {
            surfaceOp = 'Append';
            this.recordViolation(seq, `session event "${type}" carries an invalid surfaceOp`);
          }
          break;
        case 'sources-empty':
          if (type === 'tool/result' && isAppend) {
            src = [];
            this.recordViolation(seq, 'sourceEventSeqs must not be empty except on assistant/message');
          }
          break;
        case 'sources-duplicate':
          if (type === 'assistant/message' && Array.isArray(src) && src.length > 0) {
            src = [...(src as number[]), (src as number[])[0]];
            this.recordViolation(seq, 'sourceEventSeqs must not contain duplicates');
          }
          break;
        case 'sources-not-earlier':
          if (type === 'assistant/message' && Array.isArray(src)) {
            src = [...(src as number[]), seq];
            this.recordViolation(seq, `sourceEventSeqs must reference earlier events: ${seq} >= current seq ${seq}`);
          }
          break;
        case 'unparsable-line':
          damage = true;
          this.recordViolation(seq, null);
          break;
        default:
          // Replacement, prune and torn-tail violations are placed by their own writers.
          break;
      }
    }
    const event: Obj = { type, seq, time: this.time, data };
    if (src !== undefined) event.sourceEventSeqs = src;
    if (surfaceOp !== undefined) event.surfaceOp = surfaceOp;
    let line = JSON.stringify(event);
    // A strict prefix of an object's JSON text never parses, so half a line is always damage.
    if (damage) line = line.slice(0, line.length >> 1);
    this.pushLine(line, 1, seq);
    this.nextSeq = seq + 1;
    return seq;
  }

  /** Emit one stream delta; packed into a row with its neighbours when packing is on. */
  private delta(kind: DeltaKind, turn: number, step: number, index: number, text: string, id = '', name?: string): number {
    this.time += this.deltaGap();
    const last = this.run_[this.run_.length - 1];
    if (last !== undefined && !(last.kind === kind && last.turn === turn && last.step === step && last.index === index && last.id === id && last.name === name)) {
      this.flushRun();
    }
    const seq = this.nextSeq++;
    const pending: PendingDelta = { seq, time: this.time, kind, turn, step, index, id, name, text };
    // Unpacked deltas are written at once, bypassing ev(): no extra random draws and no
    // violation hooks, so packed and unpacked logs decode to the same events.
    if (!this.pack) this.writeSingleDelta(pending);
    else this.run_.push(pending);
    return seq;
  }

  /** Typical gaps between streamed deltas: mostly 0–1 ms, sometimes a network batch apart. */
  private deltaGap(): number {
    const r = this.rng.u32() & 31;
    return r < 18 ? 0 : r < 26 ? 1 : 20 + (r & 15) * 3;
  }

  /**
   * Write the pending delta run. Like the live writer, a run may be split across write
   * batches; pieces of 3+ become rows, shorter ones single events.
   */
  private flushRun(): void {
    const run = this.run_;
    if (run.length === 0) return;
    this.run_ = [];
    let i = 0;
    while (i < run.length) {
      const remaining = run.length - i;
      const size = remaining > 6 && this.packRng.chance(0.12) ? this.packRng.int(3, remaining - 1) : remaining;
      const piece = run.slice(i, i + size);
      if (piece.length >= 3) this.writeRow(piece);
      else for (const d of piece) this.writeSingleDelta(d);
      i += size;
    }
  }

  private writeRow(piece: PendingDelta[]): void {
    const first = piece[0] as PendingDelta;
    const dt: number[] = [];
    const texts: string[] = [];
    for (let k = 0; k < piece.length; k++) {
      const d = piece[k] as PendingDelta;
      if (k > 0) dt.push(d.time - (piece[k - 1] as PendingDelta).time);
      texts.push(d.text);
    }
    let row: Obj;
    if (first.kind === 'tool') {
      const data: Obj = { turn: first.turn, step: first.step, index: first.index, dt, id: first.id };
      if (first.name !== undefined) data.name = first.name;
      data.args = texts;
      row = { type: 'tool-call-chunks', seq0: first.seq, time0: first.time, data };
    } else {
      row = {
        type: first.kind === 'text' ? 'text-chunks' : 'reasoning-chunks',
        seq0: first.seq,
        time0: first.time,
        data: { turn: first.turn, step: first.step, index: first.index, dt, texts },
      };
    }
    this.pushLine(JSON.stringify(row), piece.length, first.seq);
    this.meta.stats.packedRows++;
  }

  private writeSingleDelta(d: PendingDelta): void {
    const event = { type: 'assistant/chunk', seq: d.seq, time: d.time, data: { turn: d.turn, step: d.step, chunk: deltaChunk(d.kind, d.index, d.text, d.id, d.name) } };
    this.pushLine(JSON.stringify(event), 1, d.seq);
  }

  // ----- ids and small content ---------------------------------------------------------------

  /**
   * 8 hex digits that never repeat within a log: a counter XOR a per-log mask, through a 32-bit
   * bijection, so ids look random but are unique by construction.
   */
  private uniqueHex(): string {
    return fmix32(this.idCounter++ ^ this.idMask).toString(16).padStart(8, '0');
  }

  /** A v4-shaped uuid, unique within the log. */
  private uuid(): string {
    const r = this.idRng;
    return `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${'89ab'[r.u32() & 3]}${r.hex(3)}-${r.hex(4)}${this.uniqueHex()}`;
  }

  /** A DeepSeek-style tool call id (`call_<nn>_<random>`), unique within the log. */
  private callId(ordinal: number): string {
    return `call_${String(ordinal).padStart(2, '0')}_${this.idRng.alnum(16)}${this.uniqueHex()}`;
  }

  private commandId(): string {
    return `cmd-${this.commandPrefix}-${++this.commandCounter}`;
  }

  private word(): string {
    return this.rng.pick(WORDS);
  }

  /** Natural-ish text as stream pieces (one piece ≈ one model token). */
  private pieces(unscaled: number): string[] {
    const rng = this.rng;
    const count = this.deltaScale === 1 ? unscaled : Math.max(1, Math.round(unscaled * this.deltaScale));
    const out: string[] = [];
    const cjk = rng.chance(0.03);
    let sentenceStart = true;
    while (out.length < count) {
      if (cjk) {
        out.push(rng.pick(CJK) + (rng.chance(0.5) ? rng.pick(CJK) : ''));
        continue;
      }
      const r = rng.u32() % 100;
      const prev = out[out.length - 1];
      if (!sentenceStart && r < 9 && prev !== ',') {
        out.push('.');
        if (rng.chance(0.15)) out.push('\n\n');
        sentenceStart = true;
        continue;
      }
      if (!sentenceStart && r < 13 && prev !== ',') {
        out.push(',');
        continue;
      }
      if (r < 15) {
        out.push(out.length === 0 || out[out.length - 1] === '\n\n' ? '`' : ' `');
        out.push(rng.pick(FILES));
        out.push('`');
        sentenceStart = false;
        continue;
      }
      let w = this.word();
      if (sentenceStart) w = w.charAt(0).toUpperCase() + w.slice(1);
      const lead = out.length === 0 || out[out.length - 1] === '\n\n' ? '' : ' ';
      if (w.length > 7 && rng.chance(0.3)) {
        // Long words often stream as two tokens.
        const cut = rng.int(3, w.length - 3);
        out.push(lead + w.slice(0, cut));
        out.push(w.slice(cut));
      } else {
        out.push(lead + w);
      }
      sentenceStart = false;
    }
    const end = out[out.length - 1];
    if (end === ',') out.pop();
    if (!cjk && end !== '.' && end !== '\n\n') out.push('.');
    return out;
  }

  private sentence(words: number): string {
    return this.pieces(words).join('');
  }

  /** Split a JSON argument string into stream pieces, as providers stream tool arguments. */
  private splitArgs(args: string): string[] {
    const out: string[] = [];
    if (this.rng.chance(0.5)) out.push('');
    let i = 0;
    while (i < args.length) {
      const n = this.rng.int(1, 9);
      out.push(args.slice(i, i + n));
      i += n;
    }
    return out;
  }

  private codeLines(n: number): string[] {
    const rng = this.rng;
    const lines: string[] = [];
    let indent = 0;
    for (let i = 0; i < n; i++) {
      const r = rng.u32() % 10;
      if (r === 0 && indent > 0) {
        indent--;
        lines.push(`${'  '.repeat(indent)}}`);
        continue;
      }
      const kw = rng.pick(KEYWORDS);
      const a = rng.pick(IDENTS);
      const b = rng.pick(IDENTS);
      let line: string;
      if (kw === 'if' || kw === 'for') {
        line = `${kw} (${a}.${b} ${rng.pick(['===', '<', '>=', '!=='])} ${rng.int(0, 99)}) {`;
        if (indent < 4) indent++;
      } else if (kw === 'import') {
        line = `import { ${a} } from './${b}';`;
      } else if (kw === 'export function') {
        line = `export function ${a}${b.charAt(0).toUpperCase()}${b.slice(1)}(${a}: number): ${rng.pick(['void', 'string', 'number[]'])} {`;
        if (indent < 4) indent++;
      } else if (kw === 'throw new Error') {
        line = `throw new Error('${this.word()} ${this.word()} ${a}');`;
      } else {
        line = `${kw} ${a} = ${b}${rng.chance(0.5) ? `.${rng.pick(IDENTS)}` : ''}${rng.chance(0.3) ? ` + ${rng.int(1, 64)}` : ''};`;
      }
      lines.push(`${'  '.repeat(indent)}${line}`);
    }
    return lines;
  }

  /** Text of roughly `chars` characters built from whole lines of `make`. */
  private sizedText(chars: number, make: (i: number) => string): string {
    const parts: string[] = [];
    let len = 0;
    for (let i = 0; len < chars; i++) {
      const l = make(i);
      parts.push(l);
      len += l.length + 1;
    }
    return parts.join('\n');
  }

  // ----- surface tracking --------------------------------------------------------------------

  private appendNode(seq: number, tokens: number, balance: number, prunable: Obj | null = null): void {
    this.nodes.push({ seq, tokens, balance, checkpoint: false, prunable });
    this.contextTokens += tokens;
  }

  /**
   * Choose a compactable range [a, b] (node indices) whose both cuts are balanced (§6.4), keeping
   * about `keepRatio` of the context verbatim after it. `minNodes` is the fewest nodes the range
   * may hold; `force` accepts any balanced range when the preferred one does not exist.
   */
  private chooseRange(minNodes: number, force: boolean): [number, number] | null {
    const n = this.nodes.length;
    if (n < minNodes) return null;
    // balanced[c] = the running balance before index c is 0 (c = n is the end of the surface).
    const balanced: boolean[] = new Array<boolean>(n + 1);
    const tailTokens: number[] = new Array<number>(n + 1);
    let bal = 0;
    for (let c = 0; c <= n; c++) {
      balanced[c] = bal === 0;
      const node = this.nodes[c];
      if (node !== undefined) bal += node.balance;
    }
    tailTokens[n] = 0;
    for (let c = n - 1; c >= 0; c--) tailTokens[c] = (tailTokens[c + 1] as number) + (this.nodes[c] as SurfaceNode).tokens;

    // Mostly compact from the very beginning (which nests earlier checkpoints); sometimes
    // leave the first node(s) alone, as a range starting after an earlier checkpoint.
    let a = 0;
    if (this.rng.chance(0.2)) {
      const later: number[] = [];
      for (let c = 1; c < Math.min(n - minNodes, 4); c++) if (balanced[c]) later.push(c);
      if (later.length > 0) a = this.rng.pick(later);
    }
    // Usually keep `keepRatio` of the context; sometimes much more, so the next compaction comes
    // soon and its range ends inside the tail that predates the previous checkpoint (a range
    // whose start seq is numerically after its end seq).
    const ratio = this.rng.chance(0.3) ? Math.max(this.keepRatio, 0.55 + 0.3 * this.rng.next()) : this.keepRatio;
    const keep = ratio * this.contextTokens;
    let endCut = -1;
    // The largest balanced end cut that still keeps enough context and at least one node.
    for (let c = n - 1; c >= a + minNodes; c--) {
      if (balanced[c] && (tailTokens[c] as number) >= keep) {
        endCut = c;
        break;
      }
    }
    if (endCut < 0) {
      // Keep at least one node when possible; a forced compaction may take everything.
      for (let c = n - 1; c >= a + minNodes; c--) if (balanced[c]) { endCut = c; break; }
      if (endCut < 0 && force && balanced[n] && n >= a + minNodes) endCut = n;
    }
    if (endCut < 0) return null;
    return [a, endCut - 1];
  }

  // ----- session structure -------------------------------------------------------------------

  /** Log-only events a session typically starts with. */
  private prelude(): void {
    if (this.rng.chance(0.5)) this.ev('approval/policy', { policy: 'ask' });
    if (this.rng.chance(0.2)) {
      const id = this.commandId();
      this.ev('command/run', { commandId: id, name: 'permission', args: ' workspace-write', source: { kind: 'user' } });
      this.ev('permission/preset', { preset: 'workspace-write' });
      this.ev('command/done', { commandId: id, kind: 'success', text: 'Permission preset: workspace-write.' });
    }
  }

  /** Log-only plugin events and manual compactions between two turns. */
  private betweenTurns(): void {
    const rng = this.rng;
    this.time += rng.int(3000, 240000);
    // Log times are not monotonic in real logs (clock adjustments, resumed machines).
    if (rng.chance(0.01)) this.time -= rng.int(1000, 90000);
    if (this.compactionOn && rng.chance(this.manualRate)) this.manualCompact();
    if (rng.chance(0.04)) {
      const id = this.commandId();
      const next = this.model === MODELS[0] ? MODELS[1] : MODELS[0];
      this.ev('command/run', { commandId: id, name: 'model', args: ` ${next}`, source: { kind: 'user' } });
      this.model = next;
      this.headerDue = 'change';
      this.ev('command/done', { commandId: id, kind: 'success', text: `Model: ${PROVIDER}/${next}.` });
    }
    if (rng.chance(0.03)) {
      const id = this.commandId();
      this.planMode = !this.planMode;
      this.ev('command/run', { commandId: id, name: 'plan', args: this.planMode ? '' : ' off', source: { kind: 'user' } });
      this.ev('plan/mode', { active: this.planMode });
      this.ev('command/done', { commandId: id, kind: 'success', text: this.planMode ? 'Plan mode on. Use /plan off to leave.' : 'Plan mode off.' });
    }
    if (rng.chance(0.02)) {
      this.sandbox = rng.pick(['read-only', 'workspace-write', 'danger-full-access'] as const);
      this.ev('sandbox/mode', { mode: this.sandbox });
      this.contextDue = true;
    }
    if (rng.chance(0.02)) {
      const id = this.commandId();
      this.ev('command/run', { commandId: id, name: 'status', args: '', source: { kind: 'user' } });
      this.ev('command/done', { commandId: id, kind: 'success', text: `Session ${this.meta.sessionId}\nModel: ${PROVIDER}/${this.model}\nTurns: ${this.turnNo}` });
    }
    if (rng.chance(0.01)) this.ev('feedback/record', { text: this.sentence(rng.int(5, 20)) });
  }

  /** One turn, yielding after every step so the driver can stream its lines. */
  private *turn(): Generator<void, void, undefined> {
    const rng = this.rng;
    const turn = ++this.turnNo;
    this.meta.stats.turns++;
    const prompt = this.prompt();
    this.ev('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [prompt] });
    this.time += rng.int(0, 3);
    this.ev('turn/start', { turn });
    this.openTurn = turn;
    this.ev('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] });
    const toolSteps = rng.weighted<number>([[0, 22], [1, 24], [2, 20], [3, 13], [4, 9], [6, 7], [9, 5]]);
    let reason: Obj = { kind: 'completed' };
    for (let step = 1; ; step++) {
      this.meta.stats.steps++;
      this.time += rng.int(1, 60);
      this.ev('step/start', { turn, step });
      if (step === 1) this.stepOneInputs(turn, prompt);
      this.pruneCurrent();
      this.maybeCompact(turn, step);
      if (step > 1 && rng.chance(0.03)) this.ev('request/context', { provider: PROVIDER, model: this.model, contextWindow: 128000 });
      const final = step > toolSteps;
      const r = rng.next();
      const variant: StepVariant =
        r < 0.02 ? 'max-tokens-empty' : r < 0.03 && !final ? 'max-tokens-partial' : r < 0.036 && final ? 'cancel' : 'normal';
      if (rng.chance(0.02)) this.failedAttempt(turn, step);
      const calls = this.assistantStep(turn, step, final, variant);
      if (calls.length > 0) this.runTools(turn, step, calls);
      this.ev('step/end', { turn, step });
      yield;
      if (variant === 'max-tokens-empty' || variant === 'max-tokens-partial') {
        reason = { kind: 'max-tokens' };
        break;
      }
      if (variant === 'cancel') {
        reason = { kind: 'aborted', reason: { kind: 'user' } };
        break;
      }
      if (calls.length === 0) break;
    }
    this.ev('turn/end', { turn, reason });
    this.openTurn = null;
  }

  /** A queued user prompt (the same object is spliced from the inbox and appended). */
  private prompt(): Obj {
    const rng = this.rng;
    let text = `${rng.pick(VERBS).replace(/^./, (c) => c.toUpperCase())} ${this.sentence(rng.int(8, 60))}`;
    if (rng.chance(0.08)) {
      // Pasted material: a stack trace or a code excerpt.
      text += `\n\n\`\`\`\n${this.codeLines(rng.int(10, 60)).join('\n')}\n\`\`\``;
    }
    return { content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id: this.uuid() };
  }

  /** Step 1 inputs: the prompt, injected context, the title and the request header. */
  private stepOneInputs(turn: number, prompt: Obj): void {
    const rng = this.rng;
    const promptText = ((prompt.content as Obj[])[0] as Obj).text as string;
    const promptSeq = this.ev('user/message', prompt, null, 'append');
    this.appendNode(promptSeq, tokensOf(promptText.length), 0);
    if (this.contextDue || rng.chance(0.08)) {
      this.contextDue = false;
      const sandboxText = `Current DSH file policy: ${this.sandbox}.`;
      const approvalText = 'Approval prompts are enabled: actions outside the policy ask the user first.';
      const text = `Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n${sandboxText}\n\n${approvalText}`;
      const msg = {
        content: [{ type: 'text', text }],
        source: {
          kind: 'plugin',
          plugin: '@deepseek-ai/dsh-system-prompt',
          form: 'snapshot',
          sections: [{ name: 'sandbox:policy', text: sandboxText }, { name: 'approval:policy', text: approvalText }],
        },
        role: 'user',
        id: this.uuid(),
      };
      const seq = this.ev('user/message', msg, null, 'append');
      this.appendNode(seq, tokensOf(text.length), 0);
    }
    if (!this.titleDone) {
      this.titleDone = true;
      this.ev('session/title', { title: promptText.split(' ').slice(0, 5).join(' '), messageSeqs: [promptSeq], source: { kind: 'fallback' } });
    } else if (turn === 2 && rng.chance(0.6)) {
      this.ev('session/title', {
        title: this.sentence(4).replace(/\.$/, ''),
        messageSeqs: [promptSeq],
        source: { kind: 'provider', provider: PROVIDER, model: { provider: PROVIDER, model: this.model } },
      });
    }
    if (this.headerDue !== null) {
      this.ev('request/header', {
        header: { config: { provider: PROVIDER, model: this.model }, system: SYSTEM_PROMPT, tools: TOOL_SCHEMAS },
        reason: this.headerDue,
      });
      this.headerDue = null;
      this.ev('request/context', { provider: PROVIDER, model: this.model, contextWindow: 128000 });
    }
  }

  /** A failed model attempt followed by a retry (events.md §5, Retry). */
  private failedAttempt(turn: number, step: number): void {
    const retryId = this.uuid();
    const failure = { message: '429 Too Many Requests: rate limit reached', code: 'RATE_LIMITED', status: 429 };
    this.time += this.rng.int(200, 1500);
    this.ev('assistant/chunk', { turn, step, chunk: { type: 'finish', reason: { kind: 'error', failure } } });
    const delayMs = this.rng.pick([500, 1000, 2000]);
    this.ev('llm/retry', { retryId, turn, step, provider: PROVIDER, mode: 'normal', policyKey: 'rate-limit', retry: 1, maxRetries: 3, delayMs, failure });
    this.time += delayMs;
    this.ev('llm/retry-started', { retryId, turn, step, retry: 1 });
    this.meta.stats.retries++;
  }

  // ----- the assistant side ------------------------------------------------------------------

  private planToolCall(ordinal: number): PlannedBlock {
    const rng = this.rng;
    const name = rng.weighted(TOOL_WEIGHTS);
    let args: Obj;
    switch (name) {
      case 'bash':
        args = { command: rng.pick(['npm test', 'npx tsc -p .', 'git status --short', 'ls -la src', `grep -rn "${this.word()}" src`, 'npx vitest run', `cat ${rng.pick(FILES)}`]), description: this.sentence(rng.int(3, 7)) };
        break;
      case 'read':
        args = rng.chance(0.5) ? { file_path: rng.pick(FILES) } : { file_path: rng.pick(FILES), offset: rng.int(1, 400), limit: rng.pick([50, 100, 200]) };
        break;
      case 'edit':
        args = { file_path: rng.pick(FILES), old_string: this.codeLines(rng.int(1, 4)).join('\n'), new_string: this.codeLines(rng.int(1, 6)).join('\n') };
        break;
      case 'write':
        args = { file_path: rng.pick(FILES), content: this.codeLines(rng.int(8, 40)).join('\n') };
        break;
      case 'grep':
        args = { pattern: `${this.word()}\\(`, path: 'src' };
        break;
      case 'run_code':
        args = { code: `const a = await tools.read({ file_path: '${rng.pick(FILES)}' });\nconst b = await tools.grep({ pattern: '${this.word()}' });\nreturn { a, b };` };
        break;
      case 'todo_write':
        args = { todos: Array.from({ length: rng.int(2, 5) }, (_, i) => ({ content: this.sentence(rng.int(3, 8)), status: i === 0 ? 'completed' : i === 1 ? 'in_progress' : 'pending' })) };
        break;
      case 'workflow':
        args = { script: "phase('Review')\nconst r = await agent('Review the change and report issues.', { label: 'reviewer' })\nreturn { r }", meta: { name: 'review', description: 'Review the change' } };
        break;
    }
    const text = JSON.stringify(args);
    return { type: 'tool-call', id: this.callId(ordinal), name, pieces: this.splitArgs(text), args: text, nameOnAll: rng.chance(0.85) };
  }

  /**
   * Stream one model call and append its `assistant/message`. Returns the tool-call blocks that
   * must be executed.
   */
  private assistantStep(turn: number, step: number, final: boolean, variant: StepVariant): ToolCallBlock[] {
    const rng = this.rng;
    const blocks: PlannedBlock[] = [];
    if (variant === 'max-tokens-empty') {
      // The output limit hit before any block completed: the message only reports usage.
      if (rng.chance(0.5)) blocks.push({ type: 'reasoning', pieces: this.pieces(rng.int(5, 60)) });
    } else {
      if (rng.chance(final ? 0.6 : 0.75)) blocks.push({ type: 'reasoning', pieces: this.pieces(rng.int(12, final ? 110 : 70)) });
      if (final || variant === 'cancel') blocks.push({ type: 'text', pieces: this.pieces(rng.int(15, 230)) });
      else {
        if (rng.chance(0.25) || variant === 'max-tokens-partial') blocks.push({ type: 'text', pieces: this.pieces(rng.int(5, 30)) });
        const n = rng.weighted<number>([[1, 70], [2, 20], [3, 10]]);
        for (let i = 0; i < n; i++) blocks.push(this.planToolCall(i));
      }
    }

    const chunkSeqs: number[] = [];
    const chunk = (c: Obj): void => {
      chunkSeqs.push(this.ev('assistant/chunk', { turn, step, chunk: c }));
    };
    const completed: Obj[] = [];
    let outputChars = 0;
    this.time += rng.int(300, 2500);
    // Some providers close every block at the end of the stream, others right after it.
    const deferEnds = rng.chance(0.4);
    const ends: Obj[] = [];
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index] as PlannedBlock;
      // Where an interrupted stream stops: inside the cancelled text, inside the first tool call
      // of a cut-off step (so no tool call completes and none is left without a result), or
      // inside the first block of an empty max-tokens step.
      const stopsHere =
        (variant === 'cancel' && block.type === 'text') ||
        (variant === 'max-tokens-partial' && block.type === 'tool-call') ||
        variant === 'max-tokens-empty';
      chunk({ type: 'block-start', index, blockType: block.type });
      const pieces = stopsHere ? block.pieces.slice(0, Math.max(1, block.pieces.length >> 1)) : block.pieces;
      for (let k = 0; k < pieces.length; k++) {
        const piece = pieces[k] as string;
        const seq =
          block.type === 'tool-call'
            ? this.delta('tool', turn, step, index, piece, block.id, block.nameOnAll || k === 0 ? block.name : undefined)
            : this.delta(block.type, turn, step, index, piece);
        chunkSeqs.push(seq);
      }
      if (stopsHere) {
        // A cancelled message keeps the text received so far; a cut-off block is dropped.
        if (variant === 'cancel') completed.push({ type: 'text', text: pieces.join('') });
        break;
      }
      const assembled: Obj =
        block.type === 'tool-call'
          ? { type: 'tool-call', id: block.id, name: block.name, arguments: block.args }
          : { type: block.type, text: block.pieces.join('') };
      outputChars += block.type === 'tool-call' ? block.args.length : (assembled.text as string).length;
      completed.push(assembled);
      if (deferEnds) ends.push({ type: 'block-end', index, block: assembled });
      else chunk({ type: 'block-end', index, block: assembled });
    }
    for (const end of ends) chunk(end);

    const usage: Obj = { inputTokens: this.contextTokens + 2900, outputTokens: Math.max(1, tokensOf(outputChars)) };
    if (rng.chance(0.7)) usage.cacheReadTokens = Math.floor(this.contextTokens * 0.8);
    const firstBlock = blocks[0];
    if (firstBlock?.type === 'reasoning') usage.reasoningTokens = firstBlock.pieces.length;
    if (variant !== 'cancel') {
      chunk({ type: 'usage', usage });
      const calls = completed.filter((b) => b.type === 'tool-call');
      const reason = variant.startsWith('max-tokens') ? { kind: 'max-tokens' } : calls.length > 0 ? { kind: 'tool-calls' } : { kind: 'stop' };
      chunk({ type: 'finish', reason });
    }

    const message = { role: 'assistant', content: completed, source: { kind: 'model', provider: PROVIDER, model: this.model }, id: this.uuid() };
    const data: Obj = { turn, step, message };
    if (variant === 'cancel') {
      data.interrupted = true;
      this.meta.stats.interruptedMessages++;
    } else data.usage = usage;
    // An empty (usage-only) message may cite its chunks or nothing at all; both are legal.
    const sources = completed.length === 0 && rng.chance(0.5) ? [] : chunkSeqs;
    const seq = this.ev('assistant/message', data, sources, 'append');
    if (completed.length === 0) this.meta.stats.emptyAssistantMessages++;

    const toolCalls: ToolCallBlock[] = [];
    if (variant === 'normal') for (const b of blocks) if (b.type === 'tool-call') toolCalls.push(b);
    let chars = 0;
    for (const b of completed) chars += ((b.text ?? b.arguments) as string).length;
    this.appendNode(seq, tokensOf(chars), toolCalls.length);
    this.meta.stats.toolCalls += toolCalls.length;
    return toolCalls;
  }

  // ----- tools -------------------------------------------------------------------------------

  private runTools(turn: number, step: number, calls: ToolCallBlock[]): void {
    const callSeqs = calls.map((c) => this.ev('tool/call', { turn, step, callId: c.id, name: c.name, arguments: c.args }));
    calls.forEach((call, i) => this.runTool(turn, step, call, callSeqs[i] as number));
  }

  private runTool(turn: number, step: number, call: ToolCallBlock, callSeq: number): void {
    const rng = this.rng;
    let text: string;
    let isError = false;
    let error: Obj | null = null;
    let meta: Obj | null = null;
    const forceLong = this.armed() === 'tool-result-changes-meta';
    // Only read/bash/grep produce long output; they are about 2/3 of the calls, so scale the
    // per-call chance to make `longRate` the share over all tool results.
    const long = forceLong || ((call.name === 'read' || call.name === 'bash' || call.name === 'grep') && rng.chance(this.longRate * 1.5));
    const longChars =
      this.longChars !== null
        ? rng.int(this.longChars[0], this.longChars[1])
        : Number.isFinite(this.pruneThreshold)
          ? this.pruneThreshold + rng.int(200, Math.max(400, this.pruneThreshold >> 1))
          : rng.int(9000, 16000);

    let rejected = false;
    if ((call.name === 'bash' || call.name === 'write' || call.name === 'edit') && rng.chance(0.06)) {
      const id = this.uuid();
      this.ev('approval/asked', { id, toolName: call.name, callId: call.id, reason: `escalate sandbox to danger-full-access: ${this.sentence(rng.int(5, 14))}` });
      this.time += rng.int(800, 20000);
      rejected = rng.chance(0.25);
      this.ev('approval/decided', { id, outcome: rejected ? 'rejected' : 'allowed-once' });
    }
    let blocked = false;
    if (!rejected && rng.chance(0.05)) {
      const handlerId = `claude-code:PreToolUse:${rng.int(1, 3)}`;
      this.ev('hook/invoked', { turn, point: 'PreToolUse', dialect: 'claude-code', handlerId, matcher: call.name });
      blocked = rng.chance(0.2);
      this.ev('hook/result', blocked
        ? { turn, point: 'PreToolUse', handlerId, decision: 'block', exitCode: 2, stderrSummary: `${call.name} is disabled by policy in this session`, durationMs: rng.int(1000, 9000) / 1000 }
        : { turn, point: 'PreToolUse', handlerId, decision: 'allow', exitCode: 0, durationMs: rng.int(1000, 9000) / 1000 });
    }

    this.time += rng.int(5, 400);
    if (rejected) {
      text = 'The user rejected this tool call.';
      isError = true;
    } else if (blocked) {
      text = `Error: ${call.name} is disabled by policy in this session`;
      isError = true;
    } else {
      switch (call.name) {
        case 'bash': {
          const exitCode = rng.chance(0.15) ? 1 : 0;
          const size = long ? longChars : this.normalSize(150, 7000);
          text = `${this.sizedText(size, () => rng.chance(0.5) ? `${rng.pick(FILES)}:${rng.int(1, 500)}: ${this.sentence(rng.int(3, 10))}` : ` ✓ ${this.sentence(rng.int(2, 6))} (${rng.int(1, 90)} ms)`)}\n[exit code: ${exitCode}]`;
          meta = { exitCode };
          this.time += rng.int(100, 8000);
          break;
        }
        case 'read': {
          const first = rng.int(1, 200);
          const size = long ? longChars : this.normalSize(500, 7500);
          const code = this.sizedText(size, (i) => `${String(first + i).padStart(6, ' ')}\t${this.codeLines(1)[0] as string}`);
          if (rng.chance(0.06)) {
            text = `File not found: ${rng.pick(FILES)}`;
            isError = true;
            error = { name: 'FsError', code: 'FS_NOT_FOUND' };
          } else text = code;
          break;
        }
        case 'edit': {
          const path = rng.pick(FILES);
          text = `Edited ${path}: replaced 1 occurrence.`;
          meta = { diffs: [{ path, oldText: this.codeLines(1)[0] as string, newText: this.codeLines(1)[0] as string }] };
          break;
        }
        case 'write':
          text = `Wrote ${rng.int(200, 4000)} bytes to ${rng.pick(FILES)}.`;
          break;
        case 'grep': {
          const size = long ? longChars : this.normalSize(200, 6000);
          text = this.sizedText(size, () => `${rng.pick(FILES)}:${rng.int(1, 900)}:${this.codeLines(1)[0] as string}`);
          meta = { shape: 'matches', truncated: long };
          break;
        }
        case 'run_code': {
          for (let k = 1; k <= rng.int(1, 2); k++) {
            const base = { rootCallId: call.id, parentCallId: call.id, subCallId: `${call.id}:code:${k}`, name: k === 1 ? 'read' : 'grep', arguments: { file_path: rng.pick(FILES) } };
            this.ev('tool/code-dispatch-start', base);
            this.time += rng.int(2, 40);
            this.ev('tool/code-dispatch', { ...base, isError: false, content: [{ type: 'text', text: this.sentence(rng.int(5, 20)) }] });
          }
          text = JSON.stringify({ a: this.sentence(rng.int(5, 20)), b: this.sentence(rng.int(3, 10)) }, null, 2);
          break;
        }
        case 'todo_write': {
          const todos = (JSON.parse(call.args) as { todos: unknown[] }).todos;
          this.ev('todo/write', { todos });
          text = `Todo list updated (${todos.length} items).`;
          break;
        }
        case 'workflow': {
          const runId = this.uuid();
          this.ev('tool-workflow/run-start', { runId, name: 'review' });
          this.ev('tool-workflow/agent-start', { runId, seq: 1, label: 'reviewer', phase: 'Review', childId: this.uuid() });
          this.time += rng.int(2000, 30000);
          this.ev('tool-workflow/agent-end', { runId, seq: 1, outcome: 'completed' });
          this.ev('tool-workflow/run-end', { runId, stopReason: 'completed' });
          text = `workflow "review" completed (1 agent).\nReturn value:\n{\n  "r": ${JSON.stringify(this.sentence(rng.int(10, 40)))}\n}`;
          break;
        }
      }
    }

    const message = {
      source: { kind: 'tool', callId: call.id },
      content: [{ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text }], isError }],
      role: 'user',
      id: this.uuid(),
    };
    const data: Obj = { turn, step, message };
    if (error !== null) data.error = error;
    if (meta !== null) data.meta = meta;
    const seq = this.ev('tool/result', data, [callSeq], 'append');
    const prunable = forceLong || codePointLength(text) > this.pruneThreshold ? data : null;
    this.appendNode(seq, tokensOf(text.length), -1, prunable);
  }

  /** Size of an ordinary tool output: uniform in [lo, hi], kept clearly under the prune threshold. */
  private normalSize(lo: number, hi: number): number {
    const cap = Math.max(lo, Math.min(hi, this.pruneThreshold - 600));
    return this.rng.int(Math.min(lo, cap), cap);
  }

  // ----- compaction and pruning --------------------------------------------------------------

  /** Prune every current tool result over the threshold (events.md §6.3). */
  private pruneCurrent(): void {
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[i] as SurfaceNode;
      if (node.prunable === null) continue;
      const original = node.prunable;
      const s = node.seq;
      this.ev('compaction/prune', { shadowedRange: { start: s, end: s }, shadowedSeqs: [s], shadowedTokenCount: node.tokens });
      const message = original.message as Obj;
      const block = (message.content as Obj[])[0] as Obj;
      const inner = block.content as Obj[];
      const text = (inner[0] as Obj).text as string;
      // Upstream keeps the first 4096 and last 1024 code points (threshold 8192); a smaller
      // test threshold scales them down so the copy still is a shortening.
      const head = Math.min(4096, Math.floor(this.pruneThreshold / 2));
      const tail = Math.min(1024, Math.floor(this.pruneThreshold / 8));
      const cutText = headCodePoints(text, head) + PRUNE_MARKER + tailCodePoints(text, tail);
      // Identical data except the first block's content: same keys in the same order.
      const data: Obj = { ...original, message: { ...message, content: [{ ...block, content: [{ type: 'text', text: cutText }, ...inner.slice(1)] }] } };
      if (this.armed() === 'tool-result-changes-meta') {
        const meta = (original.meta ?? {}) as Obj;
        data.meta = { ...meta, pruned: true };
        this.recordViolation(this.nextSeq, 'tool/result surface replacement may change only content');
      }
      const seq = this.ev('tool/result', data, [s], { op: 'replace', start: s, end: s });
      const tokens = tokensOf(cutText.length);
      this.contextTokens += tokens - node.tokens;
      this.nodes[i] = { seq, tokens, balance: -1, checkpoint: false, prunable: null };
      this.meta.stats.prunes++;
    }
  }

  /** An automatic compaction at a step start when the context is over the threshold. */
  private maybeCompact(turn: number, step: number): void {
    const armed = this.armed();
    const forced = armed !== null && REPLACEMENT_KINDS.has(armed);
    if (!forced && !(this.compactionOn && this.contextTokens > this.threshold)) return;
    const minNodes = forced && armed === 'replace-start-after-end' ? 2 : 1;
    const range = this.chooseRange(minNodes, forced);
    if (range === null) return;
    const fail = !forced && this.rng.chance(this.failureRate);
    if (!fail && !forced && this.rng.chance(0.3)) {
      // Context overflow: the request failed first, then compaction runs inside the same step.
      this.ev('assistant/chunk', {
        turn, step,
        chunk: { type: 'finish', reason: { kind: 'error', failure: { message: 'request exceeded the model context window', code: 'CONTEXT_WINDOW_EXCEEDED' } } },
      });
    }
    this.compact(range, turn, null, fail, forced);
  }

  /** A manual `/compact` between turns (events.md §6.2). */
  private manualCompact(): void {
    const commandId = this.commandId();
    this.ev('command/run', { commandId, name: 'compact', args: '', source: { kind: 'user' } });
    const range = this.nodes.length >= 2 ? this.chooseRange(2, false) : null;
    if (range === null) {
      this.ev('command/done', { commandId, kind: 'success', text: 'No compactable history yet.' });
      return;
    }
    const fail = this.rng.chance(this.failureRate / 2);
    const result = this.compact(range, null, commandId, fail);
    if ('error' in result) {
      this.ev('command/done', { commandId, kind: 'error', text: `Compaction failed: ${result.error}` });
    } else {
      this.ev('command/done', {
        commandId,
        kind: 'success',
        text: `Compacted ${result.count} history items (~${result.tokens} tokens).`,
        sourceEventSeq: result.summarySeq,
      });
      this.meta.stats.manualCompactions++;
    }
  }

  /**
   * Write one compaction bracket replacing nodes [a, b]; applies the replacement violations
   * when one is armed. Returns the error text of a failed compaction.
   */
  private compact(
    range: [number, number],
    turn: number | null,
    commandId: string | null,
    fail: boolean,
    forced = false,
  ): { count: number; tokens: number; summarySeq: number } | { error: string } {
    const rng = this.rng;
    const [a, b] = range;
    const compactionId = this.uuid();
    const withCmd = (o: Obj): Obj => (commandId === null ? o : { compactionId: o.compactionId, sourceCommandId: commandId, ...o });
    const startSeq = this.ev('compaction/start', withCmd({ compactionId, turn }));
    this.time += rng.int(800, 9000);
    const shadowedNodes = this.nodes.slice(a, b + 1);
    const shadowed = shadowedNodes.map((n) => n.seq);
    let tokens = 0;
    for (const n of shadowedNodes) tokens += n.tokens;
    const summaryText = this.sentence(rng.int(40, 220));
    const summary = [{ type: 'text', text: summaryText }];
    const cpTokens = tokensOf(CHECKPOINT_PREAMBLE.length + summaryText.length + 21);
    // A summary at least as big as the range is refused upstream; a forced compaction (placing
    // a violation) goes through regardless.
    if (fail || (cpTokens >= tokens && !forced)) {
      const error =
        cpTokens >= tokens
          ? `summary is not smaller than the shadowed content (${cpTokens} estimated framed tokens >= ${tokens})`
          : rng.pick([
              'LlmError: summarizer request failed: upstream timeout (code TIMEOUT)',
              'LlmError: summarizer request failed: 503 Service Unavailable (code PROVIDER_UNAVAILABLE)',
              'CompactionError: the surface changed while the summary was generated',
            ]);
      this.ev('compaction/end', withCmd({ compactionId, turn, error }));
      this.meta.stats.failedCompactions++;
      return { error };
    }
    const summaryData: Obj = withCmd({ compactionId, summary });
    if (rng.chance(0.5)) {
      summaryData.rawOutput = summary;
      summaryData.llmStreamCall = true;
    }
    Object.assign(summaryData, {
      shadowedRange: { start: shadowed[0], end: shadowed[shadowed.length - 1] },
      shadowedSeqs: shadowed,
      shadowedTokenCount: tokens,
      provider: PROVIDER,
      model: this.model,
      maxTokens: 4096,
      usage: { inputTokens: tokens + 300, outputTokens: tokensOf(summaryText.length) },
    });
    const summarySeq = this.ev('compaction/summary', summaryData);

    const source: Obj = { kind: 'plugin', plugin: 'compact', compactionId };
    if (commandId !== null) source.sourceCommandId = commandId;
    const checkpoint = {
      content: [{ type: 'text', text: CHECKPOINT_PREAMBLE }, ...summary, { type: 'text', text: '</compacted-summary>' }],
      source,
      role: 'user',
      id: this.uuid(),
    };
    const first = shadowed[0] as number;
    const last = shadowed[shadowed.length - 1] as number;
    let op: Obj = { op: 'replace', start: first, end: last };
    let sources = [startSeq, summarySeq, ...shadowed];
    const armed = this.armed();
    const seqNow = this.nextSeq;
    switch (armed) {
      case 'invalid-replace-op':
        op = { op: 'replace', start: first, end: last, reason: 'compact' };
        this.recordViolation(seqNow, 'session event "user/message" carries an invalid replace surfaceOp');
        break;
      case 'replace-start-not-found':
        // The compaction/start event is log-only, so it is never a surface node.
        op = { op: 'replace', start: startSeq, end: last };
        this.recordViolation(seqNow, `surface replace: start seq ${startSeq} not found in surface`);
        break;
      case 'replace-end-not-found':
        op = { op: 'replace', start: first, end: summarySeq };
        this.recordViolation(seqNow, `surface replace: end seq ${summarySeq} not found in surface`);
        break;
      case 'replace-start-after-end':
        if (shadowed.length >= 2) {
          op = { op: 'replace', start: last, end: first };
          this.recordViolation(seqNow, `surface replace: start seq ${last} (index ${b}) is after end seq ${first} (index ${a})`);
        }
        break;
      case 'replace-missing-shadowed-source':
        sources = sources.slice(0, -1);
        this.recordViolation(seqNow, `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${last}`);
        break;
      default:
        break;
    }
    const cpSeq = this.ev('user/message', checkpoint, sources, op);
    const nested = shadowedNodes.some((n) => n.checkpoint);
    this.nodes.splice(a, b - a + 1, { seq: cpSeq, tokens: cpTokens, balance: 0, checkpoint: true, prunable: null });
    this.contextTokens += cpTokens - tokens;
    this.meta.stats.compactions++;
    if (nested) this.meta.stats.nestedCompactions++;
    if (first > last) this.meta.stats.startAfterEndRanges++;
    this.ev('compaction/end', withCmd({ compactionId, turn }));
    return { count: shadowed.length, tokens, summarySeq };
  }
}

/** The chunk object of one delta, in upstream key order. */
function deltaChunk(kind: DeltaKind, index: number, text: string, id: string, name: string | undefined): Obj {
  if (kind === 'tool') {
    return name === undefined
      ? { type: 'tool-call-delta', index, id, argumentsDelta: text }
      : { type: 'tool-call-delta', index, id, name, argumentsDelta: text };
  }
  return { type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index, text };
}
