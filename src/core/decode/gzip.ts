/**
 * gzip-wrapped session logs (log-format.md §1.1 row 3). Not an upstream format: accepted as a
 * convenience and inflated with fflate, then decoded as text.
 *
 * Always decoded through fflate's streaming `Gunzip`, never `gunzipSync`: the one-shot function
 * allocates its output from the 4-byte size field in the trailer (up to 4 GiB from a 20-byte
 * file) and stops after the first member of a concatenated file. Streaming handles concatenated
 * members and lets us enforce an output limit while inflating.
 *
 * fflate verifies neither CRC-32 nor ISIZE; we check both for every member (a concatenated
 * file's earlier members when the next one starts, the final one at the end), so truncation and
 * corruption are reported, not decoded.
 */
import { Gunzip } from 'fflate';

/** Default cap on the inflated size of one gzip input: 1 GiB. */
export const DEFAULT_MAX_GUNZIP_BYTES = 2 ** 30;

/**
 * Input is fed to fflate in slices of this size and the output limit is checked between them:
 * DEFLATE expands at most ~1032:1, so one slice can overshoot the limit by at most ~17 MB.
 */
const SLICE_BYTES = 16 * 1024;

/**
 * Recent input kept to check a member's trailer when fflate reports the next member, which it
 * does once that member's header is complete: enough for a header with a full FEXTRA field.
 */
const HISTORY_BYTES = 128 * 1024;

/** Output guard for gzip decoding. */
export interface GunzipLimits {
  /** Refuse to inflate beyond this many bytes (default `DEFAULT_MAX_GUNZIP_BYTES`). */
  maxOutputBytes?: number;
}

/** The gzip input is damaged, truncated, or inflates beyond the output limit. */
export class GzipError extends Error {
  /**
   * @param message - what went wrong.
   * @param cause - the underlying fflate error, if any.
   */
  constructor(message: string, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'GzipError';
  }
}

let crcTable: Uint32Array | null = null;

/** Standard CRC-32 (polynomial 0xEDB88320), as gzip and ZIP use; `crc` continues a previous value. */
export function crc32(bytes: Uint8Array, crc = 0): number {
  if (crcTable === null) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  const table = crcTable;
  let c = ~crc >>> 0;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8);
  return ~c >>> 0;
}

/**
 * Streaming gunzip with an output limit. `push` returns the plaintext chunks inflated so far;
 * `end` returns the rest and verifies the final member's CRC-32 and length. Both throw
 * `GzipError`; chunks already returned are a valid prefix of the plaintext.
 */
export class GunzipStream {
  readonly #limit: number;
  readonly #inflater: Gunzip;
  #pending: Uint8Array[] = [];
  #outputBytes = 0;
  #inputBytes = 0;
  /** Last 8 input bytes: the final member's trailer once the input has ended. */
  #tail = new Uint8Array(8);
  #memberCrc = 0;
  #memberBytes = 0;
  /** Copies of the latest input slices (at least `HISTORY_BYTES` of them when available). */
  #history: Uint8Array[] = [];
  #historyBytes = 0;
  /** A non-final member's trailer did not match (raised after fflate returns). */
  #memberError: GzipError | null = null;
  #failed: GzipError | null = null;
  #ended = false;

