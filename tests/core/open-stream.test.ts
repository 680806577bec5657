/**
 * `openStream` gives what `openBytes` gives for the same bytes, however the input is cut into
 * pieces (and, without a memory limit, whether or not its size is known): raw JSONL scanned as it arrives, every other form once it is whole. It stops at a
 * memory limit like `openBytes`, and a cancel stops the reading.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { listFiles } from '../support/shared';
import { describe, expect, it } from 'vitest';
import { LoadCancelled, openBytes, openStream } from '../../src/core/analyze/open';
import type { LoadResult, OpenOptions } from '../../src/core/analyze/open';
import { Rng } from '../../src/core/gen/rng';
import { generateText } from '../../src/core/gen/generate';

/** The input in pieces of random sizes (seeded), as a stream delivers them. */
async function* pieces(bytes: Uint8Array, seed: string, max: number): AsyncGenerator<Uint8Array> {
  const rng = new Rng(seed);
  for (let at = 0; at < bytes.length;) {
    const size = rng.int(1, max);
    yield bytes.slice(at, at + size);
    at += size;
    if (rng.chance(0.3)) await Promise.resolve();
  }
}

/** What a result holds, as plain data. */
function plain(result: LoadResult): unknown {
  return {
    file: result.file,
    bytes: result.bytes,
    findings: result.findings,
    sessions: result.sessions.map((s) => ({
      path: s.path,
      format: s.format,
      length: s.log.length,
      events: Array.from({ length: Math.min(s.log.length, 50) }, (_, i) => s.log.event(i)),
      fold: s.fold,
      decodeError: s.decodeError,
      diagnostics: s.diagnostics,
      steps: s.index.steps,
      nodes: s.index.nodesAt(Math.floor(s.index.steps / 2)),
      types: Array.from(s.columns.typeId),
    })),
  };
}

async function expectSame(bytes: Uint8Array, name: string, seed: string, options: Partial<OpenOptions> = {}): Promise<LoadResult> {
  const whole = await openBytes(bytes, { name, ...options });
  for (const [i, max] of [1 << 16, 4096, 7].entries()) {
    if (max === 7 && bytes.length > 200_000) continue;
    const { result, input } = await openStream(
      { sizeHint: i === 1 ? null : bytes.length, chunks: pieces(bytes, `${seed}:${i}`, max) },
      { name, chunkBytes: 1 << 14, ...options },
    );
    expect(input).toEqual(bytes);
    expect(plain(result)).toEqual(plain(whole));
  }
  return whole;
}

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const FIXTURES = join(import.meta.dirname, '..', 'fixtures');

