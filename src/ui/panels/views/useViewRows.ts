/**
 * The aligned rows of the two views at the cursor, fetched by window around the rendered rows
 * (rows are model messages; each carries a preview of the transcript messages it stands for, and
 * their count).
 */
import type { ViewRow, ViewsWindow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectSessionId, selectSessionKey, selectStep } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';

const BLOCK = 32;
const MARGIN = 8;

export interface ViewRows {
  /** Rows at the cursor, or null before the first answer. */
  total: number | null;
  rowAt(index: number): ViewRow | null;
  /** The loaded rows (for tool-call pairing and row identity). */
  loaded: ViewsWindow | null;
  error: string | null;
}

export function useViewRows(range: { first: number; last: number }): ViewRows {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const ready = useAppStore(selectIsReady);
  const step = useAppStore(selectStep);
  const start = Math.max(0, Math.floor((range.first - MARGIN) / BLOCK) * BLOCK);
  const end = Math.max(start + BLOCK, Math.ceil((range.last + MARGIN + 1) / BLOCK) * BLOCK);
  const remote = useRemote<ViewsWindow>(ready ? `${sessionKey}|${step}|${start}|${end}` : null, () =>
    client.views({ session, step, start, count: end - start }),
  );
  // The last window of this session stays visible while the next one loads (no flicker).
  const window = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const current = window && window.step === step ? window : null;
  return {
    total: window ? window.total : null,
    rowAt: (index) => (current ? (current.rows[index - current.start] ?? null) : null),
    loaded: current,
    error: remote.error,
  };
}
