/**
 * The one text pipeline every container feeds: logical text appended to a buffer, the line
 * scanner over it, one {@link SessionAnalyzer} per session found, and (with a memory limit) the
 * meter that checks each scanning step against the load's budget.
 *
 * A container driver (plain text, gzip, Zstandard) only unwraps bytes and hands the text on:
 * {@link TextPipeline.append} (or, when the driver owns the buffer, {@link TextPipeline.advance}),
 * {@link TextPipeline.stop} when memory ran out, {@link TextPipeline.finish} at the end.
 */
import { checkHeaderLine } from '../checks/header';
import type { HeaderLineResult } from '../checks/header';
import { BOM_BYTES, startsWithBom } from '../decode/bom';
import { JsonlScanner, REGION as SCAN_REGION } from '../decode/jsonl';
import type { TextSession } from '../decode/jsonl';
import type { ContainerForm, DecodeErrorInfo, Diagnostic } from '../model';
import { BYTES_PER_EVENT, LINE_FACTOR, MEMORY_LIMIT_RULE, MemoryLimitError, PRIOR_EVENTS_PER_BYTE, formatBytePair } from '../util/budget';
import type { MemoryBudget } from '../util/budget';
import type { ByteBuffer } from '../util/grow';
import { standardChecks } from './checks';
import { diagnosticsForScan } from './scan-diagnostics';
import { SessionAnalyzer } from './session';
import type { SessionAnalysis } from './session';

/** Text scanned before the per-event columns are sized from its events per byte. */
const RESERVE_AFTER = 4 << 20;
/** Over the estimate, so that a log a little denser later on still fits without doubling. */
const RESERVE_MARGIN = 1.03;

/** Options of a {@link TextPipeline}. */
export interface PipelineOptions {
  /** Display path of the input (stream-json sessions add `#sessionId`). */
  path: string;
  /** What the text was unwrapped from. */
  container: ContainerForm;
  /** The buffer holding the logical text; the pipeline appends to it and keeps it as the log. */
  text: ByteBuffer;
  /** The load's memory budget, or null without a limit. */
  budget: MemoryBudget | null;
  /** Bytes scanned between two budget checks (with a budget). */
  step: number;
  /** Checkpoint interval of the time-travel index (tests). */
  checkpointEvery?: number;
  /** What the limit is called in a stop message. */
  memoryLimitName?: string;
  /**
   * The logical text's final length when known (raw JSONL: the input's), so the per-event
   * columns can be allocated once from the events per byte of the first megabytes.
   */
  expectedBytes?: number;
  /**
   * Tell a JSON array from JSONL by the text's first non-blank byte before scanning (log-format.md
   * §1.1 row 3, inside gzip): while it is undecided or `[`, appended text is held, not scanned.
   */
  detectArray?: boolean;
}

/** Where a load stopped: a byte offset in the input or in one text of it. */
export interface StopPlace {
  byte: number;
  line: number | null;
  /** What `byte` counts: the file's text, the decompressed text, or the start of a ZIP member. */
  text: 'file' | 'decompressed' | 'member';
}

/** The decode error of a load stopped by its memory budget. */
export function memoryStop(
  path: string,
  error: MemoryLimitError,
  at: StopPlace,
  limitName = 'the memory limit',
  action = 'reading on',
): DecodeErrorInfo {
  const [needed, limit] = formatBytePair(error.needed, error.limit);
  const of = at.text === 'decompressed' ? ' of the decompressed text' : '';
  const line = at.line === null ? '' : ` (line ${at.line})`;
  return {
    line: at.line,
    byte: at.byte,
    rule: MEMORY_LIMIT_RULE,
    message: `stopped reading ${path} at byte ${at.byte}${of}${line}: ${action} would need about ${needed}, over ${limitName} of ${limit}`,
  };
}

/**
 * Whether the first non-blank byte is `[`; null while there is none. A leading byte-order mark
 * is not text (log-format.md §1.1): it is dropped before detection.
 */
