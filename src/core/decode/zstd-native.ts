/**
 * The platform's own Zstandard decoder, `DecompressionStream('zstd')`, where it has one: about
 * seven times fzstd's speed on session logs where libzstd is behind it (BENCHMARKS.md). Feature-
 * detected, never assumed: a platform that refuses the format gets null, and the caller decodes
 * with fzstd. The native decoder only ever speeds a frame up; what a frame decodes to, and whether
 * it is damaged, is still decided by the checks of `zstd.ts` (see `ZstdFrameStream.pushFramesWith`).
 */

import { concatBytes } from './zstd';

/** Decode exactly one Zstandard frame to its plaintext; rejects when it cannot. */
export type NativeZstdDecoder = (frame: Uint8Array) => Promise<Uint8Array>;

/** The parts of the Compression Streams API used here (the core's tsconfig has no DOM types). */
interface StreamReader {
  read(): Promise<{ done: boolean; value?: Uint8Array }>;
}
interface StreamWriter {
  write(chunk: Uint8Array): Promise<void>;
  close(): Promise<void>;
}
/** A `DecompressionStream` constructor, as a platform provides it (or a test injects one). */
export type DecompressionStreamClass = new (format: string) => {
  readonly readable: { getReader(): StreamReader };
  readonly writable: { getWriter(): StreamWriter };
};

/** A frame decoder over a `DecompressionStream` class that accepts `'zstd'`. */
export function streamDecoder(Stream: DecompressionStreamClass): NativeZstdDecoder {
  return async (frame) => {
    const stream = new Stream('zstd');
    const writer = stream.writable.getWriter();
    // The writer's promises reject with the decoding error too; the reader reports it.
    writer.write(frame).catch(() => undefined);
    writer.close().catch(() => undefined);
    const reader = stream.readable.getReader();
    const parts: Uint8Array[] = [];
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value !== undefined) parts.push(value);
    }
    return concatBytes(parts);
  };
}

/**
 * A frame decoder over `Stream` when it is a `DecompressionStream` class that accepts `'zstd'`,
 * else null: constructing one is how the API says no (it throws for a format it lacks).
 */
export function zstdDecoderOf(Stream: unknown): NativeZstdDecoder | null {
  if (typeof Stream !== 'function') return null;
  try {
    new (Stream as DecompressionStreamClass)('zstd');
  } catch {
    return null;
  }
  return streamDecoder(Stream as DecompressionStreamClass);
}

let detected: NativeZstdDecoder | null | undefined;

/** The platform's native frame decoder, or null where it has none (detected once). */
export function nativeZstd(): NativeZstdDecoder | null {
  if (detected === undefined) detected = zstdDecoderOf((globalThis as { DecompressionStream?: unknown }).DecompressionStream);
  return detected;
}
