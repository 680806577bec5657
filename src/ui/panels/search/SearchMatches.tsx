/**
 * The match list of the search: every matching row (seq, type, snippet with the match marked),
 * virtualized, fetched a window at a time from the engine. A click selects the event there.
 */
import { memo, useCallback, useState } from 'react';
import type { CSSProperties } from 'react';
import type { MatchRow, MatchWindow } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import {
  selectClient,
  selectEventCount,
  selectFilter,
  selectSearch,
  selectSearchQueryText,
  selectSessionId,
  selectSessionKey,
} from '../../../store/selectors';
import { useDeferredCursor } from '../../hooks/useDeferredCursor';
import { useRemote } from '../../hooks/useRemote';
import { VirtualList } from '../../widgets/VirtualList';
import { formatCount } from '../../format';
import { filterKey } from '../timeline/useTimelineData';
import { MarkedText } from './MarkedText';

const ROW = 22;
const BLOCK = 64;

const MatchItem = memo(function MatchItem({
  match,
  style,
  current,
  onPick,
}: {
  match: MatchRow | null;
  style: CSSProperties;
  current: boolean;
  onPick: (row: number, seq: number) => void;
}) {
  if (!match) return <li style={style} className="match-row is-loading" aria-hidden="true" />;
  return (
    <li style={style} className={`match-row ${current ? 'is-current' : ''}`}>
      <button
        type="button"
        className="match-button"
        aria-current={current ? 'true' : undefined}
        onClick={() => onPick(match.row, match.seq)}
      >
        <span className="match-seq">{match.seq}</span>
        <span className="match-type">{match.type}</span>
        <span className="match-snippet">
          <MarkedText text={match.snippet} marks={match.marks} />
        </span>
      </button>
    </li>
  );
});

/** The list, shown while a search is active. */
export function SearchMatches() {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const filter = useAppStore(selectFilter);
  const search = useAppStore(selectSearch);
  const text = useAppStore(selectSearchQueryText);
  const events = useAppStore(selectEventCount);
  const showMatch = useAppStore((s) => s.showMatch);
  const { step } = useDeferredCursor();
  const [range, setRange] = useState({ first: 0, last: 20 });
  const onRangeChange = useCallback((first: number, last: number) => setRange({ first, last }), []);
  const start = Math.floor(range.first / BLOCK) * BLOCK;
  const count = Math.ceil((range.last + 1 - start) / BLOCK) * BLOCK;
  // The cursor matters only to queries that ask for states at it; the engine keeps one scan per
  // query, so asking with another step for any other query costs nothing.
  const key = `${sessionKey}|${filterKey(filter)}|${text}|${step}|${start}|${count}`;
  const remote = useRemote<MatchWindow>(search.queryError ? null : key, () =>
    client.searchMatches({ session, text, filter, step, start, count }),
  );
  const data = remote.data;
  const total = data?.total ?? 0;
  const matchAt = (i: number): MatchRow | null =>
    data && i >= data.start && i < data.start + data.matches.length ? (data.matches[i - data.start] ?? null) : null;

  let head: string;
  if (search.queryError) head = 'Fix the query to search';
  else if (!data) head = 'Searching…';
  else head = `${formatCount(total)} ${total === 1 ? 'match' : 'matches'} of ${formatCount(events)} events`;
  return (
    <section className="search-matches" aria-label="Search matches">
      <header className="search-matches-head" aria-live="polite">
        {head}
      </header>
      {data && total > 0 ? (
        <VirtualList
          as="ul"
          count={total}
          rowHeight={ROW}
          overscan={6}
          onRangeChange={onRangeChange}
          scrollerProps={{ className: 'search-matches-list', 'aria-label': 'Matches' }}
          renderRow={(index, style) => {
            const match = matchAt(index);
            return (
              <MatchItem key={index} match={match} style={style} current={match !== null && match.row === search.row} onPick={showMatch} />
            );
          }}
        />
      ) : null}
    </section>
  );
}
