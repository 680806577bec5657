// Its own file so the module's lazily initialised hasher starts out uninitialised.
import { describe, expect, it } from 'vitest';
import { decodeZstdFrame, initZstd, ZstdFrameStream } from '../../../src/core/decode/zstd';
import { zstdFrame } from '../../support/zstd-frames';

describe('zstd hasher initialisation', () => {
  it('the synchronous API refuses to run before initZstd() resolved, then works', async () => {
    const frame = await zstdFrame('{"type":"session"}\n', { mode: 'raw' });
    expect(() => new ZstdFrameStream()).toThrow('await initZstd() first');
    expect(() => decodeZstdFrame(frame, 0)).toThrow('await initZstd() first');
    await Promise.all([initZstd(), initZstd()]);
    expect(new TextDecoder().decode(decodeZstdFrame(frame, 0))).toBe('{"type":"session"}\n');
    const stream = await ZstdFrameStream.create();
    expect(stream.push(frame)).toHaveLength(1);
  });
});