  /** @param limits - output guard; see `GunzipLimits`. */
  constructor(limits: GunzipLimits = {}) {
    this.#limit = limits.maxOutputBytes ?? DEFAULT_MAX_GUNZIP_BYTES;
    this.#inflater = new Gunzip((data) => {
      if (data.length === 0) return;
      this.#pending.push(data);
      this.#outputBytes += data.length;
      this.#memberBytes += data.length;
      this.#memberCrc = crc32(data, this.#memberCrc);
    });
    this.#inflater.onmember = (offset) => {
      // A new member starts at `offset`: the 8 bytes before it are the previous member's trailer.
      this.#checkTrailer(offset);
      this.#memberCrc = 0;
      this.#memberBytes = 0;
    };
  }

  /** Plaintext bytes produced so far. */
  get outputBytes(): number {
    return this.#outputBytes;
  }

  /** Feed the next chunk of gzip input; returns the plaintext chunks it produced. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.#check();
    if (this.#ended) throw new Error('GunzipStream: push after end');
    if (this.#inputBytes === 0 && chunk.length >= 2 && (chunk[0] !== 0x1f || chunk[1] !== 0x8b)) {
      this.#fail(new GzipError('not gzip data: the input does not start with 1F 8B'));
    }
    for (let at = 0; at < chunk.length; at += SLICE_BYTES) {
      const slice = chunk.subarray(at, Math.min(chunk.length, at + SLICE_BYTES));
      this.#remember(slice);
      this.#feed(slice, false);
    }
    return this.#take();
  }

  /** Finish the input; returns the remaining plaintext chunks after verifying the trailer. */
  end(): Uint8Array[] {
    this.#check();
    if (this.#ended) throw new Error('GunzipStream: end called twice');
    this.#ended = true;
    if (this.#inputBytes === 0) this.#fail(new GzipError('empty gzip data'));
    this.#feed(new Uint8Array(0), true);
    const t = this.#tail;
    const storedCrc = (t[0]! | (t[1]! << 8) | (t[2]! << 16) | (t[3]! << 24)) >>> 0;
    const storedSize = (t[4]! | (t[5]! << 8) | (t[6]! << 16) | (t[7]! << 24)) >>> 0;
    if (this.#inputBytes < 18 || storedCrc !== this.#memberCrc || storedSize !== this.#memberBytes % 2 ** 32) {
      this.#fail(new GzipError('corrupt gzip data: the CRC-32 or length in the trailer does not match (truncated or damaged file)'));
    }
    return this.#take();
  }

  #feed(slice: Uint8Array, final: boolean): void {
    try {
      this.#inflater.push(slice, final);
    } catch (error) {
      const detail = error instanceof Error ? error.message : String(error);
      this.#fail(new GzipError(`corrupt gzip data: ${detail}`, error));
    }
    if (this.#memberError !== null) this.#fail(this.#memberError);
    if (this.#outputBytes > this.#limit) {
      this.#fail(new GzipError(`gzip data inflates to more than ${this.#limit} bytes (the output limit); refusing to decompress further`));
    }
  }

  /** Verify the trailer ending at input offset `end` against the member inflated before it. */
  #checkTrailer(end: number): void {
    if (this.#memberError !== null) return;
    const trailer = new Uint8Array(8);
    let at = this.#inputBytes - this.#historyBytes; // absolute offset of the first kept byte
    let found = 0;
    for (const part of this.#history) {
      for (let i = Math.max(0, end - 8 - at); i < part.length && at + i < end; i++) {
        trailer[at + i - (end - 8)] = part[i]!;
        found += 1;
      }
      at += part.length;
    }
    const storedCrc = (trailer[0]! | (trailer[1]! << 8) | (trailer[2]! << 16) | (trailer[3]! << 24)) >>> 0;
    const storedSize = (trailer[4]! | (trailer[5]! << 8) | (trailer[6]! << 16) | (trailer[7]! << 24)) >>> 0;
    if (found !== 8 || storedCrc !== this.#memberCrc || storedSize !== this.#memberBytes % 2 ** 32) {
      this.#memberError = new GzipError(
        `corrupt gzip data: the CRC-32 or length in the trailer of the member ending at byte ${end} does not match (damaged file)`,
      );
    }
  }

  #remember(slice: Uint8Array): void {
    this.#history.push(slice.slice());
    this.#historyBytes += slice.length;
    while (this.#history.length > 1 && this.#historyBytes - this.#history[0]!.length >= HISTORY_BYTES) {
      this.#historyBytes -= this.#history.shift()!.length;
    }
    this.#inputBytes += slice.length;
    if (slice.length >= 8) {
      this.#tail = slice.slice(slice.length - 8);
    } else {
      const tail = new Uint8Array(8);
      tail.set(this.#tail.subarray(slice.length), 0);
      tail.set(slice, 8 - slice.length);
      this.#tail = tail;
    }
  }

  #take(): Uint8Array[] {
    const out = this.#pending;
    this.#pending = [];
    return out;
  }

  #check(): void {
    if (this.#failed !== null) throw this.#failed;
  }

  #fail(error: GzipError): never {
    this.#failed = error;
    this.#pending = [];
    throw error;
  }
}

/** Inflate a whole gzip buffer (all members) under the output limit. Throws `GzipError`. */
export function gunzip(bytes: Uint8Array, limits: GunzipLimits = {}): Uint8Array {
  const stream = new GunzipStream(limits);
  const parts = [...stream.push(bytes), ...stream.end()];
  if (parts.length === 1) return parts[0]!;
  const out = new Uint8Array(stream.outputBytes);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}
