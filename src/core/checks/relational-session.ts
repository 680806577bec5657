/**
 * Session family of the relational invariants (events.md §7.1, package
 * `@deepseek-ai/dsh-session`): seqs strictly increase, turns and steps are numbered and nested,
 * step-scoped events name the open step, and every appended tool result answers a call of its
 * step. State is a few scalars plus the call ids pending in the open step.
 */
import type { InvariantFamily, Violation } from './relational-family';
import { dataOf, field } from './relational-family';

/** Core execution events that must sit inside an open turn (compared, not hashed: see `check`). */
function isTurnEnclosed(type: unknown): boolean {
  return type === 'todo/write' || type === 'request/header' || type === 'request/context';
}

/** Streaming replay of the session family. */
export class SessionFamily implements InvariantFamily {
  readonly packageName = '@deepseek-ai/dsh-session';
  readonly rule = 'relational/session';
  private violation: Violation | null = null;
  // Values are compared and printed as read (`${x}` of `null` prints `null`), so they stay unknown.
  private lastSeq: unknown = -1;
  private openTurn: unknown = null;
  private openStep: unknown = null;
  private nextTurn = 1;
  private nextStep = 1;
  private readonly pending = new Set<unknown>();

  event(event: Record<string, unknown> | null, index: number, line: number | null): void {
    if (this.violation !== null) return;
    const message = this.check(event ?? {});
    if (message !== null) this.violation = { index, line, message };
  }

  /** {@link event} for a record of type `assistant/chunk`: the seq, then the open step. */
  chunk(event: Record<string, unknown>, index: number, line: number | null): void {
    if (this.violation !== null) return;
    const seq = event.seq;
    if ((seq as number) <= (this.lastSeq as number)) {
      this.seqViolation(seq, index, line);
      return;
    }
    this.lastSeq = seq;
    const data = event.data;
    // `dataOf`'s reads without its call; an array has no `turn` or `step` either.
    const turn = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).turn : undefined;
    const step = typeof data === 'object' && data !== null ? (data as Record<string, unknown>).step : undefined;
    if (this.openTurn !== turn || this.openStep !== step) {
      const message = `assistant/chunk names turn ${String(turn)}/step ${String(step)} but open is turn ${String(this.openTurn)}/step ${String(this.openStep)}`;
      this.violation = { index, line, message };
    }
  }

  /**
   * {@link chunk} for a chunk whose turn and step are those of the previous event, also a chunk
   * this family saw: that one passed the open-step test (or the family stopped), and a chunk
   * changes no turn or step, so only the seq is left to test.
   */
  nextChunk(seq: unknown, index: number, line: number | null): void {
    if (this.violation !== null) return;
    if ((seq as number) <= (this.lastSeq as number)) this.seqViolation(seq, index, line);
    else this.lastSeq = seq;
  }

  /**
   * Whether {@link chunkRun} may stand for the next chunk events one by one, the first with seq
   * `firstSeq`: the family has stopped, or that seq passes the order test (then so do the later
   * ones, each one more than the one before).
   */
  canTakeChunkRun(firstSeq: number): boolean {
    return this.violation !== null || !(firstSeq <= (this.lastSeq as number));
  }

  /**
   * {@link nextChunk} for a run of chunks with increasing seqs ending at `lastSeq`, when
   * {@link canTakeChunkRun} said so just before them.
   */
  chunkRun(lastSeq: number): void {
    if (this.violation === null) this.lastSeq = lastSeq;
  }

  private seqViolation(seq: unknown, index: number, line: number | null): void {
    this.violation = { index, line, message: `seq must strictly increase: saw ${String(seq)} after ${String(this.lastSeq)}` };
  }

  finish(): Violation | null {
    return this.violation;
  }

  /** Check one event and, when it passes, apply its state change; returns the violation text. */
  private check(event: Record<string, unknown>): string | null {
    const seq = event.seq;
    // Relational `<=` as upstream writes it, including JavaScript's coercions for odd seqs.
    if ((seq as number) <= (this.lastSeq as number)) {
      return `seq must strictly increase: saw ${String(seq)} after ${String(this.lastSeq)}`;
    }
    this.lastSeq = seq;
    const type = event.type;
    const data = dataOf(event);
    switch (type) {
      case 'turn/start': {
        const turn = data.turn;
        if (this.openTurn !== null) return `turn/start ${String(turn)} while turn ${String(this.openTurn)} is still open`;
        if (turn !== this.nextTurn) return `turn/start expected turn ${this.nextTurn}, got ${String(turn)}`;
        this.openTurn = turn;
        this.nextStep = 1;
        return null;
      }
      case 'turn/end': {
        const turn = data.turn;
        if (this.openTurn !== turn) return `turn/end ${String(turn)} does not match open turn ${String(this.openTurn)}`;
        if (this.openStep !== null) return `turn/end ${String(turn)} while step ${String(this.openStep)} is still open`;
        this.openTurn = null;
        this.nextTurn += 1;
        return null;
      }
      case 'step/start': {
        const { turn, step } = data;
        if (this.openTurn !== turn) return `step/start in turn ${String(turn)} but open turn is ${String(this.openTurn)}`;
        if (this.openStep !== null) return `step/start ${String(step)} while step ${String(this.openStep)} is still open`;
        if (step !== this.nextStep) {
          return `step/start expected step ${this.nextStep} in turn ${String(turn)}, got ${String(step)}`;
        }
        this.openStep = step;
        return null;
      }
      case 'step/end': {
        const problem = this.requireOpenStep('step/end', data);
        if (problem !== null) return problem;
        this.pending.clear();
        this.openStep = null;
        this.nextStep += 1;
        return null;
      }
      case 'assistant/chunk':
      case 'assistant/message':
        return this.requireOpenStep(type, data);
      case 'tool/call': {
        const problem = this.requireOpenStep(type, data);
        if (problem === null) this.pending.add(data.callId);
        return problem;
      }
      case 'tool/result':
        return this.toolResult(event, data);
      default:
        if (this.openTurn === null && isTurnEnclosed(type)) {
          return `${String(type)} appended outside any open turn (core execution events must be turn-enclosed)`;
        }
        return null;
    }
  }

  private toolResult(event: Record<string, unknown>, data: Record<string, unknown>): string | null {
    if (event.surfaceOp !== 'append') {
      // A replacement rewrites an earlier result (pruning); it may name an earlier turn/step.
      return this.openTurn === null ? 'tool/result surface replacement appended outside any open turn' : null;
    }
    const problem = this.requireOpenStep('tool/result', data);
    if (problem !== null) return problem;
    const message = data.message;
    const callId = field(field(message, 'source'), 'callId');
    const content = field(message, 'content');
    const first: unknown = Array.isArray(content) ? content[0] : undefined;
    // Crash repair answers never-started calls itself; those results have no tool/call.
    const notStarted = field(first, 'isError') === true && field(data.error, 'code') === 'TOOL_NOT_STARTED';
    if (!this.pending.has(callId) && !notStarted) {
      return `tool/result for ${String(callId)} with no prior tool/call in this step`;
    }
    this.pending.delete(callId);
    return null;
  }

  private requireOpenStep(type: string, data: Record<string, unknown>): string | null {
    const { turn, step } = data;
    if (this.openTurn !== turn || this.openStep !== step) {
      return `${type} names turn ${String(turn)}/step ${String(step)} but open is turn ${String(this.openTurn)}/step ${String(this.openStep)}`;
    }
    return null;
  }
}
