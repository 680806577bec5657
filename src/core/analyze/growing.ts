/**
 * An input that grows while it is open: a session dsh is still writing (session-store.md §3).
 *
 * Any byte source feeds it the same way (a URL polled with Range requests, a file handle read
 * again, a server streaming a file): it asks {@link GrowingInput.plan} how to read the source
 * now, from the source's size and its first bytes, then hands over what it read with
 * {@link GrowingInput.append} (the bytes after {@link GrowingInput.size}) or
 * {@link GrowingInput.replace} (the whole content). The input keeps only what is complete:
 * raw JSONL up to its last LF, Zstandard up to its last complete frame; the rest is "not yet",
 * never damage. The analysis it answers with is always the one of opening that complete prefix
 * whole. A source that shrank or whose first bytes changed was repaired or replaced: it is read
 * again from the start, and the growth says so. Damage in an appended part keeps everything
 * before it, says where, and ends the following.
 */
import { detectContainer } from '../decode/detect';
import type { ContainerKind } from '../decode/detect';
import { checkZstdFrameSummary, initZstd, isOneLine, walkZstdFrames, ZstdFrameStream, ZstdStructureError } from '../decode/zstd';
import type { ZstdFrameSummary } from '../decode/zstd';
import { nativeZstd } from '../decode/zstd-native';
import type { Diagnostic } from '../model';
import { ByteBuffer } from '../util/grow';
import { openBytes } from './open';
import type { LoadResult, OpenOptions } from './open';
import { firstNonBlankIsBracket, TextPipeline } from './pipeline';
import type { SessionAnalysis } from './session';

/**
 * Rules of the findings that depend on where the log ends: while the input grows they are
 * marked `provisional` (an unfinished line, an interrupted turn's closers, what upstream's
 * loader would do with the log as it stands, a compaction/prune still awaiting its replacement).
 */
export const END_DEPENDENT_RULES: ReadonlySet<string> = new Set([
  'loader/torn-tail',
  'loader/torn-line',
  'loader/interrupted-turn',
  'loader/result',
  'zstd/torn-record',
  'zstd/torn-frame',
]);

/** Whether a finding depends on where the log ends (see {@link END_DEPENDENT_RULES}). */
export function isEndDependent(d: Diagnostic): boolean {
  return (
    END_DEPENDENT_RULES.has(d.rule) ||
    (d.rule === 'qa/checkpoint-not-adjacent' && d.message.endsWith('is the last event: its tool/result replacement is missing'))
  );
}

/**
 * The analysis kept open between looks: raw JSONL scanned straight from the held bytes, or
 * Zstandard frames decoded as they complete, into one {@link TextPipeline} that never finishes
 * while the input grows. Each look scans, folds and checks only the new lines, and
 * {@link TextPipeline.snapshot} extends the columns and the index in place.
 */
interface LiveText {
  pipeline: TextPipeline;
  /** Zstandard: the frame decoder, fed each complete frame once. */
  zstd: ZstdFrameStream | null;
  /** Zstandard: where the first frame starts and whether it is one line (the header-frame check). */
  first: ZstdFrameSummary['first'];
  /** Source bytes handed over so far. */
  fed: number;
}

/** Bytes of the source's start kept to tell a rewrite from an append. */
export const HEAD_BYTES = 64;

/** How a source should be read now (see {@link GrowingInput.plan}). */
export type ReadPlan =
  /** Nothing changed. */
  | 'none'
  /** Read the bytes after {@link GrowingInput.size} and {@link GrowingInput.append} them. */
  | 'tail'
  /** Read the whole source and {@link GrowingInput.replace} with it. */
  | 'whole';

/** What one look at the source did. */
export interface Growth {
  /**
   * `appended`: more complete lines or frames; `pending`: bytes arrived but nothing complete
   * yet; `unchanged`: nothing new; `reread`: the source shrank or was rewritten and was read
   * again from the start; `stopped`: damage in the appended part, following ended.
   */
  kind: 'appended' | 'pending' | 'unchanged' | 'reread' | 'stopped';
  /** Events the analysis gained (after a re-read: all of them). */
  newEvents: number;
  /** Source bytes held. */
  size: number;
  /** Source bytes that are complete (lines, frames): what the analysis is of. */
  committed: number;
  /** What the user should be told (a re-read, a stop), else null. */
  note: string | null;
}

