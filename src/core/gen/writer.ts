/** Writing a generated log: see {@link LogWriter}. */

import type { GenMeta, GenOptions, ViolationInfo, ViolationKind } from './options';
import { eventViolation } from './violations';
import { STOP, deltaChunk } from './parts';
import type { DeltaKind, Obj, PendingDelta, SurfaceNode } from './parts';
import { Rng, fmix32 } from './rng';
import { CJK, FILES, IDENTS, KEYWORDS, MODELS, WORDS } from './vocabulary';

/**
 * The bottom layer of the generator: its options, random streams and counters, the violation
 * bookkeeping, and the writer (events in the live writer's key order, stream deltas packed into
 * chunk rows), plus ids and small content. The layers above add the surface model
 * (`surface.ts`), compaction and pruning (`compaction.ts`) and the session script (`session.ts`).
 */
export abstract class LogWriter {
  readonly meta: GenMeta;

  protected readonly target: number;
  protected readonly pack: boolean;
  protected readonly compactionOn: boolean;
  protected readonly threshold: number;
  protected readonly keepRatio: number;
  protected readonly failureRate: number;
  protected readonly manualRate: number;
  protected readonly pruneThreshold: number;
  protected readonly longChars: readonly [number, number] | null;
  protected readonly deltaScale: number;
  protected readonly longRate: number;
  protected readonly openTail: boolean;

  /** Structure and content decisions. */
  protected readonly rng: Rng;
  /** Packed-row splitting only, so packing never changes the decoded events. */
  protected readonly packRng: Rng;
  /** Violation placement only, so a clean log and a violated one share their prefix. */
  protected readonly violationRng: Rng;
  /** Ids, so adding an id never shifts content. */
  protected readonly idRng: Rng;

  protected readonly header: string;
  protected out: string[] = [];
  protected count = 0;
  protected nextSeq = 0;
  protected lineNo = 1;
  protected time: number;
  protected idCounter = 0;
  protected readonly idMask: number;
  protected readonly commandPrefix: string;
  protected commandCounter = 0;

  protected nodes: SurfaceNode[] = [];
  protected contextTokens = 0;

  protected turnNo = 0;
  protected openTurn: number | null = null;
  protected model: string;
  protected headerDue: 'initial' | 'change' | null = 'initial';
  protected contextDue = true;
  protected planMode = false;
  protected sandbox: 'read-only' | 'workspace-write' | 'danger-full-access' = 'workspace-write';
  protected titleDone = false;

  protected run_: PendingDelta[] = [];

  protected readonly violation: ViolationKind | null;
  protected readonly violationAt: number;
  protected violationDone = false;
  /** Recorded for the line about to be written; published once that line is queued. */
  protected pendingViolation: ViolationInfo | null = null;
  /** Event count after which an open tail stops (target plus a seeded overshoot). */
  protected readonly stopAfter: number;

  constructor(opts: GenOptions) {
    this.target = Math.max(0, Math.floor(opts.events));
    this.pack = opts.packChunks ?? true;
    const comp = opts.compaction === false ? null : (opts.compaction ?? {});
    this.compactionOn = comp !== null;
    this.threshold = comp?.thresholdTokens ?? 20000;
    this.keepRatio = comp?.keepRatio ?? 0.3;
    this.failureRate = comp?.failureRate ?? 0.12;
    this.manualRate = comp?.manualRate ?? 0.06;
    this.pruneThreshold = opts.pruneThreshold ?? 8192;
    this.longRate = opts.longToolResultRate ?? 0.06;
    this.longChars = opts.longToolResultChars ?? null;
    this.deltaScale = opts.deltaScale ?? 1;
    this.violation = opts.violation ?? null;
    this.openTail = (opts.openTail ?? false) || this.violation === 'torn-tail';

    const root = new Rng(opts.seed);
    this.rng = root.fork('structure');
    this.packRng = root.fork('pack');
    this.violationRng = root.fork('violation');
    this.idRng = root.fork('ids');
    this.violationAt = opts.violationAt ?? Math.floor(this.target * (0.3 + 0.4 * this.violationRng.next()));
    this.stopAfter = this.target + this.violationRng.int(0, 40);
    this.time = opts.startTime ?? 1785400000000;
    this.model = MODELS[0];
    this.commandPrefix = this.idRng.hex(8);
    this.idMask = this.idRng.u32();

    const sessionId = opts.sessionId ?? this.uuid();
    this.header = JSON.stringify({
      type: 'session',
      version: 0,
      id: sessionId,
      createdAt: this.time,
      cwd: '/home/dev/surface-lens',
      delegationDepth: 0,
    });
    this.meta = {
      sessionId,
      events: 0,
      lines: 1,
      finalNewline: this.violation !== 'torn-tail',
      openTurn: null,
      nodes: [],
      violation: null,
      stats: {
        turns: 0,
        steps: 0,
        toolCalls: 0,
        compactions: 0,
        nestedCompactions: 0,
        startAfterEndRanges: 0,
        failedCompactions: 0,
        manualCompactions: 0,
        prunes: 0,
        emptyAssistantMessages: 0,
        interruptedMessages: 0,
        retries: 0,
        packedRows: 0,
      },
    };
  }

