/**
 * Crash-repair closers (log-format.md §13): when a log ends inside a turn, upstream's loader
 * appends synthetic events that answer every pending tool call, close the open step and end the
 * turn as interrupted. This tracker folds the (upgraded) events one at a time and keeps only the
 * open turn/step, the pending call ids and the last event's seq and time.
 */
import { isRecord } from './check';

/** Text of the result for a call whose `tool/call` was recorded. */
export const OUTCOME_UNKNOWN_TEXT =
  'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.';

/** Text of the result for a call that was never recorded as started. */
export const NOT_STARTED_TEXT = 'The tool call was interrupted before the Harness recorded it as started. Retry it if it is still needed.';

interface PendingCall {
  step: unknown;
  callSeq: unknown;
}

/** Folds events into the state §13 needs and builds the closers at the end. */
export class InterruptedTurnTracker {
  // Turn and step numbers are kept as read (`unknown`): a malformed value must flow into the
  // closers exactly as upstream would copy it. `null` means "none open", as upstream.
  private openTurn: unknown = null;
  private openStep: unknown = null;
  /** callId → call; a Map keeps insertion order, which decides the closers' order. */
  private readonly pending = new Map<unknown, PendingCall>();
  private seen = false;
  private lastSeq: unknown = undefined;
  private lastTime: unknown = undefined;
  /**
   * The last event's time when it was a number (then {@link lastTime} is stale): kept in a
   * number-only field, which V8 updates in place, without the write barrier a fresh heap
   * number stored into {@link lastTime} would cost on every event.
   */
  private lastNumberTime = 0;
  private lastTimeIsNumber = false;
  /** Position and line of the `turn/start` that opened the current turn, for reporting. */
  turnStartIndex: number | null = null;
  turnStartLine: number | null = null;

  /** {@link event} for a record of type `assistant/chunk`, which only moves the last seq and time. */
  chunk(value: Record<string, unknown>): void {
    this.seen = true;
    this.lastSeq = value.seq;
    this.noteTime(value.time);
  }

  /** {@link chunk} for a run of chunks, the last with this seq and time. */
  chunkRun(lastSeq: number, lastTime: number): void {
    this.seen = true;
    this.lastSeq = lastSeq;
    this.noteTime(lastTime);
  }

  private noteTime(time: unknown): void {
    if (typeof time === 'number') {
      this.lastNumberTime = time;
      this.lastTimeIsNumber = true;
    } else {
      this.lastTime = time;
      this.lastTimeIsNumber = false;
    }
  }

  /** Fold one event (already upgraded, §12) at position `index`. */
  event(value: unknown, index: number, line: number | null): void {
    if (!isRecord(value)) return;
    this.seen = true;
    this.lastSeq = value.seq;
    this.noteTime(value.time);
    const data = isRecord(value.data) ? value.data : undefined;
    switch (value.type) {
      case 'turn/start':
        this.openTurn = data?.turn;
        this.openStep = null;
        this.pending.clear();
        this.turnStartIndex = index;
        this.turnStartLine = line;
        break;
      case 'turn/end':
        this.openTurn = null;
        this.openStep = null;
        this.pending.clear();
        break;
      case 'step/start':
        this.openStep = data?.step;
        break;
      case 'step/end':
        this.pending.clear();
        this.openStep = null;
        break;
      case 'assistant/message': {
        const message = data?.message;
        const content = isRecord(message) ? message.content : undefined;
        if (!Array.isArray(content)) break;
        for (const block of content as unknown[]) {
          // Re-setting an existing id keeps its place in the Map but forgets its callSeq, as
          // upstream replaces the entry with a fresh `{step}`.
          if (isRecord(block) && block.type === 'tool-call') this.pending.set(block.id, { step: data?.step, callSeq: undefined });
        }
        break;
      }
      case 'tool/call': {
        const entry = this.pending.get(data?.callId);
        if (entry !== undefined) entry.callSeq = value.seq;
        break;
      }
      case 'tool/result': {
        const message = data?.message;
        const source = isRecord(message) ? message.source : undefined;
        this.pending.delete(isRecord(source) ? source.callId : undefined);
        break;
      }
      default:
        break;
    }
  }

  /** True when the log ends inside a turn, so crash repair appends closers. */
  get interrupted(): boolean {
    return this.openTurn !== null && this.seen;
  }

  /** The open turn number as read (meaningful when {@link interrupted}). */
  get turn(): unknown {
    return this.openTurn;
  }

  /**
   * The synthetic events upstream appends (§13), in order, with the exact key order of the
   * crash-repair writer; empty when no turn is open.
   */
  closers(): Record<string, unknown>[] {
    if (!this.interrupted) return [];
    const turn = this.openTurn;
    const time = this.lastTimeIsNumber ? this.lastNumberTime : this.lastTime;
    let seq = (this.lastSeq as number) + 1;
    const out: Record<string, unknown>[] = [];
    for (const [callId, { step, callSeq }] of this.pending) {
      const started = callSeq !== undefined;
      const message = {
        id: `interrupted-tool-result-${String(callId)}-${seq}`,
        role: 'user',
        source: { kind: 'tool', callId },
        content: [
          {
            type: 'tool-result',
            toolCallId: callId,
            isError: true,
            content: [{ type: 'text', text: started ? OUTCOME_UNKNOWN_TEXT : NOT_STARTED_TEXT }],
          },
        ],
      };
      const error = started
        ? { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' }
        : { name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' };
      const closer: Record<string, unknown> = {
        type: 'tool/result',
        seq: seq++,
        time,
        data: { turn, step, message, error },
        surfaceOp: 'append',
      };
      if (started) closer.sourceEventSeqs = [callSeq];
      out.push(closer);
    }
    if (this.openStep !== null) out.push({ type: 'step/end', seq: seq++, time, data: { turn, step: this.openStep } });
    out.push({ type: 'turn/end', seq, time, data: { turn, reason: { kind: 'interrupted' } } });
    return out;
  }
}
