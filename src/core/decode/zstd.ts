/**
 * Zstandard container decoding for session logs (log-format.md §7).
 *
 * A `.jsonl.zstd` log is a concatenation of independent frames, each carrying a content
 * checksum. Many one-shot decoders stop after the first frame and none of the browser ones
 * verify checksums, so this module drives decoding frame by frame: a structural walk finds the
 * frame boundaries (§7.1), fzstd decompresses one frame at a time, and the checksum (low 32 bits
 * of XXH64, seed 0) is verified here because fzstd skips it.
 *
 * The checksum hasher is WebAssembly and initialises asynchronously: call `await initZstd()`
 * once before using the synchronous API (`decodeZstdFrame`, `ZstdFrameStream`), or create the
 * stream with `await ZstdFrameStream.create()`.
 */
import { decompress, Decompress, ZstdErrorCode } from 'fzstd';
import xxhash from 'xxhash-wasm';
import type { XXHashAPI } from 'xxhash-wasm';
import { MemoryLimitError } from '../util/budget';
import type { MemoryBudget } from '../util/budget';
import type { NativeZstdDecoder } from './zstd-native';

/** Frame magic `28 B5 2F FD`, read little-endian. */
const FRAME_MAGIC = 0xfd2fb528;

/** RFC 8878 Block_Maximum_Size: no block decodes to more than this. */
const MAX_BLOCK_BYTES = 128 * 1024;

/**
 * Largest window (or single-segment content size) we agree to decode. It is libzstd's default
 * decoder limit (`ZSTD_WINDOWLOG_LIMIT_DEFAULT` = 27, plus one byte), which the Node binding
 * upstream decodes with, so a frame refused here is one upstream refuses too. It also keeps a
 * few header bytes from making fzstd allocate gigabytes (fzstd sizes its buffer from the header).
 */
const MAX_WINDOW_BYTES = 2 ** 27 + 1;

/** The exact loader-view texts of log-format.md §7 that this module can produce. */
export const ZSTD_MESSAGES = {
  empty: 'empty or header-less Zstandard session log',
  headerFrame: 'corrupt Zstandard session log: first frame is not exactly one header line',
  invalidMagic: (byte: number): string => `corrupt Zstandard session log: invalid frame magic at byte ${byte}`,
  reservedBit: (byte: number): string => `corrupt Zstandard session log: reserved frame-header bit at byte ${byte}`,
  reservedBlockType: (byte: number): string => `corrupt Zstandard session log: reserved block type at byte ${byte}`,
  frameFailed: (start: number): string => `corrupt Zstandard session log: frame at byte ${start} failed validation`,
} as const;

/**
 * The structural walk found bytes that cannot be a Zstandard frame (bad magic, a reserved
 * frame-header bit, a reserved block type). The message is the exact upstream text.
 */
export class ZstdStructureError extends Error {
  /** Absolute offset of the offending byte in the input. */
  readonly byte: number;

  /**
   * @param message - the exact §7.1 text.
   * @param byte - offset of the offending byte.
   */
  constructor(message: string, byte: number) {
    super(message);
    this.name = 'ZstdStructureError';
    this.byte = byte;
  }
}

/**
 * A structurally complete frame failed to decompress, or its content checksum (or declared
 * content size) did not match. The message is the exact upstream text.
 */
export class ZstdFrameError extends Error {
  /** Absolute offset of the failing frame's first byte. */
  readonly byte: number;

  /**
   * @param start - the frame's first byte.
   * @param cause - the underlying decoder error, if any.
   */
  constructor(start: number, cause?: unknown) {
    super(ZSTD_MESSAGES.frameFailed(start), cause === undefined ? undefined : { cause });
    this.name = 'ZstdFrameError';
    this.byte = start;
  }
}

/** Either way a Zstandard log can be damaged beyond its torn tail. */
export type ZstdLogError = ZstdStructureError | ZstdFrameError;

/** Byte range `[start, end)` of one structurally complete frame. */
export interface ZstdFrameSpan {
  start: number;
  end: number;
}

/** Result of the structural walk (§7.1). */
export interface ZstdWalk {
  frames: ZstdFrameSpan[];
  /** Start of the structurally incomplete final frame, or null when the input ends on a frame boundary. */
  tornStart: number | null;
}

/** A decoded complete frame. */
export interface DecodedZstdFrame extends ZstdFrameSpan {
  plaintext: Uint8Array;
}

/** The structurally incomplete final frame and what could be recovered from it. */
export interface TornZstdFrame {
  /** Absolute offset of the torn frame's first byte. */
  start: number;
  /** Plaintext of its complete blocks (possibly empty); never checksum-verified. */
  plaintext: Uint8Array;
}

/** The damage that stopped decoding a log: a structural error of the walk, or a frame that failed validation. */
export interface ZstdDamage {
  kind: 'structure' | 'frame';
  message: string;
  byte: number;
}

/** A frame-level loader-view finding (log-format.md §7.2). */
export interface ZstdFinding {
  severity: 'error' | 'warning';
  /** Stable id: `zstd/structure`, `zstd/frame-validation`, `zstd/empty`, `zstd/header-frame`, `zstd/torn-frame`. */
  rule: string;
  message: string;
  /** Offset in the compressed file the finding is about, or null. */
  byte: number | null;
}

// ---------------------------------------------------------------------------------------------
// Checksum hasher (async WebAssembly init, then synchronous use)

let hasher: XXHashAPI | null = null;
let hasherPromise: Promise<XXHashAPI> | null = null;

/**
 * Prepare the XXH64 hasher used for content checksums. Idempotent and safe to call
 * concurrently; must have resolved before `decodeZstdFrame` or `ZstdFrameStream` is used.
 */
export async function initZstd(): Promise<void> {
  hasherPromise ??= xxhash().then(
    (api) => (hasher = api),
    (error: unknown) => {
      // Forget the failed attempt so a later call can retry instead of failing forever.
      hasherPromise = null;
      throw error;
    },
  );
  await hasherPromise;
}

function requireHasher(): XXHashAPI {
  if (hasher === null) {
    throw new Error('Zstandard checksum hasher is not ready: await initZstd() first');
  }
  return hasher;
}

/**
 * The Zstandard content checksum of a plaintext: the low 32 bits of XXH64 (seed 0).
 * Requires `initZstd()` to have resolved.
 */
export function zstdContentChecksum(plaintext: Uint8Array): number {
  return Number(requireHasher().h64Raw(plaintext, 0n) & 0xffffffffn);
}

// ---------------------------------------------------------------------------------------------
// Structural walk

function u32le(bytes: Uint8Array, at: number): number {
  return ((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16) | ((bytes[at + 3] ?? 0) << 24)) >>> 0;
}

function u24le(bytes: Uint8Array, at: number): number {
  return (bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8) | ((bytes[at + 2] ?? 0) << 16);
}

/** Bytes of the frame header after the descriptor byte (window descriptor, dictionary id, FCS). */
function headerBytesAfterDescriptor(d: number): number {
  const single = (d & 0x20) !== 0;
  const didBytes = [0, 1, 2, 4][d & 3] ?? 0;
  const fcsBytes = d >> 6 === 0 ? (single ? 1 : 0) : 1 << (d >> 6);
  return (single ? 0 : 1) + didBytes + fcsBytes;
}

/**
 * Structural frame walk of log-format.md §7.1: finds complete frames without decompressing.
 * Never throws for truncation (the incomplete final frame is reported as `tornStart`); throws
 * `ZstdStructureError` with the exact spec text for an invalid magic, a reserved frame-header
 * bit or a reserved block type.
 */
