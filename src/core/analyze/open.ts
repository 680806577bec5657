/**
 * Open an input of any supported form (log-format.md §1.1) and analyse every session in it.
 *
 * Containers are unwrapped (ZIP members, Zstandard frames, gzip) and the logical text is fed to
 * the line scanner in chunks, so progress can be reported and a load cancelled between chunks.
 */
import { readExportZip } from '../decode/zip';
import { detectContainer } from '../decode/detect';
import { gunzip } from '../decode/gzip';
import { JsonlScanner } from '../decode/jsonl';
import type { TextSession } from '../decode/jsonl';
import { ValueLog } from '../decode/line-log';
import { ZstdFrameStream, checkZstdFrames, initZstd } from '../decode/zstd';
import type { DecodeErrorInfo, Diagnostic, LoadProgress } from '../model';
import { ByteBuffer } from '../util/grow';
import { diagnosticsForScan } from './scan-diagnostics';
import { SessionAnalyzer } from './session';
import type { SessionAnalysis } from './session';
import { standardChecks } from './checks';
import { checkHeaderLine } from '../checks/header';

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

interface Context {
  options: OpenOptions;
  totalBytes: number;
  /** Input bytes consumed before the current member. */
  consumedBefore: number;
  events: number;
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
  const ctx: Context = { options, totalBytes: bytes.length, consumedBefore: 0, events: 0 };
  const findings: Diagnostic[] = [];
  const sessions: SessionAnalysis[] = [];
  const kind = detectContainer(bytes.subarray(0, 4));
  if (kind === 'zip') {
    const zip = readExportZip(bytes);
    for (const f of zip.findings) findings.push({ severity: f.severity, rule: f.rule, seq: null, line: null, message: f.message });
    for (const member of zip.members) {
      const path = `${options.name}!${member.path}`;
      sessions.push(...(await openMember(member.bytes, path, ctx)));
      ctx.consumedBefore = 0;
    }
  } else {
    sessions.push(...(await openMember(bytes, options.name, ctx)));
  }
  return { file: options.name, bytes: bytes.length, sessions, findings };
}

async function openMember(bytes: Uint8Array, path: string, ctx: Context): Promise<SessionAnalysis[]> {
  const kind = detectContainer(bytes.subarray(0, 4));
  if (kind === 'zstd') return openZstd(bytes, path, ctx);
  if (kind === 'gzip') {
    let inflated: Uint8Array;
    try {
      inflated = gunzip(bytes);
    } catch (error) {
      return [failedSession(path, ctx, { line: null, byte: null, message: `gzip: ${(error as Error).message}` })];
    }
    // Detection continues on the inflated text (log-format.md §1.1 row 3).
    if (startsWithBracket(inflated)) return [openJsonArray(inflated, path)];
    return openText(ByteBuffer.wrap(inflated), path, ctx, 'jsonl-gzip', []);
  }
  if (kind === 'zip') {
    return [failedSession(path, ctx, { line: null, byte: 0, message: 'nested ZIP archives are not supported' })];
  }
  if (startsWithBracket(bytes)) return [openJsonArray(bytes, path)];
  return openText(ByteBuffer.wrap(bytes), path, ctx, null, []);
}

function startsWithBracket(bytes: Uint8Array): boolean {
  for (const b of bytes) {
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x5b;
  }
  return false;
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
      baseSeq: session.format === 'stream-json' ? null : 0,
      checksFor: (fold) => standardChecks({ format: session.format, header, fold, log: session.log }),
      ...(ctx.options.checkpointEvery !== undefined ? { checkpointEvery: ctx.options.checkpointEvery } : {}),
    });
    analyzers.set(session.log, analyzer);
    return analyzer;
  };
  return { analyzers, factory };
}

