/** The generator's internal records and small text helpers, shared by its layers. */

import type { ToolName } from './vocabulary';

export type Obj = Record<string, unknown>;

/** One node of the surface as the generator tracks it. */
export interface SurfaceNode {
  seq: number;
  /** Estimated tokens of its text (characters / 4). */
  tokens: number;
  /** +k for an assistant message with k tool calls, −1 for a tool result, 0 otherwise (§6.4). */
  balance: number;
  checkpoint: boolean;
  /** Original `data` of a tool result still long enough to prune; dropped once pruned/shadowed. */
  prunable: Obj | null;
}

export type DeltaKind = 'text' | 'reasoning' | 'tool';

/** A delta whose seq is assigned but whose line is not written yet (packing needs the run). */
export interface PendingDelta {
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
export type PlannedBlock =
  | { type: 'reasoning' | 'text'; pieces: string[] }
  | { type: 'tool-call'; id: string; name: ToolName; pieces: string[]; args: string; nameOnAll: boolean };

export type ToolCallBlock = Extract<PlannedBlock, { type: 'tool-call' }>;

export type StepVariant = 'normal' | 'max-tokens-empty' | 'max-tokens-partial' | 'cancel';

/** Thrown to unwind generation when an open tail or torn tail has been reached. */
export const STOP = Symbol('stop');

/** Number of code points in `s` (surrogate pairs count once), as upstream's prune threshold does. */
export function codePointLength(s: string): number {
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
export function headCodePoints(s: string, n: number): string {
  let i = 0;
  for (let k = 0; k < n && i < s.length; k++) {
    const c = s.charCodeAt(i);
    i += c >= 0xd800 && c <= 0xdbff && i + 1 < s.length ? 2 : 1;
  }
  return s.slice(0, i);
}

/** Last `n` code points of `s`. */
export function tailCodePoints(s: string, n: number): string {
  let i = s.length;
  for (let k = 0; k < n && i > 0; k++) {
    const c = s.charCodeAt(i - 1);
    i -= c >= 0xdc00 && c <= 0xdfff && i - 2 >= 0 ? 2 : 1;
  }
  return s.slice(i);
}

/** Estimated tokens of a text length, the generator's context measure. */
export const tokensOf = (chars: number): number => Math.ceil(chars / 4);

/** The chunk object of one delta, in upstream key order. */
export function deltaChunk(kind: DeltaKind, index: number, text: string, id: string, name: string | undefined): Obj {
  if (kind === 'tool') {
    return name === undefined
      ? { type: 'tool-call-delta', index, id, argumentsDelta: text }
      : { type: 'tool-call-delta', index, id, name, argumentsDelta: text };
  }
  return { type: kind === 'text' ? 'text-delta' : 'reasoning-delta', index, text };
}
