/**
 * The analysis pass: model requests with their prefix reuse, and the loss of every replace,
 * recorded while the analyzer folds (each event once, after the fold decided it). Definitions
 * and edge cases are in docs/ANALYSIS.md.
 *
 * The recorder keeps the derived-message list of the current surface as seqs and JSON sizes
 * (not messages) in a {@link MessageList}, so a replace's cut and the running sizes cost
 * O(log n). Of the previous request's list it keeps only what a replace changed since: its
 * length, the first cut, and each replace's edit (where it cut, what it removed, whether it
 * added one); a position of the previous list is read by following it through those edits. The
 * common prefix then starts where the first cut was, and two messages are compared by
 * re-reading their events only from there: between replaces a request costs O(1).
 *
 * A message's size is read only at a request (the list's total and reused prefix) or when a
 * replace cuts into the previous request's messages; a message shadowed before either is never
 * measured. So a message enters the list with a provisional size and is measured when a size is
 * next read (see {@link AnalysisRecorder.measurePending}): a log that replaces its last message
 * again and again between two requests measures almost none of them.
 */
import { replacementKind } from '../analyze/describe';
import type { Plan } from '../fold/surface';
import { jsonEqual } from '../fold/surface';
import type { Diagnostic, Json } from '../model';
import { contentBound, derivedMessage, jsonLength } from '../qa/size';
import type { LiteralCategory, MessageTexts } from './literals';
import { messageTexts, typedByUser } from './literals';
import type { ReplaceCost } from './loss';
import { measureLoss } from './loss';
import type { ModelRequest, ReplaceCut } from './requests';
import { attributeBreak, CACHE_LOW_RATIO, CACHE_MIN_TOKENS, recordedUsage } from './requests';
import { estimateTokens } from '../analyze/tokens';
import { MessageList } from './message-list';
import { EditLog } from './edit-log';

/** Rule ids of the analysis findings (extra QA checks, not upstream's). */
export const ANALYSIS_RULES = {
  /** A request reuses less of the previous one than any replace or header change explains. */
  unexplainedBreak: 'qa/unexplained-break',
  /** Recorded cache reads are far below the prefix the request could reuse. */
  cacheBelowPrefix: 'qa/cache-below-prefix',
  /** A summarizing compaction keeps none of the user's explicit constraints it shadowed. */
  constraintsDropped: 'qa/constraints-dropped',
} as const;

const CONSTRAINTS: ReadonlySet<LiteralCategory> = new Set(['constraints']);

/**
 * Messages held unmeasured at most (count, and characters of their texts): past either, the
 * pending ones are measured at once, so holding them never costs more than a little memory.
 */
const PENDING_MESSAGES = 1024;
const PENDING_CHARS = 1 << 20;

/** What the analysis pass produces for one session. */
export interface SessionAnalytics {
  requests: ModelRequest[];
  /** Every applied replace: where it cut and what cached prefix it invalidated (its loss: `replaceLoss`). */
  replaces: ReplaceCost[];
  /** Warnings (rules {@link ANALYSIS_RULES}); the analyzer adds them to the diagnostics. */
  findings: Diagnostic[];
}

interface Attempt {
  turn: number | null;
  step: number | null;
  open: boolean;
  request: ModelRequest;
}

const int = (x: unknown): number | null => (typeof x === 'number' && Number.isSafeInteger(x) ? x : null);
const time = (value: Record<string, unknown>): number | null => (typeof value.time === 'number' ? value.time : null);

/**
 * The recursive measures overflow the stack on absurdly deep JSON (which `JSON.parse` accepts):
 * there they fall back to the engine's own (deeper-reaching) `JSON.stringify`, and to 0 / unequal
 * past that, so such a message is still counted and compared, never a crash.
 */
function size(message: unknown): number {
  try {
    return jsonLength(message);
  } catch {
    try {
      return JSON.stringify(message).length;
    } catch {
      return 0;
    }
  }
}

function equal(a: unknown, b: unknown): boolean {
  try {
    return jsonEqual(a, b);
  } catch {
    try {
      return JSON.stringify(a) === JSON.stringify(b);
    } catch {
      return false;
    }
  }
}

