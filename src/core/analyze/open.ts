/**
 * Open an input of any supported form (log-format.md §1.1) and analyse every session in it.
 *
 * Containers are unwrapped (ZIP members, Zstandard frames, gzip) and the logical text is fed to
 * the line scanner in chunks, so progress can be reported and a load cancelled between chunks.
 *
 * With a memory limit (`OpenOptions.memoryLimitBytes`) every allocation that grows with the input
 * is checked against a {@link MemoryBudget} first (gzip output after each small slice of input,
 * see `GZIP_SLICE`; a step's events by estimate); when the next one would not fit, reading stops
 * there and the session ends with a `decode/memory-limit` decode error, the lines before it
 * decoded, folded and navigable as before any other decode error.
 */
import { readExportZip, ROOT_SESSION_PATH } from '../decode/zip';
import { detectContainer } from '../decode/detect';
import { GunzipStream, GzipError } from '../decode/gzip';
import { ValueLog } from '../decode/line-log';
import { ZstdFrameStream, checkZstdFrameSummary, initZstd, isOneLine, zstdErrorInfo } from '../decode/zstd';
import type { DecodedZstdFrame, TornZstdFrame, ZstdFrameSummary } from '../decode/zstd';
import { nativeZstd } from '../decode/zstd-native';
import type { NativeZstdDecoder } from '../decode/zstd-native';
import type { ContainerForm, DecodeErrorInfo, Diagnostic, LoadProgress } from '../model';
import { ByteBuffer } from '../util/grow';
import { JSON_ARRAY_FACTOR, MemoryBudget, MemoryLimitError } from '../util/budget';
import { firstNonBlankIsBracket, memoryStop, TextPipeline } from './pipeline';
import type { StopPlace } from './pipeline';
import { SessionAnalyzer } from './session';
import type { SessionAnalysis } from './session';
import { standardChecks } from './checks';
import { BOM_BYTES, bomDiagnostic, startsWithBom } from '../decode/bom';
import { splitArrayHeader } from '../decode/array';

/** Something that can say a load was cancelled (an AbortSignal fits). */
export interface CancelSignal {
  readonly aborted: boolean;
}

/** Thrown when a load is cancelled. */
export class LoadCancelled extends Error {
  override readonly name = 'AbortError';
  constructor() {
    super('load cancelled');
  }
}

/** Options of {@link openBytes}. */
export interface OpenOptions {
  /** File name, used in paths and messages. */
  name: string;
  onProgress?: (progress: LoadProgress) => void;
  signal?: CancelSignal;
  /** Awaited between chunks so a worker can receive a cancel; default: no yielding. */
  pause?: () => Promise<void>;
  /** Bytes scanned between progress reports and pauses. */
  chunkBytes?: number;
  /** Checkpoint interval of the time-travel index (tests). */
  checkpointEvery?: number;
  /**
   * Bytes this load may hold: the input, the decoded text, the decoders' output and an estimate
   * of the per-event columns and index (see `util/budget.ts`). Checked before each allocation
   * that grows with the input; when the next one would not fit, reading stops cleanly with a
   * `decode/memory-limit` decode error. Default: no limit (the CLI; Node has its own). The
   * engine always passes one (`memoryLimitFor` in worker/engine.ts: the browser's heap limit
   * where Chromium reports it, else 1 GiB).
   */
  memoryLimitBytes?: number;
  /** What the limit is called in the stop message. @default 'the memory limit' */
  memoryLimitName?: string;
  /**
   * The native Zstandard decoder to try before fzstd (`decode/zstd-native.ts`); the results are
   * the same either way. Default: the platform's `DecompressionStream('zstd')` where it has one;
   * null: fzstd alone.
   */
  nativeZstd?: NativeZstdDecoder | null;
}

/** Result of opening one input. */
export interface LoadResult {
  file: string;
  bytes: number;
  sessions: SessionAnalysis[];
  /** Findings about the container (ZIP members refused, ...). */
  findings: Diagnostic[];
}

const DEFAULT_CHUNK = 4 << 20;
/** The first chunk of raw text when no chunk size is given (see `openText`). */
const FIRST_CHUNK = 128 << 10;
/**
 * With a memory limit the scanner is fed at most this many bytes between two checks, so a load
 * stops within about a step of the limit rather than a whole chunk.
 */
const BUDGET_STEP = 1 << 20;
/**
 * gzip input is inflated this much at a time; each slice's output is appended (and checked)
 * before the next. What one slice inflates to is allocated inside fflate before that check: at
 * most about 1,032 times the slice (DEFLATE's largest ratio), so about 16.9 MB here; ordinary
 * text inflates to a few times the slice. The same size as `GunzipStream`'s own slices; against
 * 64 KiB slices it cost nothing measurable (a 25 MB log: within the run-to-run noise of ~1 %).
 */
