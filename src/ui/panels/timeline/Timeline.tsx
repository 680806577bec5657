/**
 * The timeline: every event of the session, virtualized (1,000,000+ rows), with state at the
 * cursor, surface-op markers and the brackets of shadowed ranges. Click selects; double-click
 * or Enter moves the cursor to apply up to that event. Arrow keys move the selection.
 *
 * It follows the cursor a moment after a seek (a deferred value, see useDeferredCursor), so its
 * work (a new window of rows, often somewhere else in a million) never holds up the surface.
 *
 * While a growing session is followed and pinned (the store's `live.pin`), the grid sticks to
 * its last row as rows arrive. It only reports the user's scrolls to the store (which pauses or
 * resumes the pin): paused, rows arrive below what is on screen without moving it.
 */
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { TimelineRow as Row } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import {
  selectEventCount,
  selectFilter,
  selectFollowPinned,
  selectHighlight,
  selectIsReady,
  selectSearchActive,
  selectSession,
} from '../../../store/selectors';
import { useDeferredCursor } from '../../hooks/useDeferredCursor';
import { EmptyState } from '../../widgets/EmptyState';
import { Panel } from '../../widgets/Panel';
import { VirtualList } from '../../widgets/VirtualList';
import type { VirtualListHandle } from '../../widgets/VirtualList';
import { formatCount, plural } from '../../format';
import { BracketGutter, gutterWidth } from './BracketGutter';
import { ROW_HEIGHT, TimelineRow, rowId } from './TimelineRow';
import { TimelineToolbar } from './TimelineToolbar';
import { SearchMatches } from '../search/SearchMatches';
import { FollowPill } from '../follow/FollowPill';
import { filterKey, useSelectedRow, useTimelineData } from './useTimelineData';

/** Rows rendered beyond each edge of the viewport. */
const OVERSCAN = 8;
/** Rows fetched on each side of a row about to be revealed, before the list has scrolled there. */
const REVEAL_HALF = 24;

export function Timeline() {
  const ready = useAppStore(selectIsReady);
  const events = useAppStore(selectEventCount);
  const filter = useAppStore(selectFilter);
  const searching = useAppStore(selectSearchActive);
  const [shown, setShown] = useState<number | null>(null);
  const filtered = filter.surfaceOnly || filter.families.length > 0;
  const meta = !ready
    ? undefined
    : filtered && shown !== null
      ? `${formatCount(shown)} of ${plural(events, 'event')}`
      : plural(events, 'event');
  return (
    <Panel title="Timeline" meta={meta} className="timeline">
      {ready ? (
        <>
          <TimelineToolbar />
          {searching ? <SearchMatches /> : null}
          <TimelineGrid onTotal={setShown} />
          <FollowPill />
        </>
      ) : (
        <EmptyState title="No log loaded" />
      )}
    </Panel>
  );
}

/** Subscribes to the cursor and hands its deferred value down: an urgent re-render stops here. */
function TimelineGrid({ onTotal }: { onTotal: (total: number | null) => void }) {
  const { step, selectedSeq } = useDeferredCursor();
  return <TimelineGridView step={step} selectedSeq={selectedSeq} onTotal={onTotal} />;
}

/** What a reveal was for: the selection, in which load, session and filter. */
interface RevealKey {
  /** Changes with every open, and with every growth of a followed session. */
  loadId: number | null;
  /** The session and the filter. */
  view: string;
  selectedSeq: number | null;
}

interface Reveal {
  row: number;
  /** A selection made while the grid was shown: its reveal moves the view as the user's scroll would. */
  byUser: boolean;
  /** Decided at a followed end (pinned): once that end has moved on, the pin shows the new one. */
  pinned: boolean;
  /** The session's events when it was decided. */
  events: number;
}

