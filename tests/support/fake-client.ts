/**
 * A fake engine client for store and component tests: a tiny deterministic session (30 events,
 * a compaction replace, a tool-result prune and a nested compaction) folded in memory with the
 * protocol's semantics, plus knobs for what tests need: a synthetic row count (a 1,000,000-row
 * timeline without 1,000,000 objects), a surface error, diagnostics, several sessions (a ZIP),
 * holding answers until `release()`, and a recorded call log. The teaching calls (aligned views,
 * replace details, curve, exports, demos) and a playground come from `fake-teaching.ts`; the
 * playground session is answered by a second fake holding the playground log.
 */
import type { CoreClient, DeadListener } from '../../src/client/CoreClient';
import { EngineDeadError } from '../../src/client/errors';
import { PROTOCOL_VERSION, VIEW_TRANSCRIPT_PREVIEW } from '../../src/protocol/protocol';
import type {
  CompareViewData,
  SessionComparison,
  TimeTrackData,
  TimeTrackParams,
  BlockTextParams,
  BracketsParams,
  CurveParams,
  DiagnosticsParams,
  EventAtParams,
  EventParams,
  ExportTextParams,
  NavigateParams,
  ReplacementParams,
  RowOfParams,
  RowsParams,
  SessionParams,
  StepParams,
  TranscriptParams,
  WindowParams,
  Bracket,
  CurveData,
  DemoInfo,
  ExportFile,
  PlaygroundResult,
  PlaygroundState,
  PlaygroundTemplate,
  ReplaceDetail,
  TranscriptPage,
  ViewPlace,
  ViewsWindow,
  Diagnostic,
  EventDetail,
  EventState,
  Family,
  GrowRequest,
  GrowResult,
  Hello,
  LoadSummary,
  OpenRequest,
  ProgressEvent,
  ReplacementRow,
  RowFilter,
  RowWindow,
  SearchQuery,
  MatchesParams,
  MatchWindow,
  SearchResult,
  SessionSummary,
  StepChange,
  SurfaceErrorInfo,
  SurfaceNode,
  SurfaceWindow,
  TimelineRow,
} from '../../src/protocol/protocol';

/** The handle this fake gives its playground session (a loaded session's handle is its index). */
export const FAKE_PLAYGROUND = 1_000_000;

import {
  FAKE_DEMOS,
  FAKE_TOKEN_METHOD,
  SURFACE_TYPES,
  candidateOf,
  coveredAppends,
  derivedMessage,
  derivedSize,
  estimateTokens,
  lineDiff,
  nestedReplacements,
  pendingCalls,
  replacementKindOf,
  toolResultText,
  transcriptWindow,
  validateCandidate,
  viewMessage,
} from './fake-teaching';
import type { FakeEvent, Fold } from './fake-teaching';

export type { FakeEvent } from './fake-teaching';

const text = (role: string, value: string) => ({ role, content: [{ type: 'text', text: value }] });
const ev = (seq: number, type: string, data: unknown = {}, extra: Partial<FakeEvent> = {}): FakeEvent => ({
  seq,
  type,
  time: 1_000 + seq * 250,
  data,
  ...extra,
});
const append = { surfaceOp: 'append' as const };
const replace = (start: number, end: number, sources: number[]) => ({
  surfaceOp: { op: 'replace' as const, start, end },
  sourceEventSeqs: sources,
});

/** 30 events: nodes 2,5,7,10 are compacted into 18; 22 is pruned into 24; 18,15,20 into 28. */
export const FAKE_EVENTS: FakeEvent[] = [
  ev(0, 'turn/start', { turn: 1 }),
  ev(1, 'step/start', { turn: 1, step: 1 }),
  ev(2, 'user/message', text('user', 'list the files'), append),
  ev(3, 'assistant/chunk', { turn: 1, step: 1, chunk: { type: 'text-delta' } }),
  ev(4, 'assistant/chunk', { turn: 1, step: 1, chunk: { type: 'finish' } }),
  ev(5, 'assistant/message', { turn: 1, step: 1, message: text('assistant', 'calling ls') }, { ...append, sourceEventSeqs: [3, 4] }),
  ev(6, 'tool/call', { turn: 1, step: 1, callId: 'call-1', name: 'ls', arguments: '{}' }),
  ev(7, 'tool/result', { turn: 1, step: 1, message: text('user', 'a.txt b.txt') }, { ...append, sourceEventSeqs: [6] }),
  ev(8, 'step/end', { turn: 1, step: 1 }),
  ev(9, 'step/start', { turn: 1, step: 2 }),
  ev(10, 'assistant/message', { turn: 1, step: 2, message: text('assistant', 'Two files.') }, append),
  ev(11, 'step/end', { turn: 1, step: 2 }),
  ev(12, 'turn/end', { turn: 1, reason: { kind: 'completed' } }),
  ev(13, 'turn/start', { turn: 2 }),
  ev(14, 'step/start', { turn: 2, step: 1 }),
  ev(15, 'user/message', text('user', 'now summarize <b>this</b>'), append),
  ev(16, 'compaction/start', { compactionId: 'c1', turn: 2 }),
  ev(17, 'compaction/summary', { compactionId: 'c1', shadowedRange: { start: 2, end: 10 }, shadowedSeqs: [2, 5, 7, 10] }),
  ev(18, 'user/message', text('user', 'Summary of turn 1'), replace(2, 10, [16, 17, 2, 5, 7, 10])),
  ev(19, 'compaction/end', { compactionId: 'c1', turn: 2 }),
  ev(20, 'assistant/message', { turn: 2, step: 1, message: text('assistant', 'reading') }, append),
  ev(21, 'tool/call', { turn: 2, step: 1, callId: 'call-2', name: 'cat', arguments: '{}' }),
  ev(22, 'tool/result', { turn: 2, step: 1, message: text('user', 'a very long output') }, { ...append, sourceEventSeqs: [21] }),
  ev(23, 'compaction/prune', { shadowedSeqs: [22] }),
  ev(24, 'tool/result', { turn: 2, step: 1, message: text('user', '[pruned]') }, replace(22, 22, [22])),
  ev(25, 'step/end', { turn: 2, step: 1 }),
  ev(26, 'compaction/start', { compactionId: 'c2', turn: 2 }),
  // Declares [18, 15] while the replace shadows 18, 15 and 20: a mismatch for the inspector.
  ev(27, 'compaction/summary', { compactionId: 'c2', shadowedRange: { start: 18, end: 20 }, shadowedSeqs: [18, 15] }),
  ev(28, 'user/message', text('user', 'Summary of everything'), replace(18, 20, [26, 27, 18, 15, 20])),
  ev(29, 'turn/end', { turn: 2, reason: { kind: 'completed' } }),
];

