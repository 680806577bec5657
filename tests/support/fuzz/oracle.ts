/**
 * The fuzzer's oracle: what a conforming decoder makes of a logical text, computed with the
 * plain test decoders (naive-decode, reference-fold), never with the code under test.
 */
import { naiveDecode } from '../naive-decode';
import type { NaiveDecoded } from '../naive-decode';

/** The plain decoding the fuzzer compares against (malformed packed rows end the input). */
export const naiveDecodeTolerant: (text: string) => NaiveDecoded = naiveDecode;

/** The text form by log-format.md §1.1 rows 4–8: a JSON array, or (anything else) JSONL. */
export function textForm(text: string): 'json-array' | 'jsonl' {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) continue;
    return c === 0x5b ? 'json-array' : 'jsonl';
  }
  return 'jsonl';
}

/** The JSON-array form (§1.2 step 3): the array's elements, or no events when it is not one. */
export function decodeJsonArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}

/** True when the first non-blank line of a JSONL text is a stream-json envelope (§1.1 row 6). */
export function isStreamJson(text: string): boolean {
  // Only complete lines count: the fragment after the last LF is never a line.
  for (let from = 0, to = text.indexOf('\n'); to >= 0; from = to + 1, to = text.indexOf('\n', from)) {
    const line = text.slice(from, to);
    if (!/^[ \t\r]*$/.test(line)) {
      try {
        const v: unknown = JSON.parse(line);
        return v !== null && typeof v === 'object' && (v as { type?: unknown }).type === 'session_event';
      } catch {
        return false;
      }
    }
  }
  return false;
}
