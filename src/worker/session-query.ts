/**
 * Answers the protocol's per-session questions from one {@link SessionAnalysis}: windows of
 * timeline rows, the surface at a step, replacements, brackets, details, search, navigation.
 * Everything is computed from typed-array columns and the time-travel index; event objects are
 * parsed only for the rows and details actually asked for.
 */
import { outOfOrderFlags } from '../core/analyze/time';
import { OpCode, citersOf, sourcesOf } from '../core/analyze/columns';
import { clipJsonValue } from '../core/analyze/clip-value';
import { previewOf, replacementKind, roleOf, summarizeEvent } from '../core/analyze/describe';
import { familyOf } from '../core/analyze/family';
import type { Family } from '../core/analyze/family';
import type { SessionAnalysis } from '../core/analyze/session';
import { breakSteps } from './analysis-query';
import { LineLog } from '../core/decode/line-log';
import type { Diagnostic } from '../core/model';
import { DETAIL_RAW_LIMIT } from '../protocol/protocol';
import type {
  Bracket,
  DetailClip,
  EventDetail,
  EventState,
  NavigateKind,
  ReplacementKind,
  ReplacementRow,
  RowFilter,
  RowWindow,
  SearchQuery,
  SearchResult,
  StepChange,
  SurfaceNode,
  SurfaceOpKind,
  SurfaceWindow,
  TimelineRow,
} from '../protocol/protocol';

const OP_KIND: readonly SurfaceOpKind[] = [null, 'append', 'replace', 'invalid'];
const MAX_WINDOW = 2000;
/**
 * Entries kept by each per-session cache of what does not depend on the cursor (row summaries,
 * surface nodes). Seeking and playing re-ask for the same rows and nodes at other steps; without
 * the caches every answer re-parses its events. A few thousand entries cost well under 1 MB.
 */
const CACHE_ENTRIES = 4096;

/**
 * Rows longer than this (in bytes) are searched piece by piece: decoding and lower-casing a
 * 200 MB line whole would make two 200 MB strings per search.
 */
const SEARCH_PIECE = 1 << 20;
/** Rows a paced search looks at between two pauses (about 10 ms of a million-row log). */
const SEARCH_SLICE = 8192;
const NOT_FOUND: SearchResult = { row: null, seq: null, wrapped: false };

/**
 * Characters the copy of a clipped detail's event may hold (about 1 MB): its strings and
 * containers are cut to about this much. Separate from `DETAIL_RAW_LIMIT`, the raw text sent:
 * the inspector shows only the start of the raw line, but the event's tree expands a long
 * string on request ("show all") and the views read a block's full text from it.
 */
export const DETAIL_EVENT_LIMIT = 1 << 20;

const utf8 = new TextDecoder('utf-8', { ignoreBOM: true });

/** The parts of a timeline row that do not depend on the cursor. */
type RowFacts = Omit<TimelineRow, 'state'>;

/** Reads events for one request (see {@link SessionQuery.reader}). */
type EventReader = (index: number) => unknown;

/**
 * Whether the UTF-8 text `bytes`, lower-cased, contains `needle` (already lower-case), reading
 * it in pieces. Each piece is searched with the last `needle.length - 1` characters of the one
 * before it, so a match across two pieces is found (lower-casing never shortens a text, so a
 * match spans at most `needle.length` characters of the original).
 */
function includesFolded(bytes: Uint8Array, needle: string): boolean {
  const decoder = new TextDecoder('utf-8', { ignoreBOM: true });
  let carry = '';
  for (let at = 0; at < bytes.length; at += SEARCH_PIECE) {
    const end = Math.min(bytes.length, at + SEARCH_PIECE);
    const piece = carry + decoder.decode(bytes.subarray(at, end), { stream: end < bytes.length });
    if (piece.toLowerCase().includes(needle)) return true;
    carry = needle.length > 1 ? piece.slice(Math.max(0, piece.length - (needle.length - 1))) : '';
  }
  return false;
}

/** An event, or what made it unreadable (a row that no longer parses). */
function readable(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return { unreadable: (error as Error).message };
  }
}

/** A small map that forgets everything when full (answers are windows: reuse is local). */
class BoundedCache<K, V> {
  private readonly map = new Map<K, V>();
  constructor(private readonly limit: number) {}
  get(key: K): V | undefined {
    return this.map.get(key);
  }
  set(key: K, value: V): V {
    if (this.map.size >= this.limit) this.map.clear();
    this.map.set(key, value);
    return value;
  }
}

