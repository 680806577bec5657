import { join } from 'node:path';
import { gzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { detectContainer } from '../../../src/core/decode/detect';
import { zstdFrames } from '../../support/zstd-frames';
import { HAVE_SHARED, NEEDS_SHARED, PACKAGED_DIR, VECTORS_DIR, readBytes } from './shared-fixtures';

const bytes = (...values: number[]): Uint8Array => Uint8Array.from(values);
const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('detectContainer (§1.1 rows 1–3)', () => {
  it.each([
    ['zip', bytes(0x50, 0x4b, 0x03, 0x04, 0x14)],
    ['zip', bytes(0x50, 0x4b, 0x05, 0x06)],
    ['zstd', bytes(0x28, 0xb5, 0x2f, 0xfd, 0x04)],
    ['gzip', bytes(0x1f, 0x8b)],
    ['gzip', bytes(0x1f, 0x8b, 0x08, 0x00)],
  ] as const)('%s magic', (kind, first) => {
    expect(detectContainer(first)).toBe(kind);
  });

  it.each([
    ['empty input', new Uint8Array(0)],
    ['JSONL', utf8('{"type":"session","version":0}\n')],
    ['JSON array', utf8('  [ {"type":"x"} ]')],
    ['UTF-8 BOM before JSON', bytes(0xef, 0xbb, 0xbf, 0x7b)],
    ['other PK record (central directory)', bytes(0x50, 0x4b, 0x01, 0x02)],
    ['truncated ZIP magic', bytes(0x50, 0x4b, 0x03)],
    ['truncated zstd magic', bytes(0x28, 0xb5, 0x2f)],
    ['lone 1F', bytes(0x1f)],
    ['skippable zstd frame (not a session log)', bytes(0x50, 0x2a, 0x4d, 0x18)],
  ])('%s is text', (_, first) => {
    expect(detectContainer(first)).toBe('text');
  });

  it('recognises what the libraries write', async () => {
    expect(detectContainer(zipSync({ 'session.jsonl': utf8('{}\n') }))).toBe('zip');
    expect(detectContainer(zipSync({}))).toBe('zip');
    expect(detectContainer(gzipSync(utf8('{}\n')))).toBe('gzip');
    expect(detectContainer(await zstdFrames(['{}\n']))).toBe('zstd');
  });
});

describe.skipIf(!HAVE_SHARED)(`detectContainer on the shared fixtures${NEEDS_SHARED}`, () => {
  it.each([
    ['advanced-toolchain.export.zip', 'zip'],
    ['compaction-recovery.session.jsonl.zstd', 'zstd'],
    ['compaction-recovery.torn-tail.session.jsonl.zstd', 'zstd'],
    ['goal-multi-turn-actions.session.jsonl.zstd', 'zstd'],
  ])('%s → %s', (name, kind) => {
    expect(detectContainer(readBytes(join(PACKAGED_DIR, name)).subarray(0, 4))).toBe(kind);
  });

  it('plain vectors are text', () => {
    expect(detectContainer(readBytes(join(VECTORS_DIR, 'compaction-turn.jsonl')))).toBe('text');
    expect(detectContainer(readBytes(join(VECTORS_DIR, 'multi-frame.jsonl.zstd')))).toBe('zstd');
  });
});
