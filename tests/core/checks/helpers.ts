/**
 * Test-only helpers for the check tests: JSONL decoding as log-format.md §1.2 describes it, an
 * emulation of the loader's line scanner (§4) that yields its accepted prefix, and a tiny plain
 * surface fold (surface.md §3) that can be driven one event at a time. They are deliberately
 * simple and slow (the fold keeps every event); the product code lives in src/core.
 */
import { expandPackedRow, isPackedRow, validatePackedRow } from '../../../src/core/decode/packed';

/** A decoded event and the 1-based line of the logical text it came from. */
export interface Decoded {
  value: unknown;
  line: number;
}

/** A JSONL log split into its header line and its events (fold input decoding, §1.2). */
export interface DecodedJsonl {
  /** The first line (without LF), or `null` when the text has no LF. */
  headerLine: string | null;
  rawHasLf: boolean;
  events: Decoded[];
}

function expandLine(value: unknown): unknown[] {
  if (isPackedRow(value)) return expandPackedRow(validatePackedRow(value));
  if (Array.isArray(value)) return value as unknown[];
  return [value];
}

/** Decode every complete line after the header; the piece after the last LF is ignored. */
export function decodeJsonl(text: string): DecodedJsonl {
  const pieces = text.split('\n');
  pieces.pop();
  const rawHasLf = pieces.length > 0;
  const headerLine = rawHasLf ? (pieces[0] as string) : null;
  const events: Decoded[] = [];
  pieces.forEach((piece, i) => {
    if (i === 0 || piece.trim() === '') return;
    for (const value of expandLine(JSON.parse(piece))) events.push({ value, line: i + 1 });
  });
  return { headerLine, rawHasLf, events };
}

/**
 * The loader scanner's accepted prefix (log-format.md §4): events up to the first unparsable
 * line or seq gap, provided no later line holds a `turn/end` (then it is fatal and we throw).
 */
export function scannerPrefix(text: string): Decoded[] {
  const pieces = text.split('\n');
  pieces.pop();
  const accepted: Decoded[] = [];
  let issue: string | null = null;
  for (let i = 1; i < pieces.length; i++) {
    let decoded: unknown[];
    try {
      decoded = expandLine(JSON.parse(pieces[i] as string));
    } catch {
      issue ??= `unparsable committed event at line ${i}`;
      continue;
    }
    const hasTurnEnd = decoded.some((e) => (e as { type?: unknown } | null)?.type === 'turn/end');
    if (issue !== null) {
      if (hasTurnEnd) throw new Error(issue);
      continue;
    }
    const before = accepted.length;
    for (const value of decoded) {
      if ((value as { seq?: unknown }).seq !== accepted.length) {
        issue = `seq gap at line ${i}`;
        accepted.length = before;
        if (hasTurnEnd) throw new Error(issue);
        break;
      }
      accepted.push({ value, line: i + 1 });
    }
  }
  return accepted;
}

const SURFACE = new Set(['user/message', 'assistant/message', 'tool/result']);
const isSeq = (x: unknown): x is number => typeof x === 'number' && Number.isSafeInteger(x) && x >= 0;

/* eslint-disable @typescript-eslint/no-explicit-any -- the fold reads arbitrary JSON */

/** JSON deep equality with key order ignored. */
function same(a: any, b: any): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && same(a[k], b[k]));
}

function masked(data: any): unknown {
  return { ...data, message: { ...data.message, content: [{ ...data.message.content[0], content: null }] } };
}

/** A plain surface fold driven one event at a time; `step` returns the refusal message or null. */
export class TinyFold {
  readonly nodes: number[] = [];
  readonly events: any[] = [];

  step = (event: any, index: number): string | null => {
    try {
      this.apply(event, index);
      this.events.push(event);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  private apply(e: any, expected: number): void {
    if (e.seq !== expected) throw new Error(`session event seq ${e.seq} is not contiguous; expected ${expected}`);
    const op = e.surfaceOp;
    if (!SURFACE.has(e.type)) {
      if (op !== undefined) throw new Error(`session event "${e.type}" is not surface-eligible and cannot carry surfaceOp`);
      if (e.sourceEventSeqs !== undefined) {
        throw new Error(`session event "${e.type}" is not surface-eligible and cannot carry sourceEventSeqs`);
      }
      return;
    }
    if (op === undefined) throw new Error(`session event "${e.type}" is surface-eligible and requires a surfaceOp marker`);
    if (op === 'append') {
      this.provenance(e, []);
      this.nodes.push(e.seq);
      return;
    }
    if (op === null || typeof op !== 'object' || Array.isArray(op)) {
      throw new Error(`session event "${e.type}" carries an invalid surfaceOp`);
    }
    const keys = Object.keys(op).sort().join();
    if (keys !== 'end,op,start' || op.op !== 'replace' || !isSeq(op.start) || !isSeq(op.end)) {
      throw new Error(`session event "${e.type}" carries an invalid replace surfaceOp`);
    }
    const s = this.nodes.indexOf(op.start);
    if (s < 0) throw new Error(`surface replace: start seq ${op.start} not found in surface`);
    const t = this.nodes.indexOf(op.end);
    if (t < 0) throw new Error(`surface replace: end seq ${op.end} not found in surface`);
    if (s > t) throw new Error(`surface replace: start seq ${op.start} (index ${s}) is after end seq ${op.end} (index ${t})`);
    const shadowed = this.nodes.slice(s, t + 1);
    this.provenance(e, shadowed);
    if (e.type === 'tool/result') {
      if (shadowed.length !== 1) throw new Error('tool/result surface replacement must rewrite exactly one current node');
      const original = this.events[shadowed[0] as number];
      if (original.type !== 'tool/result') throw new Error('tool/result surface replacement must target a current tool/result');
      if (!same(masked(original.data), masked(e.data))) throw new Error('tool/result surface replacement may change only content');
    }
    this.nodes.splice(s, t - s + 1, e.seq);
  }

  private provenance(e: any, shadowed: number[]): void {
    const src = e.sourceEventSeqs;
    if (src !== undefined) {
      if (!Array.isArray(src)) throw new Error(`sourceEventSeqs on event at seq ${e.seq} must be an array when present`);
      if (src.length === 0 && e.type !== 'assistant/message') {
        throw new Error('sourceEventSeqs must not be empty except on assistant/message');
      }
      for (const x of src) {
        if (!isSeq(x)) throw new Error(`session event "${e.type}" sourceEventSeqs must densely contain non-negative safe integers`);
      }
      if (new Set(src).size < src.length) throw new Error('sourceEventSeqs must not contain duplicates');
      const late = src.find((x: number) => x >= e.seq);
      if (late !== undefined) throw new Error(`sourceEventSeqs must reference earlier events: ${late} >= current seq ${e.seq}`);
    }
    const missing = shadowed.filter((n) => !(src ?? []).includes(n));
    if (missing.length > 0) {
      throw new Error(`surface replace: sourceEventSeqs must include every shadowed surface node; missing ${missing.join(', ')}`);
    }
  }

  /** Model-view message ids of the current nodes (surface.md §7). */
  messageIds(): unknown[] {
    const ids: unknown[] = [];
    for (const seq of this.nodes) {
      const e = this.events[seq];
      if (e.type === 'user/message') ids.push(e.data.id);
      else if (e.type === 'tool/result') ids.push(e.data.message.id);
      else if (e.data.message.content.length > 0) ids.push(e.data.message.id);
    }
    return ids;
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */
