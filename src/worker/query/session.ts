/**
 * One analysed session as the query code sees it: the {@link SessionAnalysis} plus what every
 * request shares (seq ↔ index, an event's type and family, its state at a step, reading events)
 * and the per-session caches of what does not depend on the cursor. Each request's query code
 * lives in its own module of this folder and takes a {@link QuerySession}.
 */
import { familyOf } from '../../core/analyze/family';
import type { Family } from '../../core/analyze/family';
import type { SessionAnalysis } from '../../core/analyze/session';
import type { OutOfOrderFlags } from '../../core/analyze/time';
import type { EventState, ReplacementKind, SurfaceNode, TimelineRow } from '../../protocol/protocol';

/**
 * Entries kept by each per-session cache of what does not depend on the cursor (row summaries,
 * surface nodes). Seeking and playing re-ask for the same rows and nodes at other steps; without
 * the caches every answer re-parses its events. A few thousand entries cost well under 1 MB.
 */
const CACHE_ENTRIES = 4096;

/**
 * The event indices matching one timeline filter: `rows[0 … length)`, the events before
 * `scanned` looked at (the rest, appended since, are looked at on the next read).
 */
export interface FilterRows {
  rows: Int32Array;
  length: number;
  scanned: number;
}

/** Most items of one window (rows, nodes, diagnostics) sent per request. */
export const MAX_WINDOW = 2000;

/** The parts of a timeline row that do not depend on the cursor. */
export type RowFacts = Omit<TimelineRow, 'state'>;

/** Reads events for one request (see {@link QuerySession.reader}). */
export type EventReader = (index: number) => unknown;

/** A small map that forgets everything when full (answers are windows: reuse is local). */
export class BoundedCache<K, V> {
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

  clear(): void {
    this.map.clear();
  }
}

/** An event, or what made it unreadable (a row that no longer parses). */
export function readable(read: () => unknown): unknown {
  try {
    return read();
  } catch (error) {
    return { unreadable: (error as Error).message };
  }
}

/** An `AbortError`: how a paced request says a newer one (or a new session) replaced it. */
export function abortError(message: string): Error {
  const error = new Error(message);
  error.name = 'AbortError';
  return error;
}

export class QuerySession {
  /** The analysis answered from; a growing session's is replaced by {@link grow}. */
  session: SessionAnalysis;
  /** Family of each interned type (by type id). */
  readonly familyOfType: Family[];
  /**
   * Bumped by a {@link grow} that is not the same pass extended (the prefix opened whole
   * again): an answer keyed by it may be extended for the rows added since, not reused as is.
   */
  resets = 0;
  /** Event indices per timeline filter, null when every event matches (see `rows.ts`). */
  readonly filterCache = new Map<string, FilterRows | null>();
  readonly rowFacts = new BoundedCache<number, RowFacts>(CACHE_ENTRIES);
  readonly nodes = new BoundedCache<number, SurfaceNode>(CACHE_ENTRIES);
  /** Per event: its time is earlier than one before it. Built on the first row request. */
  timeBack: OutOfOrderFlags | null = null;
  /** Kind of each replacement, by replacement number (see `replacements.ts`). */
  kinds: ReplacementKind[] | null = null;
  spans: { first: Int32Array; last: Int32Array } | null = null;
  /**
   * Transcript messages per row seq. A row's transcript is fixed while it is on the surface (a
   * replacement stands for appends applied before it), so counting its span once is enough:
   * the views, asked for at every step while playing, then walk only the preview.
   */
  readonly transcriptTotals = new Map<number, number>();
  /** The run that sizes every node for the curve (see `curve.ts`); again after an abort. */
  sizing: Promise<void> | null = null;
  /** Searches started here: a paced search stops when a newer one has begun on this session. */
  searches = 0;

  constructor(session: SessionAnalysis) {
    this.session = session;
    this.familyOfType = session.columns.types.map((type) => familyOf(type));
  }

  /**
   * The same session, grown: `session` is its analysis after an append. When it is the same
   * pass extended in place (the same log and tallies: the events held are unchanged, only more
   * follow), everything derived from the events held stays and extends on the next read — the
   * row lists per filter, the facts of rows and nodes (a row's facts are its own event's, and
   * the times before it), the out-of-order flags, the brackets — so a request after an append
   * costs what the append added. Otherwise (the prefix opened whole again) they are forgotten.
   * The replacement kinds and transcript totals of what was there stay either way (a row's
   * transcript is fixed while it is on the surface); the curve sizes only new nodes.
   */
  grow(session: SessionAnalysis): void {
    const extended = session.log === this.session.log && session.tally === this.session.tally;
    this.session = session;
    const { types } = session.columns;
    for (let t = this.familyOfType.length; t < types.length; t++) this.familyOfType.push(familyOf(types[t] as string));
    this.sizing = null;
    if (extended) return;
    this.resets += 1;
    this.filterCache.clear();
    this.rowFacts.clear();
    this.nodes.clear();
    this.timeBack = null;
    this.spans = null;
  }

  get length(): number {
    return this.session.log.length;
  }

  seqOf(index: number): number {
    return index + this.session.baseSeq;
  }

  /** The index of the event `seq`; throws when the session has none. */
  indexOf(seq: number): number {
    const index = seq - this.session.baseSeq;
    if (!Number.isInteger(index) || index < 0 || index >= this.length) throw new Error(`no event with seq ${seq}`);
    return index;
  }

  typeOf(index: number): string {
    const { typeId, types } = this.session.columns;
    return types[typeId[index]!] as string;
  }

  familyOf(index: number): Family {
    return this.familyOfType[this.session.columns.typeId[index]!] as Family;
  }

  /** A step within what the fold accepted: [0, accepted]. */
  clampStep(step: number): number {
    return Math.max(0, Math.min(step, this.session.fold.accepted));
  }

  /** State of event `index` at cursor `step`. */
  stateAt(index: number, step: number): EventState {
    const { fold, index: tt } = this.session;
    if (fold.error) {
      if (index === fold.error.index) return 'rejected';
      if (index > fold.error.index) return 'pending';
    }
    if (index >= step) return 'future';
    return tt.classify(index, step).state;
  }

  /** Event `index`, or what made it unreadable. */
  parse(index: number): unknown {
    return readable(() => this.session.log.event(index));
  }

  /** The event `seq`, or null when it cannot be read. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- log content is untyped JSON, read defensively by its callers
  event(seq: number): any {
    try {
      return this.session.log.event(seq - this.session.baseSeq);
    } catch {
      return null;
    }
  }

  /**
   * An event reader for one request that parses each row once: consecutive members of a packed
   * row (or a JSON-array line) share one parse, where `parse` would re-read the whole row for
   * every member (quadratic for one huge row of many members).
   */
  reader(): EventReader {
    const read = this.session.log.reader();
    return (index) => readable(() => read(index));
  }
}
