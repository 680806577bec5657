/**
 * Compaction QA: the producer guarantees of events.md §6.4 (and a few sanity checks around
 * summarizing compaction and tool-result pruning) that upstream does not re-check on read.
 * These are **not** upstream checks; every rule id starts with `qa/` and no finding changes the
 * fold.
 *
 * Streaming and cheap: per event the check asks the fold for the plan it applied. It keeps one
 * small record per current surface node ({@link NodeInfo}: the tool-call ids of an assistant
 * message or the call id of a tool result, a lower bound of its message size read from its
 * text lengths when it is appended, and an exact size once measured), and per compaction
 * bracket a few seqs and a copy of the summary's declared `shadowedSeqs`. Everything expensive —
 * exact JSON sizes, re-parsing shadowed originals when the cheap bounds do not decide, looking
 * for an orphaned partner on the surface — happens only at replace events, which are rare. No
 * event object is retained.
 */
import { diagnostic, isNonNegativeSafeInteger, isRecord } from '../checks/check';
import type { EventCheck } from '../checks/check';
import type { PackedMembers } from '../decode/packed';
import { SURFACE_TYPES } from '../fold/errors';
import type { Plan } from '../fold/surface';
import type { Diagnostic, Severity } from '../model';
import { SeqTable } from '../util/seq-table';
import type { QaFoldContext } from './context';
import type { Declaration, NodeInfo, Rec } from './shapes';
import {
  checkpointSourceOf,
  compactionIdOf,
  dataOf,
  declarationOf,
  declarationProblem,
  describeNode,
  formatId,
  formatList,
  formatValue,
} from './shapes';
import { derivedMessage, derivedMessageSize, jsonLength, jsonUpperBound } from './size';

/** The rule ids of the compaction QA checks. */
export const QA_RULES = {
  /** A summary's/prune's declared shadowedSeqs/shadowedRange differ from what its replacement shadowed. */
  summaryShadowedMismatch: 'qa/summary-shadowed-mismatch',
  /** A checkpoint does not cite its compaction/start and compaction/summary. */
  checkpointSources: 'qa/checkpoint-sources',
  /** A replace split a tool-call/tool-result pair (events.md §6.4). */
  toolPairing: 'qa/tool-pairing',
  /** A checkpoint is larger than the messages it replaced. */
  summaryLarger: 'qa/summary-larger',
  /** A tool/result replacement (prune) is not smaller than the original. */
  pruneNotSmaller: 'qa/prune-not-smaller',
  /** A checkpoint re-compacts a checkpoint with no surface growth in between. */
  repeatedCompaction: 'qa/repeated-compaction',
  /** A checkpoint/prune replacement does not immediately follow its summary/prune (events.md §6.4). */
  checkpointNotAdjacent: 'qa/checkpoint-not-adjacent',
  /** Not a finding about the log: the check lost track of the fold's surface and stopped (wiring). */
  stopped: 'qa/stopped',
} as const;

/** One of {@link QA_RULES}. */
export type QaRule = (typeof QA_RULES)[keyof typeof QA_RULES];

/**
 * Severity of each rule: adjacency is a warning, `qa/stopped` info, everything else an error.
 * Keyed by {@link QA_RULES}, where each id is declared; the type makes every rule need one.
 */
export const QA_SEVERITY: Readonly<Record<QaRule, Severity>> = {
  [QA_RULES.summaryShadowedMismatch]: 'error',
  [QA_RULES.checkpointSources]: 'error',
  [QA_RULES.toolPairing]: 'error',
  [QA_RULES.summaryLarger]: 'error',
  [QA_RULES.pruneNotSmaller]: 'error',
  [QA_RULES.repeatedCompaction]: 'error',
  [QA_RULES.checkpointNotAdjacent]: 'warning',
  [QA_RULES.stopped]: 'info',
};

/** Options of {@link CompactionQaCheck}. */
export interface CompactionQaOptions {
  /** Findings listed per rule before the rest are only counted (default 100). */
  maxPerRule?: number;
}

type ReplacePlan = Extract<Plan, { kind: 'replace' }>;