/** Query side of one analysed session. */
export class SessionQuery {
  readonly session: SessionAnalysis;
  private readonly familyOfType: Family[];
  private readonly filterCache = new Map<string, Int32Array | null>();
  private kinds: ReplacementKind[] | null = null;
  private spans: { first: Int32Array; last: Int32Array } | null = null;
  private diagnosticsList: Diagnostic[] | null = null;
  private readonly rowFacts = new BoundedCache<number, RowFacts>(CACHE_ENTRIES);
  private readonly nodes = new BoundedCache<number, SurfaceNode>(CACHE_ENTRIES);
  /** Per event: its time is earlier than one before it. Built on the first row request. */
  private timeBack: Uint8Array | null = null;

  constructor(session: SessionAnalysis) {
    this.session = session;
    this.familyOfType = session.columns.types.map((type) => familyOf(type));
  }

  get length(): number {
    return this.session.log.length;
  }

  private seqOf(index: number): number {
    return index + this.session.baseSeq;
  }

  private typeOf(index: number): string {
    const { typeId, types } = this.session.columns;
    return types[typeId[index] as number] as string;
  }

  /** Event indices matching a filter, or null when every event matches. */
  private matching(filter: RowFilter): Int32Array | null {
    const families = [...new Set(filter.families)].sort();
    const key = `${families.join(',')}|${filter.surfaceOnly ? 1 : 0}`;
    if (this.filterCache.has(key)) return this.filterCache.get(key) ?? null;
    let result: Int32Array | null = null;
    if (families.length > 0 || filter.surfaceOnly) {
      const wanted = new Set<Family>(families);
      const { typeId, op } = this.session.columns;
      const keep = new Int32Array(this.length);
      let n = 0;
      for (let i = 0; i < this.length; i++) {
        if (filter.surfaceOnly && op[i] === OpCode.None) continue;
        if (wanted.size > 0 && !wanted.has(this.familyOfType[typeId[i] as number] as Family)) continue;
        keep[n++] = i;
      }
      result = keep.slice(0, n);
    }
    if (this.filterCache.size > 16) this.filterCache.clear();
    this.filterCache.set(key, result);
    return result;
  }

  private rowCount(filter: RowFilter): number {
    return this.matching(filter)?.length ?? this.length;
  }

  private indexOfRow(filter: RowFilter, row: number): number {
    const list = this.matching(filter);
    return list ? (list[row] as number) : row;
  }

  /** State of event `index` at cursor `step`. */
  stateAt(index: number, step: number): EventState {
    const { fold, index: tt } = this.session;
    if (fold.error) {
      if (index === fold.error.index) return 'rejected';
      if (index > fold.error.index) return 'pending';
    }
    if (index >= step) return 'future';
    return tt.classify(index, step).state as EventState;
  }

  private parse(index: number): unknown {
    return readable(() => this.session.log.event(index));
  }

  /**
   * An event reader for one request that parses each row once: consecutive members of a packed
   * row (or a JSON-array line) share one parse, where `parse` would re-read the whole row for
   * every member (quadratic for one huge row of many members).
   */
  private reader(): EventReader {
    const log = this.session.log;
    if (!(log instanceof LineLog)) return (index) => this.parse(index);
    let rowStart = -1;
    let values: unknown[] = [];
    return (index) => {
      const origin = log.origin(index);
      if (origin.member < 0) return this.parse(index);
      if (origin.byte !== rowStart) {
        try {
          values = log.rowEvents(index);
        } catch {
          return this.parse(index);
        }
        rowStart = origin.byte;
      }
      return values[origin.member];
    };
  }

  /** What a timeline row shows of event `i`, parsed once and cached. */
  private facts(i: number, read: EventReader): RowFacts {
    const cached = this.rowFacts.get(i);
    if (cached) return cached;
    const { columns } = this.session;
    const time = columns.time[i] as number;
    const event = read(i);
    const data = event !== null && typeof event === 'object' ? (event as { data?: unknown }).data : undefined;
    const turn = data !== null && typeof data === 'object' ? (data as { turn?: unknown }).turn : undefined;
    const stepNo = data !== null && typeof data === 'object' ? (data as { step?: unknown }).step : undefined;
    this.timeBack ??= outOfOrderFlags(columns.time);
    const own = event !== null && typeof event === 'object' ? (event as { seq?: unknown }).seq : undefined;
    return this.rowFacts.set(i, {
      index: i,
      seq: this.seqOf(i),
      seqLabel: own === undefined ? '—' : typeof own === 'number' ? String(own) : (JSON.stringify(own) ?? String(own)),
      time: Number.isFinite(time) ? time : null,
      timeBack: this.timeBack[i] === 1,
      type: this.typeOf(i),
      family: this.familyOfType[columns.typeId[i] as number] as Family,
      turn: typeof turn === 'number' ? turn : null,
      step: typeof stepNo === 'number' ? stepNo : null,
      op: OP_KIND[columns.op[i] as number] ?? null,
      summary: summarizeEvent(event),
    });
  }

