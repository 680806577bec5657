/**
 * The file-system calls the store reader makes, as one object: the server passes Node's own,
 * tests pass a wrapper that fails a chosen path (EACCES as root, a file deleted mid-read).
 * Only reading calls: nothing here can create, write, lock or delete.
 */
import * as fsp from 'node:fs/promises';

/** The read-only subset of `node:fs/promises` the store reader uses. */
export type StoreFs = Pick<typeof fsp, 'readdir' | 'lstat' | 'stat' | 'realpath' | 'open'>;

/** Node's own file system. */
export const nodeFs: StoreFs = {
  readdir: fsp.readdir,
  lstat: fsp.lstat,
  stat: fsp.stat,
  realpath: fsp.realpath,
  open: fsp.open,
};

/** Reads up to `length` bytes at `position` (fewer at the end of the file). */
export async function readAt(fs: StoreFs, path: string, position: number, length: number): Promise<Uint8Array> {
  const handle = await fs.open(path, 'r');
  try {
    const buffer = new Uint8Array(length);
    let got = 0;
    while (got < length) {
      const { bytesRead } = await handle.read(buffer, got, length - got, position + got);
      if (bytesRead === 0) break;
      got += bytesRead;
    }
    return buffer.subarray(0, got);
  } finally {
    await handle.close();
  }
}

/** `code (message)` of a Node error, for a reason shown to the user. */
export function errnoReason(error: unknown): string {
  const e = error as NodeJS.ErrnoException;
  if (e && typeof e.code === 'string') {
    const what =
      e.code === 'EACCES' || e.code === 'EPERM'
        ? 'permission denied'
        : e.code === 'ENOENT'
          ? 'no longer exists'
          : e.code === 'ELOOP'
            ? 'too many symbolic links'
            : e.code === 'EISDIR'
              ? 'is a directory'
              : 'cannot be read';
    return `${what} (${e.code})`;
  }
  return error instanceof Error ? error.message : String(error);
}