export function walkZstdFrames(bytes: Uint8Array): ZstdWalk {
  const len = bytes.length;
  const frames: ZstdFrameSpan[] = [];
  let offset = 0;
  while (offset < len) {
    const start = offset;
    if (len - offset < 4) return { frames, tornStart: start };
    if (u32le(bytes, offset) !== FRAME_MAGIC) throw new ZstdStructureError(ZSTD_MESSAGES.invalidMagic(offset), offset);
    offset += 4;
    if (offset === len) return { frames, tornStart: start };
    const d = bytes[offset] ?? 0;
    offset += 1;
    if (d & 0x18) throw new ZstdStructureError(ZSTD_MESSAGES.reservedBit(offset - 1), offset - 1);
    const hdr = headerBytesAfterDescriptor(d);
    if (len - offset < hdr) return { frames, tornStart: start };
    offset += hdr;
    for (;;) {
      if (len - offset < 3) return { frames, tornStart: start };
      const h = u24le(bytes, offset);
      offset += 3;
      const type = (h >> 1) & 3;
      if (type === 3) throw new ZstdStructureError(ZSTD_MESSAGES.reservedBlockType(offset - 3), offset - 3);
      // RLE blocks store one byte whatever their decoded size.
      const payload = type === 1 ? 1 : h >>> 3;
      if (len - offset < payload) return { frames, tornStart: start };
      offset += payload;
      if (h & 1) break;
    }
    if (d & 0x04) {
      if (len - offset < 4) return { frames, tornStart: start };
      offset += 4;
    }
    frames.push({ start, end: offset });
  }
  return { frames, tornStart: null };
}

// ---------------------------------------------------------------------------------------------
// Frame decoding

interface FrameHeader {
  /** Offset of the first block header, relative to the frame start. */
  blocksAt: number;
  checksum: boolean;
  dictionaryId: number;
  windowSize: number;
  /** Offset of the window descriptor byte, or null for single-segment frames (which have none). */
  windowDescriptorAt: number | null;
  /** Declared decompressed size, or null when the header omits it. */
  contentSize: number | null;
}

/** The smallest Window_Descriptor byte whose window is at least `size` bytes. */
function windowDescriptorFor(size: number): number {
  for (let exponent = 0; exponent < 32; exponent++) {
    const base = 2 ** (10 + exponent);
    for (let mantissa = 0; mantissa < 8; mantissa++) {
      if (base + (base / 8) * mantissa >= size) return (exponent << 3) | mantissa;
    }
  }
  return 0xff;
}

/** Parse a frame header; null when `frame` is too short to hold all of it. */
function readFrameHeader(frame: Uint8Array): FrameHeader | null {
  if (frame.length < 5) return null;
  const d = frame[4]!;
  const single = (d & 0x20) !== 0;
  const fcsFlag = d >> 6;
  const didBytes = [0, 1, 2, 4][d & 3] ?? 0;
  const fcsBytes = fcsFlag === 0 ? (single ? 1 : 0) : 1 << fcsFlag;
  let at = 5;
  const blocksAt = at + (single ? 0 : 1) + didBytes + fcsBytes;
  if (frame.length < blocksAt) return null;
  let windowSize = 0;
  if (!single) {
    // Exact arithmetic: a 32-bit shift would wrap for large exponents (fzstd's does).
    const wd = frame[at]!;
    const base = 2 ** (10 + (wd >> 3));
    windowSize = base + (base / 8) * (wd & 7);
    at += 1;
  }
  let dictionaryId = 0;
  for (let i = 0; i < didBytes; i++) dictionaryId += frame[at + i]! * 2 ** (8 * i);
  at += didBytes;
  let contentSize: number | null = null;
  if (fcsBytes > 0) {
    let value = 0;
    for (let i = 0; i < fcsBytes; i++) value += frame[at + i]! * 2 ** (8 * i);
    contentSize = fcsBytes === 2 ? value + 256 : value;
  }
  if (single) windowSize = contentSize ?? 0;
  return { blocksAt, checksum: (d & 0x04) !== 0, dictionaryId, windowSize, windowDescriptorAt: single ? null : 5, contentSize };
}

/**
 * Decode one structurally complete frame (as delimited by `walkZstdFrames`) and verify it:
 * decompression, declared content size, and the content checksum when the frame has one.
 * Throws `ZstdFrameError` (exact upstream text, `byte` = `start`) on any failure.
 * Requires `initZstd()` to have resolved.
 *
 * @param frame - exactly the frame's bytes.
 * @param start - the frame's offset in the file, for the error message.
 * @param budget - when given, the plaintext's upper bound must fit it before anything is
 *   allocated, or `MemoryLimitError` is thrown. Nothing is held in it: the caller holds the
 *   plaintext it keeps.
 */