export function familyOf(type: string): Family {
  if (type === 'assistant/chunk') return 'chunk';
  const prefix = type.split('/')[0] ?? '';
  const known: Record<string, Family> = {
    turn: 'turn', step: 'step', user: 'user', assistant: 'assistant', tool: 'tool', compaction: 'compaction',
    command: 'command', approval: 'approval', hook: 'hook', session: 'session', request: 'request',
  };
  return known[prefix] ?? 'other';
}

export interface FakeClientOptions {
  events?: FakeEvent[];
  /** Pretend the session has this many rows (generated on the fly). */
  syntheticRows?: number;
  /** Refuse the event at this index (the fold stops before it). */
  surfaceErrorIndex?: number;
  diagnostics?: Diagnostic[];
  fingerprint?: string;
  protocolVersion?: number;
  /** Number of sessions in the load (more than one looks like an export ZIP). */
  sessions?: number;
  /** Longest block text in views before it is clipped (`truncated`). @default 4000 */
  blockClip?: number;
  /** Longest raw line a detail carries before it is clipped (`EventDetail.clipped`), as the engine's `DETAIL_RAW_LIMIT`. */
  detailRawLimit?: number;
  /** Where the fake says its engine runs (`CoreClient.engineHome`). @default 'worker' */
  engineHome?: 'worker' | 'page';
}

export interface RecordedCall {
  method: string;
  args: unknown[];
}

export class FakeCoreClient implements CoreClient {
  readonly calls: RecordedCall[] = [];
  get engineHome(): 'worker' | 'page' {
    return this.options.engineHome ?? 'worker';
  }
  private readonly events: FakeEvent[];
  private readonly options: FakeClientOptions;
  private held: (() => void)[] | null = null;
  private readonly pending = new Set<(error: Error) => void>();
  private readonly deadListeners = new Set<DeadListener>();
  private deathError: Error | null = null;
  private openReject: ((error: Error) => void) | null = null;
  private loadId = 0;
  /** The playground log, its redo stack, and a fake answering the playground session. */
  private pgLog: FakeEvent[] | null = null;
  private pgRedo: FakeEvent[] = [];
  private pgClient: FakeCoreClient | null = null;

  constructor(options: FakeClientOptions = {}) {
    this.options = options;
    this.events = options.events ?? FAKE_EVENTS;
  }

  // ---- test controls -------------------------------------------------------------------------

