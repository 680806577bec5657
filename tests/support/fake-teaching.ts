/**
 * The compaction-QA and teaching side of the fake client: messages as chat rows, aligned views,
 * replace details, the curve, exports, guided demos and playground candidates, all computed
 * from a small in-memory event list with the protocol's semantics (deterministic, no core code).
 */
import type {
  DemoInfo,
  DiffPart,
  MessageBlock,
  PlaygroundTemplate,
  ReplacementKind,
  ViewMessage,
} from '../../src/protocol/protocol';
import { familyOf } from '../../src/core/analyze/family';
import { TRANSCRIPT_PAGE_LIMIT } from '../../src/protocol/protocol';

/** The event shape of the fake (a subset of a dsh event). */
export interface FakeEvent {
  seq: number;
  type: string;
  time: number;
  data?: unknown;
  surfaceOp?: 'append' | { op: 'replace'; start: number; end: number };
  sourceEventSeqs?: number[];
}

/** A fold of the fake log up to a step. */
export interface Fold {
  nodes: number[];
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[]; step: number }[];
  /** seq → replacement that shadowed it */
  shadowedBy: Map<number, number>;
}

export const SURFACE_TYPES = new Set(['user/message', 'assistant/message', 'tool/result']);

export const FAKE_TOKEN_METHOD = 'estimated as ⌈characters of the derived message JSON ÷ 4⌉ (no tokenizer)';

type Json = Record<string, unknown>;
const isObject = (x: unknown): x is Json => typeof x === 'object' && x !== null && !Array.isArray(x);

/** The model message an event projects to (user/message data is the message itself). */
export function derivedMessage(event: FakeEvent | undefined): Json | null {
  if (!event || !SURFACE_TYPES.has(event.type) || !isObject(event.data)) return null;
  if (event.type === 'user/message') return { role: event.data.role, content: event.data.content };
  return isObject(event.data.message) ? { role: event.data.message.role, content: event.data.message.content } : null;
}

export const derivedSize = (event: FakeEvent | undefined): number => {
  const message = derivedMessage(event);
  return message === null ? 0 : JSON.stringify(message).length;
};

export const estimateTokens = (chars: number): number => Math.ceil(chars / 4);

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((b) => (isObject(b) && typeof b.text === 'string' ? b.text : '')).join('\n');
}

export function messageBlocks(content: unknown, clip: number): MessageBlock[] {
  if (!Array.isArray(content)) return [];
  const clipped = (text: string) => (text.length <= clip ? { text, truncated: false } : { text: text.slice(0, clip), truncated: true });
  return content.map((block): MessageBlock => {
    if (!isObject(block)) return { kind: 'other', ...clipped(JSON.stringify(block)) };
    switch (block.type) {
      case 'text':
        return { kind: 'text', ...clipped(String(block.text ?? '')) };
      case 'reasoning':
        return { kind: 'reasoning', ...clipped(String(block.text ?? '')) };
      case 'tool-call':
        return { kind: 'tool-call', ...clipped(String(block.arguments ?? '')), name: String(block.name ?? ''), callId: String(block.id ?? '') };
      case 'tool-result':
        return { kind: 'tool-result', ...clipped(textOf(block.content)), callId: String(block.toolCallId ?? ''), isError: block.isError === true };
      default:
        return { kind: 'other', ...clipped(JSON.stringify(block)) };
    }
  });
}

export function replacementKindOf(event: FakeEvent | undefined): ReplacementKind {
  if (!event) return 'other';
  if (event.type === 'tool/result') return 'prune';
  return event.type === 'user/message' ? 'compaction' : 'other';
}

export function viewMessage(event: FakeEvent, state: ViewMessage['state'], clip: number): ViewMessage {
  const message = derivedMessage(event);
  const replacement = typeof event.surfaceOp === 'object';
  return {
    seq: event.seq,
    type: event.type,
    family: familyOf(event.type),
    role: message && typeof message.role === 'string' ? message.role : null,
    origin: replacement ? 'replacement' : 'append',
    replacementKind: replacement ? replacementKindOf(event) : null,
    state,
    blocks: messageBlocks(message?.content, clip),
    empty: false,
  };
}

/** Append-origin seqs a node stands for, in log order (itself for an append). */
export function coveredAppends(seq: number, fold: Fold): number[] {
  const r = fold.replacements.find((x) => x.seq === seq);
  if (!r) return [seq];
  return r.shadowedSeqs.flatMap((s) => coveredAppends(s, fold)).sort((a, b) => a - b);
}

/**
 * Seqs [start, start + count) of what a node stands for, clamped as the engine clamps a
 * transcript page (a negative start reads from 0, count is cut to the page limit).
 */