/** Options of a {@link GrowingInput}: those of an open, without progress or cancel. */
export type GrowingOptions = Omit<OpenOptions, 'onProgress' | 'signal' | 'pause'>;

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

function eventsOf(result: LoadResult | null): number {
  let n = 0;
  for (const s of result?.sessions ?? []) n += s.log.length;
  return n;
}

/** A growing input and the analysis of its complete prefix. */
export class GrowingInput {
  private readonly options: GrowingOptions;
  private raw = new ByteBuffer(1 << 16);
  /** `text` and `zstd` grow by lines and frames; anything else (gzip, ZIP, a JSON array) is opened whole. */
  private container: ContainerKind | 'array' | null = null;
  private committed = 0;
  /** Raw JSONL: bytes already searched for LF; Zstandard: the end of the last complete frame. */
  private scanned = 0;
  private current: LoadResult | null = null;
  private stopNote: string | null = null;
  /** The open analysis of raw JSONL or Zstandard (null before the first look, or for other forms). */
  private live: LiveText | null = null;
  /** Whether the current result came from {@link live} (else from a whole open). */
  private liveResult = false;

  constructor(options: GrowingOptions) {
    this.options = options;
  }

  /** Source bytes held: where the next {@link append} continues. */
  get size(): number {
    return this.raw.length;
  }

  /** Source bytes the analysis is of (complete lines or frames). */
  get committedBytes(): number {
    return this.committed;
  }

  /** False once damage in an appended part ended the following. */
  get following(): boolean {
    return this.stopNote === null;
  }

  /** Why following ended, or null while it goes on. */
  get stopReason(): string | null {
    return this.stopNote;
  }

  /** The analysis of the complete prefix (an empty input's before anything is complete). */
  async result(): Promise<LoadResult> {
    if (this.current === null) {
      this.current = await openBytes(new Uint8Array(0), this.openOptions());
      this.markProvisional(this.current);
    }
    return this.current;
  }

  /** Every source byte held (a view: valid until the next call that adds bytes). */
  held(): Uint8Array {
    return this.raw.view();
  }

  /** The source's first bytes as held. */
  head(): Uint8Array {
    return this.raw.view().subarray(0, Math.min(HEAD_BYTES, this.raw.length));
  }

  /**
   * How to read a source of `size` bytes whose first bytes are `head` (at least
   * `min(size, HEAD_BYTES)` of them, or null when the source cannot tell them cheaply: then
   * only the size is compared).
   */
  plan(size: number, head: Uint8Array | null): ReadPlan {
    if (size < this.raw.length) return 'whole';
    if (head !== null) {
      const have = this.head();
      const n = Math.min(have.length, head.length);
      if (!sameBytes(have.subarray(0, n), head.subarray(0, n))) return 'whole';
    }
    if (size === this.raw.length) return 'none';
    return 'tail';
  }

  /**
   * Start from an input already opened whole (`result` is `openBytes(bytes)`): when all of it is
   * complete (no unfinished last line or frame) that analysis is kept as it is, so following a
   * large open log costs nothing until it changes; otherwise the complete prefix is opened.
   * Only on a fresh input.
   */
  async adopt(bytes: Uint8Array, result: LoadResult): Promise<void> {
    if (this.raw.length !== 0) throw new Error('adopt() needs a fresh GrowingInput');
    this.raw = new ByteBuffer(Math.max(1 << 16, bytes.length));
    this.raw.append(bytes);
    const end = this.completeEnd();
    this.committed = end;
    this.current = end === bytes.length ? result : await openBytes(this.raw.view().subarray(0, end), this.openOptions());
    this.live = null;
    this.liveResult = false;
    this.markProvisional(this.current);
  }

  /** The bytes that followed {@link size} in the source. */
  async append(bytes: Uint8Array): Promise<Growth> {
    if (!this.following) return this.growth('unchanged', 0, this.stopNote);
    if (bytes.length === 0) return this.growth('unchanged', 0, null);
    this.raw.append(bytes);
    return this.commit();
  }

