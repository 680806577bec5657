import { beforeAll, describe, expect, it } from 'vitest';
import { initZstd, walkZstdFrames, ZstdFrameStream, ZstdStructureError } from '../../../src/core/decode/zstd';
import type { ZstdFrameSpan } from '../../../src/core/decode/zstd';
import { concatBytes, zstdFrame } from '../../support/zstd-frames';

const HEADER = '{"type":"session","version":0,"id":"walk","createdAt":0,"delegationDepth":0}\n';
const BATCH = '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n';

/** Expected walk of `bytes.subarray(0, cut)` given the complete file's frame spans. */
function expectedWalk(spans: readonly ZstdFrameSpan[], cut: number): { frames: ZstdFrameSpan[]; tornStart: number | null } {
  const frames = spans.filter((span) => span.end <= cut);
  const last = frames.at(-1)?.end ?? 0;
  return { frames, tornStart: cut > last ? last : null };
}

function structureError(run: () => unknown): ZstdStructureError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ZstdStructureError);
    return error as ZstdStructureError;
  }
  throw new Error('expected a ZstdStructureError');
}

describe.each(['raw', 'compressed'] as const)('zstd structural walk on %s frames', (mode) => {
  let file: Uint8Array;
  let spans: ZstdFrameSpan[];

  beforeAll(async () => {
    await initZstd();
    const first = await zstdFrame(HEADER, { mode });
    const second = await zstdFrame(BATCH, { mode });
    file = concatBytes([first, second]);
    spans = [
      { start: 0, end: first.length },
      { start: first.length, end: file.length },
    ];
  });

  it('finds both frames of the complete file', () => {
    expect(walkZstdFrames(file)).toEqual({ frames: spans, tornStart: null });
  });

  it('reports a torn final frame at every cut, never throwing', () => {
    for (let cut = 0; cut <= file.length; cut++) {
      expect(walkZstdFrames(file.subarray(0, cut)), `cut at ${cut}`).toEqual(expectedWalk(spans, cut));
    }
  });

  it('the stream agrees with the walk at every cut, however the input is chunked', () => {
    for (let cut = 0; cut <= file.length; cut++) {
      const expected = expectedWalk(spans, cut);
      for (const chunkSize of [1, 3, 17, cut || 1]) {
        const stream = new ZstdFrameStream();
        const starts: number[] = [];
        for (let at = 0; at < cut; at += chunkSize) {
          for (const frame of stream.pushFrames(file.subarray(at, Math.min(cut, at + chunkSize)))) starts.push(frame.start);
        }
        expect(starts, `cut ${cut}, chunks of ${chunkSize}`).toEqual(expected.frames.map((span) => span.start));
        expect(stream.end().torn?.start ?? null, `cut ${cut}, chunks of ${chunkSize}`).toBe(expected.tornStart);
      }
    }
  });

  it('refuses a wrong magic with the exact message and byte', () => {
    const bad = file.slice();
    bad[spans[1]!.start] = 0x29;
    const error = structureError(() => walkZstdFrames(bad));
    expect(error.message).toBe(`corrupt Zstandard session log: invalid frame magic at byte ${spans[1]!.start}`);
    expect(error.byte).toBe(spans[1]!.start);
    expect(structureError(() => walkZstdFrames(Uint8Array.from([0x7b, 0x22, 0x74, 0x79, 0x70]))).message).toBe(
      'corrupt Zstandard session log: invalid frame magic at byte 0',
    );
  });

  it('treats fewer than 4 trailing bytes as a torn frame, not a bad magic (as §7.1 orders the checks)', () => {
    const tail = concatBytes([file, Uint8Array.from([0x00, 0x01, 0x02])]);
    expect(walkZstdFrames(tail)).toEqual({ frames: spans, tornStart: file.length });
  });

  it.each([0x08, 0x10])('refuses reserved frame-header bit %i', (bit) => {
    const bad = file.slice();
    const at = spans[1]!.start + 4;
    bad[at] = bad[at]! | bit;
    const error = structureError(() => walkZstdFrames(bad));
    expect(error.message).toBe(`corrupt Zstandard session log: reserved frame-header bit at byte ${at}`);
    expect(error.byte).toBe(at);
  });

  it('refuses a reserved block type with the block header offset', () => {
    const bad = file.slice();
    // Every frame built here has one block, right after the header.
    const descriptor = bad[spans[1]!.start + 4]!;
    const single = (descriptor & 0x20) !== 0;
    const fcsBytes = descriptor >> 6 === 0 ? (single ? 1 : 0) : 1 << (descriptor >> 6);
    const blockAt = spans[1]!.start + 5 + (single ? 0 : 1) + fcsBytes;
    bad[blockAt] = bad[blockAt]! | 0x06;
    const error = structureError(() => walkZstdFrames(bad));
    expect(error.message).toBe(`corrupt Zstandard session log: reserved block type at byte ${blockAt}`);
    expect(error.byte).toBe(blockAt);
  });

  it('the stream keeps the frames before structural damage and then reports it', () => {
    const bad = file.slice();
    bad[spans[1]!.start + 1] = 0;
    const stream = new ZstdFrameStream();
    const frames = stream.pushFrames(bad);
    expect(frames.map((frame) => frame.start)).toEqual([0]);
    expect(stream.error?.message).toBe(`corrupt Zstandard session log: invalid frame magic at byte ${spans[1]!.start}`);
    expect(stream.committedBytes).toBe(spans[1]!.start);
    expect(() => stream.push(new Uint8Array(1))).toThrow(stream.error!.message);
    expect(() => stream.end()).toThrow(stream.error!.message);
  });
});

describe('zstd structural walk edge cases', () => {
  it('an empty input has no frames and nothing torn', () => {
    expect(walkZstdFrames(new Uint8Array(0))).toEqual({ frames: [], tornStart: null });
  });

  it('follows RLE blocks (one stored byte) and multi-block frames', () => {
    // Frame: magic, descriptor 0x20 (single segment, 1-byte FCS = 200), RLE block of 100 'a'
    // (not last), raw last block of 100 'b'; no checksum.
    const rle = (100 << 3) | (1 << 1);
    const raw = (100 << 3) | 1;
    const frame = Uint8Array.from([
      0x28,
      0xb5,
      0x2f,
      0xfd,
      0x20,
      200,
      rle & 0xff,
      (rle >> 8) & 0xff,
      rle >> 16,
      0x61,
      raw & 0xff,
      (raw >> 8) & 0xff,
      raw >> 16,
      ...new Uint8Array(100).fill(0x62),
    ]);
    expect(walkZstdFrames(frame)).toEqual({ frames: [{ start: 0, end: frame.length }], tornStart: null });
    expect(walkZstdFrames(frame.subarray(0, 9))).toEqual({ frames: [], tornStart: 0 });
  });
});
