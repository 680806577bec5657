/**
 * What the timeline fetches: the window of rows around the rendered range, the brackets over
 * it, the session's start time and the row of the selected seq. Nothing here is stored in the
 * app store; it lives as long as the panel.
 */
import type { Bracket, RowFilter, RowWindow, TimelineRow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import {
  selectClient,
  selectFilter,
  selectIsReady,
  selectSelectedSeq,
  selectSessionIndex,
  selectSessionKey,
  selectStep,
} from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { useReplaceEpoch } from '../../hooks/useReplaceSteps';

/** Rows are fetched in aligned blocks so small scrolls do not refetch. */
const BLOCK = 64;
const MARGIN = 24;
const ALL: RowFilter = { families: [], surfaceOnly: false };

export const filterKey = (filter: RowFilter): string => `${filter.surfaceOnly ? 'S' : 'A'}:${[...filter.families].sort().join(',')}`;

export interface TimelineData {
  /** Rows matching the filter, or null before the first answer. */
  total: number | null;
  rowAt(index: number): TimelineRow | null;
  brackets: Bracket[];
  startTime: number | null;
  /** Row of the selected seq (or the nearest row after it) within the filtered rows. */
  selectedRow: number | null;
  /** Identifies session and filter: row numbers mean nothing across scopes. */
  scope: string;
  error: string | null;
}

export function useTimelineData(range: { first: number; last: number }): TimelineData {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionIndex);
  const sessionKey = useAppStore(selectSessionKey);
  const ready = useAppStore(selectIsReady);
  const step = useAppStore(selectStep);
  const filter = useAppStore(selectFilter);
  const selectedSeq = useAppStore(selectSelectedSeq);
  const scope = `${sessionKey}|${filterKey(filter)}`;

  const start = Math.max(0, Math.floor((range.first - MARGIN) / BLOCK) * BLOCK);
  const end = Math.max(start + BLOCK, Math.ceil((range.last + MARGIN + 1) / BLOCK) * BLOCK);
  const rows = useRemote<RowWindow>(ready ? `${scope}|${step}|${start}|${end}` : null, () =>
    client.rows(session, step, filter, start, end - start),
  );
  const window = rows.data && rows.dataKey?.startsWith(`${scope}|`) ? rows.data : null;
  const rowAt = (index: number): TimelineRow | null => {
    if (!window) return null;
    return window.rows[index - window.start] ?? null;
  };

  // Brackets over the seqs of the loaded rows around the view; they change only at replaces.
  const epoch = useReplaceEpoch();
  const lo = window?.rows[0]?.seq;
  const hi = window?.rows[window.rows.length - 1]?.seq;
  const brackets = useRemote<Bracket[]>(
    ready && lo !== undefined && hi !== undefined ? `${sessionKey}|${epoch}|${lo}|${hi}` : null,
    () => client.brackets(session, step, lo ?? 0, hi ?? 0),
  );

  const first = useRemote<RowWindow>(ready ? `${sessionKey}|t0` : null, () => client.rows(session, 0, ALL, 0, 1));
  const startTime = first.dataKey === `${sessionKey}|t0` ? (first.data?.rows[0]?.time ?? null) : null;

  // The selected row: found in the loaded window when possible, else asked of the engine.
  const local = selectedSeq === null || !window ? -1 : window.rows.findIndex((row) => row.seq === selectedSeq);
  const lookupKey = ready && selectedSeq !== null && local === -1 ? `${scope}|seq:${selectedSeq}` : null;
  const lookup = useRemote<number>(lookupKey, () => client.rowOf(session, filter, selectedSeq ?? 0));
  let selectedRow: number | null = null;
  if (window && local !== -1) selectedRow = window.start + local;
  else if (lookupKey !== null && lookup.dataKey === lookupKey) selectedRow = lookup.data;

  // Keep the last total while a new scope loads, so the scroll position does not collapse.
  const total = rows.data ? rows.data.total : null;
  return {
    total,
    rowAt,
    brackets: brackets.data && brackets.dataKey?.startsWith(`${sessionKey}|`) ? brackets.data : EMPTY,
    startTime,
    selectedRow,
    scope,
    error: rows.error,
  };
}

const EMPTY: Bracket[] = [];