/** What is known about one compaction bracket, by compactionId. */
interface Bracket {
  startSeq: number;
  /** The latest summary with this compactionId. */
  summary: Declaration | null;
  /** Seq of the checkpoint naming this compactionId since that summary, or -1. */
  checkpointSeq: number;
}

/** A shadowed tool call whose result had not been appended when its message left the surface. */
interface AwaitedResult {
  replaceSeq: number;
  line: number | null;
  callSeq: number;
}

/** Current nodes by tool call id: one node (the usual case) or several. */
type Owners = Map<string, NodeInfo | NodeInfo[]>;

/** A current node that holds one side of a tool-call pair a replace split. */
interface Split {
  /** The node's index on the surface. */
  at: number;
  /** 0: its result answers a shadowed call; 1: one of its calls has a shadowed result. */
  side: 0 | 1;
  /** For side 1, the index of that result in the lost results. */
  i: number;
  info: NodeInfo;
}

function addOwner(owners: Owners, callId: string, info: NodeInfo): void {
  const current = owners.get(callId);
  if (current === undefined) owners.set(callId, info);
  else if (Array.isArray(current)) current.push(info);
  else owners.set(callId, [current, info]);
}

function removeOwner(owners: Owners, callId: string, info: NodeInfo): void {
  const current = owners.get(callId);
  if (current === info) owners.delete(callId);
  else if (Array.isArray(current)) {
    const i = current.indexOf(info);
    if (i >= 0) current.splice(i, 1);
    if (current.length === 0) owners.delete(callId);
  }
}

function forOwners(owners: Owners, callId: string, visit: (info: NodeInfo) => void): void {
  const current = owners.get(callId);
  if (current === undefined) return;
  if (Array.isArray(current)) for (const info of current) visit(info);
  else visit(current);
}

/**
 * The compaction QA check. Feed it every decoded event in order, after the fold has applied it;
 * `ctx` answers for that event. Seqs in findings are the events' seqs (equal to the index for a
 * log that starts at seq 0).
 */
export class CompactionQaCheck implements EventCheck {
  private readonly ctx: QaFoldContext;
  private readonly maxPerRule: number;
  private readonly found: Diagnostic[] = [];
  private readonly counts = new Map<QaRule, number>();
  private result: Diagnostic[] | null = null;

  /** Set once the fold refused an event: nothing after it is on the surface. */
  private stopped = false;
  /** seq − index, the same for every event the fold accepts (-1 until the first one). */
  private base = -1;
  /** Surface appends so far: the growth counter. */
  private appends = 0;
  /**
   * One record per current surface node, by seq: a mirror of the fold's nodes, kept with the
   * appends and replaces the fold applies (surface.md §3.3). Surface order, needed only to list
   * split tool-call pairs, comes from the fold's own nodes (`ctx.nodes().indexOf`).
   */
  private readonly surface = new SeqTable<NodeInfo>();
  /** The current nodes answering each tool call id (`NodeInfo.result`). */
  private readonly resultOwners: Owners = new Map();
  /** The current nodes making each tool call (`NodeInfo.calls`). */
  private readonly callOwners: Owners = new Map();
  /** Compaction brackets by compactionId. */
  private readonly brackets = new Map<string, Bracket>();
  /** The last `compaction/prune`, while not yet paired with a tool/result replacement. */
  private pendingPrune: Declaration | null = null;
  /** The last `compaction/prune`, while the event right after it has not been seen. */
  private waitingPrune: Declaration | null = null;
  /** Calls shadowed by a replace before their tool/result was appended, by call id. */
  private awaited: Map<string, AwaitedResult> | null = null;
  /** Scratch lists of {@link pairing}: the tool-call sides a replace removes (null = settled). */
  private readonly lostCallIds: (string | null)[] = [];
  private readonly lostCallSeqs: number[] = [];
  private readonly lostResultIds: (string | null)[] = [];
  private readonly lostResultSeqs: number[] = [];

  constructor(ctx: QaFoldContext, options: CompactionQaOptions = {}) {
    this.ctx = ctx;
    this.maxPerRule = options.maxPerRule ?? 100;
  }

