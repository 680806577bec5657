/** The timeline: rows matching a filter, with their state at the cursor, and the row of a seq. */
import { OpCode } from '../../core/analyze/columns';
import { OutOfOrderFlags } from '../../core/analyze/time';
import { summarizeEvent } from '../../core/analyze/describe';
import { firstAtLeast } from '../../core/util/sorted';
import type { Family } from '../../core/analyze/family';
import type { RowFilter, RowOfParams, RowWindow, RowsParams, SurfaceOpKind, TimelineRow } from '../../protocol/protocol';
import { MAX_WINDOW } from './session';
import type { EventReader, QuerySession, RowFacts } from './session';

const OP_KIND: readonly SurfaceOpKind[] = [null, 'append', 'replace', 'invalid'];

/**
 * Event indices matching a filter, or null when every event matches (cached per filter; after
 * an append only the new events are looked at, see `QuerySession.grow`).
 */
export function matching(q: QuerySession, filter: RowFilter): Int32Array | null {
  const families = [...new Set(filter.families)].sort();
  const key = `${families.join(',')}|${filter.surfaceOnly ? 1 : 0}`;
  let entry = q.filterCache.get(key);
  if (entry === null) return null;
  if (entry === undefined) {
    if (families.length === 0 && !filter.surfaceOnly) {
      q.filterCache.set(key, null);
      return null;
    }
    if (q.filterCache.size > 16) q.filterCache.clear();
    entry = { rows: new Int32Array(0), length: 0, scanned: 0 };
    q.filterCache.set(key, entry);
  }
  if (entry.scanned < q.length) {
    const wanted = new Set<Family>(families);
    const { op } = q.session.columns;
    // Room for every new event, doubling: a list extended after every append is copied O(log n) times.
    if (entry.length + (q.length - entry.scanned) > entry.rows.length) {
      const grown = new Int32Array(Math.max(entry.length + (q.length - entry.scanned), 2 * entry.rows.length));
      grown.set(entry.rows.subarray(0, entry.length));
      entry.rows = grown;
    }
    const keep = entry.rows;
    let n = entry.length;
    for (let i = entry.scanned; i < q.length; i++) {
      if (filter.surfaceOnly && op[i] === OpCode.None) continue;
      if (wanted.size > 0 && !wanted.has(q.familyOf(i))) continue;
      keep[n++] = i;
    }
    entry.length = n;
    entry.scanned = q.length;
  }
  return entry.rows.subarray(0, entry.length);
}

export function rowCount(q: QuerySession, filter: RowFilter): number {
  return matching(q, filter)?.length ?? q.length;
}

export function indexOfRow(q: QuerySession, filter: RowFilter, row: number): number {
  const list = matching(q, filter);
  return list ? list[row]! : row;
}

/** What a timeline row shows of event `i`, parsed once and cached. */
function facts(q: QuerySession, i: number, read: EventReader): RowFacts {
  const cached = q.rowFacts.get(i);
  if (cached) return cached;
  const { columns } = q.session;
  const time = columns.time[i]!;
  const event = read(i);
  const data = event !== null && typeof event === 'object' ? (event as { data?: unknown }).data : undefined;
  const turn = data !== null && typeof data === 'object' ? (data as { turn?: unknown }).turn : undefined;
  const stepNo = data !== null && typeof data === 'object' ? (data as { step?: unknown }).step : undefined;
  q.timeBack ??= new OutOfOrderFlags();
  const timeBack = q.timeBack.update(columns.time);
  const own = event !== null && typeof event === 'object' ? (event as { seq?: unknown }).seq : undefined;
  return q.rowFacts.set(i, {
    index: i,
    seq: q.seqOf(i),
    seqLabel: own === undefined ? '—' : typeof own === 'number' ? String(own) : (JSON.stringify(own) ?? String(own)),
    time: Number.isFinite(time) ? time : null,
    timeBack: timeBack[i] === 1,
    type: q.typeOf(i),
    family: q.familyOf(i),
    turn: typeof turn === 'number' ? turn : null,
    step: typeof stepNo === 'number' ? stepNo : null,
    op: OP_KIND[columns.op[i]!] ?? null,
    summary: summarizeEvent(event),
  });
}

export function rows(q: QuerySession, { step, filter, start, count }: RowsParams): RowWindow {
  const total = rowCount(q, filter);
  const first = Math.max(0, Math.min(start, total));
  const last = Math.min(total, first + Math.min(count, MAX_WINDOW));
  const out: TimelineRow[] = [];
  const read = q.reader();
  for (let row = first; row < last; row++) {
    const i = indexOfRow(q, filter, row);
    out.push({ ...facts(q, i, read), state: q.stateAt(i, step) });
  }
  return { total, start: first, rows: out };
}

export function rowOf(q: QuerySession, { filter, seq }: RowOfParams): number {
  const index = seq - q.session.baseSeq;
  const list = matching(q, filter);
  if (!list) return Math.max(0, Math.min(index, q.length - 1));
  return Math.min(firstAtLeast(list, list.length, index), Math.max(0, list.length - 1));
}
