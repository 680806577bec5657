/**
 * Candidate events for the playground, shaped as dsh writes them (events.md §2–§6). They are
 * candidates only: the fold decides whether they enter the log.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Candidate = Record<string, Json>;

const MODEL = { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' };

/** Where a candidate goes: its seq and the turn/step it claims. */
export interface Slot {
  seq: number;
  time?: number;
  turn?: number;
  step?: number;
}

const base = (slot: Slot, type: string, data: Json): Candidate => ({
  type,
  seq: slot.seq,
  time: slot.time ?? 1785400000000 + slot.seq * 1000,
  data,
});

/** A user prompt, appended. */
export function userMessage(slot: Slot, text: string): Candidate {
  return {
    ...base(slot, 'user/message', {
      id: `user-${slot.seq}`,
      role: 'user',
      content: [{ type: 'text', text }],
      source: { kind: 'user' },
    }),
    surfaceOp: 'append',
  };
}

/** An assistant message, appended, optionally with tool calls (ids `call-<seq>-<i>`). */
export function assistantMessage(slot: Slot, text: string, toolCalls: { name: string; arguments: string }[] = []): Candidate {
  const content: Json[] = [];
  if (text) content.push({ type: 'text', text });
  toolCalls.forEach((call, i) =>
    content.push({ type: 'tool-call', id: `call-${slot.seq}-${i}`, name: call.name, arguments: call.arguments }),
  );
  return {
    ...base(slot, 'assistant/message', {
      turn: slot.turn ?? 1,
      step: slot.step ?? 1,
      message: { id: `assistant-${slot.seq}`, role: 'assistant', content, source: MODEL },
    }),
    // An assistant message may cite nothing (a message assembled without recorded chunks).
    sourceEventSeqs: [],
    surfaceOp: 'append',
  };
}

/** A tool result for `callId`, appended, citing its tool/call when there is one. */
export function toolResult(slot: Slot, callId: string, text: string, callSeq: number | null, isError = false): Candidate {
  const event: Candidate = {
    ...base(slot, 'tool/result', {
      turn: slot.turn ?? 1,
      step: slot.step ?? 1,
      message: {
        id: `result-${slot.seq}`,
        role: 'user',
        content: [{ type: 'tool-result', toolCallId: callId, isError, content: [{ type: 'text', text }] }],
        source: { kind: 'tool', callId },
      },
    }),
    surfaceOp: 'append',
  };
  if (callSeq !== null) event.sourceEventSeqs = [callSeq];
  return event;
}

/** A log-only event of any type. */
export function logOnly(slot: Slot, type: string, data: Json): Candidate {
  return base(slot, type, data);
}

/**
 * A summary that replaces the surface range `start`…`end` (node seqs, by position), citing the
 * shadowed nodes as the fold requires.
 */
export function summaryReplace(slot: Slot, start: number, end: number, shadowed: readonly number[], text: string): Candidate {
  return {
    ...base(slot, 'user/message', {
      content: [{ type: 'text', text }],
      source: { kind: 'plugin', plugin: 'compact', compactionId: `playground-${slot.seq}` },
      role: 'user',
      id: `checkpoint-${slot.seq}`,
    }),
    sourceEventSeqs: [...shadowed],
    surfaceOp: { op: 'replace', start, end },
  };
}

/**
 * A prune of the tool result `original` (the event itself): the same data with the first
 * block's content replaced by `text`.
 */
export function pruneReplace(slot: Slot, original: { seq: number; data: Json }, text: string): Candidate {
  const data = JSON.parse(JSON.stringify(original.data)) as { message?: { content?: { content?: Json }[] } };
  const first = data.message?.content?.[0];
  if (first) first.content = [{ type: 'text', text }];
  return {
    ...base(slot, 'tool/result', data),
    sourceEventSeqs: [original.seq],
    surfaceOp: { op: 'replace', start: original.seq, end: original.seq },
  };
}

/** Tool calls made by assistant messages in `events` that no tool/result answers yet. */
export function pendingToolCalls(
  events: readonly unknown[],
): { callId: string; name: string; messageSeq: number; callSeq: number | null }[] {
  const pending = new Map<string, { callId: string; name: string; messageSeq: number; callSeq: number | null }>();
  for (const event of events) {
    const e = event as {
      type?: unknown;
      seq?: unknown;
      data?: { message?: { content?: unknown; source?: { callId?: unknown } }; callId?: unknown };
    };
    if (e.type === 'assistant/message' && Array.isArray(e.data?.message?.content)) {
      for (const block of e.data.message.content as { type?: unknown; id?: unknown; name?: unknown }[]) {
        if (block?.type === 'tool-call' && typeof block.id === 'string') {
          pending.set(block.id, { callId: block.id, name: String(block.name), messageSeq: Number(e.seq), callSeq: null });
        }
      }
    } else if (e.type === 'tool/call' && typeof e.data?.callId === 'string') {
      const p = pending.get(e.data.callId);
      if (p) p.callSeq = Number(e.seq);
    } else if (e.type === 'tool/result' && typeof e.data?.message?.source?.callId === 'string') {
      pending.delete(e.data.message.source.callId);
    }
  }
  return [...pending.values()];
}