  /**
   * The members of a packed row (see `EventCheck.packedRow`). Only the first can change
   * anything here: it settles `base` (or stops the check) and is the event after a pending
   * prune. A later member is a log-only chunk at `seq0 + k`, which is `base + index` once the
   * first was accepted, so the check would only confirm it.
   */
  packedRow(members: PackedMembers, first: number, line: number | null): void {
    if (!this.stopped) this.event(members.event(0), first, line);
  }

  event(value: unknown, index: number, line: number | null): void {
    if (this.stopped) return;
    const plan = this.ctx.planAt(index);
    if (plan === null) {
      if (!this.acceptedLogOnly(value, index)) {
        this.stopped = true;
        return;
      }
    } else if (this.base < 0) {
      this.base = plan.seq - index;
    }
    // The fold accepted the event, so it is an object with a type.
    const event = value as Rec;
    if (this.waitingPrune !== null) this.afterPrune(this.waitingPrune, event, plan, this.base + index);
    if (plan === null || plan.kind === 'log-only') {
      const type = event.type;
      // Cheap exit for the bulk of log-only events (chunks, steps, turns, …).
      if (typeof type === 'string' && type.charCodeAt(0) === 99 /* c */ && type.startsWith('compaction/')) {
        this.compactionEvent(event, type, this.base + index, line);
      }
    } else if (plan.kind === 'append') {
      this.appends++;
      const info = describeNode(event, plan.seq);
      this.enter(info);
      if (this.awaited !== null && info.result !== null) this.resultArrived(this.awaited, info.result, plan.seq);
    } else {
      this.replace(event, plan, line);
    }
  }

  /**
   * {@link finish} as if the log ended here, for a session that grows: it finishes, then puts
   * back the little that finishing changes (the prune awaiting its replacement, the findings
   * and counts that its end-of-log finding added).
   */
  provisional(): Diagnostic[] {
    if (this.result !== null) return this.result;
    const waiting = this.waitingPrune;
    const found = this.found.length;
    const counts = [...this.counts];
    const out = this.finish();
    this.result = null;
    this.waitingPrune = waiting;
    this.found.length = found;
    this.counts.clear();
    for (const [rule, count] of counts) this.counts.set(rule, count);
    return out;
  }

  finish(): Diagnostic[] {
    if (this.result !== null) return this.result;
    const last = this.waitingPrune;
    if (last !== null && !this.stopped) {
      this.waitingPrune = null;
      this.report(
        QA_RULES.checkpointNotAdjacent,
        last.seq,
        last.line,
        `compaction/prune at seq ${last.seq} is the last event: its tool/result replacement is missing`,
      );
    }
    const out = this.found.slice().sort((a, b) => (a.seq ?? Infinity) - (b.seq ?? Infinity));
    for (const [rule, count] of this.counts) {
      if (count > this.maxPerRule) {
        out.push(
          diagnostic(
            QA_SEVERITY[rule],
            rule,
            null,
            null,
            `${count - this.maxPerRule} more ${rule} findings not listed (first ${this.maxPerRule} shown)`,
          ),
        );
      }
    }
    this.result = out;
    return out;
  }

  // ----- per event ----------------------------------------------------------------------------

  /**
   * For an event the context gave no plan for: true when the fold accepted it as log-only (it
   * checks only C1, C2a and C2b for those, surface.md §3), false when the fold refused it.
   */
  private acceptedLogOnly(value: unknown, index: number): boolean {
    if (!isRecord(value) || SURFACE_TYPES.has(value.type)) return false;
    if (value.surfaceOp !== undefined || value.sourceEventSeqs !== undefined) return false;
    const seq = value.seq;
    if (this.base >= 0) return seq === this.base + index;
    if (!isNonNegativeSafeInteger(seq) || seq < index) return false;
    this.base = seq - index;
    return true;
  }

