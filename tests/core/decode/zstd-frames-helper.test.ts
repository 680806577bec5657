// Guards tests/support/zstd-frames.ts, which other suites use to generate .zstd logs.
import { decompress } from 'fzstd';
import { describe, expect, it } from 'vitest';
import { walkZstdFrames } from '../../../src/core/decode/zstd';
import { decodeZstdLog } from '../../support/zstd-log';
import { zstdFrame, zstdFrames } from '../../support/zstd-frames';

const texts = [
  '{"type":"session","version":0,"id":"h","createdAt":0,"delegationDepth":0}\n',
  '',
  'ünïcødé ✓\n',
  'x'.repeat(200_000) + '\n',
];

describe.each(['compressed', 'raw'] as const)('zstdFrames helper (%s)', (mode) => {
  it('writes one independent, checksummed frame per text', async () => {
    const file = await zstdFrames(texts, { mode });
    const { frames, tornStart } = walkZstdFrames(file);
    expect(tornStart).toBeNull();
    expect(frames).toHaveLength(texts.length);
    for (const [i, span] of frames.entries()) {
      const frame = file.subarray(span.start, span.end);
      expect(frame[4]! & 0x04, `frame ${i} checksum flag`).toBe(0x04);
      expect(new TextDecoder().decode(decompress(frame)), `frame ${i} alone`).toBe(texts[i]);
    }
    const result = await decodeZstdLog(file);
    expect(result.error).toBeNull();
    expect(result.frames.map((frame) => new TextDecoder().decode(frame))).toEqual(texts);
  });

  it('can leave the checksum out', async () => {
    const frame = await zstdFrame('abc\n', { mode, checksum: false });
    expect(frame[4]! & 0x04).toBe(0);
    expect(new TextDecoder().decode(decompress(frame))).toBe('abc\n');
  });

  it('accepts bytes as well as strings', async () => {
    const bytes = Uint8Array.from([0, 1, 2, 255]);
    expect(decompress(await zstdFrame(bytes, { mode }))).toEqual(bytes);
  });
});