function header(value: Json | undefined, other: Json | undefined): boolean {
  return value !== undefined && other !== undefined && !equal(value, other);
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/** Streams the events of one session (after the fold) into {@link SessionAnalytics}. */
export class AnalysisRecorder {
  private readonly lookup: (seq: number) => unknown;
  private stopped = false;
  private readonly requests: ModelRequest[] = [];
  private readonly lines: (number | null)[] = [];
  private readonly replaces: ReplaceCost[] = [];
  private readonly findings: Diagnostic[] = [];
  private attempt: Attempt | null = null;
  private readonly attempts = new Map<string, number>();
  /**
   * The current surface's message-bearing nodes and their derived-message JSON sizes; the
   * messages the person typed are marked: the only ones whose texts a summary's constraint count
   * reads, so a compaction re-reads only those of the messages it removed.
   */
  private readonly list = new MessageList();
  /**
   * Messages in {@link list} with a provisional size of 0, in the order they entered (some may
   * have been shadowed since): their seqs and messages.
   */
  private pendingSeqs: number[] = [];
  private pendingMessages: unknown[] = [];
  private pendingChars = 0;
  /** The previous request's message count and total size; null before the first request. */
  private prev: { length: number; chars: number } | null = null;
  /** The earliest cut into the previous request's messages since it (Infinity: none). */
  private snapStart = Infinity;
  /** The list's edits since the previous request, in order (see {@link prevAt}). */
  private readonly edits = new EditLog();
  private cuts: ReplaceCut[] = [];
  private header: { seq: number; value: Json } | null = null;
  private headerAtPrev: Json | undefined = undefined;
  /** The model in force: the last `request/header` `config.model` or `request/context` `model`. */
  private model: string | null = null;

  /** @param lookup re-reads an earlier event by absolute seq (a fresh object) */
  constructor(lookup: (seq: number) => unknown) {
    this.lookup = lookup;
  }

  /** Nothing after the fold's refusal is a request the log can speak for: stop there. */
  stop(): void {
    this.stopped = true;
  }

  /**
   * One event the fold accepted, with the plan it applied.
   * Call {@link stop} instead for the refused event.
   */
  event(value: unknown, seq: number, plan: Plan, line: number | null): void {
    if (this.stopped || value === null || typeof value !== 'object') return;
    const e = value as Record<string, any>;
    const data = e.data !== null && typeof e.data === 'object' ? e.data : {};
    switch (e.type) {
      case 'assistant/chunk':
        this.chunk(int(data.turn), int(data.step), seq, time(e), line, data.chunk);
        break;
      case 'assistant/message': {
        // Before the message enters the list: a step with no chunk is placed here.
        const turn = int(data.turn);
        const step = int(data.step);
        const a = this.attempt;
        const request =
          a !== null && a.turn === turn && a.step === step ? a.request : this.start(seq, 'message', turn, step, time(e), line);
        if (data.usage !== undefined) {
          request.usage = recordedUsage(data.usage);
          request.usageFrom = request.usage === null ? null : 'message';
        }
        if (request.endTime === null) request.endTime = time(e);
        const source = data.message !== null && typeof data.message === 'object' ? data.message.source : null;
        if (source !== null && typeof source === 'object' && typeof source.model === 'string') request.model = source.model;
        if (this.attempt) this.attempt.open = false;
        break;
      }
      case 'step/start':
      case 'llm/retry':
      case 'llm/retry-started':
        if (this.attempt) this.attempt.open = false;
        break;
      case 'request/header':
        if (data.header !== undefined) this.header = { seq, value: data.header as Json };
        if (typeof data.header?.config?.model === 'string') this.model = data.header.config.model;
        break;
      case 'request/context':
        if (typeof data.model === 'string') this.model = data.model;
        break;
      default:
        break;
    }
    if (plan.kind === 'append') this.append(value, seq);
    else if (plan.kind === 'replace') this.replace(value, plan, line);
  }

  /** The first member of a packed chunk row (the others cannot start a request). */
  chunkRow(turn: unknown, step: unknown, seq: number, at: number, line: number | null): void {
    if (this.stopped) return;
    this.chunk(int(turn), int(step), seq, at, line, null);
  }

  private chunk(turn: number | null, step: number | null, seq: number, at: number | null, line: number | null, chunk: any): void {
    const a = this.attempt;
    const request = a !== null && a.open && a.turn === turn && a.step === step ? a.request : this.start(seq, 'chunk', turn, step, at, line);
    if (chunk === null || typeof chunk !== 'object') return;
    if (chunk.type === 'usage' && request.usageFrom !== 'message') {
      request.usage = recordedUsage(chunk.usage);
      request.usageFrom = request.usage === null ? null : 'chunk';
    } else if (chunk.type === 'finish') {
      const reason = chunk.reason;
      request.finish = reason !== null && typeof reason === 'object' && typeof reason.kind === 'string' ? reason.kind : null;
      request.endTime = at;
      if (this.attempt) this.attempt.open = false;
    }
  }

  /**
   * Whether two messages are equal, given their JSON sizes: equal messages have equal sizes, so
   * messages of different (measured) sizes differ without re-reading their events.
   */
  private same(a: number, aSize: number, b: number, bSize: number): boolean {
    if (a === b) return true;
    if (aSize > 0 && bSize > 0 && aSize !== bSize) return false;
    return equal(derivedMessage(this.lookup(a)), derivedMessage(this.lookup(b)));
  }

  /**
   * Message `p` of the previous request's list: followed through the edits since, it is either
   * one an edit removed, or a message of the current list.
   */
  private prevAt(p: number): number {
    const found = this.edits.at(p);
    if (found >= 0) {
      this.prevSize = this.edits.size;
      return found;
    }
    const at = -1 - found;
    this.prevSize = this.list.sizeAt(at);
    return this.list.at(at) as number;
  }

  /** The size of the message {@link prevAt} last returned. */
  private prevSize = 0;

  private start(
    seq: number,
    anchor: 'chunk' | 'message',
    turn: number | null,
    step: number | null,
    at: number | null,
    line: number | null,
  ): ModelRequest {
    this.measurePending();
    const list = this.list;
    const length = list.length;
    const prev = this.prev;
    let reused = 0;
    if (prev !== null) {
      // Everything before the first cut since the previous request is that request's own prefix.
      const limit = Math.min(prev.length, length);
      reused = Math.min(limit, this.snapStart);
      while (reused < limit) {
        const before = this.prevAt(reused);
        if (!this.same(before, this.prevSize, list.at(reused) as number, list.sizeAt(reused))) break;
        reused++;
      }
    }
    const headerChanged = prev !== null && header(this.header?.value, this.headerAtPrev);
    const brokenBy =
      prev === null ? null : attributeBreak(reused, prev.length, this.cuts, headerChanged ? (this.header as { seq: number }).seq : null);
    if (brokenBy?.kind === 'header') reused = 0;
    const key = `${String(turn)}/${String(step)}`;
    const attempt = (this.attempts.get(key) ?? 0) + 1;
    this.attempts.set(key, attempt);
    const total = list.totalSize;
    const reusedChars = list.sizeBefore(reused);
    const request: ModelRequest = {
      seq,
      anchor,
      turn,
      step,
      attempt,
      time: at,
      endTime: null,
      messages: length,
      chars: total,
      tokens: estimateTokens(total),
      reusedMessages: reused,
      reusedTokens: estimateTokens(reusedChars),
      reusedChars,
      brokenBy,
      usage: null,
      usageFrom: null,
      finish: null,
      model: this.model,
    };
    if (brokenBy?.kind === 'other' && prev !== null) {
      this.findings.push({
        severity: 'warning',
        rule: ANALYSIS_RULES.unexplainedBreak,
        seq,
        line,
        message: `model request at seq ${seq} reuses ${reused} of the previous request's ${prev.length} messages, and no replace or request/header change since explains the break`,
      });
    }
    this.requests.push(request);
    this.lines.push(line);
    this.prev = { length, chars: total };
    this.snapStart = Infinity;
    this.edits.clear();
    this.cuts = [];
    this.headerAtPrev = this.header?.value;
    this.attempt = { turn, step, open: true, request };
    return request;
  }

  private append(value: unknown, seq: number): void {
    const message = derivedMessage(value);
    this.list.append(seq, message === null ? null : 0, typedByUser(message));
    if (message !== null) this.defer(seq, message);
  }

  /** Hold a message that entered the list with a provisional size until a size is read. */
  private defer(seq: number, message: unknown): void {
    this.pendingSeqs.push(seq);
    this.pendingMessages.push(message);
    this.pendingChars += contentBound((message as { content?: unknown }).content);
    if (this.pendingSeqs.length >= PENDING_MESSAGES || this.pendingChars >= PENDING_CHARS) this.measurePending();
  }

  /**
   * Measure the pending messages still in the list. A shadowed one is not measured: its size is
   * never read (an edit's removed sizes are read only for the previous request's messages, all
   * measured at that request).
   */
  private measurePending(): void {
    const seqs = this.pendingSeqs;
    if (seqs.length === 0) return;
    const messages = this.pendingMessages;
    for (let i = 0; i < seqs.length; i++) {
      const seq = seqs[i]!;
      if (this.list.bears(seq)) this.list.resize(seq, size(messages[i]));
    }
    this.pendingSeqs = [];
    this.pendingMessages = [];
    this.pendingChars = 0;
  }

  private replace(value: unknown, plan: Extract<Plan, { kind: 'replace' }>, line: number | null): void {
    const prev = this.prev;
    const list = this.list;
    const message = derivedMessage(value);
    // The messages before the cut are untouched, so their size is the same before and after.
    const {
      cut,
      removed,
      removedSizes,
      marked: typedRemoved,
    } = list.replace(plan.shadowed, plan.seq, message === null ? null : 0, typedByUser(message));
    if (prev !== null) {
      this.edits.push(cut, removed, removedSizes, message === null ? 0 : 1);
      if (cut < this.snapStart && cut < prev.length) this.snapStart = cut;
    }
    let invalidated = 0;
    if (prev !== null && cut < prev.length) {
      // The messages before the cut may include ones entered since the request (the
      // replacement's own, after the cut, is held only below: a run of replaces of the last
      // message measures none of them).
      this.measurePending();
      invalidated = Math.max(0, prev.chars - list.sizeBefore(cut));
    }
    if (message !== null) this.defer(plan.seq, message);
    const kind = replacementKind(value);
    // Only a summary's constraint count is wanted at load (the rest of the loss is on demand),
    // and only typed messages hold constraints: the others' texts would add none.
    const shadowedTexts: MessageTexts[] =
      kind === 'compaction' ? typedRemoved.map((s) => messageTexts(derivedMessage(this.lookup(s)))) : [];
    this.cuts.push({ seq: plan.seq, cut });
    // With no typed message shadowed there is no constraint to look for in the summary.
    const constraints: [number, number] | null =
      kind !== 'compaction'
        ? null
        : shadowedTexts.length === 0
          ? [0, 0]
          : measureLoss(shadowedTexts, messageTexts(message), CONSTRAINTS).kept.constraints;
    this.replaces.push({
      seq: plan.seq,
      kind,
      shadowed: plan.shadowed.length,
      cut,
      invalidatedTokens: estimateTokens(invalidated),
      constraints,
    });
    const [kept, total] = constraints ?? [0, 0];
    if (total > 0 && kept === 0) {
      this.findings.push({
        severity: 'warning',
        rule: ANALYSIS_RULES.constraintsDropped,
        seq: plan.seq,
        line,
        message: `compaction checkpoint at seq ${plan.seq} keeps none of the ${total} explicit user constraint${total === 1 ? '' : 's'} it shadowed`,
      });
    }
  }

  /**
   * The cache findings of the requests before the last: only the last request can still gain
   * its usage (a request's usage is recorded while it is the current attempt), so the others'
   * are settled and each is looked at once, however often a growing session asks.
   */
  private readonly settled: Diagnostic[] = [];
  private settledRequests = 0;

  /** The cache finding of request `i`, if it has one. */
  private cacheFinding(i: number): Diagnostic | null {
    const r = this.requests[i]!;
    const read = r.usage?.cacheRead ?? null;
    if (read === null || r.reusedTokens < CACHE_MIN_TOKENS || read >= CACHE_LOW_RATIO * r.reusedTokens) return null;
    return {
      severity: 'warning',
      rule: ANALYSIS_RULES.cacheBelowPrefix,
      seq: r.seq,
      line: this.lines[i] ?? null,
      message: `model request at seq ${r.seq} recorded ${read} cache-read tokens, under ${CACHE_LOW_RATIO * 100}% of the ~${r.reusedTokens}-token prefix it shares with the previous request`,
    };
  }

  /**
   * The analytics so far (adds the cache findings, which need each request's recorded usage).
   * The pass may go on: a growing session asks after every append, at a cost of the requests
   * added since and the findings, not of every request.
   */
  finish(): SessionAnalytics {
    const last = this.requests.length - 1;
    for (; this.settledRequests < last; this.settledRequests++) {
      const finding = this.cacheFinding(this.settledRequests);
      if (finding !== null) this.settled.push(finding);
    }
    const open = last >= 0 ? this.cacheFinding(last) : null;
    const findings = [...this.findings, ...this.settled];
    if (open !== null) findings.push(open);
    findings.sort((a, b) => (a.seq ?? 0) - (b.seq ?? 0));
    return { requests: this.requests, replaces: this.replaces, findings };
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */
