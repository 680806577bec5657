import { join } from 'node:path';
import { decompress as fzstdDecompress } from 'fzstd';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  decodeTornZstdFrame,
  decodeZstdFrame,
  initZstd,
  walkZstdFrames,
  zstdContentChecksum,
  zstdErrorInfo,
  ZstdFrameError,
  ZstdFrameStream,
} from '../../../src/core/decode/zstd';
import { checkZstdFrames, decodeZstdLog } from '../../support/zstd-log';
import type { ZstdLogResult } from '../../support/zstd-log';
import { concatBytes, zstdFrame, zstdFrames } from '../../support/zstd-frames';
import { NEEDS_SHARED, HAVE_SHARED, PACKAGED_DIR, UPSTREAM_DIR, VECTORS_DIR, readBytes, readText } from './shared-fixtures';

const utf8 = new TextDecoder();
const text = (parts: readonly Uint8Array[]): string => utf8.decode(concatBytes(parts));
/** Byte equality without vitest's element-by-element deep equal (slow on large arrays). */
const same = (actual: Uint8Array, expected: Uint8Array): boolean =>
  Buffer.from(actual.buffer, actual.byteOffset, actual.byteLength).equals(expected);

const HEADER = '{"type":"session","version":0,"id":"decode","createdAt":0,"delegationDepth":0}\n';
const BATCHES = [
  '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n',
  '{"type":"step/start","seq":1,"time":2,"data":{"turn":1,"step":1}}\n{"type":"step/end","seq":2,"time":3,"data":{"turn":1,"step":1}}\n',
  '{"type":"turn/end","seq":3,"time":4,"data":{"turn":1,"reason":{"kind":"completed"}}}\n',
];

beforeAll(async () => {
  await initZstd();
});

/** Flip one bit of the stored checksum of frame `index`. */
function corruptChecksum(bytes: Uint8Array, index: number): { bytes: Uint8Array; start: number } {
  const { frames } = walkZstdFrames(bytes);
  const span = frames[index]!;
  const bad = bytes.slice();
  bad[span.end - 2] = bad[span.end - 2]! ^ 0x40;
  return { bytes: bad, start: span.start };
}

describe('zstd frame decoding', () => {
  it('decodes every frame of a generated log, verifying checksums', async () => {
    for (const mode of ['raw', 'compressed'] as const) {
      const result = await decodeZstdLog(await zstdFrames([HEADER, ...BATCHES], { mode }));
      expect(result.error).toBeNull();
      expect(result.torn).toBeNull();
      expect(result.frames.map((frame) => utf8.decode(frame))).toEqual([HEADER, ...BATCHES]);
      expect(checkZstdFrames(result)).toEqual([]);
    }
  });

  it('fzstd itself does not verify checksums (why we do)', async () => {
    const { bytes, start } = corruptChecksum(await zstdFrames([HEADER, ...BATCHES]), 2);
    expect(utf8.decode(fzstdDecompress(bytes))).toBe(HEADER + BATCHES.join(''));
    const result = await decodeZstdLog(bytes);
    expect(result.error).toEqual({
      kind: 'frame',
      message: `corrupt Zstandard session log: frame at byte ${start} failed validation`,
      byte: start,
    });
  });

  it('a checksum mismatch in a middle frame fails validation with that frame start, keeping the frames before it', async () => {
    for (const mode of ['raw', 'compressed'] as const) {
      const { bytes, start } = corruptChecksum(await zstdFrames([HEADER, ...BATCHES], { mode }), 2);
      const result = await decodeZstdLog(bytes);
      expect(result.frames.map((frame) => utf8.decode(frame))).toEqual([HEADER, BATCHES[0]]);
      expect(result.torn).toBeNull();
      expect(result.error).toEqual({
        kind: 'frame',
        message: `corrupt Zstandard session log: frame at byte ${start} failed validation`,
        byte: start,
      });
      expect(checkZstdFrames(result)).toEqual([
        {
          severity: 'error',
          rule: 'zstd/frame-validation',
          message: `corrupt Zstandard session log: frame at byte ${start} failed validation`,
          byte: start,
        },
      ]);
    }
  });

  it('damaged compressed content fails validation', async () => {
    const frame = await zstdFrame('{"a":1}\n'.repeat(200));
    const bad = frame.slice();
    bad[Math.floor(bad.length / 2)] = bad[Math.floor(bad.length / 2)]! ^ 0xff;
    expect(() => decodeZstdFrame(bad, 7)).toThrow('corrupt Zstandard session log: frame at byte 7 failed validation');
  });

  it('accepts frames without a checksum (nothing to verify)', async () => {
    const result = await decodeZstdLog(await zstdFrames([HEADER, BATCHES[0]!], { checksum: false }));
    expect(result.error).toBeNull();
    expect(text(result.frames)).toBe(HEADER + BATCHES[0]);
  });

  it('decodes empty, 255/256-byte and multi-block (>128 KiB) raw frames', async () => {
    for (const size of [0, 1, 255, 256, 65791, 65792, 128 * 1024, 300_000]) {
      const plaintext = new Uint8Array(size).map((_, i) => (i * 31 + 7) & 0xff);
      const frame = await zstdFrame(plaintext, { mode: 'raw' });
      expect(same(decodeZstdFrame(frame, 0), plaintext), `size ${size}`).toBe(true);
    }
  });

  it('decodes multi-segment frames without a content size (as the dsh writer emits them)', async () => {
    // Window descriptor 0x28: 2^(10+5) = 32 KiB; two raw blocks; checksum appended below.
    const a = new Uint8Array(3000).fill(0x61);
    const b = new Uint8Array(1000).fill(0x62);
    const ha = 3000 << 3;
    const hb = (1000 << 3) | 1;
    const body = Uint8Array.from([
      0x28,
      0xb5,
      0x2f,
      0xfd,
      0x04,
      0x28,
      ha & 0xff,
      (ha >> 8) & 0xff,
      ha >> 16,
      ...a,
      hb & 0xff,
      (hb >> 8) & 0xff,
      hb >> 16,
      ...b,
    ]);
    const sum = zstdContentChecksum(concatBytes([a, b]));
    const frame = concatBytes([body, Uint8Array.from([sum & 0xff, (sum >>> 8) & 0xff, (sum >>> 16) & 0xff, sum >>> 24])]);
    expect(decodeZstdFrame(frame, 0)).toEqual(concatBytes([a, b]));
    expect(frame[5]).toBe(0x28); // decoding works on a copy; the input is untouched
  });

  it('refuses a frame whose declared content size does not match', async () => {
    const frame = await zstdFrame('0123456789', { mode: 'raw' });
    const bad = frame.slice();
    bad[5] = 11; // 1-byte FCS: declare 11 bytes for 10
    expect(() => decodeZstdFrame(bad, 0)).toThrow(ZstdFrameError);
  });

  it('refuses impossible sizes before allocating anything', () => {
    // Single segment, 4-byte FCS of ~2 GiB, one empty raw last block, no checksum.
    const huge = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0xa0, 0x00, 0x00, 0x00, 0x7f, 0x01, 0x00, 0x00]);
    expect(() => decodeZstdFrame(huge, 3)).toThrow('frame at byte 3 failed validation');
    // Multi-segment with a 2^41-byte window (exponent 31), which a 32-bit shift would wrap.
    const wide = Uint8Array.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8, 0x01, 0x00, 0x00]);
    expect(() => decodeZstdFrame(wide, 0)).toThrow(ZstdFrameError);
    expect(decodeTornZstdFrame(wide.subarray(0, 7))).toEqual(new Uint8Array(0));
  });

  it('checksums are the low 32 bits of XXH64 with seed 0', () => {
    // XXH64("") = 0xEF46DB3751D8E999.
    expect(zstdContentChecksum(new Uint8Array(0))).toBe(0x51d8e999);
  });
});

describe('torn final frame', () => {
  it('recovers the complete blocks and a raw block prefix, like a flushing libzstd decode', async () => {
    const block = 128 * 1024;
    const plaintext = new Uint8Array(block + 1000).map((_, i) => 0x30 + (i % 10));
    const frame = await zstdFrame(plaintext, { mode: 'raw' });
    const headerBytes = 4 + 1 + 4; // magic, descriptor, 4-byte FCS
    const secondBlockData = headerBytes + 3 + block + 3;
    // Cut inside the first block: its available raw bytes.
    expect(decodeTornZstdFrame(frame.subarray(0, headerBytes + 3 + 10))).toEqual(plaintext.subarray(0, 10));
    // Cut inside the second block's header: exactly the first block.
    expect(same(decodeTornZstdFrame(frame.subarray(0, secondBlockData - 1)), plaintext.subarray(0, block))).toBe(true);
    // Cut inside the second block: the first block plus the available bytes.
    expect(same(decodeTornZstdFrame(frame.subarray(0, secondBlockData + 5)), plaintext.subarray(0, block + 5))).toBe(true);
    // Cut inside the checksum: everything.
    expect(same(decodeTornZstdFrame(frame.subarray(0, frame.length - 1)), plaintext)).toBe(true);
    // Cut inside the header: nothing.
    expect(decodeTornZstdFrame(frame.subarray(0, 6))).toEqual(new Uint8Array(0));
  });

  it('recovers nothing from a partial compressed block', async () => {
    const frame = await zstdFrame('{"type":"x","seq":1}\n'.repeat(300));
    expect(decodeTornZstdFrame(frame.subarray(0, frame.length - 10))).toEqual(new Uint8Array(0));
  });

  it('recovers nothing when the complete blocks are damaged (decoder errors are swallowed whole)', async () => {
    // Single segment, FCS 2000; a compressed block of garbage (complete), then a torn raw block.
    const garbage = (20 << 3) | (2 << 1);
    const raw = (1000 << 3) | 1;
    const torn = Uint8Array.from([
      0x28,
      0xb5,
      0x2f,
      0xfd,
      0xa0,
      0xd0,
      0x07,
      0x00,
      0x00,
      garbage & 0xff,
      (garbage >> 8) & 0xff,
      garbage >> 16,
      ...new Uint8Array(20).fill(0xff),
      raw & 0xff,
      (raw >> 8) & 0xff,
      raw >> 16,
      ...new Uint8Array(10).fill(0x78),
    ]);
    expect(walkZstdFrames(torn)).toEqual({ frames: [], tornStart: 0 });
    expect(decodeTornZstdFrame(torn)).toEqual(new Uint8Array(0));
  });

  it('decodeZstdLog returns the torn frame after the complete ones', async () => {
    const file = await zstdFrames([HEADER, BATCHES[0]!, BATCHES[1]!], { mode: 'raw' });
    const { frames } = walkZstdFrames(file);
    const cut = frames[2]!.start + 12;
    const result = await decodeZstdLog(file.subarray(0, cut));
    expect(result.error).toBeNull();
    expect(text(result.frames)).toBe(HEADER + BATCHES[0]);
    expect(result.torn?.start).toBe(frames[2]!.start);
    expect(BATCHES[1]!.startsWith(utf8.decode(result.torn!.plaintext))).toBe(true);
    expect(checkZstdFrames(result)).toEqual([
      expect.objectContaining({ severity: 'warning', rule: 'zstd/torn-frame', byte: frames[2]!.start }),
    ]);
  });
});

describe('checkZstdFrames (§7.2 frame rules)', () => {
  const decode = async (texts: string[]): Promise<ZstdLogResult> => decodeZstdLog(await zstdFrames(texts, { mode: 'raw' }));
  const empty = { severity: 'error', rule: 'zstd/empty', message: 'empty or header-less Zstandard session log', byte: null };
  const headerFrame = {
    severity: 'error',
    rule: 'zstd/header-frame',
    message: 'corrupt Zstandard session log: first frame is not exactly one header line',
    byte: 0,
  };

  it('an empty file has no complete frame', async () => {
    expect(checkZstdFrames(await decodeZstdLog(new Uint8Array(0)))).toEqual([empty]);
  });

  it('a torn first frame means no complete frame', async () => {
    const file = await zstdFrames([HEADER], { mode: 'raw' });
    const findings = checkZstdFrames(await decodeZstdLog(file.subarray(0, file.length - 1)));
    expect(findings[0]).toEqual(empty);
    expect(findings.map((finding) => finding.rule)).toEqual(['zstd/empty', 'zstd/torn-frame']);
  });

  it.each([
    ['two lines', HEADER + BATCHES[0]],
    ['no final LF', HEADER.trimEnd()],
    ['empty plaintext', ''],
    ['two empty lines', '\n\n'],
  ])('the first frame must be exactly one LF-terminated line: %s', async (_, first) => {
    expect(checkZstdFrames(await decode([first, BATCHES[0]!]))).toEqual([headerFrame]);
  });

  it('a header line alone is fine; a lone LF counts as one line (the header rules reject it later)', async () => {
    expect(checkZstdFrames(await decode([HEADER]))).toEqual([]);
    expect(checkZstdFrames(await decode(['\n']))).toEqual([]);
  });

  it('orders findings as upstream meets them: structure first, then the header frame, then validation', async () => {
    const file = await zstdFrames([HEADER + HEADER, BATCHES[0]!], { mode: 'raw' });
    const bad = concatBytes([file, Uint8Array.from([1, 2, 3, 4, 5])]);
    expect(checkZstdFrames(await decodeZstdLog(bad)).map((finding) => finding.rule)).toEqual(['zstd/structure', 'zstd/header-frame']);
    const { bytes } = corruptChecksum(file, 1);
    expect(checkZstdFrames(await decodeZstdLog(bytes)).map((finding) => finding.rule)).toEqual([
      'zstd/header-frame',
      'zstd/frame-validation',
    ]);
    const first = corruptChecksum(file, 0);
    expect(checkZstdFrames(await decodeZstdLog(first.bytes)).map((finding) => finding.rule)).toEqual(['zstd/frame-validation']);
  });
});