  get dead(): boolean {
    return this.deathError !== null;
  }
  /** Answers wait until {@link release} (to observe loading states and latest-wins). */
  hold(): void {
    this.held ??= [];
  }
  /** Lets every held answer through, in call order, and stops holding. */
  release(): void {
    const queue = this.held ?? [];
    this.held = null;
    for (const go of queue) go();
  }
  /** Stops holding new answers but keeps those held so far; the returned function lets them through. */
  detachHeld(): () => void {
    const queue = this.held ?? [];
    this.held = null;
    return () => {
      for (const go of queue) go();
    };
  }
  get heldCount(): number {
    return this.held?.length ?? 0;
  }
  callsTo(method: string): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }
  /** Simulates a worker crash. */
  crash(message = 'The engine worker crashed or failed to start.'): void {
    this.die(new EngineDeadError(message));
  }

  // ---- CoreClient ------------------------------------------------------------------------------

  terminate(): void {
    this.die(new EngineDeadError('The engine was stopped.'));
  }
  private readonly stallListeners = new Set<(stalled: boolean) => void>();
  onStall(listener: (stalled: boolean) => void): () => void {
    this.stallListeners.add(listener);
    return () => void this.stallListeners.delete(listener);
  }
  /** The engine stops answering (`true`), or answers again (`false`), as a watchdog would say. */
  stall(stalled: boolean): void {
    for (const listener of [...this.stallListeners]) listener(stalled);
  }
  onDead(listener: DeadListener): () => void {
    if (this.deathError) {
      listener(this.deathError);
      return () => {};
    }
    this.deadListeners.add(listener);
    return () => void this.deadListeners.delete(listener);
  }
  private die(error: Error): void {
    if (this.deathError) return;
    this.deathError = error;
    for (const fail of [...this.pending]) fail(error);
    for (const listener of [...this.deadListeners]) listener(error);
    this.deadListeners.clear();
  }

  private answer<T>(method: string, args: unknown[], compute: () => T): Promise<T> {
    this.calls.push({ method, args });
    if (this.deathError) return Promise.reject(this.deathError);
    return new Promise<T>((resolve, reject) => {
      const fail = (error: Error) => {
        this.pending.delete(fail);
        reject(error);
      };
      this.pending.add(fail);
      const go = () => {
        if (!this.pending.has(fail)) return;
        this.pending.delete(fail);
        try {
          resolve(compute());
        } catch (error) {
          reject(error);
        }
      };
      if (this.held) this.held.push(go);
      else queueMicrotask(go);
    });
  }

  hello(): Promise<Hello> {
    return this.answer('hello', [], () => ({ protocolVersion: this.options.protocolVersion ?? PROTOCOL_VERSION }));
  }

  open(request: OpenRequest, onProgress: (progress: ProgressEvent) => void): Promise<LoadSummary> {
    this.calls.push({ method: 'open', args: [request] });
    if (this.deathError) return Promise.reject(this.deathError);
    const loadId = ++this.loadId;
    return new Promise<LoadSummary>((resolve, reject) => {
      const fail = (error: Error) => {
        this.pending.delete(fail);
        this.openReject = null;
        reject(error);
      };
      this.pending.add(fail);
      this.openReject = fail;
      const name = request.kind === 'url' ? request.url : request.kind === 'demo' ? `demo-${request.id}.jsonl` : request.name;
      const bytes =
        request.kind === 'bytes' ? request.buffer.byteLength : request.kind === 'file' ? request.file.size : request.kind === 'text' ? request.text.length : 0;
      onProgress({ loadId, bytes: Math.floor(bytes / 2), totalBytes: bytes, events: 10, elapsedMs: 5 });
      const go = () => {
        if (!this.pending.has(fail)) return;
        this.pending.delete(fail);
        this.openReject = null;
        resolve(this.summary(loadId, name, bytes));
      };
      if (this.held) this.held.push(go);
      else queueMicrotask(go);
    });
  }

  grow(request: GrowRequest): Promise<GrowResult> {
    this.calls.push({ method: 'grow', args: [request] });
    return Promise.reject(new Error('the fake engine does not follow'));
  }

  cancel(): Promise<void> {
    this.calls.push({ method: 'cancel', args: [] });
    const abort = new Error('The load was cancelled.');
    abort.name = 'AbortError';
    this.openReject?.(abort);
    return Promise.resolve();
  }

  rows(params: RowsParams): Promise<RowWindow> {
    const { session, step: cursor, filter, start, count } = params;
    const pg = this.sandbox('rows', [session, cursor, filter, start, count]);
    if (pg) return pg.then((c) => c.rows({ ...params, session: 0 }));
    return this.answer('rows', [session, cursor, filter, start, count], () => {
      const synthetic = this.options.syntheticRows;
      if (synthetic !== undefined) {
        const end = Math.min(synthetic, start + count);
        const rows: TimelineRow[] = [];
        for (let i = Math.max(0, start); i < end; i++) rows.push(this.syntheticRow(i, cursor));
        return { total: synthetic, start, rows };
      }
      const indexes = this.filtered(filter);
      const fold = this.fold(cursor);
      const rows = indexes.slice(start, start + count).map((i) => this.row(i, cursor, fold));
      return { total: indexes.length, start, rows };
    });
  }

  rowOf(params: RowOfParams): Promise<number> {
    const { session, filter, seq } = params;
    const pg = this.sandbox('rowOf', [session, filter, seq]);
    if (pg) return pg.then((c) => c.rowOf({ ...params, session: 0 }));
    return this.answer('rowOf', [session, filter, seq], () => {
      if (this.options.syntheticRows !== undefined) return Math.min(seq, this.options.syntheticRows - 1);
      const indexes = this.filtered(filter);
      const row = indexes.findIndex((i) => (this.events[i]?.seq ?? -1) >= seq);
      return row === -1 ? Math.max(0, indexes.length - 1) : row;
    });
  }

  search(query: SearchQuery): Promise<SearchResult> {
    const pg = this.sandbox('search', [query]);
    if (pg) return pg.then((c) => c.search({ ...query, session: 0 }));
    return this.answer('search', [query], () => {
      const indexes = this.filtered(query.filter);
      const needle = query.text.toLowerCase();
      const n = indexes.length;
      const matches = (row: number) => {
        const event = this.events[indexes[row] ?? -1];
        return !!event && (event.type.toLowerCase().includes(needle) || summaryOf(event).toLowerCase().includes(needle));
      };
      const from = query.fromRow < 0 ? (query.direction === 1 ? -1 : n) : query.fromRow;
      for (let step = 1; step <= n; step++) {
        const raw = from + step * query.direction;
        const row = ((raw % n) + n) % n;
        if (matches(row)) {
          const wrapped = query.direction === 1 ? raw >= n : raw < 0;
          return { row, seq: this.events[indexes[row] ?? -1]?.seq ?? null, wrapped, total: indexes.filter((_, r) => matches(r)).length, error: null };
        }
      }
      return { row: null, seq: null, wrapped: false, total: 0, error: null };
    });
  }

  searchMatches(params: MatchesParams): Promise<MatchWindow> {
    return this.answer('searchMatches', [params], () => {
      const indexes = this.filtered(params.filter);
      const needle = params.text.toLowerCase();
      const rows = indexes.flatMap((i, row) => {
        const event = this.events[i];
        return event && (event.type.toLowerCase().includes(needle) || summaryOf(event).toLowerCase().includes(needle)) ? [{ row, event }] : [];
      });
      const window = rows.slice(params.start, params.start + params.count);
      return {
        total: rows.length,
        start: params.start,
        error: null,
        matches: window.map(({ row, event }) => ({ row, seq: event.seq, type: event.type, snippet: summaryOf(event), marks: [] })),
      };
    });
  }

  surface(params: WindowParams): Promise<SurfaceWindow> {
    const { session, step, start, count } = params;
    const pg = this.sandbox('surface', [session, step, start, count]);
    if (pg) return pg.then((c) => c.surface({ ...params, session: 0 }));
    return this.answer('surface', [session, step, start, count], () => {
      const fold = this.fold(step);
      const nodes = fold.nodes.slice(start, start + count).map((seq) => this.node(seq, fold));
      return {
        step,
        total: fold.nodes.length,
        replaceGeneration: fold.replacements.length,
        messages: fold.nodes.length,
        change: this.change(step, fold),
        start,
        nodes,
      };
    });
  }

  shadowedBy(params: ReplacementParams): Promise<SurfaceNode[]> {
    const { session, replacement } = params;
    const pg = this.sandbox('shadowedBy', [session, replacement]);
    if (pg) return pg.then((c) => c.shadowedBy({ ...params, session: 0 }));
    return this.answer('shadowedBy', [session, replacement], () => {
      const fold = this.fold(this.accepted());
      const r = fold.replacements.find((x) => x.seq === replacement);
      return (r?.shadowedSeqs ?? []).map((seq) => this.node(seq, fold));
    });
  }

  replacements(params: StepParams): Promise<ReplacementRow[]> {
    const { session, step } = params;
    const pg = this.sandbox('replacements', [session, step]);
    if (pg) return pg.then((c) => c.replacements({ ...params, session: 0 }));
    return this.answer('replacements', [session, step], () => {
      const fold = this.fold(step);
      const top = (seq: number): number => {
        const by = fold.shadowedBy.get(seq);
        return by === undefined ? seq : top(by);
      };
      return fold.replacements.map((r) => ({
        seq: r.seq,
        step: r.step,
        start: r.start,
        end: r.end,
        shadowedSeqs: r.shadowedSeqs,
        kind: this.events[r.seq]?.type === 'tool/result' ? 'prune' : 'compaction',
        shadowedBy: fold.shadowedBy.get(r.seq) ?? null,
        visible: top(r.seq),
      }));
    });
  }

  brackets(params: BracketsParams): Promise<Bracket[]> {
    const { session, step, lo, hi } = params;
    const pg = this.sandbox('brackets', [session, step, lo, hi]);
    if (pg) return pg.then((c) => c.brackets({ ...params, session: 0 }));
    return this.answer('brackets', [session, step, lo, hi], () => {
      const fold = this.fold(step);
      const covered = (seq: number): number[] => {
        const r = fold.replacements.find((x) => x.seq === seq);
        return r ? r.shadowedSeqs.flatMap((s) => [s, ...covered(s)]) : [];
      };
      const depth = (seq: number): number => {
        const by = fold.shadowedBy.get(seq);
        return by === undefined ? 0 : 1 + depth(by);
      };
      return fold.replacements
        .map((r) => {
          const seqs = covered(r.seq);
          return {
            replacement: r.seq,
            first: Math.min(...seqs),
            last: Math.max(...seqs),
            depth: depth(r.seq),
            kind: this.events[r.seq]?.type === 'tool/result' ? ('prune' as const) : ('compaction' as const),
          };
        })
        .filter((b) => b.last >= lo && b.first <= hi);
    });
  }

  detail(params: EventAtParams): Promise<EventDetail> {
    const { session, seq, step } = params;
    const pg = this.sandbox('detail', [session, seq, step]);
    if (pg) return pg.then((c) => c.detail({ ...params, session: 0 }));
    return this.answer('detail', [session, seq, step], () => {
      const index = this.events.findIndex((e) => e.seq === seq);
      const event = this.events[index];
      if (!event) throw new Error(`No event with seq ${seq}.`);
      const fold = this.fold(step);
      const chain: number[] = [];
      let by = fold.shadowedBy.get(seq);
      const replacedBy = by ?? null;
      while (by !== undefined) {
        chain.push(by);
        by = fold.shadowedBy.get(by);
      }
      const raw = JSON.stringify(event);
      const limit = this.options.detailRawLimit ?? Infinity;
      return {
        index,
        seq,
        line: index + 2,
        byte: index * 120,
        member: -1,
        raw: raw.length > limit ? raw.slice(0, limit) : raw,
        event,
        ...(raw.length > limit ? { clipped: { rawLength: raw.length, eventClipped: false } } : {}),
        state: this.stateOf(index, step, fold),
        sourceEventSeqs: event.sourceEventSeqs ?? [],
        citedBy: this.events.filter((e) => e.sourceEventSeqs?.includes(seq)).map((e) => e.seq),
        replacedBy,
        replacementChain: chain.slice(1),
        replacedEventSeqs: fold.replacements.find((r) => r.seq === seq)?.shadowedSeqs ?? [],
        diagnostics: (this.options.diagnostics ?? []).filter((d) => d.seq === seq),
      };
    });
  }

  diagnostics(params: DiagnosticsParams): Promise<{ total: number; items: Diagnostic[] }> {
    const { session, start, count } = params;
    const pg = this.sandbox('diagnostics', [session, start, count]);
    if (pg) return pg.then((c) => c.diagnostics({ ...params, session: 0 }));
    return this.answer('diagnostics', [session, start, count], () => {
      const all = this.options.diagnostics ?? [];
      return { total: all.length, items: all.slice(start, start + count) };
    });
  }

  replaceSteps(params: SessionParams): Promise<Int32Array> {
    const { session } = params;
    const pg = this.sandbox('replaceSteps', [session]);
    if (pg) return pg.then((c) => c.replaceSteps({ session: 0 }));
    return this.answer('replaceSteps', [session], () =>
      Int32Array.from(this.fold(this.accepted()).replacements.map((r) => r.step)),
    );
  }

  navigate(params: NavigateParams): Promise<number | null> {
    const { session, step, kind } = params;
    const pg = this.sandbox('navigate', [session, step, kind]);
    if (pg) return pg.then((c) => c.navigate({ ...params, session: 0 }));
    return this.answer('navigate', [session, step, kind], () => {
      const accepted = this.accepted();
      const isChange = (k: number) => this.events[k - 1]?.surfaceOp !== undefined;
      const isReplace = (k: number) => typeof this.events[k - 1]?.surfaceOp === 'object';
      const test = kind.endsWith('replace') ? isReplace : isChange;
      if (kind.startsWith('next')) {
        for (let k = step + 1; k <= accepted; k++) if (test(k)) return k;
      } else {
        for (let k = step - 1; k >= 1; k--) if (test(k)) return k;
      }
      return null;
    });
  }

  // ---- teaching: views, replace inspector, curve, exports, demos -------------------------------

  views(params: WindowParams): Promise<ViewsWindow> {
    const { session, step, start, count } = params;
    const pg = this.sandbox('views', [session, step, start, count]);
    if (pg) return pg.then((c) => c.views({ ...params, session: 0 }));
    return this.answer('views', [session, step, start, count], () => {
      const k = Math.max(0, Math.min(step, this.accepted()));
      const fold = this.fold(k);
      const first = Math.max(0, Math.min(start, fold.nodes.length));
      const rows = fold.nodes.slice(first, first + count).map((seq) => {
        const covered = coveredAppends(seq, fold);
        return {
          model: this.message(seq, k, fold),
          transcript: covered.slice(0, VIEW_TRANSCRIPT_PREVIEW).map((s) => this.message(s, k, fold)),
          transcriptTotal: covered.length,
          nested: nestedReplacements(seq, fold),
        };
      });
      return { step: k, total: fold.nodes.length, start: first, rows };
    });
  }

  transcript(params: TranscriptParams): Promise<TranscriptPage> {
    const { session, step, seq, start, count } = params;
    const pg = this.sandbox('transcript', [session, step, seq, start, count]);
    if (pg) return pg.then((c) => c.transcript({ ...params, session: 0 }));
    return this.answer('transcript', [session, step, seq, start, count], () => {
      const k = Math.max(0, Math.min(step, this.accepted()));
      const fold = this.fold(k);
      if (!fold.nodes.includes(seq)) throw new Error(`seq ${seq} is not on the surface at step ${k}`);
      const covered = coveredAppends(seq, fold);
      const page = transcriptWindow(covered, start, count);
      return { total: covered.length, start: page.start, messages: page.seqs.map((s) => this.message(s, k, fold)) };
    });
  }

  blockText(params: BlockTextParams): Promise<string> {
    const { session, seq, block } = params;
    const pg = this.sandbox('blockText', [session, seq, block]);
    if (pg) return pg.then((c) => c.blockText({ ...params, session: 0 }));
    return this.answer('blockText', [session, seq, block], () => {
      const event = this.eventAt(seq);
      const text = event ? viewMessage(event, 'current', Infinity).blocks[block]?.text : undefined;
      if (text === undefined) throw new Error(`seq ${seq} has no block ${block}`);
      return text;
    });
  }

  viewPlace(params: EventAtParams): Promise<ViewPlace | null> {
    const { session, step, seq } = params;
    const pg = this.sandbox('viewPlace', [session, step, seq]);
    if (pg) return pg.then((c) => c.viewPlace({ ...params, session: 0 }));
    return this.answer('viewPlace', [session, step, seq], () => {
      const fold = this.fold(Math.max(0, Math.min(step, this.accepted())));
      for (const [row, rowSeq] of fold.nodes.entries()) {
        const index = coveredAppends(rowSeq, fold).indexOf(seq);
        if (index >= 0) return { row, rowSeq, index };
        if (rowSeq === seq || nestedReplacements(rowSeq, fold).includes(seq)) return { row, rowSeq, index: -1 };
      }
      return null;
    });
  }

  replaceDetail(params: ReplacementParams): Promise<ReplaceDetail> {
    const { session, replacement } = params;
    const pg = this.sandbox('replaceDetail', [session, replacement]);
    if (pg) return pg.then((c) => c.replaceDetail({ ...params, session: 0 }));
    return this.answer('replaceDetail', [session, replacement], () => {
      const fold = this.fold(this.accepted());
      const r = fold.replacements.find((x) => x.seq === replacement);
      if (!r) throw new Error(`seq ${replacement} is not a replacement`);
      const event = this.eventAt(replacement);
      const kind = replacementKindOf(event);
      const before = this.fold(r.step - 1);
      const after = this.fold(r.step);
      const bytesBefore = r.shadowedSeqs.reduce((sum, s) => sum + derivedSize(this.eventAt(s)), 0);
      const bytesAfter = derivedSize(event);
      return {
        seq: r.seq,
        step: r.step,
        kind,
        start: r.start,
        end: r.end,
        shadowedSeqs: r.shadowedSeqs,
        replacement: this.message(r.seq, r.step, after),
        shadowed: r.shadowedSeqs.map((s) => this.message(s, r.step - 1, before)),
        bytesBefore,
        bytesAfter,
        tokensBefore: estimateTokens(bytesBefore),
        tokensAfter: estimateTokens(bytesAfter),
        tokenMethod: FAKE_TOKEN_METHOD,
        prune: kind === 'prune' ? this.pruneOf(r.shadowedSeqs[0] ?? -1, r.seq) : null,
        compaction: kind === 'compaction' ? this.compactionOf(r.seq, r.shadowedSeqs) : null,
        findings: (this.options.diagnostics ?? []).filter((d) => d.rule.startsWith('qa/') && d.seq === r.seq),
      };
    });
  }

  /** The fake holds one session: comparisons are tested on the real engine (tests/ui/compare.test.tsx). */
  compare(): Promise<SessionComparison> {
    return Promise.reject(new Error('the fake client compares nothing'));
  }

  compareView(): Promise<CompareViewData> {
    return Promise.reject(new Error('the fake client compares nothing'));
  }

  openCompare(): Promise<LoadSummary> {
    return Promise.reject(new Error('the fake client opens nothing to compare with'));
  }

  closeCompare(): Promise<void> {
    return Promise.resolve();
  }

  /** The fake's events carry no clock: the time track says so (the real engine is tested for spans). */
  timeTrack(params: TimeTrackParams): Promise<TimeTrackData> {
    return this.answer('timeTrack', [params.session], () => ({
      time: { kind: 'absent', origin: null, outOfOrder: 0, note: 'no event records a time' },
      from: null,
      to: null,
      range: null,
      lanes: [],
      gaps: [],
      gapsTotal: 0,
      gapThresholdMs: 30_000,
      cursorTime: null,
    }));
  }

  curve(params: CurveParams): Promise<CurveData> {
    const { session, buckets } = params;
    const pg = this.sandbox('curve', [session, buckets]);
    if (pg) return pg.then((c) => c.curve({ ...params, session: 0 }));
    return this.answer('curve', [session, buckets], () => {
      const steps = this.accepted();
      const bytes: number[] = [];
      const messages: number[] = [];
      for (let k = 0; k <= steps; k++) {
        const nodes = this.fold(k).nodes;
        bytes.push(nodes.reduce((sum, seq) => sum + derivedSize(this.eventAt(seq)), 0));
        messages.push(nodes.length);
      }
      const n = Math.max(1, Math.min(buckets, steps + 1));
      const out: CurveData['buckets'] = [];
      for (let b = 0; b < n; b++) {
        const from = Math.floor((b * (steps + 1)) / n);
        const to = Math.max(from, Math.floor(((b + 1) * (steps + 1)) / n) - 1);
        const slice = bytes.slice(from, to + 1);
        out.push({ from, to, bytesMin: Math.min(...slice), bytesMax: Math.max(...slice), messagesMax: Math.max(...messages.slice(from, to + 1)) });
      }
      const replaces = this.fold(steps).replacements.map((r) => r.step);
      return { steps, buckets: out, replaces, bytesMax: Math.max(0, ...bytes), tokenMethod: FAKE_TOKEN_METHOD };
    });
  }

  exportText(params: ExportTextParams): Promise<ExportFile> {
    const { session, kind, step } = params;
    const pg = this.sandbox('exportText', [session, kind, step]);
    if (pg) return pg.then((c) => c.exportText({ ...params, session: 0 }));
    return this.answer('exportText', [session, kind, step], () => {
      const k = Math.max(0, Math.min(step, this.accepted()));
      const fold = this.fold(k);
      const base = `fake-${session}`;
      switch (kind) {
        case 'model-view': {
          const messages = fold.nodes.map((seq) => derivedMessage(this.eventAt(seq))).filter((m) => m !== null);
          return { name: `${base}.model-view.step-${k}.json`, mime: 'application/json', text: `${JSON.stringify(messages, null, 2)}\n` };
        }
        case 'surface': {
          const nodes = fold.nodes.map((seq) => this.node(seq, fold));
          return { name: `${base}.surface.step-${k}.json`, mime: 'application/json', text: `${JSON.stringify({ step: k, nodes }, null, 2)}\n` };
        }
        case 'report-json':
          return { name: `${base}.report.json`, mime: 'application/json', text: `${JSON.stringify({ sessionId: base, diagnostics: this.options.diagnostics ?? [] }, null, 2)}\n` };
        case 'report-markdown':
          return { name: `${base}.report.md`, mime: 'text/markdown', text: `# Surface Lens report: ${base}\n\n${(this.options.diagnostics ?? []).length} findings\n` };
      }
    });
  }

  exportEvent(params: EventParams): Promise<ExportFile> {
    const { session, seq } = params;
    const pg = this.sandbox('exportEvent', [session, seq]);
    if (pg) return pg.then((c) => c.exportEvent({ ...params, session: 0 }));
    return this.answer('exportEvent', [session, seq], () => {
      const event = this.events.find((e) => e.seq === seq);
      if (!event) throw new Error(`No event with seq ${seq}.`);
      return { name: `fake-${session}.event-${seq}.jsonl`, mime: 'application/jsonl', text: `${JSON.stringify(event)}\n` };
    });
  }

  demos(): Promise<DemoInfo[]> {
    return this.answer('demos', [], () => FAKE_DEMOS);
  }

  // ---- playground ---------------------------------------------------------------------------

  playgroundStart(from: { session: number; step: number } | null): Promise<PlaygroundState> {
    return this.answer('playgroundStart', [from], () => {
      const k = from === null ? 0 : Math.max(0, Math.min(from.step, this.accepted()));
      this.pgLog = this.events.slice(0, k);
      this.pgRedo = [];
      return this.pgRefresh();
    });
  }

  playgroundOffer(template: PlaygroundTemplate): Promise<PlaygroundResult> {
    return this.answer('playgroundOffer', [template], (): PlaygroundResult => {
      const log = this.requirePlayground();
      const nodes = this.pgNodes();
      const candidate = candidateOf(template, log, nodes);
      if ('ok' in candidate) return { ...candidate, state: this.pgStateNow() };
      const refusal = validateCandidate(candidate, log, nodes);
      if (refusal) return { ...refusal, state: this.pgStateNow() };
      log.push(candidate);
      this.pgRedo = [];
      return { ok: true, seq: candidate.seq, state: this.pgRefresh() };
    });
  }

  playgroundUndo(): Promise<PlaygroundState> {
    return this.answer('playgroundUndo', [], () => {
      const last = this.requirePlayground().pop();
      if (last) this.pgRedo.push(last);
      return this.pgRefresh();
    });
  }

  playgroundRedo(): Promise<PlaygroundState> {
    return this.answer('playgroundRedo', [], () => {
      const next = this.pgRedo.pop();
      if (next) this.requirePlayground().push(next);
      return this.pgRefresh();
    });
  }

  playgroundExport(): Promise<ExportFile> {
    return this.answer('playgroundExport', [], () => {
      const log = this.requirePlayground();
      const header = JSON.stringify({ type: 'session', version: 0, id: 'playground', createdAt: 0, delegationDepth: 0 });
      const text = [header, ...log.map((e) => JSON.stringify(e))].join('\n') + '\n';
      return { name: 'playground.session.jsonl', mime: 'application/x-ndjson', text };
    });
  }

  /** The events of the playground so far (tests). */
  get playgroundLog(): readonly FakeEvent[] | null {
    return this.pgLog;
  }

  private requirePlayground(): FakeEvent[] {
    if (!this.pgLog) throw new Error('no playground is open');
    return this.pgLog;
  }

  private pgNodes(): number[] {
    const client = this.pgClient;
    return client ? client.fold(client.accepted()).nodes : [];
  }

  private pgRefresh(): PlaygroundState {
    const { blockClip } = this.options;
    this.pgClient = new FakeCoreClient(blockClip === undefined ? { events: [...this.requirePlayground()] } : { events: [...this.requirePlayground()], blockClip });
    return this.pgStateNow();
  }

  private pgStateNow(): PlaygroundState {
    const log = this.requirePlayground();
    const client = this.pgClient as FakeCoreClient;
    return {
      session: FAKE_PLAYGROUND,
      summary: client.sessionSummary(FAKE_PLAYGROUND, 'playground.jsonl', `playground-${log.length}`),
      nextSeq: log.length,
      canUndo: log.length > 0,
      canRedo: this.pgRedo.length > 0,
      pendingCalls: pendingCalls(log),
    };
  }

  /** Per-session calls for the playground session go to the fake holding the playground log. */
  private sandbox(method: string, args: unknown[]): Promise<FakeCoreClient> | null {
    if (args[0] !== FAKE_PLAYGROUND && (args[0] as SearchQuery | undefined)?.session !== FAKE_PLAYGROUND) return null;
    this.calls.push({ method, args });
    if (this.deathError) return Promise.reject(this.deathError);
    const client = this.pgClient;
    return client ? Promise.resolve(client) : Promise.reject(new Error('no playground is open'));
  }

  private eventAt(seq: number): FakeEvent | undefined {
    return this.events.find((e) => e.seq === seq);
  }

  private message(seq: number, step: number, fold: Fold) {
    const index = this.events.findIndex((e) => e.seq === seq);
    return viewMessage(this.events[index] as FakeEvent, this.stateOf(index, step, fold), this.options.blockClip ?? 4000);
  }

  private pruneOf(original: number, copy: number): ReplaceDetail['prune'] {
    const before = toolResultText(this.eventAt(original));
    const after = toolResultText(this.eventAt(copy));
    return { before, after, diff: lineDiff(before, after), clipped: false };
  }

  /** The bracket of a checkpoint: the nearest summary before it, and the start/end with its id. */
  private compactionOf(seq: number, actual: number[]): ReplaceDetail['compaction'] {
    const summary = [...this.events].reverse().find((e) => e.seq < seq && e.type === 'compaction/summary');
    const data = (summary?.data ?? {}) as { compactionId?: string; shadowedSeqs?: unknown[]; shadowedRange?: { start: unknown; end: unknown } };
    const id = data.compactionId ?? null;
    const find = (type: string) => this.events.find((e) => e.type === type && (e.data as { compactionId?: string } | undefined)?.compactionId === id)?.seq ?? null;
    const declaredSeqs = Array.isArray(data.shadowedSeqs) ? data.shadowedSeqs : null;
    return {
      compactionId: id,
      startSeq: find('compaction/start'),
      summarySeq: summary?.seq ?? null,
      endSeq: find('compaction/end'),
      declaredRange: data.shadowedRange ?? null,
      declaredSeqs,
      declaredMatches: declaredSeqs !== null && JSON.stringify(declaredSeqs) === JSON.stringify(actual),
      error: null,
    };
  }

  // ---- the in-memory engine ----------------------------------------------------------------------

  accepted(): number {
    return this.options.surfaceErrorIndex ?? this.events.length;
  }

  fold(step: number): Fold {
    const nodes: number[] = [];
    const replacements: Fold['replacements'] = [];
    const shadowedBy = new Map<number, number>();
    const limit = Math.min(step, this.accepted());
    for (let i = 0; i < limit; i++) {
      const event = this.events[i];
      if (!event?.surfaceOp) continue;
      if (event.surfaceOp === 'append') {
        nodes.push(event.seq);
        continue;
      }
      const a = nodes.indexOf(event.surfaceOp.start);
      const b = nodes.indexOf(event.surfaceOp.end);
      const shadowed = nodes.splice(a, b - a + 1, event.seq);
      for (const seq of shadowed) shadowedBy.set(seq, event.seq);
      replacements.push({ seq: event.seq, start: event.surfaceOp.start, end: event.surfaceOp.end, shadowedSeqs: shadowed, step: i + 1 });
    }
    return { nodes, replacements, shadowedBy };
  }

  private filtered(filter: RowFilter): number[] {
    const out: number[] = [];
    this.events.forEach((event, i) => {
      if (filter.surfaceOnly && event.surfaceOp === undefined) return;
      if (filter.families.length > 0 && !filter.families.includes(familyOf(event.type))) return;
      out.push(i);
    });
    return out;
  }

  private stateOf(index: number, step: number, fold: Fold): EventState {
    const event = this.events[index];
    const errorIndex = this.options.surfaceErrorIndex;
    if (errorIndex !== undefined && index === errorIndex) return 'rejected';
    if (errorIndex !== undefined && index > errorIndex) return 'pending';
    if (!event || index >= step) return 'future';
    if (!SURFACE_TYPES.has(event.type)) return 'log-only';
    return fold.nodes.includes(event.seq) ? 'current' : 'shadowed';
  }

  private row(index: number, cursor: number, fold: Fold): TimelineRow {
    const event = this.events[index] as FakeEvent;
    const data = (event.data ?? {}) as { turn?: number; step?: number };
    return {
      index,
      seq: event.seq,
      seqLabel: String(event.seq),
      time: event.time,
      timeBack: false,
      type: event.type,
      family: familyOf(event.type),
      turn: typeof data.turn === 'number' ? data.turn : null,
      step: typeof data.step === 'number' ? data.step : null,
      op: event.surfaceOp === undefined ? null : event.surfaceOp === 'append' ? 'append' : 'replace',
      summary: summaryOf(event),
      state: this.stateOf(index, cursor, fold),
    };
  }

  private syntheticRow(i: number, cursor: number): TimelineRow {
    const types = ['turn/start', 'user/message', 'assistant/chunk', 'assistant/message', 'tool/call', 'tool/result'];
    const type = types[i % types.length] as string;
    return {
      index: i,
      seq: i,
      seqLabel: String(i),
      time: 1_000 + i,
      timeBack: false,
      type,
      family: familyOf(type),
      turn: 1 + Math.floor(i / 60),
      step: 1,
      op: SURFACE_TYPES.has(type) ? 'append' : null,
      summary: `synthetic event ${i}`,
      state: i < cursor ? (SURFACE_TYPES.has(type) ? 'current' : 'log-only') : 'future',
    };
  }

  private node(seq: number, fold: Fold): SurfaceNode {
    const event = this.events.find((e) => e.seq === seq) as FakeEvent;
    const r = fold.replacements.find((x) => x.seq === seq);
    return {
      seq,
      type: event.type,
      family: familyOf(event.type),
      role: ((event.data ?? {}) as { role?: string; message?: { role?: string } }).role ??
        ((event.data ?? {}) as { message?: { role?: string } }).message?.role ?? null,
      preview: summaryOf(event),
      replacement: typeof event.surfaceOp === 'object',
      shadowedCount: r?.shadowedSeqs.length ?? 0,
      empty: false,
    };
  }

  private change(step: number, fold: Fold): StepChange {
    if (step === 0) return { kind: 'start', seq: null, type: null, text: 'start: nothing applied' };
    const event = this.events[step - 1] as FakeEvent;
    if (event.surfaceOp === undefined) return { kind: 'log-only', seq: event.seq, type: event.type, text: `log-only ${event.seq}` };
    if (event.surfaceOp === 'append') return { kind: 'append', seq: event.seq, type: event.type, text: `appended ${event.seq}` };
    const r = fold.replacements.find((x) => x.seq === event.seq);
    const shadowed = r?.shadowedSeqs ?? [];
    return {
      kind: 'replace',
      seq: event.seq,
      type: event.type,
      start: event.surfaceOp.start,
      end: event.surfaceOp.end,
      shadowed,
      text: `replaced ${event.surfaceOp.start}…${event.surfaceOp.end} (${shadowed.length} nodes) with ${event.seq}`,
    };
  }

  private summary(loadId: number, name: string, bytes: number): LoadSummary {
    const count = this.options.sessions ?? 1;
    const sessions: SessionSummary[] = [];
    for (let index = 0; index < count; index++) sessions.push(this.sessionSummary(index, index === 0 ? name : `${name}!subagents/child-${index}/session.jsonl`));
    return { loadId, file: name, bytes, sessions, findings: [], elapsedMs: 12 };
  }

  private sessionSummary(index: number, path: string, fingerprint?: string): SessionSummary {
    const events = this.options.syntheticRows ?? this.events.length;
    const accepted = this.options.syntheticRows ?? this.accepted();
    const fold = this.fold(accepted);
    const errorIndex = this.options.surfaceErrorIndex;
    const refused = errorIndex === undefined ? undefined : this.events[errorIndex];
    const surfaceError: SurfaceErrorInfo | null = refused
      ? {
          index: errorIndex as number,
          seq: refused.seq,
          line: (errorIndex as number) + 2,
          message: `surface replace: start seq ${refused.seq} not found in surface`,
          rule: 'surface/replace-range',
        }
      : null;
    const diagnostics = this.options.diagnostics ?? [];
    const families: Partial<Record<Family, number>> = {};
    for (const event of this.events) families[familyOf(event.type)] = (families[familyOf(event.type)] ?? 0) + 1;
    return {
      id: index,
      index,
      path,
      format: 'jsonl',
      sessionId: `fake-${index}`,
      parentSession: index === 0 ? null : 'fake-0',
      events,
      baseSeq: 0,
      partial: false,
      accepted,
      surfaceError,
      decodeError: null,
      loaderVerdict: null,
      time: { kind: 'clock', origin: this.events[0]?.time ?? null, outOfOrder: 0, note: null },
      diagnosticCounts: {
        error: diagnostics.filter((d) => d.severity === 'error').length,
        warning: diagnostics.filter((d) => d.severity === 'warning').length,
        info: diagnostics.filter((d) => d.severity === 'info').length,
      },
      nodes: fold.nodes.length,
      replacements: fold.replacements.length,
      replaceGeneration: fold.replacements.length,
      messages: fold.nodes.length,
      families,
      fingerprint: fingerprint ?? this.options.fingerprint ?? 'fp-fake-0001',
    };
  }
}

function summaryOf(event: FakeEvent): string {
  type Block = { text?: string; content?: { text?: string }[] };
  const data = (event.data ?? {}) as { content?: Block[]; message?: { content?: Block[] } };
  const content = data.content ?? data.message?.content;
  const first = content?.[0]?.text ?? content?.[0]?.content?.[0]?.text;
  return typeof first === 'string' ? first : event.type;
}
