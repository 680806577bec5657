/**
 * Byte ranges of a growing session for a follower: from a given offset, only whole lines (raw)
 * or whole frames (Zstandard). A last line without LF or a partial last frame is a write in
 * progress (session-store.md §3) and is left for the next request.
 */
import { createHash } from 'node:crypto';
import { walkZstdFrames } from '../core/decode/zstd';
import type { StoreFormat } from '../protocol/store-api';
import { readAt } from './store-fs';
import type { StoreFs } from './store-fs';

/** At most this many bytes per range response; the follower asks again from `end`. */
export const MAX_RANGE_BYTES = 32 * 1024 * 1024;
const HEAD_BYTES = 64;

/** A range response. */
export interface WholeRange {
  bytes: Uint8Array;
  /** The file size when read. */
  size: number;
  /** `from` + bytes sent. */
  end: number;
  /** Fingerprint of the first bytes of the file: a follower that sees it change starts over. */
  head: string;
}

/** The offset is not where a line or a frame starts. */
export class RangeError416 extends Error {
  override readonly name = 'RangeError416';
}

/** The fingerprint of a file's first bytes, as sent in {@link WholeRange.head}. */
export function headFingerprint(first: Uint8Array): string {
  return createHash('sha256').update(first.subarray(0, HEAD_BYTES)).digest('hex').slice(0, 16);
}

/** Whole units of the file from `from`. */
export async function readWholeRange(
  fs: StoreFs,
  path: string,
  format: StoreFormat,
  from: number,
  max = MAX_RANGE_BYTES,
): Promise<WholeRange> {
  const stats = await fs.stat(path);
  const size = stats.size;
  const head = headFingerprint(await readAt(fs, path, 0, HEAD_BYTES));
  if (from > size)
    throw new RangeError416(`offset ${from} is past the end of the file (${size} bytes): the file shrank, read it again from 0`);
  const bytes = await readAt(fs, path, from, Math.min(size - from, max));
  let keep: number;
  if (format === 'zstd') {
    let walk;
    try {
      walk = walkZstdFrames(bytes);
    } catch (error) {
      throw new RangeError416(
        `byte ${from}: not the start of a Zstandard frame (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    keep = walk.frames.length > 0 ? (walk.frames[walk.frames.length - 1]?.end ?? 0) : 0;
  } else if (format === 'jsonl') {
    if (from > 0) {
      const before = await readAt(fs, path, from - 1, 1);
      if (before[0] !== 0x0a) throw new RangeError416(`byte ${from}: not the start of a line`);
    }
    keep = bytes.lastIndexOf(0x0a) + 1;
  } else keep = bytes.length;
  return { bytes: bytes.subarray(0, keep), size, end: from + keep, head };
}