  rows(step: number, filter: RowFilter, start: number, count: number): RowWindow {
    const total = this.rowCount(filter);
    const first = Math.max(0, Math.min(start, total));
    const last = Math.min(total, first + Math.min(count, MAX_WINDOW));
    const rows: TimelineRow[] = [];
    const read = this.reader();
    for (let row = first; row < last; row++) {
      const i = this.indexOfRow(filter, row);
      rows.push({ ...this.facts(i, read), state: this.stateAt(i, step) });
    }
    return { total, start: first, rows };
  }

  rowOf(filter: RowFilter, seq: number): number {
    const index = seq - this.session.baseSeq;
    const list = this.matching(filter);
    if (!list) return Math.max(0, Math.min(index, this.length - 1));
    let lo = 0;
    let hi = list.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((list[mid] as number) < index) lo = mid + 1;
      else hi = mid;
    }
    return Math.min(lo, Math.max(0, list.length - 1));
  }

  /** The next row whose text holds `query.text` (case-insensitive), wrapping around. */
  search(query: SearchQuery): SearchResult {
    const scan = this.searchScan(query);
    return scan.next(Infinity) ?? NOT_FOUND;
  }

  /**
   * {@link search} a slice of rows at a time, with `pause` between slices, so a search through a
   * million rows (a second or more when nothing matches) does not hold up the requests that
   * arrive meanwhile. When `stale()` says a newer search replaced it, it stops with an
   * `AbortError` (the page ignores those).
   */
  async searchPaced(query: SearchQuery, pause: () => Promise<void>, stale: () => boolean): Promise<SearchResult> {
    const scan = this.searchScan(query);
    for (;;) {
      const result = scan.next(SEARCH_SLICE);
      if (result !== undefined) return result ?? NOT_FOUND;
      await pause();
      if (stale()) {
        const error = new Error('search superseded by a newer one');
        error.name = 'AbortError';
        throw error;
      }
    }
  }

  /**
   * A search in steps: `next(count)` looks at up to `count` more rows and returns the result, null
   * when every row was looked at without a match, or undefined to be called again.
   */
  private searchScan(query: SearchQuery): { next(count: number): SearchResult | null | undefined } {
    const needle = query.text.toLowerCase();
    const total = this.rowCount(query.filter);
    const from = query.fromRow < 0 ? (query.direction === 1 ? -1 : total) : query.fromRow;
    const read = this.reader();
    let n = needle === '' ? total + 1 : 1;
    return {
      next: (count) => {
        const stop = Math.min(total, n - 1 + count);
        for (; n <= stop; n++) {
          const raw = from + query.direction * n;
          const row = ((raw % total) + total) % total;
          const index = this.indexOfRow(query.filter, row);
          if (this.matches(index, needle, read)) {
            const wrapped = query.direction === 1 ? raw >= total : raw < 0;
            n = total + 1;
            return { row, seq: this.seqOf(index), wrapped };
          }
        }
        return n > total ? null : undefined;
      },
    };
  }

  private matches(index: number, needle: string, read: EventReader): boolean {
    const log = this.session.log;
    const origin = log.origin(index);
    let found: boolean;
    if (origin.member >= 0) {
      found = (JSON.stringify(read(index)) ?? '').toLowerCase().includes(needle);
    } else if (log instanceof LineLog) {
      // The row's end is found once (a scan of the whole row for its LF), and its bytes read once.
      const { start, end } = log.rowRange(index);
      const bytes = log.bytes().subarray(start, end);
      found = end - start > SEARCH_PIECE ? includesFolded(bytes, needle) : utf8.decode(bytes).toLowerCase().includes(needle);
    } else {
      found = log.raw(index).toLowerCase().includes(needle);
    }
    return found || String(this.seqOf(index)) === needle;
  }

  /** One surface node for display (it does not depend on the cursor: cached). */
  surfaceNode(seq: number): SurfaceNode {
    return this.nodes.get(seq) ?? this.nodes.set(seq, this.describeNode(seq));
  }

  private describeNode(seq: number): SurfaceNode {
    const index = seq - this.session.baseSeq;
    const event = this.parse(index);
    const tt = this.session.index;
    const r = tt.replacementOfSeq(seq);
    return {
      seq,
      type: this.typeOf(index),
      role: roleOf(event),
      preview: previewOf(event),
      replacement: r >= 0,
      shadowedCount: r >= 0 ? tt.replacement(r).shadowedSeqs.length : 0,
      empty: !tt.hasMessage(seq),
    };
  }

  stepChange(step: number): StepChange {
    if (step <= 0) return { kind: 'start', seq: null, type: null, text: 'step 0: nothing applied yet, the surface is empty' };
    const index = Math.min(step, this.session.fold.accepted) - 1;
    const seq = this.seqOf(index);
    const type = this.typeOf(index);
    const tt = this.session.index;
    const r = tt.replacementOfSeq(seq);
    if (r >= 0) {
      const rep = tt.replacement(r);
      const n = rep.shadowedSeqs.length;
      return {
        kind: 'replace',
        seq,
        type,
        start: rep.start,
        end: rep.end,
        shadowed: rep.shadowedSeqs,
        text: `replaced ${rep.start}…${rep.end} (${n} node${n === 1 ? '' : 's'}) with ${seq}`,
      };
    }
    if (tt.enterStep(seq) === step) return { kind: 'append', seq, type, text: `appended ${seq}` };
    return { kind: 'log-only', seq, type, text: `${type} ${seq} is log-only: the surface is unchanged` };
  }

  surface(step: number, start: number, count: number): SurfaceWindow {
    const tt = this.session.index;
    const k = Math.max(0, Math.min(step, this.session.fold.accepted));
    const total = tt.nodeCountAt(k);
    const first = Math.max(0, Math.min(start, total));
    const seqs = tt.nodeWindowAt(k, first, Math.min(count, MAX_WINDOW));
    return {
      step: k,
      total,
      replaceGeneration: tt.replaceGenerationAt(k),
      messages: tt.messagesAt(k),
      change: this.stepChange(k),
      start: first,
      nodes: seqs.map((seq) => this.surfaceNode(seq)),
    };
  }

  shadowedBy(replacementSeq: number): SurfaceNode[] {
    const r = this.session.index.replacementOfSeq(replacementSeq);
    if (r < 0) return [];
    return this.session.index.replacement(r).shadowedSeqs.map((seq) => this.surfaceNode(seq));
  }

  private replacementKinds(): ReplacementKind[] {
    if (!this.kinds) {
      const tt = this.session.index;
      const kinds: ReplacementKind[] = [];
      for (let r = 0; r < tt.replacementCount; r++) {
        kinds.push(replacementKind(this.parse(tt.replacement(r).seq - this.session.baseSeq)));
      }
      this.kinds = kinds;
    }
    return this.kinds;
  }

  replacements(step: number): ReplacementRow[] {
    const tt = this.session.index;
    const count = tt.replaceGenerationAt(step);
    const kinds = this.replacementKinds();
    const out: ReplacementRow[] = [];
    for (let r = 0; r < count; r++) {
      const rep = tt.replacement(r);
      const leave = tt.leaveStep(rep.seq);
      out.push({
        seq: rep.seq,
        step: rep.step,
        start: rep.start,
        end: rep.end,
        shadowedSeqs: rep.shadowedSeqs,
        kind: kinds[r] ?? 'other',
        shadowedBy: leave >= 0 && leave <= step ? tt.replacedBy(rep.seq) : null,
      });
    }
    return out;
  }

  brackets(step: number, lo: number, hi: number): Bracket[] {
    const tt = this.session.index;
    this.spans ??= tt.bracketSpans();
    const { first, last } = this.spans;
    const count = tt.replaceGenerationAt(step);
    const kinds = this.replacementKinds();
    // Depth = how many replaces applied by `step` shadowed it, through the chain of replaced-by.
    // Chains share their tails (a compaction replaces the previous summary), so depths are
    // memoized: O(brackets) instead of O(brackets × depth) for sessions nested hundreds deep.
    const depths = new Map<number, number>();
    const depthOf = (seq: number): number => {
      const path: number[] = [];
      let at = seq;
      let base = 0;
      for (;;) {
        const known = depths.get(at);
        if (known !== undefined) {
          base = known;
          break;
        }
        const leave = tt.leaveStep(at);
        if (leave < 0 || leave > step) break;
        path.push(at);
        at = tt.replacedBy(at);
      }
      for (let i = path.length - 1; i >= 0; i--) depths.set(path[i] as number, ++base);
      if (path.length === 0 && !depths.has(seq)) depths.set(seq, base);
      return depths.get(seq) as number;
    };
    const out: Bracket[] = [];
    for (let r = 0; r < count; r++) {
      const a = first[r] as number;
      const b = last[r] as number;
      if (b < lo || a > hi) continue;
      const seq = tt.replacement(r).seq;
      out.push({ replacement: seq, first: a, last: b, depth: depthOf(seq), kind: kinds[r] ?? 'other' });
    }
    return out;
  }

  /** Every diagnostic, with the decode error and the surface error first. */
  allDiagnostics(): Diagnostic[] {
    if (!this.diagnosticsList) {
      const { decodeError, fold } = this.session;
      const list: Diagnostic[] = [];
      if (decodeError) {
        list.push({ severity: 'error', rule: decodeError.rule ?? 'decode/error', seq: null, line: decodeError.line, message: decodeError.message });
      }
      if (fold.error) {
        list.push({
          severity: 'error',
          rule: fold.error.rule,
          seq: this.seqOf(fold.error.index),
          line: fold.error.line,
          message: fold.error.message,
        });
      }
      this.diagnosticsList = [...list, ...this.session.diagnostics];
    }
    return this.diagnosticsList;
  }

  diagnostics(start: number, count: number): { total: number; items: Diagnostic[] } {
    const all = this.allDiagnostics();
    return { total: all.length, items: all.slice(Math.max(0, start), Math.max(0, start) + Math.min(count, MAX_WINDOW)) };
  }

  detail(seq: number, step: number): EventDetail {
    const index = seq - this.session.baseSeq;
    if (!Number.isInteger(index) || index < 0 || index >= this.length) throw new Error(`no event with seq ${seq}`);
    const { log, columns, citedBy, index: tt } = this.session;
    const origin = log.origin(index);
    const state = this.stateAt(index, step);
    const classification = state === 'shadowed' ? tt.classify(index, step) : null;
    const r = tt.replacementOfSeq(seq);
    // A huge line (a 200 MB tool result) is not shipped to the page: its start, and the event
    // with long strings shortened; the whole of it is a download away (exportEvent). The row is
    // decoded once for both.
    const read = log instanceof LineLog ? log.rawAndEvent(index, DETAIL_RAW_LIMIT) : null;
    const raw = read?.raw ?? log.rawPreview(index, DETAIL_RAW_LIMIT);
    let event = read === null ? this.parse(index) : readable(read.event);
    let clipped: DetailClip | null = null;
    if (raw.text.length < raw.length) {
      const bounded = clipJsonValue(event, DETAIL_EVENT_LIMIT);
      event = bounded.value;
      clipped = { rawLength: raw.length, eventClipped: bounded.clipped };
    }
    return {
      index,
      seq,
      line: origin.line,
      byte: origin.byte,
      member: origin.member,
      raw: raw.text,
      event,
      ...(clipped === null ? {} : { clipped }),
      state,
      sourceEventSeqs: sourcesOf(columns, index),
      citedBy: citersOf(citedBy, index),
      replacedBy: classification && classification.state === 'shadowed' ? classification.by : null,
      replacementChain: classification && classification.state === 'shadowed' ? classification.chain.slice(1) : [],
      replacedEventSeqs: r >= 0 ? tt.replacement(r).shadowedSeqs : [],
      diagnostics: this.allDiagnostics().filter((d) => d.seq === seq),
    };
  }

  navigate(step: number, kind: NavigateKind): number | null {
    const accepted = this.session.fold.accepted;
    if (kind === 'next-break' || kind === 'prev-break') {
      const breaks = breakSteps(this.session);
      if (kind === 'next-break') return breaks.find((s) => s > step) ?? null;
      return breaks.filter((s) => s < step).at(-1) ?? null;
    }
    const steps = this.session.index.replaceSteps();
    if (kind === 'next-replace') {
      for (const s of steps) if (s > step) return s;
      return null;
    }
    if (kind === 'prev-replace') {
      for (let i = steps.length - 1; i >= 0; i--) if ((steps[i] as number) < step) return steps[i] as number;
      return null;
    }
    const op = this.session.columns.op;
    if (kind === 'next-change') {
      // Step k applies event k - 1.
      for (let k = step + 1; k <= accepted; k++) if (op[k - 1] !== OpCode.None) return k;
      return null;
    }
    for (let k = Math.min(step, accepted + 1) - 1; k >= 1; k--) if (op[k - 1] !== OpCode.None) return k;
    return step > 0 ? 0 : null;
  }
}