const GZIP_SLICE = 16 * 1024;

interface Context {
  options: OpenOptions;
  totalBytes: number;
  /** Input bytes consumed before the current member. */
  consumedBefore: number;
  events: number;
  /** The load's memory budget, or null without a limit. */
  budget: MemoryBudget | null;
}

async function tick(ctx: Context, consumed: number, events: number): Promise<void> {
  if (ctx.options.signal?.aborted) throw new LoadCancelled();
  ctx.options.onProgress?.({ bytes: ctx.consumedBefore + consumed, totalBytes: ctx.totalBytes, events: ctx.events + events });
  if (ctx.options.pause) await ctx.options.pause();
  if (ctx.options.signal?.aborted) throw new LoadCancelled();
}

/**
 * Decode and analyse every session of an input.
 * @param bytes the whole input (it is kept, not copied, as the logical text of raw JSONL)
 */
export async function openBytes(bytes: Uint8Array, options: OpenOptions): Promise<LoadResult> {
  const budget = options.memoryLimitBytes === undefined ? null : new MemoryBudget(options.memoryLimitBytes);
  // The input stays alive for the whole load (for raw JSONL it is the logical text itself).
  budget?.hold(bytes.length);
  const ctx: Context = { options, totalBytes: bytes.length, consumedBefore: 0, events: 0, budget };
  const findings: Diagnostic[] = [];
  const sessions: SessionAnalysis[] = [];
  const kind = detectContainer(bytes.subarray(0, 4));
  if (kind === 'zip') {
    const zip = readExportZip(bytes, {}, budget);
    for (const f of zip.findings) findings.push({ severity: f.severity, rule: f.rule, seq: null, line: null, message: f.message });
    // A member too large for the budget still gets its session, holding the stop message; the
    // root session keeps its place first.
    const refused = (refusal: { path: string; error: MemoryLimitError }): SessionAnalysis => {
      const path = `${options.name}!${refusal.path}`;
      return failedSession(path, ctx, limitStop(ctx, path, refusal.error, { byte: 0, line: null, text: 'member' }, 'inflating it'));
    };
    for (const refusal of zip.overBudget) if (refusal.path === ROOT_SESSION_PATH) sessions.push(refused(refusal));
    for (const member of zip.members) {
      const path = `${options.name}!${member.path}`;
      sessions.push(...(await openMember(member.bytes, path, ctx)));
      ctx.consumedBefore = 0;
    }
    for (const refusal of zip.overBudget) if (refusal.path !== ROOT_SESSION_PATH) sessions.push(refused(refusal));
    // Nothing could be read: the archive itself is the one session, refused with the rule, the
    // members and the limits, so every reader says why instead of showing nothing.
    if (sessions.length === 0) sessions.push(failedSession(options.name, ctx, zipRefusal(zip.findings)));
  } else {
    sessions.push(...(await openMember(bytes, options.name, ctx)));
  }
  return { file: options.name, bytes: bytes.length, sessions, findings };
}

/** An input that arrives in pieces: a file read as a stream, a download. */
export interface ByteStream {
  /** Its size when known (a file's), else a guess or null; used to size the buffer once. */
  sizeHint: number | null;
  chunks: AsyncIterable<Uint8Array>;
  /**
   * Where the chunks are read to, when the reader writes the whole input into one allocation in
   * order and hands out views of it: the load then keeps that allocation as its text, without a
   * copy (a Node `Buffer` also keeps its native byte searches).
   */
  storage?: Uint8Array;
}

/**
 * {@link openBytes} for an input that arrives in pieces. Raw JSONL is scanned as it arrives, so
 * reading a large file overlaps with decoding it instead of preceding it; the other forms
 * (containers, JSON arrays) need the whole input and are opened once it is read.
 * @returns the result, and the text as read (all of it, unless the load stopped early)
 */