  /** The event right after a `compaction/prune` must be its tool/result replacement. */
  private afterPrune(prune: Declaration, event: Rec, plan: Plan | null, seq: number): void {
    this.waitingPrune = null;
    if (plan !== null && plan.kind === 'replace' && event.type === 'tool/result') return;
    this.report(
      QA_RULES.checkpointNotAdjacent,
      prune.seq,
      prune.line,
      `compaction/prune at seq ${prune.seq} is not immediately followed by its tool/result replacement ` +
        `(seq ${seq} is ${formatValue(event.type)})`,
    );
  }

  /** A log-only `compaction/*` event: remember brackets, summaries and prunes (seqs and copies). */
  private compactionEvent(event: Rec, type: string, seq: number, line: number | null): void {
    switch (type) {
      case 'compaction/prune': {
        const prune = declarationOf(dataOf(event), seq, line);
        this.pendingPrune = prune;
        this.waitingPrune = prune;
        return;
      }
      case 'compaction/start': {
        const id = compactionIdOf(dataOf(event));
        if (id !== null) this.brackets.set(id, { startSeq: seq, summary: null, checkpointSeq: -1 });
        return;
      }
      case 'compaction/summary': {
        const data = dataOf(event);
        const id = compactionIdOf(data);
        if (id === null) return;
        let bracket = this.brackets.get(id);
        if (bracket === undefined) {
          bracket = { startSeq: -1, summary: null, checkpointSeq: -1 };
          this.brackets.set(id, bracket);
        }
        bracket.summary = declarationOf(data, seq, line);
        bracket.checkpointSeq = -1;
        return;
      }
      case 'compaction/end': {
        const data = dataOf(event);
        const id = compactionIdOf(data);
        const bracket = id === null ? undefined : this.brackets.get(id);
        if (bracket === undefined || bracket.summary === null || bracket.checkpointSeq >= 0) return;
        if (data !== null && data.error !== undefined) return; // a failed commit may leave a summary
        const summary = bracket.summary;
        this.report(
          QA_RULES.checkpointNotAdjacent,
          summary.seq,
          summary.line,
          `compaction/summary at seq ${summary.seq} (compactionId ${formatId(id)}) has no checkpoint, ` +
            `yet its compaction/end at seq ${seq} reports success`,
        );
        return;
      }
      default:
        return;
    }
  }

  // ----- replace events (rare; the expensive work lives here) ---------------------------------

  private replace(event: Rec, plan: ReplacePlan, line: number | null): void {
    // The mirror must hold the shadowed nodes (a guard: it always does when the check saw
    // every event the fold applied; if not, the check stops rather than guess).
    for (const old of plan.shadowed) if (!this.surface.has(old)) return this.lostTrack(plan.seq, line);
    const node = describeNode(event, plan.seq);
    const type = event.type;
    if (type === 'tool/result') {
      this.prune(event, node, plan, line);
    } else if (type === 'user/message') {
      const source = checkpointSourceOf(event.data);
      if (source !== null) this.checkpoint(event, node, source, plan, line);
    }
    this.pairing(node, plan, line);
    // Same guard after the splice: the mirror and the fold's surface agree in length.
    if (this.surface.size !== this.ctx.nodes().length) this.lostTrack(plan.seq, line);
  }

  /** The mirror disagrees with the fold (the check missed an event): say so and stop. */
  private lostTrack(seq: number, line: number | null): void {
    this.stopped = true;
    this.report(
      QA_RULES.stopped,
      seq,
      line,
      `compaction QA stopped at seq ${seq}: its copy of the surface no longer matches the fold's ` +
        '(the check must see every event the fold applies, in order)',
    );
  }

  /** A size no larger than the node's derived-message size, known without re-parsing. */
  private static lowerSize(info: NodeInfo): number {
    return info.size >= 0 ? info.size : info.bound;
  }

  /** The record of a current node (present: the guard in `replace` checked it). */
  private info(seq: number): NodeInfo {
    return this.surface.get(seq) as NodeInfo;
  }

  /** Sum of the lower size bounds of these nodes, stopping once it reaches `enough`. */
  private lowerTotal(seqs: readonly number[], enough: number): number {
    let total = 0;
    for (let i = 0; i < seqs.length && total < enough; i++) total += CompactionQaCheck.lowerSize(this.info(seqs[i]!));
    return total;
  }

