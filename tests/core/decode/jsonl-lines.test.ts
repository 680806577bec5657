/**
 * Seeded property test (the seed is in each test's name): the line scanner decodes each line on
 * its own, and that must read exactly as decoding the whole text once and splitting it at LF —
 * multi-byte characters, invalid UTF-8 (each bad sequence one U+FFFD), byte-order marks, CRs,
 * blank and unparsable lines, lines longer than a decoding region, fed in random pieces. Each
 * event's text and value, its line and byte offset, and the first decode error's line and byte
 * are compared.
 */
import { describe, expect, it } from 'vitest';
import { JsonlScanner } from '../../../src/core/decode/jsonl';
import type { TextEventSink } from '../../../src/core/decode/jsonl';
import { Rng } from '../../../src/core/gen/rng';
import { ByteBuffer } from '../../../src/core/util/grow';

const encoder = new TextEncoder();

/** Raw bytes that may appear inside a JSON string: text, multi-byte characters, or invalid UTF-8. */
const PIECES: readonly (readonly number[])[] = [
  [...encoder.encode('plain ascii ')],
  [...encoder.encode('日志 ')],
  [...encoder.encode('😀')],
  [...encoder.encode('é')],
  [0xff],
  [0xc3], // a lead byte with no continuation
  [0xe2, 0x82], // a truncated three-byte sequence
  [0x80], // a lone continuation byte
  [0xed, 0xa0, 0x80], // an encoded surrogate (invalid in UTF-8)
  [0xef, 0xbb, 0xbf], // a byte-order mark inside the text
];

/** What a line that is not JSON is: a cut-off object, or an object after a byte-order mark. */
type Bad = 'cut' | 'bom' | null;

/** One line's bytes; `badRate`: the chance of a line that is not JSON (the first ends the events). */
function line(rng: Rng, seq: number, bad: Bad, badRate: number): number[] {
  const roll = rng.next();
  if (roll < 0.05) return [];
  if (bad !== null && roll < 0.05 + badRate) {
    return bad === 'bom' ? [0xef, 0xbb, 0xbf, ...encoder.encode('{}')] : [...encoder.encode('{"type": not json'), ...rng.pick(PIECES)];
  }
  const text: number[] = [];
  // Some lines longer than a decoding region (64 KiB).
  const pieces = rng.int(0, rng.chance(0.03) ? 30_000 : 12);
  for (let i = 0; i < pieces; i++) text.push(...rng.pick(PIECES));
  const head = encoder.encode(`{"type":"user/message","seq":${seq},"data":{"content":[{"type":"text","text":"`);
  const tail = encoder.encode('"}]},"surfaceOp":"append"}');
  return [...head, ...text, ...tail, ...(rng.chance(0.1) ? [0x0d] : [])];
}

interface Seen {
  text: string | undefined;
  value: unknown;
  line: number;
  byte: number;
}

function scan(bytes: Uint8Array, rng: Rng): { seen: Seen[]; error: { line: number; byte: number } | null } {
  const buffer = new ByteBuffer(16);
  const seen: Seen[] = [];
  const sink: TextEventSink = {
    event: (value, _index, origin, text) => seen.push({ text, value, line: origin.line, byte: origin.byte }),
  };
  const scanner = new JsonlScanner(buffer, () => sink);
  for (let at = 0; at < bytes.length;) {
    const next = Math.min(bytes.length, at + rng.int(1, 200_000));
    buffer.append(bytes.subarray(at, next));
    scanner.advance();
    at = next;
  }
  scanner.end();
  const e = scanner.decodeError;
  return { seen, error: e && { line: e.line as number, byte: e.byte as number } };
}

/** The reference: the whole text decoded once, split at LF; byte offsets from the LFs in the bytes. */
function expected(bytes: Uint8Array): { seen: Seen[]; error: { line: number; byte: number } | null } {
  const lines = new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).split('\n');
  lines.pop(); // after the last LF: nothing (the text ends with one)
  const seen: Seen[] = [];
  let byte = 0;
  for (const [i, whole] of lines.entries()) {
    let start = byte;
    byte = bytes.indexOf(0x0a, byte) + 1;
    // A byte-order mark before the first line is not part of it (log-format.md §1.1).
    const bom = i === 0 && whole.charCodeAt(0) === 0xfeff;
    const text = bom ? whole.slice(1) : whole;
    if (bom) start += 3;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      return { seen, error: { line: i + 1, byte: start } };
    }
    seen.push({ text, value, line: i + 1, byte: start });
  }
  return { seen, error: null };
}

describe('JsonlScanner decodes line by line as the whole text would', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: texts, values, lines, bytes and the first decode error`, () => {
      const rng = new Rng(`jsonl-lines-${seed}`);
      const out: number[] = [];
      // Seed 3 starts with a byte-order mark before its first event; seeds 5 and 6 have lines
      // that are not JSON (a byte-order mark starts a line only there and in seed 3).
      if (seed === 3) out.push(0xef, 0xbb, 0xbf, ...encoder.encode('{"type":"user/message","seq":0}\n'));
      const bad: Bad = seed === 5 ? 'cut' : seed === 6 ? 'bom' : null;
      const lines = rng.int(100, 400);
      for (let i = 1; i <= lines; i++) out.push(...line(rng, i, bad, 0.01), 0x0a);
      const bytes = Uint8Array.from(out);
      const want = expected(bytes);
      const got = scan(bytes, rng);
      expect(got.seen).toEqual(want.seen);
      expect(got.error).toEqual(want.error);
      expect(want.seen.length).toBeGreaterThan(20);
      if (seed >= 5) expect(want.error).not.toBeNull();
    });
  }
});