export async function openStream(stream: ByteStream, options: OpenOptions): Promise<{ result: LoadResult; input: Uint8Array }> {
  const budget = options.memoryLimitBytes === undefined ? null : new MemoryBudget(options.memoryLimitBytes);
  // A known size is allocated once and held, as a whole input is; a guess grows as needed.
  const hint = stream.sizeHint;
  const text =
    stream.storage !== undefined
      ? ByteBuffer.over(stream.storage, budget)
      : hint !== null && (budget === null || budget.fits(hint))
        ? ByteBuffer.sized(hint, budget)
        : new ByteBuffer(hint ?? 1 << 20, budget);
  const iterator = stream.chunks[Symbol.asyncIterator]();
  let ended = false;
  /** Bytes the stream delivered, appended or not: the input's size when the load read it all. */
  let read = 0;
  /** Append the next piece; false once the input has ended. */
  const fill = async (): Promise<boolean> => {
    if (ended) return false;
    if (options.signal?.aborted) throw new LoadCancelled();
    const next = await iterator.next();
    if (next.done === true) ended = true;
    else {
      read += next.value.length;
      text.append(next.value);
    }
    return !ended;
  };
  // The input's size, as `openBytes` reports it, though a load stopped early did not read it all.
  const size = (): number => Math.max(hint ?? 0, read);
  try {
    // The first bytes tell the form (log-format.md §1.1): the magic, then the first non-blank byte.
    while ((text.length < 4 || firstNonBlankIsBracket(text.view()) === null) && (await fill()));
    const view = text.view();
    if (detectContainer(view.subarray(0, 4)) !== 'text' || firstNonBlankIsBracket(view) !== false) {
      while (await fill());
      const input = text.view();
      return { result: await openBytes(input, options), input };
    }
    const ctx: Context = { options, totalBytes: stream.sizeHint ?? 0, consumedBefore: 0, events: 0, budget };
    const sessions = await openText(text, options.name, ctx, fill);
    return { result: { file: options.name, bytes: size(), sessions, findings: [] }, input: text.view() };
  } catch (error) {
    if (!(error instanceof MemoryLimitError)) throw error;
    // The text buffer could not grow before the form was known, or before a container (read
    // whole) was: nothing was decoded.
    const ctx: Context = { options, totalBytes: stream.sizeHint ?? 0, consumedBefore: 0, events: 0, budget };
    const stop = limitStop(ctx, options.name, error, { byte: text.length, line: null, text: 'file' });
    return {
      result: { file: options.name, bytes: size(), sessions: [failedSession(options.name, ctx, stop)], findings: [] },
      input: text.view(),
    };
  } finally {
    if (!ended) await iterator.return?.();
  }
}

async function openMember(bytes: Uint8Array, path: string, ctx: Context): Promise<SessionAnalysis[]> {
  const kind = detectContainer(bytes.subarray(0, 4));
  if (kind === 'zstd') return openZstd(bytes, path, ctx);
  if (kind === 'gzip') return openGzip(bytes, path, ctx);
  if (kind === 'zip') {
    return [failedSession(path, ctx, { line: null, byte: 0, message: 'nested ZIP archives are not supported' })];
  }
  if (firstNonBlankIsBracket(bytes) === true) return [openJsonArray(bytes, path, ctx, 'none')];
  return openText(ByteBuffer.wrap(bytes), path, ctx);
}

function stepOf(ctx: Context): number {
  return Math.min(ctx.options.chunkBytes ?? DEFAULT_CHUNK, BUDGET_STEP);
}

function pipelineFor(
  text: ByteBuffer,
  path: string,
  ctx: Context,
  container: ContainerForm,
  detectArray = false,
  expectedBytes?: number,
): TextPipeline {
  const { checkpointEvery, memoryLimitName } = ctx.options;
  return new TextPipeline({
    path,
    container,
    text,
    budget: ctx.budget,
    step: stepOf(ctx),
    detectArray,
    ...(expectedBytes !== undefined ? { expectedBytes } : {}),
    ...(checkpointEvery !== undefined ? { checkpointEvery } : {}),
    ...(memoryLimitName !== undefined ? { memoryLimitName } : {}),
  });
}

function limitStop(ctx: Context, path: string, error: MemoryLimitError, at: StopPlace, action?: string): DecodeErrorInfo {
  return memoryStop(path, error, at, ctx.options.memoryLimitName, action);
}

/**
 * Inflate gzip input slice by slice into the pipeline's text, like Zstandard frames, so the
 * budget sees the text and its events grow together (fflate's streaming `Gunzip`; see gzip.ts
 * for why never `gunzipSync`). Detection continues on the inflated text (log-format.md §1.1
 * row 3): a JSON array is parsed whole at the end, never scanned.
 */