describe('ZstdFrameStream', () => {
  it('gives the same frames whatever the chunking', async () => {
    const file = await zstdFrames([HEADER, ...BATCHES, 'x'.repeat(5000) + '\n']);
    const whole = (await decodeZstdLog(file)).frames;
    for (const size of [1, 2, 5, 64, 1000, file.length]) {
      const stream = new ZstdFrameStream();
      const frames: Uint8Array[] = [];
      for (let at = 0; at < file.length; at += size) frames.push(...stream.push(file.subarray(at, at + size)));
      expect(stream.end()).toEqual({ torn: null });
      expect(frames, `chunks of ${size}`).toEqual(whole);
    }
  });

  it('does not keep a reference to the caller’s chunk', async () => {
    const file = await zstdFrames([HEADER, BATCHES[0]!], { mode: 'raw' });
    const stream = new ZstdFrameStream();
    const chunk = file.slice(0, file.length - 3);
    expect(stream.push(chunk)).toHaveLength(1);
    chunk.fill(0); // the caller reuses its buffer
    expect(stream.push(file.subarray(file.length - 3)).map((frame) => utf8.decode(frame))).toEqual([BATCHES[0]]);
  });

  it('stays linear when a large frame arrives one byte at a time', async () => {
    const frame = await zstdFrame(new Uint8Array(1 << 20).fill(0x61), { mode: 'raw' });
    const stream = new ZstdFrameStream();
    const started = performance.now();
    let frames = 0;
    for (let at = 0; at < frame.length; at++) frames += stream.push(frame.subarray(at, at + 1)).length;
    expect(frames).toBe(1);
    // A rescan per push would be ~10^12 byte visits; linear work takes well under a second.
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('reports validation damage through `error` after returning the good frames', async () => {
    const { bytes, start } = corruptChecksum(await zstdFrames([HEADER, ...BATCHES]), 1);
    const stream = new ZstdFrameStream();
    expect(stream.push(bytes).map((frame) => utf8.decode(frame))).toEqual([HEADER]);
    expect(stream.error).toBeInstanceOf(ZstdFrameError);
    expect(stream.error?.byte).toBe(start);
    expect(() => stream.end()).toThrow(`frame at byte ${start} failed validation`);
    expect(zstdErrorInfo(stream.error!)).toEqual({
      kind: 'frame',
      message: `corrupt Zstandard session log: frame at byte ${start} failed validation`,
      byte: start,
    });
  });
});

describe.skipIf(!HAVE_SHARED)(`spec vector multi-frame.jsonl.zstd${NEEDS_SHARED}`, () => {
  it('decodes to compaction-turn.jsonl’s text (only the header id differs)', async () => {
    const result = await decodeZstdLog(readBytes(join(VECTORS_DIR, 'multi-frame.jsonl.zstd')));
    expect(result.error).toBeNull();
    expect(result.torn).toBeNull();
    expect(result.frames).toHaveLength(3);
    expect(checkZstdFrames(result)).toEqual([]);
    const decoded = text(result.frames);
    const reference = readText(join(VECTORS_DIR, 'compaction-turn.jsonl'));
    // The claim "same content" holds for every event line; the header names its own vector.
    expect(decoded).not.toBe(reference);
    expect(decoded).toBe(reference.replace('"id":"vector-compaction-turn"', '"id":"vector-multi-frame"'));
    expect(utf8.decode(result.frames[0])).toBe(
      '{"type":"session","version":0,"id":"vector-multi-frame","createdAt":0,"delegationDepth":0}\n',
    );
  });
});

describe.skipIf(!HAVE_SHARED)(`packaged .zstd fixtures${NEEDS_SHARED}`, () => {
  const upstreamOf = {
    'compaction-recovery.session.jsonl.zstd': 'examples__headless-agent__tests__snapshots__compaction-recovery__session.jsonl',
    'goal-multi-turn-actions.session.jsonl.zstd': 'apps__web__tests__snapshots__goal-multi-turn-actions__session.jsonl',
  } as const;

  it.each(Object.entries(upstreamOf))('%s decodes to the upstream log byte for byte', async (name, upstream) => {
    const result = await decodeZstdLog(readBytes(join(PACKAGED_DIR, name)));
    expect(result.error).toBeNull();
    expect(result.torn).toBeNull();
    expect(checkZstdFrames(result)).toEqual([]);
    expect(same(concatBytes(result.frames), readBytes(join(UPSTREAM_DIR, upstream)))).toBe(true);
    // Frame 1 holds exactly the header line; every later frame ends on a line boundary.
    for (const frame of result.frames) expect(frame.at(-1)).toBe(0x0a);
  });

  it('the torn-tail fixture yields a torn final frame after a prefix of the untorn log', async () => {
    const full = await decodeZstdLog(readBytes(join(PACKAGED_DIR, 'compaction-recovery.session.jsonl.zstd')));
    const tornBytes = readBytes(join(PACKAGED_DIR, 'compaction-recovery.torn-tail.session.jsonl.zstd'));
    const torn = await decodeZstdLog(tornBytes);
    expect(torn.error).toBeNull();
    expect(torn.torn).not.toBeNull();
    expect(torn.torn!.start).toBe(torn.spans.at(-1)!.end);
    expect(torn.torn!.start).toBeLessThan(tornBytes.length);
    expect(torn.frames.length).toBe(full.frames.length - 1);
    const fullText = text(full.frames);
    const committed = text(torn.frames);
    expect(committed.length).toBeLessThan(fullText.length);
    expect(fullText.startsWith(committed)).toBe(true);
    // Whatever the torn frame yields continues the same text (here: nothing, its only block is compressed and cut).
    expect(fullText.startsWith(committed + utf8.decode(torn.torn!.plaintext))).toBe(true);
    expect(checkZstdFrames(torn).map((finding) => finding.rule)).toEqual(['zstd/torn-frame']);
  });

  it('a flipped checksum byte in a middle frame of a real log fails validation at that frame', async () => {
    const file = readBytes(join(PACKAGED_DIR, 'goal-multi-turn-actions.session.jsonl.zstd'));
    const { bytes, start } = corruptChecksum(file, 5);
    const result = await decodeZstdLog(bytes);
    expect(result.frames).toHaveLength(5);
    expect(result.error).toEqual({
      kind: 'frame',
      message: `corrupt Zstandard session log: frame at byte ${start} failed validation`,
      byte: start,
    });
  });
});