  /**
   * The whole source as it is now. When it still starts with everything held, only the rest is
   * appended; when it is shorter or starts differently, everything is read again from the start.
   */
  async replace(bytes: Uint8Array): Promise<Growth> {
    const held = this.raw.view();
    if (bytes.length >= held.length && sameBytes(bytes.subarray(0, held.length), held)) return this.append(bytes.subarray(held.length));
    const why =
      bytes.length < held.length ? `the file shrank from ${held.length} to ${bytes.length} bytes` : 'the start of the file changed';
    const before = eventsOf(this.current);
    this.raw = new ByteBuffer(Math.max(1 << 16, bytes.length));
    this.container = null;
    this.committed = 0;
    this.scanned = 0;
    this.current = null;
    this.stopNote = null;
    this.live = null;
    this.liveResult = false;
    this.raw.append(bytes);
    await this.commit();
    const after = eventsOf(this.current);
    return this.growth(
      'reread',
      after,
      `${why} (it was repaired or replaced): read again from the start; ${before} events before, ${after} now`,
    );
  }

  /** The analysis of everything held, the unfinished tail included: the source has ended. */
  async end(): Promise<LoadResult> {
    // Final: the end-dependent findings are settled by a whole open (the only O(size) step).
    if (this.raw.length === this.committed && this.current !== null && !this.liveResult && !this.hasProvisional()) return this.current;
    this.current = await openBytes(this.raw.view(), this.openOptions());
    this.committed = this.raw.length;
    this.live = null;
    this.liveResult = false;
    return this.current;
  }

  /** Whether the current result was opened in place (see {@link LiveText}); for tests and benchmarks. */
  get inPlace(): boolean {
    return this.liveResult;
  }

  private hasProvisional(): boolean {
    return this.current?.sessions.some((s) => s.diagnostics.some((d) => d.provisional === true)) ?? false;
  }

  /** Flag the findings that depend on the end, while the input may still grow. */
  private markProvisional(result: LoadResult): void {
    for (const session of result.sessions) {
      if (!session.diagnostics.some(isEndDependent)) continue;
      session.diagnostics = session.diagnostics.map((d) => (isEndDependent(d) ? { ...d, provisional: true as const } : d));
    }
  }

  /**
   * Continue the open analysis up to source byte `end` (raw JSONL or Zstandard; null for the
   * other forms, after a decode error, or when the sessions found changed: then the prefix is
   * opened whole, which is what the analysis must equal anyway).
   */
  private async extend(end: number): Promise<LoadResult | null> {
    if (this.container !== 'text' && this.container !== 'zstd') return null;
    let live = this.live;
    const before = live?.pipeline.scanner.sessions.length ?? 0;
    if (live === null) {
      const zstd = this.container === 'zstd';
      if (zstd) await initZstd();
      const text = zstd ? new ByteBuffer(Math.max(1 << 16, end * 4)) : this.raw;
      const pipeline = new TextPipeline({
        path: this.options.name,
        container: zstd ? 'zstd' : 'none',
        text,
        budget: null,
        step: 1 << 20,
        ...(this.options.checkpointEvery !== undefined ? { checkpointEvery: this.options.checkpointEvery } : {}),
      });
      live = { pipeline, zstd: zstd ? new ZstdFrameStream() : null, first: null, fed: 0 };
      this.live = live;
    }
    const { pipeline } = live;
    let extra: Diagnostic[] = [];
    let tornRecord: boolean | null = null;
    if (live.zstd === null) pipeline.advance(end);
    else {
      const piece = this.raw.view().subarray(live.fed, end);
      const native = nativeZstd();
      for (const frame of native === null ? live.zstd.pushFrames(piece) : await live.zstd.pushFramesWith(piece, native)) {
        pipeline.append([frame.plaintext]);
        live.first ??= { start: frame.start, oneLine: isOneLine(frame.plaintext) };
      }
      if (live.zstd.error !== null) return null;
      const { scanner, text } = pipeline;
      tornRecord = text.length > scanner.committedBytes || scanner.loader.issue !== null;
      extra = checkZstdFrameSummary({ first: live.first, torn: null, error: null }).map((f) => ({
        severity: f.severity,
        rule: f.rule,
        seq: null,
        line: null,
        message: f.byte !== null && !f.message.includes(`byte ${f.byte}`) ? `${f.message} (byte ${f.byte})` : f.message,
      }));
    }
    live.fed = end;
    const { scanner } = pipeline;
    // A decode error, or a session that appeared (a stream-json capture's next session) after
    // the first look: the whole open says exactly what it means.
    if (scanner.decodeError !== null) return null;
    if (this.current !== null && this.liveResult && scanner.sessions.length !== before) return null;
    const sessions: SessionAnalysis[] = pipeline.snapshot({
      extra,
      zstdTornRecord: tornRecord,
      end: live.zstd === null ? end : pipeline.text.length,
    });
    return { file: this.options.name, bytes: end, sessions, findings: [] };
  }

