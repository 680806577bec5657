/**
 * Internals of the compaction QA check: reading the few fields it needs from events, the small
 * records it keeps instead of events, and message formatting.
 */
import { isRecord } from '../checks/check';
import { isCheckpointSource } from '../util/checkpoint';
import { contentBound } from './size';

export type Rec = Record<string, unknown>;

// ----- reading events -----------------------------------------------------------------------

/** `data` of an event when it is an object, else `null`. */
export function dataOf(event: unknown): Rec | null {
  if (!isRecord(event)) return null;
  const data = event.data;
  return isRecord(data) ? data : null;
}

/** The `compactionId` of a compaction event's data when it is a non-empty string. */
export function compactionIdOf(data: Rec | null): string | null {
  const id = data === null ? undefined : data.compactionId;
  return typeof id === 'string' && id.length > 0 ? id : null;
}

/** The checkpoint source `{kind:"plugin", plugin:"compact", …}` of a user/message payload, or null. */
export function checkpointSourceOf(data: unknown): Rec | null {
  if (!isRecord(data)) return null;
  const source = data.source;
  return isCheckpointSource(source) ? source : null;
}

/** Tool-call ids held by a node: one id (the common case, no array), several, or none. */
export type CallIds = string | string[] | null;

/**
 * What the check keeps about one current surface node: its tool-call side, a cheap lower
 * bound of its message size, and what it learned at replace time.
 */
export class NodeInfo {
  /** Exact derived-message size when measured, else -1. */
  size = -1;
  /** For a checkpoint: the surface-append counter when it was created, else -1. */
  checkpointAt = -1;

  constructor(
    /** The node's seq. */
    readonly seq: number,
    /** Ids of the tool-call blocks of an assistant/message. */
    readonly calls: CallIds,
    /** The call id a tool/result answers. */
    readonly result: string | null,
    /** Lower bound of the derived-message JSON size. */
    readonly bound: number,
  ) {}
}

/**
 * Read an assistant message's content once: the ids of its tool-call blocks and the lower size
 * bound of {@link contentBound} (one property read per block for its type, one for its payload).
 */
function assistantNode(seq: number, content: unknown): NodeInfo {
  if (!Array.isArray(content)) return new NodeInfo(seq, null, null, 0);
  let bound = 0;
  let first: string | null = null;
  let more: string[] | null = null;
  for (const block of content as unknown[]) {
    if (block === null || typeof block !== 'object') continue;
    const b = block as Rec;
    if (b.type === 'tool-call') {
      const args = b.arguments;
      if (typeof args === 'string') bound += args.length + 2;
      const id = b.id;
      if (typeof id !== 'string') continue;
      if (first === null) first = id;
      else (more ??= [first]).push(id);
    } else {
      const text = b.text;
      if (typeof text === 'string') bound += text.length + 2;
    }
  }
  return new NodeInfo(seq, more ?? first, null, bound);
}

/** The call id a tool/result message answers: `source.callId`, else its block's `toolCallId`. */
function resultCallId(message: Rec, block: unknown): string | null {
  const source = message.source;
  if (isRecord(source) && typeof source.callId === 'string') return source.callId;
  return isRecord(block) && typeof block.toolCallId === 'string' ? block.toolCallId : null;
}

/** Describe a surface event entering the surface (reads a few fields; scans no string). */
export function describeNode(event: Rec, seq: number): NodeInfo {
  const type = event.type;
  const data = event.data;
  if (data === null || typeof data !== 'object') return new NodeInfo(seq, null, null, 0);
  const d = data as Rec;
  if (type === 'user/message') return new NodeInfo(seq, null, null, contentBound(d.content));
  const message = d.message;
  if (message === null || typeof message !== 'object') return new NodeInfo(seq, null, null, 0);
  const m = message as Rec;
  const content = m.content;
  if (type === 'assistant/message') return assistantNode(seq, content);
  // A tool result: one tool-result block whose content holds the texts.
  const block: unknown = Array.isArray(content) ? content[0] : undefined;
  let bound: number;
  if (isRecord(block) && block.type === 'tool-result' && (content as unknown[]).length === 1) bound = contentBound(block.content);
  else bound = contentBound(content);
  return new NodeInfo(seq, null, resultCallId(m, block), bound);
}

// ----- declarations ---------------------------------------------------------------------------

