/**
 * Test and benchmark helper: decode a whole `.jsonl.zstd` buffer at once with the decoder under
 * test (`ZstdFrameStream`), and the frame-level findings of the result. The product decodes as
 * the bytes arrive (`analyze/open.ts`) and never holds every frame's plaintext like this.
 */
import { ZstdFrameStream, checkZstdFrameSummary, isOneLine, zstdErrorInfo } from '../../src/core/decode/zstd';
import type { TornZstdFrame, ZstdDamage, ZstdFinding, ZstdFrameSpan, ZstdFrameSummary } from '../../src/core/decode/zstd';

/** `decodeZstdLog` result. */
export interface ZstdLogResult {
  /** Plaintexts of the complete frames that decoded and verified, in order (a valid prefix). */
  frames: Uint8Array[];
  /** Byte ranges of `frames`, index for index. */
  spans: ZstdFrameSpan[];
  /** The torn final frame; null when there is none or when `error` stopped decoding first. */
  torn: TornZstdFrame | null;
  /** The damage that stopped decoding; everything in `frames` precedes it. */
  error: ZstdDamage | null;
}

/**
 * Decode a whole `.jsonl.zstd` buffer: the verified plaintexts of its complete frames (up to
 * the first damage), the torn final frame, and the damage if any. Never throws for bad input.
 */
export async function decodeZstdLog(bytes: Uint8Array): Promise<ZstdLogResult> {
  const stream = await ZstdFrameStream.create();
  const decoded = stream.pushFrames(bytes);
  const frames = decoded.map((frame) => frame.plaintext);
  const spans = decoded.map(({ start, end }) => ({ start, end }));
  const damage = stream.error;
  if (damage !== null) return { frames, spans, torn: null, error: zstdErrorInfo(damage) };
  return { frames, spans, torn: stream.end().torn, error: null };
}

/** The {@link ZstdFrameSummary} of a whole decoded log. */
export function zstdFrameSummary(result: ZstdLogResult): ZstdFrameSummary {
  const first = result.frames[0];
  return {
    first: first === undefined ? null : { start: result.spans[0]?.start ?? 0, oneLine: isOneLine(first) },
    torn: result.torn === null ? null : { start: result.torn.start, recovered: result.torn.plaintext.length },
    error: result.error,
  };
}

/** Frame-level findings of a whole decoded log: {@link checkZstdFrameSummary} of its summary. */
export function checkZstdFrames(result: ZstdLogResult): ZstdFinding[] {
  return checkZstdFrameSummary(zstdFrameSummary(result));
}