export function firstNonBlankIsBracket(bytes: Uint8Array): boolean | null {
  for (let i = startsWithBom(bytes) ? BOM_BYTES : 0; i < bytes.length; i++) {
    const b = bytes[i]!;
    if (b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d) continue;
    return b === 0x5b;
  }
  return null;
}

/** A session the scanner found, with what was decided about it once, when it was found. */
interface Found {
  analyzer: SessionAnalyzer;
  /** The header-line verdict (session JSONL only). */
  header: HeaderLineResult | null;
}

/** What {@link TextPipeline.finish} adds from the container. */
export interface FinishOptions {
  /** Container findings, listed before the memory stop's. */
  extra?: Diagnostic[];
  /** Zstandard: whether damage sits inside complete frames (null for other containers). */
  zstdTornRecord?: boolean | null;
  /** The container's own damage, the decode error unless the text already had one. */
  damage?: DecodeErrorInfo | null;
}

/** Scanner + analyzers + memory meter over one logical text. */
export class TextPipeline {
  readonly scanner: JsonlScanner;
  readonly text: ByteBuffer;
  private readonly options: PipelineOptions;
  private readonly found = new Map<TextSession['log'], Found>();
  private readonly meter: ScanMeter | null;
  private stopError: MemoryLimitError | null = null;
  /** The text's first non-blank byte is `[` (null: undecided, or not asked). */
  private array: boolean | null;

  constructor(options: PipelineOptions) {
    this.options = options;
    this.text = options.text;
    this.array = options.detectArray === true ? null : false;
    this.scanner = new JsonlScanner(this.text, (session) => this.open(session));
    this.meter = options.budget === null ? null : new ScanMeter(options.budget, this.scanner, this.text, options.step);
  }

  /** The analyzer of a session just found; its header line is checked here, once. */
  private open(session: Omit<TextSession, 'sink'>): SessionAnalyzer {
    const { path, checkpointEvery, container } = this.options;
    // The loader view applies to stored session logs, whose first line is the header line.
    const header = session.format === 'jsonl' ? checkHeaderLine(session.firstLine, session.firstLine !== null) : null;
    const analyzer = new SessionAnalyzer({
      path: session.streamSessionId !== null ? `${path}#${session.streamSessionId}` : path,
      form: { container, text: session.format },
      header: session.header,
      log: session.log,
      baseSeq: session.format === 'stream-json' || session.format === 'jsonrpc' ? null : 0,
      checksFor: (fold) => standardChecks({ format: session.format, header, fold, log: session.log }),
      ...(checkpointEvery !== undefined ? { checkpointEvery } : {}),
    });
    this.found.set(session.log, { analyzer, header });
    return analyzer;
  }

  /** Events decoded so far (all sessions). */
  get eventCount(): number {
    return this.scanner.eventCount;
  }

  /** The memory stop, once there is one: nothing more is read after it. */
  get stopped(): MemoryLimitError | null {
    return this.stopError;
  }

  /** Whether the text is a JSON array (decided at its first non-blank byte), null while undecided. */
  get isArray(): boolean | null {
    return this.array;
  }

  /**
   * Append logical text and scan it (unless it is, or may yet be, a JSON array).
   * @returns false when the buffer could not hold the parts (the stop is recorded), else true
   */
  append(parts: readonly Uint8Array[]): boolean {
    if (this.stopError !== null) return false;
    for (const part of parts) {
      try {
        this.text.append(part);
      } catch (error) {
        if (!(error instanceof MemoryLimitError)) throw error;
        this.stop(error);
        return false;
      }
    }
    this.array ??= firstNonBlankIsBracket(this.text.view());
    if (this.array === false) this.advance();
    return true;
  }

