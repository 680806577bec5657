/**
 * The timeline: every event of the session, virtualized (1,000,000+ rows), with state at the
 * cursor, surface-op markers and the brackets of shadowed ranges. Click selects; double-click
 * or Enter moves the cursor to apply up to that event. Arrow keys move the selection.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { TimelineRow as Row } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectEventCount, selectHighlight, selectIsReady, selectSelectedSeq, selectStep } from '../../../store/selectors';
import { EmptyState } from '../../widgets/EmptyState';
import { Panel } from '../../widgets/Panel';
import { VirtualList } from '../../widgets/VirtualList';
import type { VirtualListHandle } from '../../widgets/VirtualList';
import { formatCount } from '../../format';
import { BracketGutter, gutterWidth } from './BracketGutter';
import { ROW_HEIGHT, TimelineRow, rowId } from './TimelineRow';
import { TimelineToolbar } from './TimelineToolbar';
import { useTimelineData } from './useTimelineData';

export function Timeline() {
  const ready = useAppStore(selectIsReady);
  const events = useAppStore(selectEventCount);
  return (
    <Panel title="Timeline" meta={ready ? `${formatCount(events)} events` : undefined} className="timeline">
      {ready ? (
        <>
          <TimelineToolbar />
          <TimelineGrid />
        </>
      ) : (
        <EmptyState title="No log loaded" />
      )}
    </Panel>
  );
}

function TimelineGrid() {
  const [range, setRange] = useState({ first: 0, last: 40 });
  const data = useTimelineData(range);
  const step = useAppStore(selectStep);
  const selectedSeq = useAppStore(selectSelectedSeq);
  const highlight = useAppStore(selectHighlight);
  const select = useAppStore((s) => s.select);
  const goTo = useAppStore((s) => s.goTo);
  const pause = useAppStore((s) => s.pause);
  const list = useRef<VirtualListHandle | null>(null);
  const onRangeChange = useCallback((first: number, last: number) => setRange({ first, last }), []);
  const apply = useCallback(
    (row: Row) => {
      pause();
      goTo(row.index + 1, { select: false });
      select(row.seq);
    },
    [goTo, pause, select],
  );

  // Reveal the selected row once per selection (search hits, links, stepping), not on every render.
  const revealed = useRef<string | null>(null);
  const { selectedRow, scope } = data;
  useEffect(() => {
    const key = `${scope}|${selectedSeq}`;
    if (selectedRow === null || revealed.current === key || !list.current) return;
    revealed.current = key;
    const { first, last } = list.current.visibleRange();
    if (selectedRow < first || selectedRow > last) list.current.scrollToIndex(selectedRow, 'center');
  }, [scope, selectedSeq, selectedRow]);

  const total = data.total ?? 0;
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = selectedRow ?? -1;
    const page = list.current ? Math.max(1, list.current.visibleRange().last - list.current.visibleRange().first) : 10;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -Infinity, End: Infinity };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      event.stopPropagation();
      const target = Math.max(0, Math.min(total - 1, current === -1 ? 0 : current + move));
      list.current?.scrollToIndex(target, 'auto');
      const row = data.rowAt(target);
      if (row) select(row.seq);
    } else if (event.key === 'Enter' && selectedRow !== null) {
      const row = data.rowAt(selectedRow);
      if (row) apply(row);
    }
  };

  if (data.total === 0) {
    return <EmptyState title="No events match the filter" icon="⌀" />;
  }
  const activeRow = selectedRow !== null && data.rowAt(selectedRow)?.seq === selectedSeq ? selectedRow : null;
  const highlightSeqs = highlight ? new Set([highlight.replacement, ...highlight.shadowedSeqs]) : null;
  return (
    <>
      <div className="tl-head" aria-hidden="true" style={{ paddingLeft: gutterWidth(data.brackets) }}>
        <span className="c-state" />
        <span className="c-seq">seq</span>
        <span className="c-time">time</span>
        <span className="c-type">type</span>
        <span className="c-turn">turn</span>
        <span className="c-op">op</span>
        <span className="c-summary">summary</span>
      </div>
      {data.error ? <p className="panel-error">Could not read rows: {data.error}</p> : null}
      <VirtualList
        count={total}
        rowHeight={ROW_HEIGHT}
        handleRef={list}
        onRangeChange={onRangeChange}
        scrollerProps={{
          role: 'grid',
          'aria-label': 'Events',
          'aria-rowcount': total,
          'aria-colcount': 7,
          'aria-activedescendant': activeRow === null ? undefined : rowId(activeRow),
          tabIndex: 0,
          className: 'tl-grid',
          style: { ['--gutter' as string]: `${gutterWidth(data.brackets)}px` },
          onKeyDown,
        }}
        renderOverlay={(positions, rowHeight) => (
          <BracketGutter
            brackets={data.brackets}
            positions={positions}
            rowHeight={rowHeight}
            rowAt={data.rowAt}
            highlighted={highlight?.replacement ?? null}
          />
        )}
        renderRow={(index, style) => {
          const row = data.rowAt(index);
          return (
            <TimelineRow
              index={index}
              row={row}
              style={style}
              selected={row !== null && row.seq === selectedSeq}
              atCursor={row !== null && row.index === step - 1}
              highlighted={row !== null && highlightSeqs !== null && highlightSeqs.has(row.seq)}
              startTime={data.startTime}
              onSelect={select}
              onApply={apply}
            />
          );
        }}
      />
    </>
  );
}