describe('openStream', () => {
  it('seed 71: a generated log streamed in pieces of any size is opened as the whole of it', async () => {
    const text = generateText({ seed: 71, events: 4000, compaction: { thresholdTokens: 3000 } });
    const result = await expectSame(enc(text), 'gen.jsonl', 'gen-71');
    expect(result.sessions[0]!.log.length).toBeGreaterThan(4000);
  });

  it('every project fixture (JSONL, Zstandard, torn Zstandard, export ZIP) streams to the same result', async () => {
    const names = listFiles(FIXTURES, () => true);
    expect(names).toEqual(expect.arrayContaining(['export.zip', 'small.jsonl.zstd', 'teaching.jsonl']));
    for (const name of names) await expectSame(new Uint8Array(readFileSync(join(FIXTURES, name))), name, name);
  });

  it('JSON arrays, header-less and stream-json text, damage, empty and blank inputs agree', async () => {
    const lines = generateText({ seed: 72, events: 300 }).split('\n');
    const inputs: [string, string][] = [
      ['array.json', `  [${lines.slice(1, 40).filter(Boolean).join(',')}]`],
      ['headerless.jsonl', lines.slice(1).join('\n')],
      [
        'stream.jsonl',
        lines
          .slice(1, 30)
          .map((l) => `{"type":"session_event","sessionId":"a","event":${l}}`)
          .join('\n'),
      ],
      ['broken.jsonl', [...lines.slice(0, 50), '{"type": broken', ...lines.slice(50)].join('\n')],
      ['torn.jsonl', lines.join('\n').slice(0, -7)],
      ['empty.jsonl', ''],
      ['blank.jsonl', '\n \n\t'],
      ['x', 'ab'],
    ];
    for (const [name, text] of inputs) await expectSame(enc(text), name, name);
  });

  it('stops at a memory limit with the same message as a whole input', async () => {
    const bytes = enc(generateText({ seed: 73, events: 100_000 }));
    const limit = bytes.length + 6 * 2 ** 20;
    const whole = await openBytes(bytes, { name: 'big.jsonl', memoryLimitBytes: limit });
    const stopped = whole.sessions[0]!.decodeError;
    expect(stopped?.rule).toBe('decode/memory-limit');
    expect(whole.sessions[0]!.log.length).toBeGreaterThan(0);
    const { result } = await openStream(
      { sizeHint: bytes.length, chunks: pieces(bytes, 'limit', 1 << 16) },
      { name: 'big.jsonl', memoryLimitBytes: limit },
    );
    const s = result.sessions[0]!;
    // The file's size, though reading stopped before its end.
    expect(result.bytes).toBe(bytes.length);
    expect(s.decodeError?.rule).toBe('decode/memory-limit');
    expect(s.decodeError?.message).toMatch(
      /^stopped reading big\.jsonl at byte \d+ \(line \d+\): reading on would need about .+, over the memory limit of .+$/,
    );
    expect(s.log.length).toBeGreaterThan(0);
    expect(s.log.length).toBeLessThan(100_000);
    expect(s.fold.error).toBeNull();
  });

  it('a size hint of 0, or smaller than the input, only makes the buffer grow', async () => {
    const bytes = enc(generateText({ seed: 78, events: 600 }));
    const whole = await openBytes(bytes, { name: 'h.jsonl' });
    for (const sizeHint of [0, 5, Math.floor(bytes.length / 3)]) {
      const { result, input } = await openStream({ sizeHint, chunks: pieces(bytes, `hint-${sizeHint}`, 4096) }, { name: 'h.jsonl' });
      expect(input).toEqual(bytes);
      expect(plain(result)).toEqual(plain(whole));
    }
  });

  it('reports the size of what it read when a memory limit stops it and no size was known', async () => {
    const bytes = enc(generateText({ seed: 79, events: 20_000 }));
    for (const sizeHint of [null, 5]) {
      const { result } = await openStream(
        { sizeHint, chunks: pieces(bytes, 'small-limit', 4096) },
        { name: 's.jsonl', memoryLimitBytes: 2 * 2 ** 20 },
      );
      expect(result.sessions[0]!.decodeError?.rule).toBe('decode/memory-limit');
      expect(result.bytes).toBeGreaterThan(5);
      expect(result.bytes).toBeLessThanOrEqual(bytes.length);
    }
  });

  it('a cancelled load stops reading the stream', async () => {
    const bytes = enc(generateText({ seed: 74, events: 5000 }));
    const signal = { aborted: false };
    let read = 0;
    let closed = false;
    async function* source(): AsyncGenerator<Uint8Array> {
      try {
        for (let at = 0; at < bytes.length; at += 1 << 14) {
          read += 1;
          if (read === 20) signal.aborted = true;
          yield bytes.slice(at, at + (1 << 14));
        }
      } finally {
        closed = true;
      }
    }
    await expect(
      openStream({ sizeHint: bytes.length, chunks: source() }, { name: 'c.jsonl', signal, chunkBytes: 1 << 14 }),
    ).rejects.toBeInstanceOf(LoadCancelled);
    expect(read).toBeLessThan(Math.ceil(bytes.length / (1 << 14)));
    expect(closed).toBe(true);
  });

  it('a raw JSONL load without a chunk size pauses after its first 128 KiB, then in chunks doubling up to 4 MiB', async () => {
    const bytes = enc(generateText({ seed: 75, events: 120_000 }));
    expect(bytes.length).toBeGreaterThan(8 << 20);
    const paused: number[] = [];
    let last = 0;
    const options: OpenOptions = {
      name: 'big.jsonl',
      onProgress: (p) => (last = p.bytes),
      pause: async () => {
        paused.push(last);
      },
    };
    const whole = await openBytes(bytes, options);
    const pausedWhole = [...paused];
    paused.length = 0;
    const { result } = await openStream({ sizeHint: bytes.length, chunks: pieces(bytes, 'ramp', 1 << 16) }, options);
    expect(plain(result)).toEqual(plain(whole));
    for (const at of [pausedWhole, paused]) {
      expect(at[0]).toBe(128 << 10);
      const steps = at.map((b, i) => b - (at[i - 1] ?? 0));
      expect(steps.slice(0, 6)).toEqual([128 << 10, 256 << 10, 512 << 10, 1 << 20, 2 << 20, 4 << 20]);
      expect(Math.max(...steps)).toBe(4 << 20);
    }
  });
});