export function decodeZstdFrame(frame: Uint8Array, start: number, budget: MemoryBudget | null = null): Uint8Array {
  const { header, bound } = prepareFrame(frame, start, budget);
  return fzstdFrame(frame, start, header, bound);
}

/** fzstd's decoding of a frame {@link prepareFrame} accepted, verified; throws `ZstdFrameError`. */
function fzstdFrame(frame: Uint8Array, start: number, header: FrameHeader, bound: number): Uint8Array {
  let input = frame;
  if (header.contentSize === null && header.windowDescriptorAt !== null && bound < header.windowSize) {
    // Without a declared size fzstd allocates the whole window and shifts all of it after every
    // block: 2 MiB per write batch in real logs. Back-references cannot reach before the frame
    // start, so a window of `bound` bytes decodes the same content (the checksum covers content
    // only); decode a copy that declares the smallest such window.
    input = frame.slice();
    input[header.windowDescriptorAt] = windowDescriptorFor(bound);
  }
  let plaintext: Uint8Array;
  try {
    plaintext = decompress(input);
  } catch (cause) {
    throw new ZstdFrameError(start, cause);
  }
  if (!verifies(frame, header, plaintext)) throw new ZstdFrameError(start);
  return plaintext;
}

/**
 * The checks of a frame before any decoding, whichever decoder then runs: its header, no
 * dictionary, a window within {@link MAX_WINDOW_BYTES}, a declared size its blocks can hold, and
 * the plaintext's upper bound within the budget.
 * @throws ZstdFrameError, MemoryLimitError
 */
function prepareFrame(frame: Uint8Array, start: number, budget: MemoryBudget | null): { header: FrameHeader; bound: number } {
  requireHasher();
  const header = readFrameHeader(frame);
  if (header === null) throw new ZstdFrameError(start);
  // No dictionaries in session logs, and fzstd would silently decode without one.
  if (header.dictionaryId !== 0) throw new ZstdFrameError(start);
  if (header.windowSize > MAX_WINDOW_BYTES) throw new ZstdFrameError(start);
  // Upper bound of the plaintext: raw and RLE blocks declare their size, a compressed block
  // regenerates at most Block_Maximum_Size.
  const maxBlock = Math.min(MAX_BLOCK_BYTES, Math.max(header.windowSize, 1));
  let bound = 0;
  for (let at = header.blocksAt; at + 3 <= frame.length;) {
    const h = u24le(frame, at);
    const type = (h >> 1) & 3;
    bound += type === 2 ? maxBlock : h >>> 3;
    at += 3 + (type === 1 ? 1 : h >>> 3);
    if (h & 1) break;
  }
  // Refusing an impossible declared size up front also stops fzstd allocating a buffer that big.
  if (header.contentSize !== null && header.contentSize > bound) throw new ZstdFrameError(start);
  // fzstd allocates at most `bound` bytes for the plaintext (the declared size, or the window
  // rewritten in `fzstdFrame`): that is what must fit, besides what the budget holds already (with a
  // stream's budget, the frames it decoded that the caller has not released yet).
  budget?.check(bound);
  return { header, bound };
}

/** Whether a frame's plaintext has its declared size and, when the frame has one, its checksum. */
function verifies(frame: Uint8Array, header: FrameHeader, plaintext: Uint8Array): boolean {
  if (header.contentSize !== null && plaintext.length !== header.contentSize) return false;
  return !header.checksum || zstdContentChecksum(plaintext) === u32le(frame, frame.length - 4);
}

/**
 * {@link decodeZstdFrame} with a native decoder first: the frame is checked as there, then
 * decoded natively; a plaintext that has the declared size and checksum (and fits the bound) is
 * the frame's. Anything else — the native decoder rejecting it (a window it will not allocate, a
 * damaged block), or a plaintext that does not verify — is decoded by fzstd as there, whose
 * verdict is final: the result never depends on which decoder the platform has.
 */
