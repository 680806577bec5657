/**
 * The native Zstandard path (`DecompressionStream('zstd')` where a platform has one) against
 * fzstd alone. Neither Node 20 nor Chromium 156 has the format, so a stand-in class plays the
 * platform: a `TransformStream` over libzstd (@bokuweb/zstd-wasm), which, like a native decoder,
 * verifies checksums itself and refuses what it cannot decode. Seeded (the seed is in each test's
 * name): the same frames, plaintexts, damage and stops whichever decoder runs and however the
 * input is cut, including a native decoder that fails or lies.
 */
import { decompress as libzstdDecompress } from '@bokuweb/zstd-wasm';
import { beforeAll, describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { initZstd, walkZstdFrames, ZstdFrameStream } from '../../../src/core/decode/zstd';
import type { DecodedZstdFrame } from '../../../src/core/decode/zstd';
import { nativeZstd, streamDecoder, zstdDecoderOf } from '../../../src/core/decode/zstd-native';
import type { DecompressionStreamClass, NativeZstdDecoder } from '../../../src/core/decode/zstd-native';
import { generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import { MemoryBudget } from '../../../src/core/util/budget';
import { zstdFrames } from '../../support/zstd-frames';

let calls = 0;

/** A platform's `DecompressionStream` that knows `'zstd'`: libzstd over the whole input at its end. */
class LibzstdStream {
  readonly readable: ReadableStream<Uint8Array>;
  readonly writable: WritableStream<Uint8Array>;
  constructor(format: string) {
    if (format !== 'zstd') throw new TypeError(`unsupported format ${format}`);
    const parts: Uint8Array[] = [];
    const transform = new TransformStream<Uint8Array, Uint8Array>({
      transform: (chunk) => void parts.push(chunk),
      flush: (controller) => {
        calls++;
        const input = Buffer.concat(parts);
        controller.enqueue(libzstdDecompress(input, { defaultHeapSize: 64 << 20 }));
      },
    });
    this.readable = transform.readable;
    this.writable = transform.writable;
  }
}

/** A platform whose `DecompressionStream` knows only gzip and deflate (Node 20's). */
class GzipOnlyStream {
  constructor(format: string) {
    if (format === 'zstd') throw new TypeError('Unsupported compression format');
  }
}

const libzstd = (): NativeZstdDecoder => streamDecoder(LibzstdStream as unknown as DecompressionStreamClass);

beforeAll(async () => {
  await initZstd();
  // Builds a frame with libzstd, so its module (shared with the stand-in stream) is ready.
  await zstdFrames(['{}\n']);
});

/** A generated log in frames of a few lines each, as dsh writes them, with its header frame first. */
async function zstdLog(seed: number, events: number): Promise<{ bytes: Uint8Array; frames: number }> {
  const lines = generateText({ seed, events })
    .split('\n')
    .filter((l) => l.length > 0);
  const rng = new Rng(`zstd-native-log-${seed}`);
  const texts = [`${lines[0]!}\n`];
  for (let i = 1; i < lines.length;) {
    const n = rng.int(1, 40);
    texts.push(`${lines.slice(i, i + n).join('\n')}\n`);
    i += n;
  }
  return { bytes: await zstdFrames(texts), frames: texts.length };
}

/** Flip a bit of frame `index`'s stored checksum (its last byte). */
function badChecksum(bytes: Uint8Array, index: number): Uint8Array {
  const out = bytes.slice();
  const span = walkZstdFrames(bytes).frames[index]!;
  out[span.end - 1]! ^= 0x10;
  return out;
}

interface StreamResult {
  frames: { start: number; end: number; text: string }[];
  error: string | null;
  memory: string | null;
  committed: number;
}

const utf8 = new TextDecoder();

/** Push `bytes` in seeded pieces through one stream, natively or not; never throws for damage. */
async function run(bytes: Uint8Array, seed: number, native: NativeZstdDecoder | null, budget?: MemoryBudget): Promise<StreamResult> {
  const stream = new ZstdFrameStream(budget === undefined ? {} : { budget });
  const rng = new Rng(`zstd-native-pieces-${seed}`);
  const frames: StreamResult['frames'] = [];
  for (let at = 0; at < bytes.length && stream.error === null && stream.memoryError === null;) {
    const piece = bytes.subarray(at, at + rng.int(1, 20000));
    at += piece.length;
    const got: DecodedZstdFrame[] = native === null ? stream.pushFrames(piece) : await stream.pushFramesWith(piece, native);
    for (const f of got) {
      frames.push({ start: f.start, end: f.end, text: utf8.decode(f.plaintext) });
      budget?.release(f.plaintext.length);
    }
  }
  return { frames, error: stream.error?.message ?? null, memory: stream.memoryError?.message ?? null, committed: stream.committedBytes };
}

describe('native Zstandard detection', () => {
  it('takes a DecompressionStream only when it accepts zstd', () => {
    expect(zstdDecoderOf(undefined)).toBeNull();
    expect(zstdDecoderOf(GzipOnlyStream)).toBeNull();
    expect(zstdDecoderOf(LibzstdStream)).toBeTypeOf('function');
    // This platform's own answer agrees with constructing its stream directly.
    let accepts = true;
    try {
      new (DecompressionStream as unknown as DecompressionStreamClass)('zstd');
    } catch {
      accepts = false;
    }
    expect(nativeZstd() !== null).toBe(accepts);
  });
});

describe('pushFramesWith equals pushFrames', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: valid, a bad checksum, damage after it, a memory stop; in random pieces`, async () => {
      const { bytes, frames } = await zstdLog(seed, 1500);
      const k = 1 + (seed % (frames - 2));
      const bad = badChecksum(bytes, k);
      const cases: [string, Uint8Array][] = [
        ['valid', bytes],
        ['bad checksum', bad],
        // Invalid magic after the bad frame: the frame's failure comes first, as in order.
        ['bad checksum, then junk', Uint8Array.from([...bad, 1, 2, 3, 4, 5])],
        ['junk after valid frames', Uint8Array.from([...bytes, 9, 9, 9, 9])],
        ['torn', bytes.subarray(0, bytes.length - 7)],
      ];
      for (const [name, input] of cases) {
        calls = 0;
        const want = await run(input, seed, null);
        const got = await run(input, seed, libzstd());
        expect([name, got]).toEqual([name, want]);
        expect(calls).toBeGreaterThan(0);
      }
      // A limit some frames in: the stop comes before the junk at the end, as in order.
      const budget = (): MemoryBudget => new MemoryBudget(30_000);
      for (const input of [bytes, Uint8Array.from([...bytes, 9, 9, 9, 9])]) {
        const want = await run(input, seed, null, budget());
        expect(want.memory).not.toBeNull();
        expect(want.error).toBeNull();
        expect(await run(input, seed, libzstd(), budget())).toEqual(want);
      }
    });
  }

  it('seed 4: a native decoder that refuses every frame, or returns wrong bytes, changes nothing', async () => {
    const { bytes } = await zstdLog(4, 800);
    const bad = badChecksum(bytes, 2);
    const refusing: NativeZstdDecoder = () => Promise.reject(new Error('window too large'));
    const lying: NativeZstdDecoder = async (frame) => {
      const out = await libzstd()(frame);
      out[0] = 0x20;
      return out;
    };
    for (const input of [bytes, bad]) {
      const want = await run(input, 4, null);
      expect(await run(input, 4, refusing)).toEqual(want);
      expect(await run(input, 4, lying)).toEqual(want);
    }
  });
});

describe('openBytes with a native decoder', () => {
  it('seed 5: the same sessions as fzstd alone, each frame decoded natively', async () => {
    const { bytes, frames } = await zstdLog(5, 3000);
    const open = async (native: NativeZstdDecoder | null) => {
      const [s] = (await openBytes(bytes, { name: 'log.jsonl.zstd', nativeZstd: native, chunkBytes: 16384 })).sessions;
      return {
        events: s!.log.length,
        nodes: s!.fold.nodes,
        replacements: s!.fold.replacements,
        error: s!.fold.error,
        decodeError: s!.decodeError,
        diagnostics: s!.diagnostics.map((d) => [d.rule, d.seq, d.message]),
      };
    };
    const want = await open(null);
    calls = 0;
    expect(await open(libzstd())).toEqual(want);
    expect(calls).toBe(frames);
    expect(want.events).toBeGreaterThan(1000);
  });
});