  // ----- violations ---------------------------------------------------------------------------

  protected violationSettled(): boolean {
    return this.violation === null || this.violation === 'torn-tail' || this.violationDone;
  }

  /** The violation waiting for a suitable event, if its point has been reached. */
  protected armed(): ViolationKind | null {
    return !this.violationDone && this.violation !== null && this.count >= this.violationAt ? this.violation : null;
  }

  /** Note that the next line written carries the violation (its event starts at `seq`). */
  protected recordViolation(seq: number, foldMessage: string | null): void {
    this.violationDone = true;
    this.pendingViolation = {
      kind: this.violation as ViolationKind,
      seq,
      index: this.count,
      line: this.lineNo + 1,
      foldMessage,
    };
  }

  // ----- writing -----------------------------------------------------------------------------

  /**
   * Queue one storage line holding `n` events. An open tail stops here (before the line), so the
   * state mutated so far matches exactly the lines written; a torn tail writes half the line.
   */
  protected pushLine(line: string, n: number, firstSeq: number): void {
    if (
      this.openTail &&
      this.openTurn !== null &&
      this.count >= this.stopAfter &&
      this.violationSettled() &&
      this.pendingViolation === null
    ) {
      if (this.violation === 'torn-tail') {
        this.recordViolation(firstSeq, null);
        this.out.push(line.slice(0, Math.max(1, line.length >> 1)));
        this.lineNo++;
        this.meta.violation = this.pendingViolation;
      }
      throw STOP;
    }
    this.out.push(line);
    this.lineNo++;
    this.count += n;
    if (this.pendingViolation !== null) {
      this.meta.violation = this.pendingViolation;
      this.pendingViolation = null;
    }
  }

  /**
   * Write one event (any type except packed deltas) with the live writer's key order
   * `type, seq, time, data, [sourceEventSeqs], [surfaceOp]`, applying a generic violation when
   * one is armed and this event suits it. Returns the seq.
   */
  protected ev(type: string, data: unknown, sources?: number[] | null, op?: unknown): number {
    this.flushRun();
    this.time += this.rng.int(0, 2);
    let seq = this.nextSeq;
    let src: unknown = sources ?? undefined;
    let surfaceOp: unknown = op ?? undefined;
    let damage = false;
    const kind = this.armed();
    if (kind !== null) {
      const applied = eventViolation(kind, { type, seq, count: this.count, sources: src, surfaceOp });
      if (applied !== null) {
        this.recordViolation(applied.at, applied.foldMessage);
        ({ seq, sources: src, surfaceOp, damage } = applied);
      }
    }
    const event: Obj = { type, seq, time: this.time, data };
    if (src !== undefined) event.sourceEventSeqs = src;
    if (surfaceOp !== undefined) event.surfaceOp = surfaceOp;
    let line = JSON.stringify(event);
    // A strict prefix of an object's JSON text never parses, so half a line is always damage.
    if (damage) line = line.slice(0, line.length >> 1);
    this.pushLine(line, 1, seq);
    this.nextSeq = seq + 1;
    return seq;
  }

