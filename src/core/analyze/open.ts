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
import { JsonlScanner, REGION as SCAN_REGION } from '../decode/jsonl';
import type { TextSession } from '../decode/jsonl';
import { ValueLog } from '../decode/line-log';
import { ZstdFrameStream, checkZstdFrameSummary, initZstd, isOneLine, zstdErrorInfo } from '../decode/zstd';
import type { DecodedZstdFrame, TornZstdFrame, ZstdFrameSummary } from '../decode/zstd';
import type { DecodeErrorInfo, Diagnostic, LoadProgress } from '../model';
import { ByteBuffer } from '../util/grow';
import {
  BYTES_PER_EVENT,
  JSON_ARRAY_FACTOR,
  LINE_FACTOR,
  MEMORY_LIMIT_RULE,
  MemoryBudget,
  MemoryLimitError,
  PRIOR_EVENTS_PER_BYTE,
  formatBytePair,
} from '../util/budget';
import { diagnosticsForScan } from './scan-diagnostics';
import { SessionAnalyzer } from './session';
import type { SessionAnalysis } from './session';
import { standardChecks } from './checks';
import { checkHeaderLine } from '../checks/header';
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
      return failedSession(path, ctx, memoryStop(ctx, path, refusal.error, { byte: 0, line: null, text: 'member' }, 'inflating it'));
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
  const text = hint !== null && (budget === null || budget.fits(hint)) ? ByteBuffer.sized(hint, budget) : new ByteBuffer(hint ?? 1 << 20, budget);
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
    const stop = memoryStop(ctx, options.name, error, { byte: text.length, line: null, text: 'file' });
    return { result: { file: options.name, bytes: size(), sessions: [failedSession(options.name, ctx, stop)], findings: [] }, input: text.view() };
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
  if (firstNonBlankIsBracket(bytes) === true) return [openJsonArray(bytes, path, ctx)];
  return openText(ByteBuffer.wrap(bytes), path, ctx);
}

/**
 * Inflate gzip input slice by slice into a text buffer and scan the text as it grows, like
 * Zstandard frames, so the budget sees the text and its events grow together (fflate's streaming
 * `Gunzip`; see gzip.ts for why never `gunzipSync`).
 */
async function openGzip(bytes: Uint8Array, path: string, ctx: Context): Promise<SessionAnalysis[]> {
  const budget = ctx.budget;
  const stream = new GunzipStream();
  const text = new ByteBuffer(Math.min(bytes.length * 4, 1 << 26), budget);
  let scanner: JsonlScanner | null = null;
  const { analyzers, factory } = makeAnalyzers(path, ctx, () => scanner?.firstLine ?? null);
  scanner = new JsonlScanner(text, factory);
  const meter = budget === null ? null : new ScanMeter(budget, scanner, text, stepOf(ctx));
  // Detection continues on the inflated text (log-format.md §1.1 row 3): decided at its first
  // non-blank byte; a JSON array is parsed whole at the end, never scanned.
  let array: boolean | null = null;
  /** Append inflated parts and scan them; the refusal when memory ran out, else null. */
  const take = (parts: Uint8Array[]): MemoryLimitError | null => {
    for (const part of parts) {
      try {
        text.append(part);
      } catch (error) {
        if (error instanceof MemoryLimitError) return error;
        throw error;
      }
    }
    array ??= firstNonBlankIsBracket(text.view());
    if (array !== false) return null;
    if (meter !== null) return meter.advance(text.length);
    (scanner as JsonlScanner).advance(text.length);
    return null;
  };
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  let stop: MemoryLimitError | null = null;
  try {
    for (let offset = 0; offset < bytes.length && stop === null; offset += chunk) {
      const end = Math.min(bytes.length, offset + chunk);
      for (let at = offset; at < end && stop === null; at += GZIP_SLICE) {
        stop = take(stream.push(bytes.subarray(at, Math.min(end, at + GZIP_SLICE))));
      }
      await tick(ctx, end, scanner.eventCount);
    }
    // Stopped early, the CRC-32 at the end is never reached: the text read stays unverified.
    if (stop === null) stop = take(stream.end());
  } catch (error) {
    if (!(error instanceof GzipError)) throw error;
    return [failedSession(path, ctx, { line: null, byte: null, message: `gzip: ${error.message}` })];
  }
  if (array === true) {
    // A JSON array is parsed whole: a prefix of one is not an array.
    if (stop !== null) return [failedSession(path, ctx, memoryStop(ctx, path, stop, { byte: text.length, line: null, text: 'decompressed' }))];
    return [openJsonArray(text.view(), path, ctx)];
  }
  const stopDiagnostics = stop === null ? [] : stopScanner(scanner, text, ctx, path, stop, true);
  scanner.end();
  ctx.events += scanner.eventCount;
  return finishSessions(scanner, analyzers, 'jsonl-gzip', stopDiagnostics, null);
}