async function openGzip(bytes: Uint8Array, path: string, ctx: Context): Promise<SessionAnalysis[]> {
  const stream = new GunzipStream();
  const text = new ByteBuffer(Math.min(bytes.length * 4, 1 << 26), ctx.budget);
  const pipeline = pipelineFor(text, path, ctx, 'gzip', true);
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  try {
    for (let offset = 0; offset < bytes.length && pipeline.stopped === null; offset += chunk) {
      const end = Math.min(bytes.length, offset + chunk);
      for (let at = offset; at < end && pipeline.stopped === null; at += GZIP_SLICE) {
        pipeline.append(stream.push(bytes.subarray(at, Math.min(end, at + GZIP_SLICE))));
      }
      await tick(ctx, end, pipeline.eventCount);
    }
    // Stopped early, the CRC-32 at the end is never reached: the text read stays unverified.
    if (pipeline.stopped === null) pipeline.append(stream.end());
  } catch (error) {
    if (!(error instanceof GzipError)) throw error;
    return [failedSession(path, ctx, { line: null, byte: null, message: `gzip: ${error.message}` })];
  }
  if (pipeline.isArray === true) {
    // A JSON array is parsed whole: a prefix of one is not an array.
    const stop = pipeline.stopped;
    if (stop !== null)
      return [failedSession(path, ctx, limitStop(ctx, path, stop, { byte: text.length, line: null, text: 'decompressed' }))];
    return [openJsonArray(text.view(), path, ctx, 'gzip')];
  }
  const sessions = pipeline.finish();
  ctx.events += pipeline.eventCount;
  return sessions;
}

/**
 * Scan logical text in chunks: the text held in `text`, and, with `fill`, whatever `fill`
 * appends to it until it says the input has ended (a stream, scanned as it arrives).
 */
async function openText(
  text: ByteBuffer,
  path: string,
  ctx: Context,
  fill: (() => Promise<boolean>) | null = null,
): Promise<SessionAnalysis[]> {
  // Raw text wrapped whole, or sized from a known length: its capacity is its final length.
  const pipeline = pipelineFor(
    text,
    path,
    ctx,
    'none',
    false,
    fill === null || ctx.totalBytes === text.capacity ? text.capacity : undefined,
  );
  // Without a chunk size given, the first chunks are small and double up to the default: a
  // load yields (and answers the page's first questions about a preview) within milliseconds
  // of starting, while its code is still cold, and reads at full pace after a few chunks.
  const given = ctx.options.chunkBytes;
  let chunk = given ?? FIRST_CHUNK;
  let more = fill !== null;
  let scanned = 0;
  while (pipeline.stopped === null) {
    if (more && text.length - scanned < chunk) {
      try {
        more = await (fill as () => Promise<boolean>)();
      } catch (error) {
        if (!(error instanceof MemoryLimitError)) throw error;
        // Only a budget refuses. Scan what was read; the stop forgets the unfinished line.
        pipeline.advance();
        pipeline.stop(error);
        break;
      }
      continue;
    }
    if (scanned >= text.length) break;
    const end = Math.min(scanned + chunk, text.length);
    pipeline.advance(end);
    scanned = end;
    if (given === undefined) chunk = Math.min(DEFAULT_CHUNK, chunk * 2);
    await tick(ctx, end, pipeline.eventCount);
  }
  const sessions = pipeline.finish();
  ctx.events += pipeline.eventCount;
  return sessions;
}