export async function decodeZstdFrameWith(
  frame: Uint8Array,
  start: number,
  budget: MemoryBudget | null,
  native: NativeZstdDecoder,
): Promise<Uint8Array> {
  const { header, bound } = prepareFrame(frame, start, budget);
  let plaintext: Uint8Array | null = null;
  try {
    plaintext = await native(frame);
  } catch {
    // Decided by fzstd below.
  }
  if (plaintext !== null && plaintext.length <= bound && verifies(frame, header, plaintext)) return plaintext;
  return fzstdFrame(frame, start, header, bound);
}

/**
 * Best-effort plaintext of a structurally incomplete final frame, as upstream gets it from a
 * flushing libzstd decode: the complete blocks, plus the available part of a trailing raw block
 * (libzstd streams raw blocks byte by byte). Any decoding error other than running out of input
 * yields nothing at all, as upstream's `catch` does. No checksum can be verified.
 *
 * @param bytes - from the torn frame's first byte to the end of the input.
 * @param budget - when given, fzstd's buffer must fit it, or `MemoryLimitError` is thrown.
 */
export function decodeTornZstdFrame(bytes: Uint8Array, budget: MemoryBudget | null = null): Uint8Array {
  const empty = new Uint8Array(0);
  if (bytes.length < 4 || u32le(bytes, 0) !== FRAME_MAGIC) return empty;
  const header = readFrameHeader(bytes);
  if (header === null || header.dictionaryId !== 0 || header.windowSize > MAX_WINDOW_BYTES) return empty;
  if (budget !== null) {
    // fzstd sizes its buffer from the header (the window, or the declared content size): both
    // are capped above, and the complete blocks cannot decode to more than the window each.
    budget.check(Math.max(header.contentSize ?? 0, header.windowSize, MAX_BLOCK_BYTES));
  }
  const parts: Uint8Array[] = [];
  try {
    // `final = true` makes fzstd decode every complete block and then report the truncation
    // (without it, inputs under 18 bytes are only buffered).
    new Decompress((chunk) => {
      parts.push(chunk);
    }).push(bytes, true);
  } catch (error) {
    if ((error as { code?: unknown }).code !== ZstdErrorCode.UnexpectedEOF) return empty;
  }
  // Locate the first incomplete block; a raw one contributes the bytes that did arrive.
  for (let at = header.blocksAt; at + 3 <= bytes.length;) {
    const h = u24le(bytes, at);
    const type = (h >> 1) & 3;
    const payload = type === 1 ? 1 : h >>> 3;
    if (bytes.length - (at + 3) < payload) {
      if (type === 0 && bytes.length > at + 3) parts.push(bytes.slice(at + 3));
      break;
    }
    at += 3 + payload;
    if (h & 1) break;
  }
  return concatBytes(parts);
}

/** The parts, in order, in one array (the part itself when there is one). */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  if (parts.length === 1) return parts[0]!;
  let total = 0;
  for (const part of parts) total += part.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const part of parts) {
    out.set(part, at);
    at += part.length;
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Incremental decoder

type Stage = 'magic' | 'descriptor' | 'header' | 'block' | 'checksum';

/** Options of {@link ZstdFrameStream}. */
export interface ZstdStreamOptions {
  /**
   * Consulted before each frame is decompressed: a frame whose plaintext might not fit stops the
   * stream like damage does (frames before it kept), with `memoryError` set. Every plaintext the
   * stream returns (complete frames and the torn final frame) is then held in the budget until
   * the caller releases it (`budget.release(plaintext.length)`), once it has copied it where it
   * goes or dropped it: until then it is alive, and the frames after it in the same push must
   * fit beside it, as must whatever the caller allocates meanwhile.
   */
  budget?: MemoryBudget;
}

/**
 * Incremental frame decoder: feed the file in chunks, get each frame's verified plaintext as
 * soon as the frame is complete. It runs the §7.1 walk as a resumable state machine, so every
 * input byte is examined once however the input is chunked; only the bytes of the current
 * incomplete frame are buffered.
 *
 * Synchronous by design (it runs inside a worker's read loop): `await initZstd()` before
 * constructing one, or use `await ZstdFrameStream.create()`.
 *
 * Damage does not lose the frames before it: `push` returns the frames completed before the
 * damage and records the error in `error`; from then on `push` and `end` throw that error. A
 * frame that might not fit the memory budget (`ZstdStreamOptions.budget`) stops the stream the
 * same way, recorded in `memoryError`; with a budget, the caller releases each plaintext
 * returned (see `ZstdStreamOptions.budget`).
 */
export class ZstdFrameStream {
  /** Bytes of the current incomplete frame (from its first byte), in `#buf[0, #len)`. */
  #buf = new Uint8Array(0);
  #len = 0;
  /** Absolute offset of the current frame's first byte. */
  #base = 0;
  /** Parse cursor, relative to the current frame's first byte. */
  #pos = 0;
  #stage: Stage = 'magic';
  #headerBytes = 0;
  #checksum = false;
  #error: ZstdLogError | null = null;
  #memoryError: MemoryLimitError | null = null;
  #budget: MemoryBudget | null;
  #ended = false;

  /** Throws when `initZstd()` has not resolved yet. */
  constructor(options: ZstdStreamOptions = {}) {
    requireHasher();
    this.#budget = options.budget ?? null;
  }

  /** Initialise the hasher, then construct. */
  static async create(): Promise<ZstdFrameStream> {
    await initZstd();
    return new ZstdFrameStream();
  }

  /** The damage found so far, or null. */
  get error(): ZstdLogError | null {
    return this.#error;
  }

  /** Set when the next frame might not fit the memory budget; decoding stopped before it. */
  get memoryError(): MemoryLimitError | null {
    return this.#memoryError;
  }

  /** Absolute offset up to which the input has been consumed as complete frames. */
  get committedBytes(): number {
    return this.#base;
  }

  /** Feed the next chunk; returns the plaintexts of the frames it completes, in order. */
  push(chunk: Uint8Array): Uint8Array[] {
    return this.pushFrames(chunk).map((frame) => frame.plaintext);
  }

  /** Like `push`, with each frame's byte range. */
  pushFrames(chunk: Uint8Array): DecodedZstdFrame[] {
    return this.#walk(chunk, (data, from, to) => this.#finishFrame(data, from, to));
  }

  /**
   * Like {@link pushFrames}, decoding each frame with `native` first (`decodeZstdFrameWith`):
   * the same frames, plaintexts, damage and memory stop as `pushFrames` gives, sooner where the
   * native decoder is faster. Await each push before the next.
   */
  async pushFramesWith(chunk: Uint8Array, native: NativeZstdDecoder): Promise<DecodedZstdFrame[]> {
    // The walk finds the complete frames (and any structural damage after them); they are then
    // decoded in order, and the first that fails stops the stream there, as in `pushFrames`.
    const spans: { start: number; end: number; bytes: Uint8Array }[] = [];
    this.#walk(chunk, (data, from, to) => {
      // The stream's own buffer is reused by the next push: a frame in it is copied.
      spans.push({
        start: this.#base + from,
        end: this.#base + to,
        bytes: data === chunk ? data.subarray(from, to) : data.slice(from, to),
      });
      return null;
    });
    const out: DecodedZstdFrame[] = [];
    for (const span of spans) {
      let plaintext: Uint8Array;
      try {
        plaintext = await decodeZstdFrameWith(span.bytes, span.start, this.#budget, native);
      } catch (error) {
        if (error instanceof MemoryLimitError) {
          this.#memoryError = error;
          this.#error = null;
        } else if (error instanceof ZstdFrameError) {
          this.#error = error;
        } else {
          throw error;
        }
        // Consumed up to the frame that stopped it, as `pushFrames` leaves it.
        this.#base = span.start;
        this.#buf = new Uint8Array(0);
        this.#len = 0;
        return out;
      }
      this.#budget?.hold(plaintext.length);
      out.push({ start: span.start, end: span.end, plaintext });
    }
    return out;
  }

  /**
   * The §7.1 walk over the pending bytes and `chunk`: `finish` is called for each complete frame
   * (`data[from, to)`, relative to the current frame base) and its results returned in order.
   * Damage, or a memory stop thrown by `finish`, is recorded and ends the walk.
   */
  #walk<F>(chunk: Uint8Array, finish: (data: Uint8Array, from: number, to: number) => F): F[] {
    if (this.#error !== null) throw this.#error;
    if (this.#memoryError !== null) throw this.#memoryError;
    if (this.#ended) throw new Error('ZstdFrameStream: push after end');
    // Parse straight from the caller's chunk when nothing is pending, so a whole file pushed
    // at once is never copied; only an incomplete frame's tail is kept.
    let data: Uint8Array;
    if (this.#len === 0) {
      data = chunk;
    } else {
      this.#reserve(this.#len + chunk.length);
      this.#buf.set(chunk, this.#len);
      this.#len += chunk.length;
      data = this.#buf.subarray(0, this.#len);
    }
    const out: F[] = [];
    let frameStart = 0;
    let pos = this.#pos;
    try {
      for (;;) {
        const available = data.length - pos;
        const abs = this.#base + pos;
        if (this.#stage === 'magic') {
          if (available < 4) break;
          if (u32le(data, pos) !== FRAME_MAGIC) throw new ZstdStructureError(ZSTD_MESSAGES.invalidMagic(abs), abs);
          pos += 4;
          this.#stage = 'descriptor';
        } else if (this.#stage === 'descriptor') {
          if (available < 1) break;
          const d = data[pos]!;
          if (d & 0x18) throw new ZstdStructureError(ZSTD_MESSAGES.reservedBit(abs), abs);
          this.#headerBytes = headerBytesAfterDescriptor(d);
          this.#checksum = (d & 0x04) !== 0;
          pos += 1;
          this.#stage = 'header';
        } else if (this.#stage === 'header') {
          if (available < this.#headerBytes) break;
          pos += this.#headerBytes;
          this.#stage = 'block';
        } else if (this.#stage === 'block') {
          if (available < 3) break;
          const h = u24le(data, pos);
          const type = (h >> 1) & 3;
          if (type === 3) throw new ZstdStructureError(ZSTD_MESSAGES.reservedBlockType(abs), abs);
          const payload = type === 1 ? 1 : h >>> 3;
          if (available - 3 < payload) break;
          pos += 3 + payload;
          if (h & 1) {
            if (this.#checksum) {
              this.#stage = 'checksum';
            } else {
              out.push(finish(data, frameStart, pos));
              this.#stage = 'magic';
              frameStart = pos;
            }
          }
        } else {
          if (available < 4) break;
          pos += 4;
          out.push(finish(data, frameStart, pos));
          this.#stage = 'magic';
          frameStart = pos;
        }
      }
    } catch (error) {
      if (error instanceof MemoryLimitError) this.#memoryError = error;
      else if (error instanceof ZstdStructureError || error instanceof ZstdFrameError) this.#error = error;
      else throw error;
      this.#base += frameStart;
      this.#buf = new Uint8Array(0);
      this.#len = 0;
      return out;
    }
    // Keep only the current incomplete frame.
    const rest = data.subarray(frameStart);
    if (data === chunk) {
      this.#reserve(rest.length);
      this.#buf.set(rest, 0);
    } else {
      this.#buf.copyWithin(0, frameStart, this.#len);
    }
    this.#len = rest.length;
    if (this.#buf.length > 1 << 20 && this.#len * 4 < this.#buf.length) {
      // Give back the memory of a large frame once it is done.
      this.#buf = this.#buf.slice(0, Math.max(this.#len * 2, 4096));
    }
    this.#base += frameStart;
    this.#pos = pos - frameStart;
    return out;
  }

  /**
   * Finish the input. Returns the structurally incomplete final frame, if any, with whatever
   * plaintext its complete blocks yield (`decodeTornZstdFrame`). Throws the recorded error when
   * the stream was damaged.
   */
  end(): { torn: TornZstdFrame | null } {
    if (this.#error !== null) throw this.#error;
    if (this.#memoryError !== null) throw this.#memoryError;
    if (this.#ended) throw new Error('ZstdFrameStream: end called twice');
    this.#ended = true;
    if (this.#len === 0) return { torn: null };
    const torn = { start: this.#base, plaintext: decodeTornZstdFrame(this.#buf.subarray(0, this.#len), this.#budget) };
    this.#budget?.hold(torn.plaintext.length);
    this.#buf = new Uint8Array(0);
    this.#len = 0;
    return { torn };
  }

  #finishFrame(data: Uint8Array, from: number, to: number): DecodedZstdFrame {
    const start = this.#base + from;
    const plaintext = decodeZstdFrame(data.subarray(from, to), start, this.#budget);
    // Alive until the caller has appended it (or dropped it) and releases it.
    this.#budget?.hold(plaintext.length);
    return { start, end: this.#base + to, plaintext };
  }

  #reserve(size: number): void {
    if (size <= this.#buf.length) return;
    const grown = new Uint8Array(Math.max(size, this.#buf.length * 2, 4096));
    grown.set(this.#buf.subarray(0, this.#len));
    this.#buf = grown;
  }
}

// ---------------------------------------------------------------------------------------------
// Frame-level findings

/** The {@link ZstdDamage} of a `ZstdFrameStream.error`. */
export function zstdErrorInfo(error: ZstdLogError): ZstdDamage {
  return { kind: error instanceof ZstdStructureError ? 'structure' : 'frame', message: error.message, byte: error.byte };
}

/**
 * What the frame-level findings ({@link checkZstdFrameSummary}) need to know about a decoded log:
 * a caller that hands each frame's plaintext on as it is decoded keeps this instead of the
 * plaintexts.
 */
export interface ZstdFrameSummary {
  /**
   * The first complete frame that decoded and verified: where it starts and whether its plaintext
   * is exactly one LF-terminated line ({@link isOneLine}); null when none did.
   */
  first: { start: number; oneLine: boolean } | null;
  /** The torn final frame: where it starts and how many plaintext bytes its complete blocks gave. */
  torn: { start: number; recovered: number } | null;
  /** The damage that stopped decoding. */
  error: ZstdDamage | null;
}

/** Whether a frame's plaintext is exactly one line, ending in LF: the shape of the header frame (§7.2). */
export function isOneLine(plaintext: Uint8Array): boolean {
  return plaintext.length > 0 && plaintext[plaintext.length - 1] === 0x0a && plaintext.indexOf(0x0a) === plaintext.length - 1;
}

/**
 * Frame-level loader-view findings for a decoded log (log-format.md §7.2), in the order upstream
 * meets them, so the first error is the one upstream's loader throws: a structural error (the
 * walk runs before any decoding), then "no complete frame", then the first frame's shape, then
 * a frame that failed validation. A torn final frame is reported as a warning (upstream keeps
 * its complete lines and treats the rest as torn tail). Header and line checks are not here.
 */
export function checkZstdFrameSummary(summary: ZstdFrameSummary): ZstdFinding[] {
  const findings: ZstdFinding[] = [];
  const { error, first, torn } = summary;
  if (error?.kind === 'structure') {
    findings.push({ severity: 'error', rule: 'zstd/structure', message: error.message, byte: error.byte });
  }
  if (first === null) {
    // A first frame that failed validation was still complete: upstream reports the failure.
    if (error === null) findings.push({ severity: 'error', rule: 'zstd/empty', message: ZSTD_MESSAGES.empty, byte: null });
  } else if (!first.oneLine) {
    findings.push({ severity: 'error', rule: 'zstd/header-frame', message: ZSTD_MESSAGES.headerFrame, byte: first.start });
  }
  if (error?.kind === 'frame') {
    findings.push({ severity: 'error', rule: 'zstd/frame-validation', message: error.message, byte: error.byte });
  }
  if (torn !== null) {
    findings.push({
      severity: 'warning',
      rule: 'zstd/torn-frame',
      message: `torn final Zstandard frame at byte ${torn.start}: ${torn.recovered} plaintext bytes recovered from its complete blocks`,
      byte: torn.start,
    });
  }
  return findings;
}
