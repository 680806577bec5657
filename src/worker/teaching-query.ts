/**
 * The compaction-QA and teaching queries of one session: aligned transcript/model views, the
 * replace inspector, the context curve and exports.
 */
import { diffLines } from 'diff';
import { toJsonRecord, toMarkdownReport } from '../core/analyze/report';
import type { SessionAnalysis } from '../core/analyze/session';
import { deriveEventMessage } from '../core/fold/manager';
import type {
  CurveData,
  DiffPart,
  ExportFile,
  ExportKind,
  ReplaceDetail,
  TranscriptPage,
  ViewMessage,
  ViewPlace,
  ViewsWindow,
} from '../protocol/protocol';
import { TRANSCRIPT_PAGE_LIMIT, VIEW_TRANSCRIPT_PREVIEW } from '../protocol/protocol';
import { blockText, contentText, derivedSize, estimateTokens, TOKEN_METHOD, viewMessage } from './messages';
import { curveRequests, curveUsage, replaceLossInfo } from './analysis-query';
import type { SessionQuery } from './session-query';

/** Largest text diffed in the inspector (per side). */
const MAX_DIFF_TEXT = 200_000;

/** Most rows of the aligned views sent per window (each carries its model message and a preview of its transcript). */
const MAX_VIEW_ROWS = 500;

/* eslint-disable @typescript-eslint/no-explicit-any */
export class TeachingQuery {
  private readonly q: SessionQuery;
  private readonly s: SessionAnalysis;
  /**
   * Transcript messages per row seq. A row's transcript is fixed while it is on the surface (a
   * replacement stands for appends applied before it), so counting its span once is enough:
   * the views, asked for at every step while playing, then walk only the preview.
   */
  private readonly totals = new Map<number, number>();
  /** The run that sizes every node for the curve (see {@link curve}); again after an abort. */
  private sizing: Promise<void> | null = null;

  constructor(query: SessionQuery) {
    this.q = query;
    this.s = query.session;
  }

  private event(seq: number): any {
    try {
      return this.s.log.event(seq - this.s.baseSeq);
    } catch {
      return null;
    }
  }

  /** The whole text of block `index` of `seq`'s chat row (see CoreApi.blockText). */
  blockText(seq: number, index: number): string {
    const i = seq - this.s.baseSeq;
    if (!Number.isInteger(i) || i < 0 || i >= this.s.log.length) throw new Error(`no event with seq ${seq}`);
    const type = this.s.columns.types[this.s.columns.typeId[i] as number] as string;
    const text = blockText(this.event(seq), type, index);
    if (text === null) throw new Error(`seq ${seq} has no block ${index}`);
    return text;
  }

  private message(seq: number, step: number): ViewMessage {
    const index = seq - this.s.baseSeq;
    const type = this.s.columns.types[this.s.columns.typeId[index] as number] as string;
    return viewMessage(this.event(seq), seq, type, this.q.stateAt(index, step));
  }

  /**
   * Aligned rows [start, start + count) at a step. Rows come from the alive set and each row's
   * transcript from its own span in the index, so the rows outside the window are never built,
   * and only the first {@link VIEW_TRANSCRIPT_PREVIEW} transcript messages of a row are derived:
   * a compaction's thousands of shadowed messages stay in the log until {@link transcript}.
   */
  views(step: number, start: number, count: number): ViewsWindow {
    const tt = this.s.index;
    const k = this.clampStep(step);
    const total = tt.nodeCountAt(k);
    const first = Math.max(0, Math.min(start, total));
    const seqs = tt.nodeWindowAt(k, first, Math.min(count, MAX_VIEW_ROWS));
    return {
      step: k,
      total,
      start: first,
      rows: seqs.map((seq) => {
        const known = this.totals.get(seq);
        const span = this.span(seq, k, 0, VIEW_TRANSCRIPT_PREVIEW, known === undefined);
        const total = known ?? span.total;
        if (known === undefined) this.totals.set(seq, total);
        return {
          model: this.message(seq, k),
          transcript: span.seqs.map((s) => this.message(s, k)),
          transcriptTotal: total,
          nested: this.nested(seq, k),
        };
      }),
    };
  }

  /** Transcript messages [start, start + count) of the row `seq` at a step (see CoreApi.transcript). */
  transcript(step: number, seq: number, start: number, count: number): TranscriptPage {
    const k = this.clampStep(step);
    // With the row's count known, the walk stops at the end of the page.
    const known = this.totals.get(seq);
    const span = this.span(seq, k, Math.max(0, start), Math.min(count, TRANSCRIPT_PAGE_LIMIT), known === undefined);
    const total = known ?? span.total;
    if (known === undefined) this.totals.set(seq, total);
    return {
      total,
      start: Math.max(0, Math.min(start, total)),
      messages: span.seqs.map((s) => this.message(s, k)),
    };
  }

  /** Where `seq` appears in the views at a step (see CoreApi.viewPlace). */
  viewPlace(step: number, seq: number): ViewPlace | null {
    return this.s.index.viewPlaceOf(seq, this.clampStep(step));
  }