  /** Emit one stream delta; packed into a row with its neighbours when packing is on. */
  protected delta(kind: DeltaKind, turn: number, step: number, index: number, text: string, id = '', name?: string): number {
    this.time += this.deltaGap();
    const last = this.run_[this.run_.length - 1];
    if (
      last !== undefined &&
      !(last.kind === kind && last.turn === turn && last.step === step && last.index === index && last.id === id && last.name === name)
    ) {
      this.flushRun();
    }
    const seq = this.nextSeq++;
    const pending: PendingDelta = { seq, time: this.time, kind, turn, step, index, id, name, text };
    // Unpacked deltas are written at once, bypassing ev(): no extra random draws and no
    // violation hooks, so packed and unpacked logs decode to the same events.
    if (!this.pack) this.writeSingleDelta(pending);
    else this.run_.push(pending);
    return seq;
  }

  /** Typical gaps between streamed deltas: mostly 0–1 ms, sometimes a network batch apart. */
  protected deltaGap(): number {
    const r = this.rng.u32() & 31;
    return r < 18 ? 0 : r < 26 ? 1 : 20 + (r & 15) * 3;
  }

  /**
   * Write the pending delta run. Like the live writer, a run may be split across write
   * batches; pieces of 3+ become rows, shorter ones single events.
   */
  protected flushRun(): void {
    const run = this.run_;
    if (run.length === 0) return;
    this.run_ = [];
    let i = 0;
    while (i < run.length) {
      const remaining = run.length - i;
      const size = remaining > 6 && this.packRng.chance(0.12) ? this.packRng.int(3, remaining - 1) : remaining;
      const piece = run.slice(i, i + size);
      if (piece.length >= 3) this.writeRow(piece);
      else for (const d of piece) this.writeSingleDelta(d);
      i += size;
    }
  }

  protected writeRow(piece: PendingDelta[]): void {
    const first = piece[0] as PendingDelta;
    const dt: number[] = [];
    const texts: string[] = [];
    for (let k = 0; k < piece.length; k++) {
      const d = piece[k] as PendingDelta;
      if (k > 0) dt.push(d.time - (piece[k - 1] as PendingDelta).time);
      texts.push(d.text);
    }
    let row: Obj;
    if (first.kind === 'tool') {
      const data: Obj = { turn: first.turn, step: first.step, index: first.index, dt, id: first.id };
      if (first.name !== undefined) data.name = first.name;
      data.args = texts;
      row = { type: 'tool-call-chunks', seq0: first.seq, time0: first.time, data };
    } else {
      row = {
        type: first.kind === 'text' ? 'text-chunks' : 'reasoning-chunks',
        seq0: first.seq,
        time0: first.time,
        data: { turn: first.turn, step: first.step, index: first.index, dt, texts },
      };
    }
    this.pushLine(JSON.stringify(row), piece.length, first.seq);
    this.meta.stats.packedRows++;
  }

  protected writeSingleDelta(d: PendingDelta): void {
    const event = {
      type: 'assistant/chunk',
      seq: d.seq,
      time: d.time,
      data: { turn: d.turn, step: d.step, chunk: deltaChunk(d.kind, d.index, d.text, d.id, d.name) },
    };
    this.pushLine(JSON.stringify(event), 1, d.seq);
  }

  // ----- ids and small content ---------------------------------------------------------------

  /**
   * 8 hex digits that never repeat within a log: a counter XOR a per-log mask, through a 32-bit
   * bijection, so ids look random but are unique by construction.
   */
  protected uniqueHex(): string {
    return fmix32(this.idCounter++ ^ this.idMask)
      .toString(16)
      .padStart(8, '0');
  }

  /** A v4-shaped uuid, unique within the log. */
  protected uuid(): string {
    const r = this.idRng;
    return `${r.hex(8)}-${r.hex(4)}-4${r.hex(3)}-${'89ab'[r.u32() & 3]}${r.hex(3)}-${r.hex(4)}${this.uniqueHex()}`;
  }

  /** A DeepSeek-style tool call id (`call_<nn>_<random>`), unique within the log. */
  protected callId(ordinal: number): string {
    return `call_${String(ordinal).padStart(2, '0')}_${this.idRng.alnum(16)}${this.uniqueHex()}`;
  }

  protected commandId(): string {
    return `cmd-${this.commandPrefix}-${++this.commandCounter}`;
  }

  protected word(): string {
    return this.rng.pick(WORDS);
  }