async function openZstd(bytes: Uint8Array, path: string, ctx: Context): Promise<SessionAnalysis[]> {
  await initZstd();
  const budget = ctx.budget;
  // With a budget, the stream holds each plaintext it returns in it; released below once appended.
  const stream = new ZstdFrameStream(budget === null ? {} : { budget });
  const text = new ByteBuffer(Math.min(bytes.length * 8, 1 << 28), budget);
  const pipeline = pipelineFor(text, path, ctx, 'zstd');
  const { scanner } = pipeline;
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  const native = ctx.options.nativeZstd === undefined ? nativeZstd() : ctx.options.nativeZstd;
  // The header-frame check needs only where the first frame starts and whether it is one line.
  let first: ZstdFrameSummary['first'] = null;
  for (let offset = 0; offset < bytes.length && stream.error === null && pipeline.stopped === null; offset += chunk) {
    const piece = bytes.subarray(offset, offset + chunk);
    const frames: (DecodedZstdFrame | null)[] = native === null ? stream.pushFrames(piece) : await stream.pushFramesWith(piece, native);
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i] as DecodedZstdFrame;
      // Dropped from the list as it is handed on, so an appended plaintext can be collected.
      frames[i] = null;
      if (pipeline.stopped === null && pipeline.append([frame.plaintext]) && first === null) {
        first = { start: frame.start, oneLine: isOneLine(frame.plaintext) };
      }
      // Appended (or, after a stop, never to be): no longer the stream's to account for.
      budget?.release(frame.plaintext.length);
    }
    if (stream.memoryError !== null) pipeline.stop(stream.memoryError);
    await tick(ctx, Math.min(offset + chunk, bytes.length), pipeline.eventCount);
  }
  const damage = stream.error;
  // Damage inside complete frames is fatal upstream; a torn final frame is not. A memory stop
  // leaves a line unfinished on purpose: only real damage counts then.
  const tornRecord =
    pipeline.stopped === null ? text.length > scanner.committedBytes || scanner.loader.issue !== null : scanner.loader.issue !== null;
  let torn: ZstdFrameSummary['torn'] = null;
  if (damage === null && pipeline.stopped === null) {
    let tornFrame: TornZstdFrame | null = null;
    try {
      tornFrame = stream.end().torn;
    } catch (error) {
      if (!(error instanceof MemoryLimitError)) throw error;
      pipeline.stop(error);
    }
    if (tornFrame !== null) {
      const recovered = tornFrame.plaintext.length;
      if (recovered > 0) pipeline.append([tornFrame.plaintext]);
      budget?.release(recovered);
      // Its text was not (all) read: no torn-frame finding about what it recovered.
      if (pipeline.stopped === null) torn = { start: tornFrame.start, recovered };
    }
  }
  // Stopped before the first frame was read: "no complete frame" would be untrue.
  const zstdFindings =
    pipeline.stopped !== null && first === null
      ? []
      : checkZstdFrameSummary({ first, torn, error: damage === null ? null : zstdErrorInfo(damage) });
  const extra: Diagnostic[] = zstdFindings.map((f) => ({
    severity: f.severity,
    rule: f.rule,
    seq: null,
    line: null,
    message: f.byte !== null && !f.message.includes(`byte ${f.byte}`) ? `${f.message} (byte ${f.byte})` : f.message,
  }));
  const sessions = pipeline.finish({
    extra,
    zstdTornRecord: tornRecord,
    damage: damage === null ? null : { line: null, byte: damage.byte, message: damage.message },
  });
  ctx.events += pipeline.eventCount;
  return sessions;
}

function openJsonArray(bytes: Uint8Array, path: string, ctx: Context, container: ContainerForm): SessionAnalysis {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let values: unknown[] = [];
  let decodeError: DecodeErrorInfo | null = null;
  const extra: Diagnostic[] = [];
  const cost = bytes.length * JSON_ARRAY_FACTOR;
  if (ctx.budget !== null && !ctx.budget.fits(cost)) {
    // Parsed whole or not at all: nothing of it can be kept.
    const error = new MemoryLimitError(ctx.budget.held + cost, ctx.budget.limit);
    decodeError = limitStop(ctx, path, error, { byte: 0, line: null, text: 'file' }, 'parsing the JSON array');
  } else {
    ctx.budget?.hold(cost);
    if (startsWithBom(bytes)) extra.push(bomDiagnostic());
    try {
      const parsed: unknown = JSON.parse(decoder.decode(startsWithBom(bytes) ? bytes.subarray(BOM_BYTES) : bytes));
      if (Array.isArray(parsed)) values = parsed;
      else decodeError = { line: null, byte: 0, message: 'the JSON value is not an array of events' };
    } catch (error) {
      decodeError = { line: null, byte: 0, message: `not valid JSON: ${(error as Error).message}` };
    }
  }
  const split = splitArrayHeader(values);
  if (split.diagnostic !== null) extra.push(split.diagnostic);
  const events = split.events;
  const first = values.length - events.length;
  const log = new ValueLog(events, null, first);
  const analyzer = new SessionAnalyzer({
    path,
    form: { container, text: 'json-array' },
    header: split.header,
    log,
    baseSeq: 0,
    checksFor: (fold) => standardChecks({ format: 'json-array', header: null, fold, log }),
  });
  for (let i = 0; i < events.length; i++) analyzer.event(events[i], i, { line: 0, byte: -1, member: first + i });
  return analyzer.finish(decodeError, extra);
}

/** The decode error of an archive none of whose members could be read. */
function zipRefusal(findings: readonly { severity: string; rule: string; message: string }[]): DecodeErrorInfo {
  const errors = findings.filter((f) => f.severity === 'error');
  const cause = errors.find((f) => f.rule !== 'zip/no-session') ?? errors[0];
  const message = errors.length === 0 ? 'ZIP has no session.jsonl' : errors.map((f) => f.message).join('; ');
  return { line: null, byte: null, rule: cause?.rule ?? 'zip/no-session', message };
}

function failedSession(path: string, _ctx: Context, error: DecodeErrorInfo): SessionAnalysis {
  const analyzer = new SessionAnalyzer({
    path,
    form: { container: 'none', text: 'jsonl' },
    header: null,
    log: new ValueLog([]),
    baseSeq: 0,
  });
  return analyzer.finish(error);
}