/**
 * What a `compaction/summary` or `compaction/prune` declared, copied out of the event: its
 * `shadowedSeqs` and `shadowedRange` reduced to primitives (a nested object becomes
 * {@link OPAQUE}; absent stays `undefined`), so no part of the event is kept.
 */
export interface Declaration {
  seq: number;
  line: number | null;
  seqs: unknown;
  range: unknown;
}

/** Stands in for an object found where a declaration should hold numbers. */
const OPAQUE: Readonly<Rec> = Object.freeze({});

function primitive(value: unknown): unknown {
  return value !== null && typeof value === 'object' ? OPAQUE : value;
}

/** A copy of a declared list, with any nested object replaced by {@link OPAQUE}. */
function copyList(list: unknown[]): unknown[] {
  for (const x of list) if (x !== null && typeof x === 'object') return list.map(primitive);
  return list.slice();
}

/** Copy the declaration of a summary/prune payload. */
export function declarationOf(data: Rec | null, seq: number, line: number | null): Declaration {
  const seqs = data === null ? undefined : data.shadowedSeqs;
  const range = data === null ? undefined : data.shadowedRange;
  return {
    seq,
    line,
    seqs: Array.isArray(seqs) ? copyList(seqs) : primitive(seqs),
    range: isRecord(range) ? { start: primitive(range.start), end: primitive(range.end) } : primitive(range),
  };
}

/**
 * Compare a declaration with the nodes its replacement actually shadowed (in surface order).
 * Returns the text after the declaring event's name, or null when they agree.
 *
 * @param replacement how to name the replacement, e.g. `its checkpoint at seq 26`
 */
export function declarationProblem(declared: Declaration, actual: readonly number[], replacement: string): string | null {
  const { seqs, range } = declared;
  const first = actual[0];
  const last = actual[actual.length - 1];
  let seqsAgree = Array.isArray(seqs) && seqs.length === actual.length;
  if (seqsAgree) {
    const list = seqs as unknown[];
    for (let i = 0; i < list.length && seqsAgree; i++) seqsAgree = list[i] === actual[i];
  }
  const rangeAgrees = isRecord(range) && range !== OPAQUE && range.start === first && range.end === last;
  if (seqsAgree && rangeAgrees) return null;
  const parts: string[] = [];
  if (!seqsAgree) {
    if (Array.isArray(seqs)) {
      const declaredSet = new Set<unknown>(seqs);
      const shadowedSet = new Set<unknown>(actual);
      const undeclared = actual.filter((s) => !declaredSet.has(s));
      const extra = seqs.filter((s) => !shadowedSet.has(s));
      if (undeclared.length > 0) parts.push(`shadowed but not declared: ${formatList(undeclared)}`);
      if (extra.length > 0) parts.push(`declared but not shadowed: ${formatList(extra)}`);
      if (undeclared.length === 0 && extra.length === 0) parts.push('same seqs in another order or repeated');
    } else {
      parts.push('shadowedSeqs is not a list');
    }
  }
  if (!rangeAgrees) parts.push(`shadowedRange ${formatRange(range)} is not ${String(first)}..${String(last)}`);
  return (
    `declares shadowedSeqs ${formatValue(seqs)} and shadowedRange ${formatRange(range)}, ` +
    `but ${replacement} shadowed ${formatList(actual)} (${String(first)}..${String(last)}): ${parts.join('; ')}`
  );
}

// ----- formatting -----------------------------------------------------------------------------

const LIST_MAX = 12;

/** `[1, 2, 3]`, cut after a dozen elements. */
export function formatList(list: readonly unknown[]): string {
  const shown = list.slice(0, LIST_MAX).map((x) => (typeof x === 'string' ? JSON.stringify(x) : String(x)));
  const more = list.length > LIST_MAX ? `, … (+${list.length - LIST_MAX} more)` : '';
  return `[${shown.join(', ')}${more}]`;
}

/** A declared value as text: lists as lists, strings quoted, objects briefly. */
export function formatValue(value: unknown): string {
  if (value === undefined) return 'missing';
  if (Array.isArray(value)) return formatList(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (isRecord(value)) return 'an object';
  return String(value);
}

/** `start..end` of a declared shadowedRange. */
function formatRange(range: unknown): string {
  if (!isRecord(range) || range === OPAQUE) return formatValue(range);
  return `${formatValue(range.start)}..${formatValue(range.end)}`;
}

/** An id for messages: JSON-quoted when a string. */
export function formatId(id: unknown): string {
  return typeof id === 'string' ? JSON.stringify(id) : String(id);
}