  /** Exact size of a node's derived message: measured earlier, else by re-parsing the event. */
  private exactSize(info: NodeInfo): number {
    if (info.size < 0) info.size = derivedMessageSize(this.ctx.eventAt(info.seq));
    return info.size;
  }

  /** A tool/result replacement: pair it with its `compaction/prune`, then compare sizes. */
  private prune(event: Rec, node: NodeInfo, plan: ReplacePlan, line: number | null): void {
    const seq = plan.seq;
    const prune = this.pendingPrune;
    if (prune !== null) {
      this.pendingPrune = null;
      const problem = declarationProblem(prune, plan.shadowed, `the tool/result replacement at seq ${seq}`);
      if (problem !== null) {
        this.report(QA_RULES.summaryShadowedMismatch, prune.seq, prune.line, `compaction/prune at seq ${prune.seq} ${problem}`);
      }
    } else {
      this.report(
        QA_RULES.checkpointNotAdjacent,
        seq,
        line,
        `tool/result replacement at seq ${seq} does not follow a compaction/prune declaring it`,
      );
    }
    // qa/prune-not-smaller: the copy's exact size against the original's lower bound (read when
    // it was appended); the original is re-parsed for its exact size only when that does not
    // decide. (An upper bound of the copy rarely decides: a copy is typically half the original
    // while the bound allows 6 characters per code unit.)
    const original = this.info(plan.shadowed[0]!);
    const message = derivedMessage(event);
    const size = message === null ? 0 : jsonLength(message);
    node.size = size;
    if (size < CompactionQaCheck.lowerSize(original)) return;
    const before = this.exactSize(original);
    if (size >= before) {
      this.report(
        QA_RULES.pruneNotSmaller,
        seq,
        line,
        `tool/result replacement at seq ${seq} is not smaller than the result it replaces (seq ${original.seq}): ` +
          `${size} >= ${before} characters of message JSON`,
      );
    }
  }

  /** A compaction checkpoint: sources, adjacency, declaration, size and repetition. */
  private checkpoint(event: Rec, node: NodeInfo, source: Rec, plan: ReplacePlan, line: number | null): void {
    const seq = plan.seq;
    const shadowed = plan.shadowed;
    const rawId = source.compactionId;
    const bracket = typeof rawId === 'string' && rawId.length > 0 ? this.brackets.get(rawId) : undefined;
    const summary = bracket === undefined ? null : bracket.summary;

    // qa/checkpoint-sources
    const cited = Array.isArray(event.sourceEventSeqs) ? (event.sourceEventSeqs as unknown[]) : [];
    const problems: string[] = [];
    const startSeq = bracket === undefined ? -1 : bracket.startSeq;
    if (startSeq < 0) problems.push('no compaction/start with its compactionId precedes it');
    else if (!cited.includes(startSeq)) problems.push(`its compaction/start (seq ${startSeq}) is not cited`);
    if (summary === null) problems.push('no compaction/summary with its compactionId precedes it');
    else if (!cited.includes(summary.seq)) problems.push(`its compaction/summary (seq ${summary.seq}) is not cited`);
    if (problems.length > 0) {
      this.report(
        QA_RULES.checkpointSources,
        seq,
        line,
        `compaction checkpoint at seq ${seq} (compactionId ${formatId(rawId)}, sourceEventSeqs ${formatList(cited)}): ${problems.join('; ')}`,
      );
    }

    if (bracket !== undefined && summary !== null) {
      bracket.checkpointSeq = seq;
      // qa/checkpoint-not-adjacent
      if (seq !== summary.seq + 1) {
        this.report(
          QA_RULES.checkpointNotAdjacent,
          seq,
          line,
          `compaction checkpoint at seq ${seq} does not immediately follow its compaction/summary at seq ${summary.seq} ` +
            `(${seq - summary.seq - 1} events in between)`,
        );
      }
      // qa/summary-shadowed-mismatch
      const problem = declarationProblem(summary, shadowed, `its checkpoint at seq ${seq}`);
      if (problem !== null) {
        this.report(
          QA_RULES.summaryShadowedMismatch,
          summary.seq,
          summary.line,
          `compaction/summary at seq ${summary.seq} (compactionId ${formatId(rawId)}) ${problem}`,
        );
      }
    }

    // qa/summary-larger: bounds first (an upper bound of the checkpoint against the lower
    // bounds of what it replaced); exact sizes only when they do not decide, summed only until
    // the replaced messages are at least as large.
    const message = derivedMessage(event);
    const upper = jsonUpperBound(message);
    if (this.lowerTotal(shadowed, upper) < upper) {
      const size = message === null ? 0 : jsonLength(message);
      node.size = size;
      if (this.lowerTotal(shadowed, size) < size) {
        let total = 0;
        for (let i = 0; i < shadowed.length && total < size; i++) total += this.exactSize(this.info(shadowed[i]!));
        if (total < size) {
          this.report(
            QA_RULES.summaryLarger,
            seq,
            line,
            `compaction checkpoint at seq ${seq} is larger than the ${shadowed.length} message(s) it replaced ` +
              `${formatList(shadowed)}: ${size} > ${total} characters of message JSON`,
          );
        }
      }
    }

    // qa/repeated-compaction is checked while the shadowed nodes leave (see pairing).
    node.checkpointAt = this.appends;
  }