  /** Natural-ish text as stream pieces (one piece ≈ one model token). */
  protected pieces(unscaled: number): string[] {
    const rng = this.rng;
    const count = this.deltaScale === 1 ? unscaled : Math.max(1, Math.round(unscaled * this.deltaScale));
    const out: string[] = [];
    const cjk = rng.chance(0.03);
    let sentenceStart = true;
    while (out.length < count) {
      if (cjk) {
        out.push(rng.pick(CJK) + (rng.chance(0.5) ? rng.pick(CJK) : ''));
        continue;
      }
      const r = rng.u32() % 100;
      const prev = out[out.length - 1];
      if (!sentenceStart && r < 9 && prev !== ',') {
        out.push('.');
        if (rng.chance(0.15)) out.push('\n\n');
        sentenceStart = true;
        continue;
      }
      if (!sentenceStart && r < 13 && prev !== ',') {
        out.push(',');
        continue;
      }
      if (r < 15) {
        out.push(out.length === 0 || out[out.length - 1] === '\n\n' ? '`' : ' `');
        out.push(rng.pick(FILES));
        out.push('`');
        sentenceStart = false;
        continue;
      }
      let w = this.word();
      if (sentenceStart) w = w.charAt(0).toUpperCase() + w.slice(1);
      const lead = out.length === 0 || out[out.length - 1] === '\n\n' ? '' : ' ';
      if (w.length > 7 && rng.chance(0.3)) {
        // Long words often stream as two tokens.
        const cut = rng.int(3, w.length - 3);
        out.push(lead + w.slice(0, cut));
        out.push(w.slice(cut));
      } else {
        out.push(lead + w);
      }
      sentenceStart = false;
    }
    const end = out[out.length - 1];
    if (end === ',') out.pop();
    if (!cjk && end !== '.' && end !== '\n\n') out.push('.');
    return out;
  }

  protected sentence(words: number): string {
    return this.pieces(words).join('');
  }

  /** Split a JSON argument string into stream pieces, as providers stream tool arguments. */
  protected splitArgs(args: string): string[] {
    const out: string[] = [];
    if (this.rng.chance(0.5)) out.push('');
    let i = 0;
    while (i < args.length) {
      const n = this.rng.int(1, 9);
      out.push(args.slice(i, i + n));
      i += n;
    }
    return out;
  }

  protected codeLines(n: number): string[] {
    const rng = this.rng;
    const lines: string[] = [];
    let indent = 0;
    for (let i = 0; i < n; i++) {
      const r = rng.u32() % 10;
      if (r === 0 && indent > 0) {
        indent--;
        lines.push(`${'  '.repeat(indent)}}`);
        continue;
      }
      const kw = rng.pick(KEYWORDS);
      const a = rng.pick(IDENTS);
      const b = rng.pick(IDENTS);
      let line: string;
      if (kw === 'if' || kw === 'for') {
        line = `${kw} (${a}.${b} ${rng.pick(['===', '<', '>=', '!=='])} ${rng.int(0, 99)}) {`;
        if (indent < 4) indent++;
      } else if (kw === 'import') {
        line = `import { ${a} } from './${b}';`;
      } else if (kw === 'export function') {
        line = `export function ${a}${b.charAt(0).toUpperCase()}${b.slice(1)}(${a}: number): ${rng.pick(['void', 'string', 'number[]'])} {`;
        if (indent < 4) indent++;
      } else if (kw === 'throw new Error') {
        line = `throw new Error('${this.word()} ${this.word()} ${a}');`;
      } else {
        line = `${kw} ${a} = ${b}${rng.chance(0.5) ? `.${rng.pick(IDENTS)}` : ''}${rng.chance(0.3) ? ` + ${rng.int(1, 64)}` : ''};`;
      }
      lines.push(`${'  '.repeat(indent)}${line}`);
    }
    return lines;
  }

  /** Text of roughly `chars` characters built from whole lines of `make`. */
  protected sizedText(chars: number, make: (i: number) => string): string {
    const parts: string[] = [];
    let len = 0;
    for (let i = 0; len < chars; i++) {
      const l = make(i);
      parts.push(l);
      len += l.length + 1;
    }
    return parts.join('\n');
  }
}