const TimelineGridView = memo(function TimelineGridView({
  step,
  selectedSeq,
  onTotal,
}: {
  step: number;
  selectedSeq: number | null;
  onTotal: (total: number | null) => void;
}) {
  const [range, setRange] = useState({ first: 0, last: 40 });
  const events = useAppStore(selectEventCount);
  const pinned = useAppStore(selectFollowPinned);
  const selectedRow = useSelectedRow(selectedSeq);
  const timeFacts = useAppStore((s) => selectSession(s)?.time ?? null);
  const seedLength = useAppStore((s) => selectSession(s)?.seedLength ?? null);
  const timeMode = useAppStore((s) => s.timeMode);
  const setTimeMode = useAppStore((s) => s.setTimeMode);

  // Reveal the selected row once per selection (search hits, links, stepping), not on every
  // render. Decided here, during render, so the rows around it are fetched straight away rather
  // than those of the old position first. A new load shows it again, but not a followed
  // session's growth (each has a new load id): rows arriving must not move the view.
  const [revealedKey, setRevealedKey] = useState<RevealKey | null>(null);
  const [reveal, setReveal] = useState<Reveal | null>(null);
  const following = useAppStore((s) => s.live?.active === true);
  const loadId = useAppStore((s) => s.load?.loadId ?? null);
  const sessionIndex = useAppStore((s) => s.session);
  const filter = useAppStore(selectFilter);
  const selectionKey: RevealKey = { loadId, view: `${sessionIndex}|${filterKey(filter)}`, selectedSeq };
  const revealAgain =
    revealedKey === null ||
    revealedKey.selectedSeq !== selectedSeq ||
    revealedKey.view !== selectionKey.view ||
    (revealedKey.loadId !== loadId && !following);
  // A growth is the same load for this purpose: remember it, so that stopping the follow later
  // does not count as a new load.
  if (!revealAgain && revealedKey.loadId !== loadId) setRevealedKey(selectionKey);
  // The selection the grid was mounted with is shown without pausing a followed end (coming
  // back to the timeline); a later one was asked for, and a view moved to it stays there.
  const [mountSeq] = useState(selectedSeq);
  const [selectedHere, setSelectedHere] = useState(false);
  if (!selectedHere && selectedSeq !== mountSeq) setSelectedHere(true);
  if (selectedRow !== null && revealAgain) {
    setRevealedKey(selectionKey);
    const firstVisible = range.first === 0 ? 0 : range.first + OVERSCAN;
    const lastVisible = range.last - OVERSCAN;
    if (selectedRow < firstVisible || selectedRow > lastVisible) {
      setRange({ first: Math.max(0, selectedRow - REVEAL_HALF), last: selectedRow + REVEAL_HALF });
      setReveal({ row: selectedRow, byUser: selectedHere || selectedSeq !== mountSeq, pinned, events });
    }
  }

  // Until the list has scrolled to a revealed row, it keeps reporting its old scroll position;
  // fetching that range would never load the target, so the reveal's rows are fetched instead.
  const [scrolledTo, setScrolledTo] = useState<Reveal | null>(null);
  // A reveal decided at a pinned end before rows arrived (End selects the last event, and its
  // row is known a moment later) would take the view back to an old end: the pin shows the new one.
  const revealStale = reveal !== null && reveal.pinned && reveal.events !== events;
  const revealPending = reveal !== null && scrolledTo !== reveal && !revealStale;
  const fetchRange = revealPending ? { first: Math.max(0, reveal.row - REVEAL_HALF), last: reveal.row + REVEAL_HALF } : range;
  const data = useTimelineData(fetchRange, step);
  const highlight = useAppStore(selectHighlight);
  const select = useAppStore((s) => s.select);
  const goTo = useAppStore((s) => s.goTo);
  const pause = useAppStore((s) => s.pause);
  const timelineScrolled = useAppStore((s) => s.timelineScrolled);
  const followEnd = useAppStore((s) => s.followEnd);
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

  const total = data.total ?? 0;
  // The panel header says how many rows the filter leaves ("N of M events").
  useEffect(() => onTotal(data.total), [data.total, onTotal]);
  // Scroll once the rows around the target have arrived: the jump and the rows then land in one
  // commit, instead of placeholders first and the rows a frame later.
  const targetLoaded = reveal !== null && data.rowAt(reveal.row) !== null;
  useEffect(() => {
    if (!reveal || !targetLoaded || !revealPending || !list.current || total === 0) return;
    list.current.scrollToIndex(reveal.row, 'center', { byUser: reveal.byUser });
    setScrolledTo(reveal);
  }, [reveal, targetLoaded, revealPending, total]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const current = selectedRow ?? -1;
    const view = list.current?.visibleRange();
    const page = view ? Math.max(1, view.last - view.first) : 10;
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page, Home: -Infinity, End: Infinity };
    const move = moves[event.key];
    if (move !== undefined) {
      event.preventDefault();
      event.stopPropagation();
      // Without a selection, Home and End go to the ends and the other keys start in the view.
      const from = move === Infinity ? total - 1 : move === -Infinity ? 0 : (view?.first ?? 0);
      const target = Math.max(0, Math.min(total - 1, current === -1 ? from : current + move));
      // A key that scrolls the grid is the user's scroll (it may pause a followed end).
      list.current?.scrollToIndex(target, 'auto', { byUser: true });
      const row = data.rowAt(target);
      if (row) select(row.seq);
      // End here is End everywhere while following: back to the end, pinned.
      if (move === Infinity) followEnd();
    } else if (event.key === 'Enter' && selectedRow !== null) {
      const row = data.rowAt(selectedRow);
      if (row) apply(row);
    }
  };

  if (data.total === 0) {
    return <EmptyState title="No events match the filter" icon="⌀" />;
  }
  const timeColumn = timeFacts?.kind === 'clock' && timeMode === 'clock' ? '170px' : '84px';
  const activeRow = selectedRow !== null && data.rowAt(selectedRow)?.seq === selectedSeq ? selectedRow : null;
  const highlightSeqs = highlight ? new Set([highlight.replacement, ...highlight.shadowedSeqs]) : null;
  return (
    <>
      <div className="tl-head" aria-hidden="true" style={{ paddingLeft: gutterWidth(data.brackets), ['--time-col' as string]: timeColumn }}>
        <span className="c-state" />
        <span className="c-seq">seq</span>
        <span className="c-time">
          {timeFacts?.kind === 'clock' ? (
            <button
              type="button"
              className="tl-time-mode"
              aria-hidden="false"
              aria-label={timeMode === 'clock' ? 'Show elapsed time' : 'Show wall-clock time'}
              title={
                timeMode === 'clock'
                  ? 'Local wall-clock time; click for elapsed time'
                  : 'Elapsed since the earliest event; click for wall-clock time'
              }
              onClick={() => setTimeMode(timeMode === 'clock' ? 'elapsed' : 'clock')}
            >
              {timeMode === 'clock' ? 'clock' : 'elapsed'}
            </button>
          ) : (
            <span title={timeFacts?.note ?? undefined}>time</span>
          )}
        </span>
        <span className="c-type">type</span>
        <span className="c-turn">turn</span>
        <span className="c-op">op</span>
        <span className="c-summary">summary</span>
      </div>
      {timeFacts !== null && timeFacts.note !== null ? <p className="tl-note">No clock times (shown as —): {timeFacts.note}.</p> : null}
      {timeFacts !== null && timeFacts.kind === 'clock' && timeFacts.outOfOrder > 0 ? (
        <p className="tl-note">
          ↺ {formatCount(timeFacts.outOfOrder)} {timeFacts.outOfOrder === 1 ? 'event is' : 'events are'} earlier than an event before{' '}
          {timeFacts.outOfOrder === 1 ? 'it' : 'them'}: the clock stepped back. Elapsed times count from the earliest event.
        </p>
      ) : null}
      {data.error ? <p className="panel-error">Could not read rows: {data.error}</p> : null}
      <VirtualList
        count={total}
        rowHeight={ROW_HEIGHT}
        overscan={OVERSCAN}
        recycleRows
        handleRef={list}
        onRangeChange={onRangeChange}
        stickToEnd={pinned}
        onUserScroll={timelineScrolled}
        scrollerProps={{
          role: 'grid',
          'aria-label': 'Events',
          'aria-rowcount': total,
          'aria-colcount': 7,
          'aria-activedescendant': activeRow === null ? undefined : rowId(activeRow),
          tabIndex: 0,
          className: 'tl-grid',
          style: { ['--gutter' as string]: `${gutterWidth(data.brackets)}px`, ['--time-col' as string]: timeColumn },
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
              inherited={row !== null && seedLength !== null && row.index < seedLength}
              timeFacts={timeFacts}
              timeMode={timeMode}
              previousTime={data.rowAt(index - 1)?.time ?? null}
              onSelect={select}
              onApply={apply}
            />
          );
        }}
      />
    </>
  );
});
