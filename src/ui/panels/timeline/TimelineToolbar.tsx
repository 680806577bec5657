/**
 * Filters (families, surface events only) and search with next/previous and its quick filters
 * (replaces only, errors only), above the timeline. A refused query is shown with its bad part.
 */
import type { KeyboardEvent } from 'react';
import { FAMILIES } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectFilter, selectSearch, selectSession } from '../../../store/selectors';
import { IDS } from '../../ids';
import { familyClass, formatCount } from '../../format';
import { QueryError } from '../search/QueryError';

function SearchStatus() {
  const search = useAppStore(selectSearch);
  let text = '';
  const count = search.total === null ? '' : `${formatCount(search.total)} ${search.total === 1 ? 'match' : 'matches'} · `;
  if (search.status === 'searching') text = 'searching…';
  else if (search.status === 'not-found') text = 'no match';
  else if (search.status === 'found') text = `${count}seq ${search.seq ?? '?'}${search.wrapped ? ' · wrapped' : ''}`;
  else if (search.status === 'error') text = search.queryError ? 'bad query' : (search.error ?? 'search failed');
  return (
    <span className={`search-status ${search.status === 'not-found' ? 'is-miss' : ''}`} aria-live="polite">
      {text}
    </span>
  );
}

export function TimelineToolbar() {
  const filter = useAppStore(selectFilter);
  const session = useAppStore(selectSession);
  const search = useAppStore(selectSearch);
  const toggleFamily = useAppStore((s) => s.toggleFamily);
  const showAll = useAppStore((s) => s.showAllFamilies);
  const setSurfaceOnly = useAppStore((s) => s.setSurfaceOnly);
  const setSearchText = useAppStore((s) => s.setSearchText);
  const setQuickFilter = useAppStore((s) => s.setQuickFilter);
  const findNext = useAppStore((s) => s.findNext);
  const present = FAMILIES.filter((family) => (session?.families[family] ?? 0) > 0);

  const onSearchKey = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter') {
      event.preventDefault();
      void findNext(event.shiftKey ? -1 : 1);
    } else if (event.key === 'Escape') {
      setSearchText('');
      event.currentTarget.blur();
    }
  };

  return (
    <div className="toolbar tl-toolbar">
      <div className="chips" role="group" aria-label="Filter by family">
        <button type="button" className="chip" aria-pressed={filter.families.length === 0} onClick={showAll}>
          all
        </button>
        {present.map((family) => (
          <button
            key={family}
            type="button"
            className={`chip ${familyClass(family)}`}
            aria-pressed={filter.families.includes(family)}
            onClick={() => toggleFamily(family)}
            title={`Show ${family} events (click again to remove)`}
          >
            <span className="chip-swatch" aria-hidden="true" />
            {family}
            <span className="chip-count">{formatCount(session?.families[family] ?? 0)}</span>
          </button>
        ))}
      </div>
      <label className="check">
        <input type="checkbox" checked={filter.surfaceOnly} onChange={(e) => setSurfaceOnly(e.currentTarget.checked)} />
        surface events only
      </label>
      <div className="search" role="search">
        <input
          id={IDS.search}
          type="search"
          aria-label="Search events"
          placeholder='Search ( / ): words, "phrase", /regex/, type:, tool:, is:error…'
          value={search.text}
          aria-invalid={search.queryError ? true : undefined}
          aria-describedby={search.queryError ? 'search-query-error' : undefined}
          onChange={(e) => {
            setSearchText(e.currentTarget.value);
            if (e.currentTarget.value.trim() !== '' || search.replacesOnly || search.errorsOnly) void findNext(1);
          }}
          onKeyDown={onSearchKey}
        />
        <button
          type="button"
          className="icon-button"
          aria-label="Previous match"
          title="Previous match (Shift+Enter)"
          onClick={() => void findNext(-1)}
        >
          ↑
        </button>
        <button type="button" className="icon-button" aria-label="Next match" title="Next match (Enter)" onClick={() => void findNext(1)}>
          ↓
        </button>
        <SearchStatus />
      </div>
      <div className="chips" role="group" aria-label="Quick filters">
        <button
          type="button"
          className="chip"
          aria-pressed={search.replacesOnly}
          onClick={() => setQuickFilter('replacesOnly', !search.replacesOnly)}
        >
          replaces only
        </button>
        <button
          type="button"
          className="chip"
          aria-pressed={search.errorsOnly}
          onClick={() => setQuickFilter('errorsOnly', !search.errorsOnly)}
        >
          errors only
        </button>
      </div>
      {search.queryError ? (
        <div id="search-query-error">
          <QueryError text={search.text} error={search.queryError} />
        </div>
      ) : null}
    </div>
  );
}