/** Scan logical text held in `text` (already complete) in chunks. */
async function openText(
  text: ByteBuffer,
  path: string,
  ctx: Context,
  format: 'jsonl-gzip' | null,
  extra: Diagnostic[],
): Promise<SessionAnalysis[]> {
  let scanner: JsonlScanner | null = null;
  const { analyzers, factory } = makeAnalyzers(path, ctx, () => scanner?.firstLine ?? null);
  scanner = new JsonlScanner(text, factory);
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  for (let limit = chunk; limit < text.length + chunk; limit += chunk) {
    scanner.advance(Math.min(limit, text.length));
    await tick(ctx, Math.min(limit, text.length), scanner.eventCount);
  }
  scanner.end();
  ctx.events += scanner.eventCount;
  return finishSessions(scanner, analyzers, format, extra, null);
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
  const stream = new ZstdFrameStream();
  const text = new ByteBuffer(Math.min(bytes.length * 8, 1 << 28));
  let scanner: JsonlScanner | null = null;
  const { analyzers, factory } = makeAnalyzers(path, ctx, () => scanner?.firstLine ?? null);
  scanner = new JsonlScanner(text, factory);
  const chunk = ctx.options.chunkBytes ?? DEFAULT_CHUNK;
  const frames: Uint8Array[] = [];
  const spans: { start: number; end: number }[] = [];
  for (let offset = 0; offset < bytes.length && stream.error === null; offset += chunk) {
    for (const frame of stream.pushFrames(bytes.subarray(offset, offset + chunk))) {
      // Only the first frame's plaintext is needed later (the header-frame check).
      frames.push(frames.length === 0 ? frame.plaintext : EMPTY_FRAME);
      spans.push({ start: frame.start, end: frame.end });
      text.append(frame.plaintext);
      scanner.advance(text.length);
    }
    await tick(ctx, Math.min(offset + chunk, bytes.length), scanner.eventCount);
  }
  const damage = stream.error;
  // Damage inside complete frames is fatal upstream; a torn final frame is not.
  const tornRecord = text.length > scanner.committedBytes || scanner.loader.issue !== null;
  const torn = damage === null ? stream.end().torn : null;
  if (torn && torn.plaintext.length > 0) {
    text.append(torn.plaintext);
    scanner.advance(text.length);
  }
  scanner.end();
  ctx.events += scanner.eventCount;
  const zstdFindings = checkZstdFrames({
    frames,
    spans,
    torn,
    error: damage === null ? null : { kind: damage.name === 'ZstdStructureError' ? 'structure' : 'frame', message: damage.message, byte: damage.byte },
  });
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
  return finishSessions(scanner, analyzers, 'jsonl-zstd', extra, tornRecord);
}

const EMPTY_FRAME = new Uint8Array(0);

function openJsonArray(bytes: Uint8Array, path: string): SessionAnalysis {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let values: unknown[] = [];
  let decodeError: DecodeErrorInfo | null = null;
  try {
    const parsed: unknown = JSON.parse(decoder.decode(bytes));
    if (Array.isArray(parsed)) values = parsed;
    else decodeError = { line: null, byte: 0, message: 'the JSON value is not an array of events' };
  } catch (error) {
    decodeError = { line: null, byte: 0, message: `not valid JSON: ${(error as Error).message}` };
  }
  const log = new ValueLog(values);
  const analyzer = new SessionAnalyzer({
    path,
    format: 'json-array',
    header: null,
    log,
    baseSeq: 0,
    checksFor: (fold) => standardChecks({ format: 'json-array', header: null, fold, log }),
  });
  for (let i = 0; i < values.length; i++) analyzer.event(values[i], i, { line: 0, byte: -1, member: i });
  return analyzer.finish(decodeError);
}

function failedSession(path: string, _ctx: Context, error: DecodeErrorInfo): SessionAnalysis {
  const analyzer = new SessionAnalyzer({ path, format: 'jsonl', header: null, log: new ValueLog([]), baseSeq: 0 });
  return analyzer.finish(error);
}
