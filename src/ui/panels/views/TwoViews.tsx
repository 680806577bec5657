/**
 * The two views at the cursor, side by side and aligned by row: the human transcript (every
 * append-origin message, shadowed ones dimmed and linked to what replaced them) and the model
 * view (the derived messages the model receives). Windowed by rows; follows the tail while it
 * is scrolled to the end, and brings the selected event into view.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ViewPlace, ViewsWindow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectSelectedSeq, selectSessionId, selectSessionKey, selectStep } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { EmptyState } from '../../widgets/EmptyState';
import { MeasuredList } from '../../widgets/MeasuredList';
import type { MeasuredListHandle } from '../../widgets/MeasuredList';
import { Panel } from '../../widgets/Panel';
import { formatCount, plural } from '../../format';
import { AlignedRow } from './AlignedRow';
import type { ToolIndex } from './MessageView';
import { toolIndexOf } from './MessageView';
import { SPAN_PAGE, SPAN_PREVIEW } from './ShadowedSpan';
import { SpanPageCache, SpanPages } from './useSpanMessages';
import { useViewRows } from './useViewRows';

export const VIEWS_TITLE = 'Transcript and model view';

/** Tool calls and results of the loaded rows, by call id (for pairing). */
export function toolIndex(window: ViewsWindow | null): ToolIndex {
  return toolIndexOf((window?.rows ?? []).flatMap((row) => [...row.transcript, row.model]));
}

export function TwoViews() {
  const ready = useAppStore(selectIsReady);
  const sessionKey = useAppStore(selectSessionKey);
  return (
    <Panel title={VIEWS_TITLE} className="two-views">
      {/* Keyed by session: open spans, reveals and placements belong to one session. */}
      {ready ? <TwoViewsBody key={sessionKey} /> : <EmptyState title="No log loaded" />}
    </Panel>
  );
}

function TwoViewsBody() {
  const [range, setRange] = useState({ first: 0, last: 24 });
  const rows = useViewRows(range);
  const step = useAppStore(selectStep);
  const selectedSeq = useAppStore(selectSelectedSeq);
  const select = useAppStore((s) => s.select);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const [shown, setShown] = useState(() => new Map<number, number>());
  const [spanPages] = useState(() => new SpanPageCache());
  const list = useRef<MeasuredListHandle | null>(null);
  const following = useRef(true);
  const total = rows.total ?? 0;
  const tools = useMemo(() => toolIndex(rows.loaded), [rows.loaded]);
  const loaded = rows.loaded;
  const rowKey = useCallback(
    (index: number) => (loaded ? loaded.rows[index - loaded.start]?.model.seq : undefined) ?? `p${index}`,
    [loaded],
  );

  const onRangeChange = useCallback(
    (first: number, last: number) => {
      setRange({ first, last });
      following.current = total > 0 && last >= total - 1;
    },
    [total],
  );
  const onShow = useCallback((seq: number, count: number) => setShown((previous) => new Map(previous).set(seq, count)), []);

  // While the end is in view, stay at the end as the cursor moves (like a chat).
  useEffect(() => {
    if (following.current && total > 0) list.current?.scrollToEnd();
  }, [total, step]);

  // The row that stands for the selected event at this step, from the engine (latest wins while
  // playing): it may be far from the loaded rows, or deep inside a span that shows only its first
  // messages. The row is marked, and brought into view once per selection (its span opened far
  // enough to show the event); an event not on the surface yet is brought into view when the
  // cursor gets there.
  const revealed = useRef<number | null>(null);
  const pendingReveal = useRef<number | null>(null);
  const placeKey = selectedSeq !== null && total > 0 ? `${step}|${selectedSeq}` : null;
  // The key now asked for: an answer for an older step or selection reveals nothing.
  const wanted = useRef(placeKey);
  useEffect(() => {
    wanted.current = placeKey;
  }, [placeKey]);
  const place = useRemote<ViewPlace | null>(placeKey, async () => {
    if (selectedSeq === null) return null;
    const seq = selectedSeq;
    const key = `${step}|${seq}`;
    const found = await client.viewPlace({ session, step, seq });
    if (found !== null && key === wanted.current && revealed.current !== seq) {
      revealed.current = seq;
      if (found.index >= SPAN_PREVIEW) {
        const need = SPAN_PREVIEW + Math.ceil((found.index + 1 - SPAN_PREVIEW) / SPAN_PAGE) * SPAN_PAGE;
        setShown((previous) =>
          (previous.get(found.rowSeq) ?? SPAN_PREVIEW) >= need ? previous : new Map(previous).set(found.rowSeq, need),
        );
      }
      list.current?.scrollIntoView(found.row);
      pendingReveal.current = found.row;
    }
    return found;
  });
  // A row revealed before its content arrived was placed by its estimated height (and the rows
  // before it by theirs): once it has arrived, bring it into view again, now at its real size.
  useEffect(() => {
    const row = pendingReveal.current;
    if (row === null || !loaded || row < loaded.start || row >= loaded.start + loaded.rows.length) return;
    pendingReveal.current = null;
    list.current?.scrollIntoView(row);
  }, [loaded]);
  // While the next step's answer is on its way, the last one for this selection still marks its row.
  const placedRow = place.data !== null && place.dataKey?.endsWith(`|${String(selectedSeq)}`) ? place.data.rowSeq : null;

  if (rows.total === null) return rows.error ? <p className="panel-error">Could not read the views: {rows.error}</p> : null;
  return (
    <>
      <div className="vw-columns" aria-hidden="true">
        <span>Human transcript · every append, in log order</span>
        <span />
        <span>
          Model view · {plural(total, 'derived message')} at step {formatCount(step)}
        </span>
      </div>
      {rows.error ? <p className="panel-error">Could not read the views: {rows.error}</p> : null}
      {total === 0 ? (
        <EmptyState title={`No message at step ${formatCount(step)}`} icon="○">
          {step === 0 ? 'Nothing is applied yet: step forward.' : 'No surface event has been applied.'}
        </EmptyState>
      ) : (
        <SpanPages.Provider value={spanPages}>
          <MeasuredList
            count={total}
            estimate={120}
            handleRef={list}
            as="ul"
            innerProps={{ 'aria-label': `Aligned rows at step ${step}, ${plural(total, 'row')}` }}
            scrollerProps={{ className: 'vw-list' }}
            rowKey={rowKey}
            onRangeChange={onRangeChange}
            renderRow={(index) => {
              const row = rows.rowAt(index);
              if (!row) {
                return (
                  <div className="vw-row vw-loading" aria-busy="true">
                    …
                  </div>
                );
              }
              return (
                <AlignedRow
                  row={row}
                  shown={shown.get(row.model.seq) ?? SPAN_PREVIEW}
                  onShow={onShow}
                  tools={tools}
                  selectedSeq={selectedSeq}
                  holdsSelection={placedRow === row.model.seq}
                  onSelect={select}
                />
              );
            }}
          />
        </SpanPages.Provider>
      )}
    </>
  );
}