  private openOptions(): OpenOptions {
    return { ...this.options };
  }

  private growth(kind: Growth['kind'], newEvents: number, note: string | null): Growth {
    return { kind, newEvents, size: this.raw.length, committed: this.committed, note };
  }

  /** Where the complete prefix ends now; sets {@link stopNote} on structural damage. */
  private completeEnd(): number {
    const bytes = this.raw.view();
    if (this.container === null) {
      // Four bytes tell a container (log-format.md §1.1); a text's first non-blank byte tells a JSON array.
      if (bytes.length < 4) return this.committed;
      const kind = detectContainer(bytes.subarray(0, 4));
      if (kind === 'text') {
        const bracket = firstNonBlankIsBracket(bytes);
        if (bracket === null) return this.lastLf(bytes);
        this.container = bracket ? 'array' : 'text';
      } else this.container = kind;
    }
    switch (this.container) {
      case 'text':
        return this.lastLf(bytes);
      case 'zstd':
        return this.lastFrameEnd(bytes);
      default:
        // A gzip stream, a ZIP or a JSON array has no complete prefix but the whole.
        return bytes.length;
    }
  }

  private lastLf(bytes: Uint8Array): number {
    const from = Math.max(this.scanned, this.committed);
    const rel = bytes.subarray(from).lastIndexOf(0x0a);
    this.scanned = bytes.length;
    return rel < 0 ? this.committed : from + rel + 1;
  }

  private lastFrameEnd(bytes: Uint8Array): number {
    // Frames are independent: walking on from the last complete one reads only the new bytes.
    const from = this.scanned;
    try {
      const walk = walkZstdFrames(bytes.subarray(from));
      const last = walk.frames[walk.frames.length - 1];
      if (last !== undefined) this.scanned = from + last.end;
    } catch (error) {
      if (!(error instanceof ZstdStructureError)) throw error;
      // Complete frames before the damage stay; the damage itself is reported by the open below.
      this.stopNote = `damage in the appended part (${error.message}): following stopped; everything before it stays`;
      return bytes.length;
    }
    return this.scanned;
  }

  private async commit(): Promise<Growth> {
    const end = this.completeEnd();
    if (end <= this.committed) return this.growth(this.raw.length > this.committed ? 'pending' : 'unchanged', 0, null);
    const before = eventsOf(this.current);
    const hadError = this.current?.sessions.some((s) => s.decodeError !== null) ?? false;
    this.committed = end;
    const extended = this.stopNote === null && !hadError ? await this.extend(end) : null;
    this.current = extended ?? (await openBytes(this.raw.view().subarray(0, end), this.openOptions()));
    this.liveResult = extended !== null;
    if (extended === null) this.live = null;
    this.markProvisional(this.current);
    const newEvents = eventsOf(this.current) - before;
    const error = this.current.sessions.find((s) => s.decodeError !== null)?.decodeError ?? null;
    if (
      this.stopNote === null &&
      error !== null &&
      !hadError &&
      this.container !== 'array' &&
      this.container !== 'gzip' &&
      this.container !== 'zip'
    ) {
      const where = error.line !== null ? `line ${error.line}` : error.byte !== null ? `byte ${error.byte}` : 'the appended part';
      this.stopNote = `a decode error in the appended part at ${where}: ${error.message}; following stopped, everything before it stays`;
    }
    if (this.stopNote !== null) return this.growth('stopped', newEvents, this.stopNote);
    return this.growth('appended', newEvents, null);
  }
}
