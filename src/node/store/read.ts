/**
 * Read a listed log and open it with the core: `session.jsonl`, `session.jsonl.zstd`, export
 * ZIPs and every other form of log-format.md §1.1 go through the same `openBytes`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { openBytes } from '../../core/analyze/open';
import type { LoadResult, OpenOptions } from '../../core/analyze/open';

/** Largest input read (a Uint8Array and a typed-array index both stay within 2 GiB here). */
export const MAX_INPUT_BYTES = 2 ** 31 - 1;

/** A file that could not be read; the message names it and the cause. */
export class ReadError extends Error {
  override readonly name = 'ReadError';
}

function code(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
}

/**
 * Read a regular file whole. Directories, devices and FIFOs are refused before any read (a FIFO
 * would block), as is a file over {@link MAX_INPUT_BYTES}. The file is opened read-only: a store
 * has one writer.
 * @throws ReadError
 */
export function readRegularFile(path: string): Uint8Array {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    throw new ReadError(`cannot open ${path}: ${code(error)}`);
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) throw new ReadError(`${path} is not a regular file`);
    if (stats.size > MAX_INPUT_BYTES) throw new ReadError(`${path} is ${stats.size} bytes; the limit is ${MAX_INPUT_BYTES}`);
    // A Node Buffer is a Uint8Array whose byte searches (`indexOf`, `lastIndexOf`) are native
    // memchr-style scans, several times faster than the typed array's own: the line scanner
    // finds every line's end with them. Every byte is read into it before use (uninitialized
    // memory past a short read is cut off below).
    const bytes = Buffer.allocUnsafeSlow(stats.size);
    let offset = 0;
    // A file that grows while read (a live session) is read up to the size it had when opened.
    while (offset < bytes.length) {
      const n = readSync(fd, bytes, offset, bytes.length - offset, offset);
      if (n === 0) break;
      offset += n;
    }
    return offset === bytes.length ? bytes : bytes.subarray(0, offset);
  } catch (error) {
    if (error instanceof ReadError) throw error;
    throw new ReadError(`cannot read ${path}: ${code(error)}`);
  } finally {
    closeSync(fd);
  }
}

/**
 * Read and open one log: every session in it (an export ZIP holds several), named after `path`
 * (ZIP members as `archive.zip!member`).
 * @throws ReadError when the file cannot be read; decoding problems are in the result instead
 */
export async function openLogFile(path: string, options: Omit<OpenOptions, 'name'> = {}): Promise<LoadResult> {
  const bytes = readRegularFile(path);
  return openBytes(bytes, { ...options, name: path });
}