  /** Scan the text up to byte `end` (default: all of it), under the budget. */
  advance(end = this.text.length): void {
    if (this.stopError !== null) return;
    if (this.meter === null) {
      this.scanner.advance(end);
      this.reserve();
    } else {
      const refused = this.meter.advance(end);
      if (refused !== null) this.stop(refused);
    }
  }

  private reserved = false;

  /**
   * Once the first {@link RESERVE_AFTER} bytes are scanned, size the one session's per-event
   * columns for the whole text at the rate seen so far. Only without a budget (the budget
   * counts what is held, not what is reserved) and when the text's length is known.
   */
  private reserve(): void {
    const total = this.options.expectedBytes;
    if (this.reserved || total === undefined) return;
    const committed = this.scanner.committedBytes;
    if (committed < Math.min(RESERVE_AFTER, total)) return;
    this.reserved = true;
    const sessions = this.scanner.sessions;
    if (sessions.length !== 1 || committed <= 0) return;
    const session = sessions[0] as TextSession;
    const expected = Math.ceil((this.scanner.eventCount / committed) * total * RESERVE_MARGIN) + 1024;
    // A reservation is at most a few bytes per byte of text: an odd first region cannot ask more.
    const count = Math.min(expected, total + 1024);
    this.found.get(session.log)?.analyzer.reserveEvents(count);
  }

  /** Memory ran out: stop where the scanner is (the first stop wins). */
  stop(error: MemoryLimitError): void {
    this.stopError ??= error;
  }

  /**
   * The input has ended: close every session. A memory stop forgets the text after the last
   * line read (no torn line is reported) and becomes the decode error, or, when decoding had
   * already stopped at damage, an error diagnostic beside it.
   */
  finish(options: FinishOptions = {}): SessionAnalysis[] {
    const { scanner } = this;
    const stopDiagnostics: Diagnostic[] = [];
    if (this.stopError !== null) {
      const byte = scanner.committedBytes;
      this.text.truncate(byte);
      const place: StopPlace = { byte, line: scanner.lines + 1, text: this.options.container === 'none' ? 'file' : 'decompressed' };
      const info = memoryStop(this.options.path, this.stopError, place, this.options.memoryLimitName);
      if (scanner.decodeError === null) scanner.decodeError = info;
      else stopDiagnostics.push({ severity: 'error', rule: MEMORY_LIMIT_RULE, seq: null, line: info.line, message: info.message });
    }
    scanner.end();
    if (options.damage != null && scanner.decodeError === null) scanner.decodeError = options.damage;
    const extra = [...(options.extra ?? []), ...stopDiagnostics];
    return scanner.sessions.map((session) => {
      const { analyzer, header } = this.found.get(session.log) as Found;
      const scanDiagnostics = diagnosticsForScan(scanner, session, header, options.zstdTornRecord ?? null);
      return analyzer.finish(scanner.decodeError, [...extra, ...scanDiagnostics]);
    });
  }

  /**
   * {@link finish} as if the input ended here, for an input that goes on growing: the pipeline
   * stays open and the next {@link append} continues where this one stopped. Only without a
   * memory budget (a growing input is held whole anyway). The scanner only settles what the
   * text after its last line up to `end` (default: all of it) is (`tornBytes`), which the next
   * call sets again.
   */
  snapshot(options: Omit<FinishOptions, 'damage'> & { end?: number } = {}): SessionAnalysis[] {
    const { scanner } = this;
    scanner.settle(options.end ?? this.text.length);
    const extra = options.extra ?? [];
    return scanner.sessions.map((session) => {
      const { analyzer, header } = this.found.get(session.log) as Found;
      const scanDiagnostics = diagnosticsForScan(scanner, session, header, options.zstdTornRecord ?? null);
      return analyzer.snapshot(scanner.decodeError, [...extra, ...scanDiagnostics]);
    });
  }
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
      // line arrives over many steps); the scanner decodes the rest line by line, counted here as
      // at most a region long (a longer line in the middle of a step is at most a step long: an
      // error of a few MB at most). A
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