  private clampStep(step: number): number {
    return Math.max(0, Math.min(step, this.s.fold.accepted));
  }

  private span(seq: number, step: number, start: number, count: number, countAll = true): { total: number; seqs: number[] } {
    const span = this.s.index.transcriptOf(seq, step, start, count, countAll);
    if (!span) throw new Error(`seq ${seq} is not on the surface at step ${step}`);
    return span;
  }

  /** Replacements inside replacement `seq` at step k, outermost first (breadth-first). */
  private nested(seq: number, step: number): number[] {
    const tt = this.s.index;
    const out: number[] = [];
    const queue = [seq];
    while (queue.length > 0) {
      const at = queue.shift() as number;
      const r = tt.replacementOfSeq(at);
      if (r < 0 || tt.replacement(r).step > step) continue;
      for (const child of tt.replacement(r).shadowedSeqs) {
        if (tt.replacementOfSeq(child) >= 0) {
          out.push(child);
          queue.push(child);
        }
      }
    }
    return out;
  }

  replaceDetail(seq: number): ReplaceDetail {
    const tt = this.s.index;
    const r = tt.replacementOfSeq(seq);
    if (r < 0) throw new Error(`seq ${seq} is not a replacement`);
    const rep = tt.replacement(r);
    const step = rep.step;
    const replacementEvent = this.event(seq);
    const shadowedEvents = rep.shadowedSeqs.map((s) => this.event(s));
    const bytesBefore = shadowedEvents.reduce((sum: number, e) => sum + derivedSize(e), 0);
    const bytesAfter = derivedSize(replacementEvent);
    const kind = this.q.replacements(step).find((row) => row.seq === seq)?.kind ?? 'other';
    return {
      seq,
      step,
      kind,
      start: rep.start,
      end: rep.end,
      shadowedSeqs: rep.shadowedSeqs,
      replacement: this.message(seq, step),
      shadowed: rep.shadowedSeqs.map((s) => this.message(s, step - 1)),
      bytesBefore,
      bytesAfter,
      tokensBefore: estimateTokens(bytesBefore),
      tokensAfter: estimateTokens(bytesAfter),
      tokenMethod: TOKEN_METHOD,
      prune: kind === 'prune' ? this.pruneDiff(shadowedEvents[0], replacementEvent) : null,
      compaction: kind === 'compaction' ? this.compaction(replacementEvent, rep.shadowedSeqs) : null,
      findings: this.q.allDiagnostics().filter((d) => d.rule.startsWith('qa/') && d.seq !== null && (d.seq === seq || d.seq === seq - this.s.baseSeq)),
      loss: replaceLossInfo(this.s, seq),
    };
  }

  private pruneDiff(original: any, copy: any): ReplaceDetail['prune'] {
    const text = (event: any): string => {
      try {
        return contentText(event.data.message.content[0].content);
      } catch {
        return '';
      }
    };
    const before = text(original);
    const after = text(copy);
    const clipped = before.length > MAX_DIFF_TEXT || after.length > MAX_DIFF_TEXT;
    const diff: DiffPart[] = diffLines(before.slice(0, MAX_DIFF_TEXT), after.slice(0, MAX_DIFF_TEXT)).map((part) => ({
      op: part.added ? 'add' : part.removed ? 'remove' : 'same',
      text: part.value,
    }));
    return { before: before.slice(0, MAX_DIFF_TEXT), after: after.slice(0, MAX_DIFF_TEXT), diff, clipped };
  }

  /** Find the compaction bracket events of a checkpoint by its compactionId. */
  private compaction(checkpoint: any, actual: number[]): ReplaceDetail['compaction'] {
    const source = checkpoint?.data?.source;
    const id = typeof source?.compactionId === 'string' ? (source.compactionId as string) : null;
    const found = { start: null as number | null, summary: null as number | null, end: null as number | null };
    let summary: any = null;
    let error: string | null = null;
    if (id !== null) {
      const { typeId, types } = this.s.columns;
      const wanted = new Map<number, 'start' | 'summary' | 'end'>();
      types.forEach((type, i) => {
        if (type === 'compaction/start') wanted.set(i, 'start');
        else if (type === 'compaction/summary') wanted.set(i, 'summary');
        else if (type === 'compaction/end') wanted.set(i, 'end');
      });
      for (let i = 0; i < typeId.length; i++) {
        const which = wanted.get(typeId[i] as number);
        if (!which || found[which] !== null) continue;
        const event: any = this.s.log.event(i);
        if (event?.data?.compactionId !== id) continue;
        found[which] = i + this.s.baseSeq;
        if (which === 'summary') summary = event;
        if (which === 'end' && typeof event.data.error === 'string') error = event.data.error;
      }
    }
    const declaredSeqs: unknown[] | null = Array.isArray(summary?.data?.shadowedSeqs) ? summary.data.shadowedSeqs : null;
    const range = summary?.data?.shadowedRange;
    return {
      compactionId: id,
      startSeq: found.start,
      summarySeq: found.summary,
      endSeq: found.end,
      declaredRange: range && typeof range === 'object' ? { start: range.start, end: range.end } : null,
      declaredSeqs,
      declaredMatches: declaredSeqs !== null && JSON.stringify(declaredSeqs) === JSON.stringify(actual),
      error,
    };
  }

