/**
 * What the timeline fetches: the window of rows around the rendered range, the brackets over
 * it, the session's start time, and the row of the selected seq. Nothing here is stored in the
 * app store; it lives as long as the panel. The cursor comes in as an argument: the timeline
 * follows a deferred cursor (see hooks/useDeferredCursor.ts).
 */
import type { Bracket, FirstRows, RowFilter, RowWindow, TimelineRow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import {
  selectBaseSeq,
  selectClient,
  selectEventCount,
  selectFilter,
  selectFirstRows,
  selectIsReady,
  selectSessionId,
  selectSessionKey,
} from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { replaceEpochAt, useReplaceSteps } from '../../hooks/useReplaceSteps';

/** Rows are fetched in aligned blocks so small scrolls do not refetch. */
const BLOCK = 64;
const MARGIN = 24;

export const filterKey = (filter: RowFilter): string => `${filter.surfaceOnly ? 'S' : 'A'}:${[...filter.families].sort().join(',')}`;

const isUnfiltered = (filter: RowFilter): boolean => !filter.surfaceOnly && filter.families.length === 0;

/** Identifies session and filter: row numbers mean nothing across scopes. */
function useTimelineScope(): string {
  const sessionKey = useAppStore(selectSessionKey);
  const filter = useAppStore(selectFilter);
  return `${sessionKey}|${filterKey(filter)}`;
}

/**
 * Row of `seq` (or of the nearest row after it) within the filtered rows. Without a filter the
 * row is the event index, known at once; with one, the engine is asked.
 */
export function useSelectedRow(selectedSeq: number | null): number | null {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const ready = useAppStore(selectIsReady);
  const filter = useAppStore(selectFilter);
  const baseSeq = useAppStore(selectBaseSeq);
  const events = useAppStore(selectEventCount);
  const scope = useTimelineScope();
  const local = ready && selectedSeq !== null && isUnfiltered(filter);
  const lookupKey = ready && selectedSeq !== null && !local ? `${scope}|seq:${selectedSeq}` : null;
  const lookup = useRemote<number>(lookupKey, () => client.rowOf({ session, filter, seq: selectedSeq ?? 0 }));
  if (local && events > 0) return Math.max(0, Math.min(events - 1, selectedSeq - baseSeq));
  if (lookupKey !== null && lookup.dataKey === lookupKey) return lookup.data;
  return null;
}

export interface TimelineData {
  /** Rows matching the filter, or null before the first answer. */
  total: number | null;
  rowAt(index: number): TimelineRow | null;
  brackets: Bracket[];
  error: string | null;
}

/**
 * The rows a preview came with, while the timeline's own first answer is on its way, when they
 * are the rows it asked for: same session, step and (no) filter, and the window within them.
 */
function seedWindow(
  seed: FirstRows | null,
  asked: { session: number; step: number; filter: RowFilter; start: number; count: number },
): RowWindow | null {
  if (seed === null || seed.session !== asked.session || seed.step !== asked.step || !isUnfiltered(asked.filter)) return null;
  const { window } = seed;
  const end = Math.min(asked.start + asked.count, window.total);
  return asked.start >= window.start && end <= window.start + window.rows.length ? window : null;
}

/** The rows (states at `step`) of the blocks covering `range`, and the brackets over them. */
export function useTimelineData(range: { first: number; last: number }, step: number): TimelineData {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const ready = useAppStore(selectIsReady);
  const filter = useAppStore(selectFilter);
  const scope = useTimelineScope();

  const start = Math.max(0, Math.floor((range.first - MARGIN) / BLOCK) * BLOCK);
  const end = Math.max(start + BLOCK, Math.ceil((range.last + MARGIN + 1) / BLOCK) * BLOCK);
  const rows = useRemote<RowWindow>(ready ? `${scope}|${step}|${start}|${end}` : null, () =>
    client.rows({ session, step, filter, start, count: end - start }),
  );
  const firstRows = useAppStore(selectFirstRows);
  const window =
    rows.data && rows.dataKey?.startsWith(`${scope}|`)
      ? rows.data
      : seedWindow(firstRows, { session, step, filter, start, count: end - start });
  const rowAt = (index: number): TimelineRow | null => {
    if (!window) return null;
    return window.rows[index - window.start] ?? null;
  };

  // Brackets over the seqs of the loaded rows around the view; they change only at replaces.
  const epoch = replaceEpochAt(useReplaceSteps(), step);
  const lo = window?.rows[0]?.seq;
  const hi = window?.rows[window.rows.length - 1]?.seq;
  const brackets = useRemote<Bracket[]>(ready && lo !== undefined && hi !== undefined ? `${sessionKey}|${epoch}|${lo}|${hi}` : null, () =>
    client.brackets({ session, step, lo: lo ?? 0, hi: hi ?? 0 }),
  );

  // Keep the last total while a new scope loads, so the scroll position does not collapse.
  const total = rows.data ? rows.data.total : (window?.total ?? null);
  return {
    total,
    rowAt,
    brackets: brackets.data && brackets.dataKey?.startsWith(`${sessionKey}|`) ? brackets.data : EMPTY,
    error: rows.error,
  };
}

const EMPTY: Bracket[] = [];