/**
 * Whether the first non-blank byte is `[`; null while there is none. A leading byte-order mark
 * is not text (log-format.md §1.1): it is dropped before detection.
 */
function firstNonBlankIsBracket(bytes: Uint8Array): boolean | null {
  for (let i = startsWithBom(bytes) ? BOM_BYTES : 0; i < bytes.length; i++) {
    const b = bytes[i] as number;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x5b;
  }
  return null;
}

/**
 * Feeds a scanner under the memory budget: before each step it estimates what the step will
 * allocate (its events, and its longest line decoded and parsed) and stops when that would not
 * fit; after it, the events decoded are held.
 */
class ScanMeter {
  private fed = 0;
  private events = 0;

  constructor(
    private readonly budget: MemoryBudget,
    private readonly scanner: JsonlScanner,
    private readonly text: ByteBuffer,
    private readonly step: number,
  ) {}

  /** Feed the scanner the text up to byte `end`; the refusal when a step would not fit, else null. */
  advance(end: number): MemoryLimitError | null {
    const { budget, scanner } = this;
    while (this.fed < end) {
      const next = Math.min(end, this.fed + this.step);
      const committed = scanner.committedBytes;
      const rate = scanner.eventCount > 0 && committed > 0 ? scanner.eventCount / committed : PRIOR_EVENTS_PER_BYTE;
      // The line the step completes first runs from `committed` (possibly long ago: a 200 MB
      // line arrives over many steps); the scanner decodes the rest in small regions (a longer
      // line in the middle of a step is at most a step long: an error of a few MB at most). A
      // step that completes no line decodes nothing. Searching only the new bytes keeps it linear.
      const lf = this.text.view().subarray(this.fed, next).indexOf(0x0a);
      const first = this.fed + lf + 1 - committed;
      const longest = lf < 0 ? 0 : Math.max(first, Math.min(SCAN_REGION, next - (this.fed + lf + 1)));
      const cost = Math.ceil((next - this.fed) * rate * BYTES_PER_EVENT) + LINE_FACTOR * longest;
      if (!budget.fits(cost)) return new MemoryLimitError(budget.held + cost, budget.limit);
      scanner.advance(next);
      this.fed = next;
      budget.hold((scanner.eventCount - this.events) * BYTES_PER_EVENT);
      this.events = scanner.eventCount;
      // The estimate was low (denser events than so far): stop before reading more.
      if (budget.held > budget.limit) return new MemoryLimitError(budget.held, budget.limit);
    }
    return null;
  }
}

function stepOf(ctx: Context): number {
  return Math.min(ctx.options.chunkBytes ?? DEFAULT_CHUNK, BUDGET_STEP);
}

/** Where a load stopped: a byte offset in the input or in one text of it. */
interface StopPlace {
  byte: number;
  line: number | null;
  /** What `byte` counts: the file's text, the decompressed text, or the start of a ZIP member. */
  text: 'file' | 'decompressed' | 'member';
}

/** The decode error of a load stopped by its memory budget. */
function memoryStop(ctx: Context, path: string, error: MemoryLimitError, at: StopPlace, action = 'reading on'): DecodeErrorInfo {
  const [needed, limit] = formatBytePair(error.needed, error.limit);
  const of = at.text === 'decompressed' ? ' of the decompressed text' : '';
  const line = at.line === null ? '' : ` (line ${at.line})`;
  const name = ctx.options.memoryLimitName ?? 'the memory limit';
  return {
    line: at.line,
    byte: at.byte,
    rule: MEMORY_LIMIT_RULE,
    message: `stopped reading ${path} at byte ${at.byte}${of}${line}: ${action} would need about ${needed}, over ${name} of ${limit}`,
  };
}

/**
 * Stop a scanner where it is (the start of the first line not read) and forget the text after
 * it, so `end()` reads nothing more and no torn line is reported. The stop becomes the decode
 * error, or, when decoding had already stopped at damage, an error diagnostic beside it.
 */