  /**
   * The context curve in at most `buckets` buckets. The first call sizes every node's derived
   * message (each node's line parsed again: a quarter of a second for a million-event log), a
   * slice at a time with `yieldNow` between slices, so requests that arrive meanwhile (the
   * timeline's rows, a seek) are answered rather than queued behind it.
   */
  async curve(buckets: number, yieldNow: () => Promise<void> = async () => {}, stale: () => boolean = () => false): Promise<CurveData> {
    const tt = this.s.index;
    this.sizing ??= this.sizeNodes(yieldNow, stale).catch((error: unknown) => {
      this.sizing = null;
      throw error;
    });
    await this.sizing;
    // The index keeps the byte curve once it has it.
    const curve = tt.curve();
    const bytes = curve.bytes as Float64Array;
    const steps = tt.steps;
    const n = Math.max(1, Math.min(buckets, steps + 1));
    const out: CurveData['buckets'] = [];
    let bytesMax = 0;
    for (let b = 0; b < n; b++) {
      const from = Math.floor((b * (steps + 1)) / n);
      const to = Math.max(from, Math.floor(((b + 1) * (steps + 1)) / n) - 1);
      let lo = Infinity;
      let hi = 0;
      let messages = 0;
      for (let k = from; k <= to; k++) {
        const v = bytes[k] as number;
        if (v < lo) lo = v;
        if (v > hi) hi = v;
        messages = Math.max(messages, curve.messages[k] as number);
      }
      bytesMax = Math.max(bytesMax, hi);
      out.push({ from, to, bytesMin: lo === Infinity ? 0 : lo, bytesMax: hi, messagesMax: messages });
    }
    const requests = curveRequests(this.s);
    return { steps, buckets: out, replaces: Array.from(tt.replaceSteps()), bytesMax, tokenMethod: TOKEN_METHOD, requests, usage: curveUsage(this.s) };
  }

  /**
   * Size every node's derived message, a slice at a time, and hand the sizes to the index, which
   * keeps only the byte curve it sweeps from them. Stops with an `AbortError` when `stale()` says
   * the session was replaced (a new load) meanwhile.
   */
  private async sizeNodes(yieldNow: () => Promise<void>, stale: () => boolean): Promise<void> {
    const tt = this.s.index;
    const seqs = tt.nodeSeqs();
    const sizes = new Float64Array(seqs.length);
    for (let i = 0; i < seqs.length; i++) {
      sizes[i] = derivedSize(this.event(seqs[i] as number));
      if ((i & 511) === 511) {
        await yieldNow();
        if (stale()) {
          const error = new Error('the session was replaced');
          error.name = 'AbortError';
          throw error;
        }
      }
    }
    tt.curve((_seq, node) => sizes[node] as number);
  }

  private baseName(): string {
    return (this.s.sessionId ?? this.s.path.split(/[\\/!]/).pop() ?? 'session').replace(/[^A-Za-z0-9_.-]/g, '_');
  }

  /**
   * The raw line of one event, whole, as a file: how the inspector offers an event too large
   * to send in a detail (a user action, so the size is the user's choice).
   */
  exportEvent(seq: number): ExportFile {
    const index = seq - this.s.baseSeq;
    if (!Number.isInteger(index) || index < 0 || index >= this.s.log.length) throw new Error(`no event with seq ${seq}`);
    return { name: `${this.baseName()}.event-${seq}.jsonl`, mime: 'application/jsonl', text: `${this.s.log.raw(index)}\n` };
  }

  exportText(kind: ExportKind, step: number): ExportFile {
    const base = this.baseName();
    const k = this.clampStep(step);
    switch (kind) {
      case 'model-view': {
        const messages = this.s.index
          .nodesAt(k)
          .map((seq) => deriveEventMessage(this.event(seq)))
          .filter((m) => m !== null);
        return { name: `${base}.model-view.step-${k}.json`, mime: 'application/json', text: `${JSON.stringify(messages, null, 2)}\n` };
      }
      case 'surface': {
        const nodes = this.s.index.nodesAt(k).map((seq) => this.q.surfaceNode(seq));
        return { name: `${base}.surface.step-${k}.json`, mime: 'application/json', text: `${JSON.stringify({ step: k, nodes }, null, 2)}\n` };
      }
      case 'report-json':
        return {
          name: `${base}.report.json`,
          mime: 'application/json',
          text: `${JSON.stringify({ ...toJsonRecord(this.s), diagnostics: this.q.allDiagnostics() }, null, 2)}\n`,
        };
      case 'report-markdown':
        return { name: `${base}.report.md`, mime: 'text/markdown', text: toMarkdownReport(this.s) };
    }
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */
