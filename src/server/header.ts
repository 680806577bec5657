/**
 * Reads only a session file's header: the first line of a raw log, the first frame of a
 * Zstandard log (which holds exactly the header line, session-store.md §3), validated by the
 * core's header-line rules.
 */
import { checkHeaderLine } from '../core/checks/header';
import { decodeZstdFrame, initZstd, walkZstdFrames } from '../core/decode/zstd';
import type { StoreFormat } from '../protocol/store-api';
import { readAt } from './store-fs';
import type { StoreFs } from './store-fs';

/** The header fields the listing shows, or why there are none. */
export interface HeaderInfo {
  header: {
    sessionId: string | null;
    cwd: string | null;
    createdAt: number | null;
    parentSession: string | null;
    origin: string | null;
    delegationDepth: number | null;
    seedLength: number | null;
  } | null;
  /** Why the header is unusable (damage); null when it was read. */
  damage: string | null;
}

// Headers are a few hundred bytes: read a little first, more only when the line or frame is longer.
const FIRST_READ = 4096;
/** A header line or frame longer than this is damage, not a header still being read. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;
const BOM = [0xef, 0xbb, 0xbf];
const decoder = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true });

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

function fromLine(line: Uint8Array, hasLf: boolean): HeaderInfo {
  const start = BOM.every((byte, i) => line[i] === byte) ? 3 : 0;
  const text = decoder.decode(line.subarray(start));
  const checked = checkHeaderLine(text, hasLf);
  const finding = checked.findings.find((f) => f.severity === 'error');
  const h = checked.header;
  if (!h) return { header: null, damage: finding?.message ?? 'not a session header' };
  return {
    header: {
      sessionId: str(h.id) ?? checked.sessionId,
      cwd: str(h.cwd),
      createdAt: num(h.createdAt),
      parentSession: str(h.parentSession),
      origin: str(h.origin),
      delegationDepth: num(h.delegationDepth),
      seedLength: num(h.seedLength),
    },
    damage: finding ? finding.message : null,
  };
}

async function rawHeader(fs: StoreFs, path: string, size: number): Promise<HeaderInfo> {
  let length = Math.min(FIRST_READ, size);
  for (;;) {
    const bytes = await readAt(fs, path, 0, length);
    const lf = bytes.indexOf(0x0a);
    if (lf >= 0) return fromLine(bytes.subarray(0, lf), true);
    if (bytes.length < length || length >= size || length >= MAX_HEADER_BYTES) {
      return { header: null, damage: bytes.length === 0 ? 'empty file' : `no complete header line in the first ${bytes.length} bytes` };
    }
    length = Math.min(length * 4, size, MAX_HEADER_BYTES);
  }
}

async function zstdHeader(fs: StoreFs, path: string, size: number): Promise<HeaderInfo> {
  await initZstd();
  let length = Math.min(FIRST_READ, size);
  for (;;) {
    const bytes = await readAt(fs, path, 0, length);
    let walk;
    try {
      walk = walkZstdFrames(bytes);
    } catch (error) {
      return { header: null, damage: `byte 0: ${error instanceof Error ? error.message : String(error)}` };
    }
    const first = walk.frames[0];
    if (first) {
      let plaintext: Uint8Array;
      try {
        plaintext = decodeZstdFrame(bytes.subarray(first.start, first.end), first.start);
      } catch (error) {
        return { header: null, damage: error instanceof Error ? error.message : String(error) };
      }
      const lf = plaintext.indexOf(0x0a);
      return fromLine(lf >= 0 ? plaintext.subarray(0, lf) : plaintext, lf >= 0);
    }
    if (bytes.length < length || length >= size || length >= MAX_HEADER_BYTES) {
      return { header: null, damage: bytes.length === 0 ? 'empty file' : `no complete Zstandard frame in the first ${bytes.length} bytes` };
    }
    length = Math.min(length * 4, size, MAX_HEADER_BYTES);
  }
}

/** The header of a session file; read errors propagate (the caller names them). */
export async function readHeader(fs: StoreFs, path: string, format: StoreFormat, size: number): Promise<HeaderInfo> {
  if (format === 'zip') return { header: null, damage: null };
  return format === 'zstd' ? zstdHeader(fs, path, size) : rawHeader(fs, path, size);
}
