/**
 * Test helper: build `.jsonl.zstd` bytes the way dsh stores session logs (log-format.md §7):
 * independent Zstandard frames, one per given text, each with a content checksum.
 *
 * Two encodings:
 * - `compressed` (default): real libzstd frames from @bokuweb/zstd-wasm. Its simple API never
 *   writes the checksum, so we set the descriptor's checksum flag and append the checksum
 *   ourselves; the flag does not change the header layout, so the frame stays valid.
 * - `raw`: hand-built frames of raw blocks (≤ 128 KiB each) with a single-segment header and a
 *   content size. No compressor wasm is involved, which also makes it usable where loading
 *   @bokuweb/zstd-wasm is awkward (browser tests).
 *
 * Checksums are computed with xxhash-wasm directly, not with the code under test.
 * Browser-safe: no Node APIs.
 */
import { init as initCompressor, compress } from '@bokuweb/zstd-wasm';
import xxhash from 'xxhash-wasm';

/** How to build each frame. */
export interface ZstdFramesOptions {
  /** `compressed` (default): libzstd frames; `raw`: hand-built raw-block frames. */
  mode?: 'compressed' | 'raw';
  /** libzstd compression level for `compressed` (default 3). */
  level?: number;
  /** Write the content checksum (default true); false builds checksum-less frames. */
  checksum?: boolean;
}

const MAGIC = [0x28, 0xb5, 0x2f, 0xfd];
const MAX_BLOCK = 128 * 1024;

type Hasher = Awaited<ReturnType<typeof xxhash>>;
let hasher: Promise<Hasher> | null = null;
let compressorReady: Promise<void> | null = null;

function bytesOf(content: string | Uint8Array): Uint8Array {
  return typeof content === 'string' ? new TextEncoder().encode(content) : content;
}

/** Low 32 bits of XXH64 (seed 0), as RFC 8878 stores the content checksum. */
async function checksum32(plaintext: Uint8Array): Promise<number> {
  hasher ??= xxhash();
  return Number((await hasher).h64Raw(plaintext, 0n) & 0xffffffffn);
}

function u32le(value: number): number[] {
  return [value & 0xff, (value >>> 8) & 0xff, (value >>> 16) & 0xff, (value >>> 24) & 0xff];
}

/** Concatenate byte arrays. */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

/** A hand-built single-segment frame of raw blocks. */
async function rawFrame(plaintext: Uint8Array, withChecksum: boolean): Promise<Uint8Array> {
  const n = plaintext.length;
  // Smallest Frame_Content_Size field that holds n (the 2-byte form is offset by 256).
  let fcsFlag: number;
  let fcs: number[];
  if (n < 256) {
    fcsFlag = 0;
    fcs = [n];
  } else if (n < 65536 + 256) {
    fcsFlag = 1;
    fcs = [(n - 256) & 0xff, (n - 256) >>> 8];
  } else if (n < 2 ** 32) {
    fcsFlag = 2;
    fcs = u32le(n);
  } else {
    throw new RangeError('raw zstd frame: content over 4 GiB is not supported by this helper');
  }
  const descriptor = (fcsFlag << 6) | 0x20 | (withChecksum ? 0x04 : 0);
  const parts: Uint8Array[] = [Uint8Array.from([...MAGIC, descriptor, ...fcs])];
  let at = 0;
  do {
    const size = Math.min(MAX_BLOCK, n - at);
    const last = at + size === n ? 1 : 0;
    const h = (size << 3) | last; // block type 0 = raw
    parts.push(Uint8Array.from([h & 0xff, (h >>> 8) & 0xff, (h >>> 16) & 0xff]), plaintext.subarray(at, at + size));
    at += size;
  } while (at < n);
  if (withChecksum) parts.push(Uint8Array.from(u32le(await checksum32(plaintext))));
  return concatBytes(parts);
}

/** A libzstd frame with the checksum flag set and the checksum appended. */
async function compressedFrame(plaintext: Uint8Array, level: number, withChecksum: boolean): Promise<Uint8Array> {
  compressorReady ??= initCompressor().catch((error: unknown) => {
    compressorReady = null;
    throw new Error(`@bokuweb/zstd-wasm failed to initialise (use { mode: 'raw' } here): ${String(error)}`);
  });
  await compressorReady;
  const frame = compress(plaintext, level);
  if (MAGIC.some((byte, i) => frame[i] !== byte) || frame.length < 6) {
    throw new Error('@bokuweb/zstd-wasm returned something that is not a Zstandard frame');
  }
  const descriptor = frame[4]!;
  if (descriptor & 0x04) {
    // Already checksummed (a future compressor version): keep or strip as asked.
    if (withChecksum) return frame;
    const stripped = frame.slice(0, -4);
    stripped[4] = descriptor & ~0x04;
    return stripped;
  }
  if (!withChecksum) return frame;
  const out = new Uint8Array(frame.length + 4);
  out.set(frame);
  out[4] = descriptor | 0x04;
  out.set(u32le(await checksum32(plaintext)), frame.length);
  return out;
}

/** One independent Zstandard frame holding `content`. */
export async function zstdFrame(content: string | Uint8Array, options: ZstdFramesOptions = {}): Promise<Uint8Array> {
  const plaintext = bytesOf(content);
  const withChecksum = options.checksum ?? true;
  return options.mode === 'raw' ? rawFrame(plaintext, withChecksum) : compressedFrame(plaintext, options.level ?? 3, withChecksum);
}

/**
 * A multi-frame `.zstd` log: one independent frame per text, in order, each with a content
 * checksum (unless `checksum: false`). For a dsh-shaped log pass the header line as the first
 * text and one write batch (complete LF-terminated lines) per later text.
 */
export async function zstdFrames(texts: readonly (string | Uint8Array)[], options: ZstdFramesOptions = {}): Promise<Uint8Array> {
  const frames: Uint8Array[] = [];
  for (const text of texts) frames.push(await zstdFrame(text, options));
  return concatBytes(frames);
}