  /**
   * Move the replace into the node state, in one pass over the shadowed nodes: report a
   * checkpoint that compacts a checkpoint made with no surface growth since
   * (`qa/repeated-compaction`), and tool-call pairs the replace split — one side shadowed while
   * the other stays on the surface (`qa/tool-pairing`, events.md §6.4).
   */
  private pairing(node: NodeInfo, plan: ReplacePlan, line: number | null): void {
    const seq = plan.seq;
    // The sides that leave with the shadowed nodes (reused scratch lists: no allocation).
    const callIds = this.lostCallIds;
    const callSeqs = this.lostCallSeqs;
    const resultIds = this.lostResultIds;
    const resultSeqs = this.lostResultSeqs;
    callIds.length = callSeqs.length = resultIds.length = resultSeqs.length = 0;
    let repeated = node.checkpointAt < 0;
    for (const old of plan.shadowed) {
      const info = this.info(old);
      this.leave(info);
      if (!repeated && info.checkpointAt === this.appends) {
        repeated = true;
        this.report(
          QA_RULES.repeatedCompaction,
          seq,
          line,
          `compaction checkpoint at seq ${seq} compacts checkpoint ${old} again with no new surface node appended in between`,
        );
      }
      const calls = info.calls;
      if (calls !== null) {
        if (typeof calls === 'string') {
          callIds.push(calls);
          callSeqs.push(old);
        } else {
          for (const callId of calls) {
            callIds.push(callId);
            callSeqs.push(old);
          }
        }
      }
      if (info.result !== null) {
        resultIds.push(info.result);
        resultSeqs.push(old);
      }
    }
    this.enter(node);
    if (callIds.length === 0 && resultIds.length === 0) return;
    // A side the replacement carries again did not leave (a prune copy keeps its call id).
    if (node.result !== null) {
      const i = resultIds.indexOf(node.result);
      if (i >= 0) resultIds[i] = null;
    }
    const again = node.calls;
    if (again !== null) {
      for (const callId of typeof again === 'string' ? [again] : again) {
        const i = callIds.indexOf(callId);
        if (i >= 0) callIds[i] = null;
      }
    }
    // Pairs that left together are fine; whatever remains lost its partner, if it is still here.
    let open = 0;
    for (let i = 0; i < callIds.length; i++) {
      const callId = callIds[i];
      if (callId === null || callId === undefined) continue;
      const j = resultIds.indexOf(callId);
      if (j >= 0) {
        resultIds[j] = null;
        callIds[i] = null;
      } else {
        open++;
      }
    }
    for (const callId of resultIds) if (callId !== null) open++;
    if (open === 0) return;
    // Report in surface order, as a walk over the current nodes would: for each node, the lost
    // call its result answers (the first such call still unmatched), then the lost results its
    // calls made. Only the nodes holding a lost id are visited, found through the owner maps.
    const found: Split[] = [];
    const nodes = this.ctx.nodes();
    const seen = new Set<string>();
    for (const callId of callIds) {
      if (callId === null || callId === undefined || seen.has(callId)) continue;
      seen.add(callId);
      forOwners(this.resultOwners, callId, (info) => found.push({ at: nodes.indexOf(info.seq), side: 0, i: -1, info }));
    }
    seen.clear();
    for (let i = 0; i < resultIds.length; i++) {
      const callId = resultIds[i];
      if (callId === null || callId === undefined) continue;
      forOwners(this.callOwners, callId, (info) => found.push({ at: nodes.indexOf(info.seq), side: 1, i, info }));
    }
    found.sort((a, b) => a.at - b.at || a.side - b.side || a.i - b.i);
    for (const split of found) {
      const current = split.info.seq;
      if (split.side === 0) {
        const i = callIds.indexOf(split.info.result);
        if (i < 0) continue; // every lost call with this id is already matched
        callIds[i] = null;
        this.report(
          QA_RULES.toolPairing,
          seq,
          line,
          `replacement at seq ${seq} splits tool call ${JSON.stringify(split.info.result)}: the assistant/message at seq ` +
            `${callSeqs[i]!} that made the call is shadowed, but its tool/result at seq ${current} stays on the surface`,
        );
      } else {
        this.report(
          QA_RULES.toolPairing,
          seq,
          line,
          `replacement at seq ${seq} splits tool call ${JSON.stringify(resultIds[split.i])}: its tool/result at seq ` +
            `${resultSeqs[split.i]!} is shadowed, but the assistant/message at seq ${current} that made the call stays on the surface`,
        );
      }
    }
    // A shadowed call whose result is not on the surface yet: if the result arrives later, it
    // lands without the message that called it.
    for (let i = 0; i < callIds.length; i++) {
      const callId = callIds[i];
      if (callId === null || callId === undefined) continue;
      (this.awaited ??= new Map()).set(callId, { replaceSeq: seq, line, callSeq: callSeqs[i]! });
    }
  }