export function transcriptWindow(covered: number[], start: number, count: number): { start: number; seqs: number[] } {
  const first = Math.max(0, Math.min(start, covered.length));
  return { start: first, seqs: covered.slice(first, first + Math.max(0, Math.min(count, TRANSCRIPT_PAGE_LIMIT))) };
}

/** Replacements nested inside `seq`, outermost first. */
export function nestedReplacements(seq: number, fold: Fold): number[] {
  const out: number[] = [];
  const queue = [seq];
  while (queue.length > 0) {
    const at = queue.shift();
    const r = fold.replacements.find((x) => x.seq === at);
    for (const child of r?.shadowedSeqs ?? []) {
      if (fold.replacements.some((x) => x.seq === child)) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/** The first content text of a tool result (what a prune rewrites). */
export function toolResultText(event: FakeEvent | undefined): string {
  const message = derivedMessage(event);
  const first = Array.isArray(message?.content) ? (message.content as unknown[])[0] : undefined;
  if (!isObject(first)) return '';
  return first.type === 'tool-result' ? textOf(first.content) : String(first.text ?? '');
}

/** A line diff good enough for the fake: common head and tail, the middle removed and added. */
export function lineDiff(before: string, after: string): DiffPart[] {
  if (before === after) return [{ op: 'same', text: before }];
  const a = before.split(/(?<=\n)/);
  const b = after.split(/(?<=\n)/);
  let head = 0;
  while (head < a.length && head < b.length && a[head] === b[head]) head++;
  let tail = 0;
  while (tail < a.length - head && tail < b.length - head && a[a.length - 1 - tail] === b[b.length - 1 - tail]) tail++;
  const parts: DiffPart[] = [];
  const push = (op: DiffPart['op'], lines: string[]) => {
    if (lines.length > 0) parts.push({ op, text: lines.join('') });
  };
  push('same', a.slice(0, head));
  push('remove', a.slice(head, a.length - tail));
  push('add', b.slice(head, b.length - tail));
  push('same', a.slice(a.length - tail));
  return parts;
}

/** Guided demos of the fake: narrated walks through the fake session. */
export const FAKE_DEMOS: DemoInfo[] = [
  {
    id: 'compaction',
    title: 'A summarizing compaction',
    summary: 'A compaction replaces a range of surface nodes with one checkpoint message.',
    notes: [
      { step: 0, text: 'A compaction replaces a range of surface nodes with one checkpoint message.' },
      { step: 3, text: 'The prompt appends the first node.' },
      { step: 19, text: 'The checkpoint 18 replaces 2…10: four nodes become one.' },
      { step: 25, text: 'The long tool result 22 is pruned into 24.' },
      { step: 29, text: 'A second compaction shadows the first checkpoint: a nested replace.' },
    ],
  },
  {
    id: 'append-flow',
    title: 'A basic append flow',
    summary: 'Every surface event appends at the tail.',
    notes: [{ step: 0, text: 'Every surface event appends at the tail.' }],
  },
];

export type Refusal = { ok: false; message: string; rule: string };

/** Builds a playground candidate from a template (the engine does this in the worker). */
export function candidateOf(template: PlaygroundTemplate, log: FakeEvent[], nodes: number[]): FakeEvent | Refusal {
  const seq = log.length;
  const time = 1_000 + seq * 250;
  const slot = { turn: 1, step: 1 };
  switch (template.kind) {
    case 'user':
      return { seq, type: 'user/message', time, data: { id: `user-${seq}`, role: 'user', content: [{ type: 'text', text: template.text }] }, surfaceOp: 'append' };
    case 'assistant': {
      const content: unknown[] = template.text ? [{ type: 'text', text: template.text }] : [];
      template.toolCalls.forEach((call, i) => content.push({ type: 'tool-call', id: `call-${seq}-${i}`, name: call.name, arguments: call.arguments }));
      return { seq, type: 'assistant/message', time, data: { ...slot, message: { role: 'assistant', content } }, surfaceOp: 'append', sourceEventSeqs: [] };
    }
    case 'tool-result':
      return {
        seq,
        type: 'tool/result',
        time,
        data: {
          ...slot,
          message: {
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: template.callId, isError: template.isError, content: [{ type: 'text', text: template.text }] }],
            source: { kind: 'tool', callId: template.callId },
          },
        },
        surfaceOp: 'append',
      };
    case 'log-only':
    case 'raw': {
      let value: unknown;
      try {
        value = template.kind === 'raw' ? JSON.parse(template.json) : { type: template.type, data: template.data.trim() === '' ? {} : JSON.parse(template.data) };
      } catch (error) {
        return { ok: false, message: `not valid JSON: ${(error as Error).message}`, rule: 'playground/json' };
      }
      if (isObject(value) && !('seq' in value)) value.seq = seq;
      if (isObject(value) && !('time' in value)) value.time = time;
      return value as FakeEvent;
    }
    case 'summary': {
      const from = nodes.indexOf(template.start);
      const to = nodes.indexOf(template.end);
      return {
        seq,
        type: 'user/message',
        time,
        data: { role: 'user', content: [{ type: 'text', text: template.text }], source: { kind: 'plugin', plugin: 'compact' } },
        surfaceOp: { op: 'replace', start: template.start, end: template.end },
        sourceEventSeqs: from >= 0 && to >= from ? nodes.slice(from, to + 1) : [],
      };
    }
    case 'prune': {
      const original = log[template.target];
      const data = JSON.parse(JSON.stringify(original?.data ?? null)) as { message?: { content?: { content?: unknown }[] } } | null;
      const first = data?.message?.content?.[0];
      if (first) first.content = [{ type: 'text', text: template.text }];
      return { seq, type: 'tool/result', time, data, surfaceOp: { op: 'replace', start: template.target, end: template.target }, sourceEventSeqs: [template.target] };
    }
  }
}

/** The fold's checks the fake playground needs, with upstream's exact texts. */
export function validateCandidate(candidate: unknown, log: FakeEvent[], nodes: number[]): Refusal | null {
  const e = isObject(candidate) ? candidate : {};
  const expected = log.length;
  if (e.seq !== expected) return { ok: false, message: `session event seq ${String(e.seq)} is not contiguous; expected ${expected}`, rule: 'surface/contiguity' };
  const type = String(e.type);
  const eligible = SURFACE_TYPES.has(type);
  if (!eligible) {
    if ('surfaceOp' in e) return { ok: false, message: `session event "${type}" is not surface-eligible and cannot carry surfaceOp`, rule: 'surface/op-on-log-only' };
    return null;
  }
  if (!('surfaceOp' in e)) return { ok: false, message: `session event "${type}" is surface-eligible and requires a surfaceOp marker`, rule: 'surface/missing-op' };
  if (e.surfaceOp === 'append') return null;
  const op = e.surfaceOp;
  if (!isObject(op)) return { ok: false, message: `session event "${type}" carries an invalid surfaceOp`, rule: 'surface/invalid-op' };
  if (op.op !== 'replace' || typeof op.start !== 'number' || typeof op.end !== 'number') {
    return { ok: false, message: `session event "${type}" carries an invalid replace surfaceOp`, rule: 'surface/invalid-replace-op' };
  }
  const a = nodes.indexOf(op.start);
  if (a < 0) return { ok: false, message: `surface replace: start seq ${op.start} not found in surface`, rule: 'surface/replace-range' };
  const b = nodes.indexOf(op.end);
  if (b < 0) return { ok: false, message: `surface replace: end seq ${op.end} not found in surface`, rule: 'surface/replace-range' };
  if (a > b) {
    return { ok: false, message: `surface replace: start seq ${op.start} (index ${a}) is after end seq ${op.end} (index ${b})`, rule: 'surface/replace-range' };
  }
  const sources = Array.isArray(e.sourceEventSeqs) ? (e.sourceEventSeqs as unknown[]) : [];
  const missing = nodes.slice(a, b + 1).filter((s) => !sources.includes(s));
  if (missing.length > 0) {
    return { ok: false, message: `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`, rule: 'surface/missing-shadowed-source' };
  }
  if (type === 'tool/result' && b !== a) {
    return { ok: false, message: 'tool/result surface replacement must rewrite exactly one current node', rule: 'surface/tool-multiple-nodes' };
  }
  if (type === 'tool/result' && log.find((x) => x.seq === op.start)?.type !== 'tool/result') {
    return { ok: false, message: 'tool/result surface replacement must target a current tool/result', rule: 'surface/tool-target' };
  }
  return null;
}

/** Tool calls of assistant messages that no tool/result answers yet. */
export function pendingCalls(log: FakeEvent[]): { callId: string; name: string; callSeq: number | null }[] {
  const pending = new Map<string, { callId: string; name: string; callSeq: number | null }>();
  for (const event of log) {
    const message = derivedMessage(event);
    for (const block of Array.isArray(message?.content) ? (message.content as unknown[]) : []) {
      if (!isObject(block)) continue;
      if (event.type === 'assistant/message' && block.type === 'tool-call') pending.set(String(block.id), { callId: String(block.id), name: String(block.name), callSeq: null });
      if (event.type === 'tool/result' && block.type === 'tool-result') pending.delete(String(block.toolCallId));
    }
  }
  return [...pending.values()];
}
