/**
 * The incremental surface manager (surface.md §6) and the model-view projection (§7–§8).
 *
 * The manager borrows a log it does not own: the owner validates a candidate with
 * `validateNext`, pushes it onto the log, and the manager catches up lazily. A rejected
 * candidate leaves no trace.
 */
import type { Plan, SurfaceState } from './surface';
import { applyPlan, emptySurfaceState, planEvent } from './surface';

/** The read side of a log the manager borrows: a growing array of events. */
export interface BorrowedLog {
  readonly length: number;
  readonly [index: number]: unknown;
}

/**
 * Incremental fold over a borrowed log, with upstream's semantics: lazy catch-up, a validated
 * candidate's plan reused when the very same object is pushed, sticky failures.
 */
export class SurfaceManager {
  private readonly log: BorrowedLog;
  private readonly baseSeq: number;
  private readonly state: SurfaceState = emptySurfaceState();
  /** `nodes` as an array, rebuilt only after the fold moved. */
  private nodesCache: { processed: number; nodes: number[] } = { processed: -1, nodes: [] };
  private lastProcessedSeq: number;
  private pending: { event: unknown; expected: number; plan: Plan } | null = null;
  private derivedCache: { generation: number; nodes: number; messages: unknown[] } = {
    generation: 0,
    nodes: 0,
    messages: [],
  };

  /**
   * @param log the array the owner appends to
   * @param baseSeq absolute seq of `log[0]` (0 for a whole log; > 0 for a window)
   */
  constructor(log: BorrowedLog, baseSeq = 0) {
    this.log = log;
    this.baseSeq = baseSeq;
    this.lastProcessedSeq = baseSeq - 1;
  }

  private readonly lookup = (seq: number): unknown => this.log[seq - this.baseSeq];

  /** Fold every log entry not yet folded. Throws (and stays stuck) at an invalid entry. */
  private catchUp(): void {
    const last = this.baseSeq + this.log.length - 1;
    while (this.lastProcessedSeq < last) {
      const seq = this.lastProcessedSeq + 1;
      const event = this.log[seq - this.baseSeq];
      const pending = this.pending;
      const plan =
        pending && pending.event === event && pending.expected === seq
          ? pending.plan
          : planEvent(event, seq, this.state.nodes, this.lookup);
      applyPlan(this.state, plan);
      if (pending && pending.expected <= seq) this.pending = null;
      this.lastProcessedSeq = seq;
    }
  }

  /**
   * Check a candidate as the next event without changing the state. Throws the fold's error
   * on refusal; on success, remembers the plan for when the owner pushes this very object.
   */
  validateNext(candidate: unknown): void {
    this.catchUp();
    const expected = this.baseSeq + this.log.length;
    const plan = planEvent(candidate, expected, this.state.nodes, this.lookup);
    this.pending = { event: candidate, expected, plan };
  }

  /** The current nodes as an array (read-only by contract; the same array until the fold moves). */
  get nodes(): readonly number[] {
    this.catchUp();
    if (this.nodesCache.processed !== this.lastProcessedSeq) {
      this.nodesCache = { processed: this.lastProcessedSeq, nodes: this.state.nodes.slice() };
    }
    return this.nodesCache.nodes;
  }

  get replaceGeneration(): number {
    this.catchUp();
    return this.state.replaceGeneration;
  }

  /**
   * The model view: the derived messages of the current nodes, with upstream's generation
   * cache (between two replaces the surface only grows at the tail).
   */
  deriveMessages(): unknown[] {
    this.catchUp();
    const cache = this.derivedCache;
    if (cache.generation !== this.state.replaceGeneration) {
      this.derivedCache = { generation: this.state.replaceGeneration, nodes: 0, messages: [] };
    }
    const current = this.derivedCache;
    const nodes = this.state.nodes;
    for (let i = current.nodes; i < nodes.length; i++) {
      const message = deriveEventMessage(this.lookup(nodes.at(i) as number));
      if (message !== null) current.messages.push(message);
    }
    current.nodes = nodes.length;
    return current.messages.slice();
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any */
/**
 * The model message an event contributes (surface.md §7): the payload of a user/message, the
 * message of an assistant/message (null when its content is empty) or tool/result, else null.
 */
export function deriveEventMessage(event: any): unknown {
  switch (event.type) {
    case 'user/message':
      return event.data;
    case 'assistant/message':
      return event.data.message.content.length === 0 ? null : event.data.message;
    case 'tool/result':
      return event.data.message;
    default:
      return null;
  }
}

/* eslint-enable @typescript-eslint/no-explicit-any */
