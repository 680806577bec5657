/**
 * Read a listed log and open it with the core: `session.jsonl`, `session.jsonl.zstd`, export
 * ZIPs and every other form of log-format.md §1.1 go through the same `openStream`/`openBytes`.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { open } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import { openStream } from '../../core/analyze/open';
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

/** The size of an opened file, or the ReadError for one that is not a regular file or too large. */
function regularSize(path: string, stats: { isFile(): boolean; size: number }): number {
  if (!stats.isFile()) throw new ReadError(`${path} is not a regular file`);
  if (stats.size > MAX_INPUT_BYTES) throw new ReadError(`${path} is ${stats.size} bytes; the limit is ${MAX_INPUT_BYTES}`);
  return stats.size;
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
    const size = regularSize(path, fstatSync(fd));
    // A Node Buffer is a Uint8Array whose byte searches (`indexOf`, `lastIndexOf`) are native
    // memchr-style scans, several times faster than the typed array's own: the line scanner
    // finds every line's end with them. Every byte is read into it before use (uninitialized
    // memory past a short read is cut off below).
    const bytes = Buffer.allocUnsafeSlow(size);
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

/** Bytes asked of the system per read while a log is opened (one read stays in flight). */
const READ_PIECE = 4 * 2 ** 20;

/**
 * Read and open one log: every session in it (an export ZIP holds several), named after `path`
 * (ZIP members as `archive.zip!member`).
 *
 * The file is read in pieces into one allocation, the next piece always in flight while the core
 * scans the ones before (raw JSONL is scanned as it arrives, `openStream`): reading overlaps with
 * decoding instead of preceding it. The result is the same as opening the whole file's bytes.
 * @param pieceBytes bytes per read (tests read in small pieces)
 * @throws ReadError when the file cannot be read; decoding problems are in the result instead
 */
export async function openLogFile(path: string, options: Omit<OpenOptions, 'name'> = {}, pieceBytes = READ_PIECE): Promise<LoadResult> {
  let handle: FileHandle;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    throw new ReadError(`cannot open ${path}: ${code(error)}`);
  }
  try {
    const size = regularSize(
      path,
      await handle.stat().catch((error: unknown) => {
        throw new ReadError(`cannot read ${path}: ${code(error)}`);
      }),
    );
    // See readRegularFile: a Buffer, for its native byte searches; every byte is read before use.
    const storage = Buffer.allocUnsafeSlow(size);
    const { result } = await openStream(
      { sizeHint: size, storage, chunks: pieces(handle, storage, path, pieceBytes) },
      { ...options, name: path },
    );
    return result;
  } finally {
    await handle.close();
  }
}

/**
 * The file's bytes as consecutive views of `storage`, up to the size it had when opened (a live
 * session grows while read), with the next read started before a piece is handed out.
 */
async function* pieces(handle: FileHandle, storage: Buffer, path: string, pieceBytes: number): AsyncGenerator<Uint8Array> {
  const readAt = (offset: number): Promise<number> =>
    offset >= storage.length
      ? Promise.resolve(0)
      : handle.read(storage, offset, Math.min(pieceBytes, storage.length - offset), offset).then(
          (r) => r.bytesRead,
          (error: unknown) => {
            throw new ReadError(`cannot read ${path}: ${code(error)}`);
          },
        );
  let offset = 0;
  let pending = readAt(0);
  try {
    for (;;) {
      const n = await pending;
      if (n === 0) return;
      const piece = storage.subarray(offset, offset + n);
      offset += n;
      pending = readAt(offset);
      yield piece;
    }
  } finally {
    // A load that stops early (a decode error, a memory stop) leaves a read in flight: it
    // finishes before the file is closed, and its failure is nobody's to report.
    await pending.catch(() => 0);
  }
}