function stopScanner(
  scanner: JsonlScanner,
  text: ByteBuffer,
  ctx: Context,
  path: string,
  error: MemoryLimitError,
  decompressed: boolean,
): Diagnostic[] {
  const byte = scanner.committedBytes;
  text.truncate(byte);
  const info = memoryStop(ctx, path, error, { byte, line: scanner.lines + 1, text: decompressed ? 'decompressed' : 'file' });
  if (scanner.decodeError === null) {
    scanner.decodeError = info;
    return [];
  }
  return [{ severity: 'error', rule: MEMORY_LIMIT_RULE, seq: null, line: info.line, message: info.message }];
}

function makeAnalyzers(
  path: string,
  ctx: Context,
  firstLine: () => string | null,
): {
  analyzers: Map<TextSession['log'], SessionAnalyzer>;
  factory: (session: Omit<TextSession, 'sink'>) => SessionAnalyzer;
} {
  const analyzers = new Map<TextSession['log'], SessionAnalyzer>();
  const factory = (session: Omit<TextSession, 'sink'>): SessionAnalyzer => {
    // The loader view applies to stored session logs, whose first line is the header line.
    const header = session.format === 'jsonl' ? checkHeaderLine(firstLine(), true) : null;
    const sessionPath = session.streamSessionId !== null ? `${path}#${session.streamSessionId}` : path;
    const analyzer = new SessionAnalyzer({
      path: sessionPath,
      format: session.format,
      header: session.header,
      log: session.log,
      baseSeq: session.format === 'stream-json' || session.format === 'jsonrpc' ? null : 0,
      checksFor: (fold) => standardChecks({ format: session.format, header, fold, log: session.log }),
      ...(ctx.options.checkpointEvery !== undefined ? { checkpointEvery: ctx.options.checkpointEvery } : {}),
    });
    analyzers.set(session.log, analyzer);
    return analyzer;
  };
  return { analyzers, factory };
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
  let scanner: JsonlScanner | null = null;
  const { analyzers, factory } = makeAnalyzers(path, ctx, () => scanner?.firstLine ?? null);
  scanner = new JsonlScanner(text, factory);
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  const meter = ctx.budget === null ? null : new ScanMeter(ctx.budget, scanner, text, stepOf(ctx));
  let stop: MemoryLimitError | null = null;
  let more = fill !== null;
  let scanned = 0;
  while (stop === null) {
    if (more && text.length - scanned < chunk) {
      try {
        more = await (fill as () => Promise<boolean>)();
      } catch (error) {
        if (!(error instanceof MemoryLimitError)) throw error;
        // Only a budget refuses, so there is a meter. Scan what was read; the stop below
        // forgets the unfinished line.
        stop = (meter as ScanMeter).advance(text.length) ?? error;
        break;
      }
      continue;
    }
    if (scanned >= text.length) break;
    const end = Math.min(scanned + chunk, text.length);
    if (meter === null) scanner.advance(end);
    else stop = meter.advance(end);
    scanned = end;
    await tick(ctx, end, scanner.eventCount);
  }
  const stopDiagnostics = stop === null ? [] : stopScanner(scanner, text, ctx, path, stop, false);
  scanner.end();
  ctx.events += scanner.eventCount;
  return finishSessions(scanner, analyzers, null, stopDiagnostics, null);
}

function finishSessions(
  scanner: JsonlScanner,
  analyzers: Map<TextSession['log'], SessionAnalyzer>,
  format: 'jsonl-gzip' | 'jsonl-zstd' | null,
  extra: Diagnostic[],
  zstdTornRecord: boolean | null,
): SessionAnalysis[] {
  const out: SessionAnalysis[] = [];
  for (const session of scanner.sessions) {
    const analyzer = analyzers.get(session.log) as SessionAnalyzer;
    const scanDiagnostics = diagnosticsForScan(scanner, session, zstdTornRecord);
    const analysis = analyzer.finish(scanner.decodeError, [...extra, ...scanDiagnostics]);
    if (format !== null && analysis.format === 'jsonl') analysis.format = format;
    out.push(analysis);
  }
  return out;
}