  /** A node enters the surface: index its tool-call sides. */
  private enter(info: NodeInfo): void {
    this.surface.set(info.seq, info);
    if (info.result !== null) addOwner(this.resultOwners, info.result, info);
    const calls = info.calls;
    if (calls === null) return;
    if (typeof calls === 'string') addOwner(this.callOwners, calls, info);
    else for (const callId of new Set(calls)) addOwner(this.callOwners, callId, info);
  }

  /** A node leaves the surface (shadowed). */
  private leave(info: NodeInfo): void {
    this.surface.delete(info.seq);
    if (info.result !== null) removeOwner(this.resultOwners, info.result, info);
    const calls = info.calls;
    if (calls === null) return;
    if (typeof calls === 'string') removeOwner(this.callOwners, calls, info);
    else for (const callId of new Set(calls)) removeOwner(this.callOwners, callId, info);
  }

  /** A tool/result appended for a call whose assistant/message a replace already shadowed. */
  private resultArrived(awaited: Map<string, AwaitedResult>, callId: string, seq: number): void {
    const pending = awaited.get(callId);
    if (pending === undefined) return;
    awaited.delete(callId);
    this.report(
      QA_RULES.toolPairing,
      pending.replaceSeq,
      pending.line,
      `replacement at seq ${pending.replaceSeq} splits tool call ${JSON.stringify(callId)}: the assistant/message at seq ` +
        `${pending.callSeq} that made the call is shadowed, and its tool/result arrives afterwards at seq ${seq}`,
    );
  }

  private report(rule: QaRule, seq: number, line: number | null, message: string): void {
    const count = (this.counts.get(rule) ?? 0) + 1;
    this.counts.set(rule, count);
    if (count <= this.maxPerRule) this.found.push(diagnostic(QA_SEVERITY[rule], rule, seq, line, message));
  }
}