async function openZstd(bytes: Uint8Array, path: string, ctx: Context): Promise<SessionAnalysis[]> {
  await initZstd();
  const budget = ctx.budget;
  // With a budget, the stream holds each plaintext it returns in it; released below once appended.
  const stream = new ZstdFrameStream(budget === null ? {} : { budget });
  const text = new ByteBuffer(Math.min(bytes.length * 8, 1 << 28), budget);
  let scanner: JsonlScanner | null = null;
  const { analyzers, factory } = makeAnalyzers(path, ctx, () => scanner?.firstLine ?? null);
  scanner = new JsonlScanner(text, factory);
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  const meter = budget === null ? null : new ScanMeter(budget, scanner, text, stepOf(ctx));
  /** Append plaintext and scan it; `stop` is the refusal when memory ran out. */
  const feed = (plaintext: Uint8Array): { appended: boolean; stop: MemoryLimitError | null } => {
    try {
      text.append(plaintext);
    } catch (error) {
      if (error instanceof MemoryLimitError) return { appended: false, stop: error };
      throw error;
    }
    if (meter !== null) return { appended: true, stop: meter.advance(text.length) };
    (scanner as JsonlScanner).advance(text.length);
    return { appended: true, stop: null };
  };
  // The header-frame check needs only where the first frame starts and whether it is one line.
  let first: ZstdFrameSummary['first'] = null;
  let stop: MemoryLimitError | null = null;
  for (let offset = 0; offset < bytes.length && stream.error === null && stop === null; offset += chunk) {
    const frames: (DecodedZstdFrame | null)[] = stream.pushFrames(bytes.subarray(offset, offset + chunk));
    for (let i = 0; i < frames.length; i++) {
      const frame = frames[i] as DecodedZstdFrame;
      // Dropped from the list as it is handed on, so an appended plaintext can be collected.
      frames[i] = null;
      if (stop === null) {
        const fed = feed(frame.plaintext);
        if (fed.appended && first === null) first = { start: frame.start, oneLine: isOneLine(frame.plaintext) };
        stop = fed.stop;
      }
      // Appended (or, after a stop, never to be): no longer the stream's to account for.
      budget?.release(frame.plaintext.length);
    }
    stop ??= stream.memoryError;
    await tick(ctx, Math.min(offset + chunk, bytes.length), scanner.eventCount);
  }
  const damage = stream.error;
  // Damage inside complete frames is fatal upstream; a torn final frame is not. A memory stop
  // leaves a line unfinished on purpose: only real damage counts then.
  const tornRecord = stop === null ? text.length > scanner.committedBytes || scanner.loader.issue !== null : scanner.loader.issue !== null;
  let torn: ZstdFrameSummary['torn'] = null;
  if (damage === null && stop === null) {
    let tornFrame: TornZstdFrame | null = null;
    try {
      tornFrame = stream.end().torn;
    } catch (error) {
      if (!(error instanceof MemoryLimitError)) throw error;
      stop = error;
    }
    if (tornFrame !== null) {
      const recovered = tornFrame.plaintext.length;
      if (recovered > 0) stop = feed(tornFrame.plaintext).stop;
      budget?.release(recovered);
      // Its text was not (all) read: no torn-frame finding about what it recovered.
      if (stop === null) torn = { start: tornFrame.start, recovered };
    }
  }
  const stopDiagnostics = stop === null ? [] : stopScanner(scanner, text, ctx, path, stop, true);
  scanner.end();
  ctx.events += scanner.eventCount;
  // Stopped before the first frame was read: "no complete frame" would be untrue.
  const zstdFindings =
    stop !== null && first === null ? [] : checkZstdFrameSummary({ first, torn, error: damage === null ? null : zstdErrorInfo(damage) });
  const extra: Diagnostic[] = zstdFindings.map((f) => ({
    severity: f.severity,
    rule: f.rule,
    seq: null,
    line: null,
    message: f.byte !== null && !f.message.includes(`byte ${f.byte}`) ? `${f.message} (byte ${f.byte})` : f.message,
  }));
  if (damage !== null && scanner.decodeError === null) {
    scanner.decodeError = { line: null, byte: damage.byte, message: damage.message };
  }
  return finishSessions(scanner, analyzers, 'jsonl-zstd', [...extra, ...stopDiagnostics], tornRecord);
}

function openJsonArray(bytes: Uint8Array, path: string, ctx: Context): SessionAnalysis {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let values: unknown[] = [];
  let decodeError: DecodeErrorInfo | null = null;
  const extra: Diagnostic[] = [];
  const cost = bytes.length * JSON_ARRAY_FACTOR;
  if (ctx.budget !== null && !ctx.budget.fits(cost)) {
    // Parsed whole or not at all: nothing of it can be kept.
    const error = new MemoryLimitError(ctx.budget.held + cost, ctx.budget.limit);
    decodeError = memoryStop(ctx, path, error, { byte: 0, line: null, text: 'file' }, 'parsing the JSON array');
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
    format: 'json-array',
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
  const analyzer = new SessionAnalyzer({ path, format: 'jsonl', header: null, log: new ValueLog([]), baseSeq: 0 });
  return analyzer.finish(error);
}
