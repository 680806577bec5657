/**
 * The Sessions view of `surface-lens view`: the user's store as a tree (project → session →
 * subagent children at any depth), most recent first, with a filter, keyboard navigation and
 * the count in view. Rows name their state: live, damaged or refused with the reason.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import type { StoreDetails, StoreSessionRow } from '../../../protocol/store-api';
import { useAppStore } from '../../../store/react';
import { buildSessionTree } from '../../../store/sessionTree';
import type { SessionTreeItem } from '../../../store/sessionTree';
import { formatBytes, formatCount } from '../../format';
import { EmptyState } from '../../widgets/EmptyState';
import { VirtualList } from '../../widgets/VirtualList';
import { StoreSearch } from './StoreSearch';
import type { VirtualListHandle } from '../../widgets/VirtualList';

const ROW_HEIGHT = 30;

/** "12 s ago", "5 min ago", "3 h ago", "4 d ago", else the date. */
export function timeAgo(time: number, now: number): string {
  const s = Math.round((now - time) / 1000);
  if (s < 0) return 'just now';
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.floor(s / 60)} min ago`;
  if (s < 86_400) return `${Math.floor(s / 3600)} h ago`;
  if (s < 30 * 86_400) return `${Math.floor(s / 86_400)} d ago`;
  return new Date(time).toISOString().slice(0, 10);
}

const absolute = (time: number): string => new Date(time).toString();

function StateBadge({ row }: { row: StoreSessionRow }) {
  if (row.state === 'ok') return null;
  const label = row.state === 'refused' && row.reason?.startsWith('a different encoding') ? 'different encoding' : row.state;
  return (
    <span className={`sv-state sv-state-${row.state}`} title={row.reason ?? undefined}>
      {label}
    </span>
  );
}

function SessionLine({
  item,
  details,
  now,
}: {
  item: Extract<SessionTreeItem, { kind: 'session' }>;
  details: StoreDetails | undefined;
  now: number;
}) {
  const { row } = item;
  const title = details?.title ?? (row.state === 'damaged' || row.state === 'refused' ? row.fileName : null);
  return (
    <>
      <span className="sv-title">
        {title ?? <span className="muted">{details ? '(no title)' : '…'}</span>}
        {details?.titleFrom === 'first-message' ? <span className="sr-only"> (first user message)</span> : null}
      </span>
      <span className="sv-id mono" title={row.sessionId ?? undefined}>
        {row.sessionId ?? '—'}
      </span>
      <span className="sv-time" title={row.createdAt === null ? undefined : `created ${absolute(row.createdAt)}`}>
        {row.createdAt === null ? '' : timeAgo(row.createdAt, now)}
      </span>
      <span className="sv-time" title={`modified ${absolute(row.modifiedAt)}`}>
        {timeAgo(row.modifiedAt, now)}
      </span>
      <span className="sv-size">{formatBytes(row.size)}</span>
      <span className="sv-events">{details?.events != null ? `${formatCount(details.events)} events` : ''}</span>
      {/* Badges and notes share one last column, so a row that has some keeps the others' columns. */}
      <span className="sv-flags">
        <StateBadge row={row} />
        {row.reason && row.state !== 'ok' ? <span className="sv-reason">{row.reason}</span> : null}
        {item.orphan ? <span className="sv-note">parent {row.parentSession} is not in this store</span> : null}
        {row.seedLength !== null && row.seedLength > 0 ? (
          <span className="sv-note sv-seed">first {formatCount(row.seedLength)} events are the parent&apos;s (seed)</span>
        ) : null}
      </span>
    </>
  );
}

function useNow(intervalMs: number): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), intervalMs);
    return () => clearInterval(timer);
  }, [intervalMs]);
  return now;
}

export function SessionsView() {
  const listing = useAppStore((s) => s.storeListing);
  const details = useAppStore((s) => s.storeDetails);
  const filter = useAppStore((s) => s.storeFilter);
  const collapsedList = useAppStore((s) => s.storeCollapsed);
  const error = useAppStore((s) => s.storeError);
  const openId = useAppStore((s) => s.storeOpenId);
  const setFilter = useAppStore((s) => s.setStoreFilter);
  const toggle = useAppStore((s) => s.toggleStoreCollapsed);
  const open = useAppStore((s) => s.openStoreSession);
  const requestDetails = useAppStore((s) => s.requestDetails);
  const now = useNow(10_000);
  const [focus, setFocus] = useState(0);
  const list = useRef<VirtualListHandle | null>(null);
  const treeRef = useRef<HTMLDivElement | null>(null);

  const collapsed = useMemo(() => new Set(collapsedList), [collapsedList]);
  const tree = useMemo(() => buildSessionTree(listing?.sessions ?? [], details, filter, collapsed), [listing, details, filter, collapsed]);
  const items = tree.items;
  const current = Math.min(focus, Math.max(0, items.length - 1));

  useEffect(() => {
    // Titles of the rows shown first, in the order shown.
    const ids = items.flatMap((item) => (item.kind === 'session' ? [item.row.id] : []));
    requestDetails(ids.slice(0, 400));
  }, [items, requestDetails]);

  if (!listing) return <EmptyState title="Reading the session store…" />;

  const activate = (item: SessionTreeItem): void => {
    if (item.kind === 'project') toggle(item.key);
    else void open(item.row.id);
  };

  const moveTo = (index: number): void => {
    const next = Math.max(0, Math.min(items.length - 1, index));
    setFocus(next);
    list.current?.scrollToIndex(next);
    requestAnimationFrame(() => treeRef.current?.querySelector<HTMLElement>(`[data-index="${next}"]`)?.focus());
  };

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const item = items[current];
    if (!item) return;
    const expandable = item.kind === 'project' || item.children > 0;
    switch (event.key) {
      case 'ArrowDown':
        moveTo(current + 1);
        break;
      case 'ArrowUp':
        moveTo(current - 1);
        break;
      case 'Home':
        moveTo(0);
        break;
      case 'End':
        moveTo(items.length - 1);
        break;
      case 'ArrowRight':
        if (expandable && !item.expanded) toggle(item.key);
        else if (expandable) moveTo(current + 1);
        break;
      case 'ArrowLeft': {
        if (expandable && item.expanded) toggle(item.key);
        else {
          let parent = current - 1;
          while (parent >= 0 && (items[parent] as SessionTreeItem).level >= item.level) parent--;
          if (parent >= 0) moveTo(parent);
        }
        break;
      }
      case 'Enter':
      case ' ':
        activate(item);
        break;
      default:
        return;
    }
    event.preventDefault();
  };

  const skipped = listing.skipped;
  return (
    <section className="sessions-view" aria-label="Sessions">
      <div className="sv-toolbar">
        <input
          type="search"
          className="sv-filter"
          placeholder="Filter by title, id, project, state…"
          aria-label="Filter sessions"
          value={filter}
          onChange={(event) => {
            setFilter(event.target.value);
            setFocus(0);
          }}
        />
        <span className="sv-count" role="status">
          {filter.trim() === ''
            ? `${formatCount(tree.count)} sessions`
            : `${formatCount(tree.count)} of ${formatCount(tree.total)} sessions`}{' '}
          · most recent first
        </span>
        <span className="sv-roots muted" title={listing.roots.join('\n')}>
          {listing.roots.join(', ')}
        </span>
      </div>
      {error ? <p className="panel-error">{error}</p> : null}
      <StoreSearch />
      {items.length === 0 ? (
        <EmptyState title={tree.total === 0 ? 'No sessions in this store yet' : 'No session matches the filter'}>
          {tree.total === 0 ? 'New sessions appear here as dsh writes them.' : null}
        </EmptyState>
      ) : (
        <div className="sv-tree-host" ref={treeRef}>
          <VirtualList
            count={items.length}
            rowHeight={ROW_HEIGHT}
            handleRef={list}
            scrollerProps={{ role: 'tree', 'aria-label': 'Sessions by project', onKeyDown, className: 'sv-tree' }}
            renderRow={(index, style) => {
              const item = items[index] as SessionTreeItem;
              const expandable = item.kind === 'project' || item.children > 0;
              const isOpen = item.kind === 'session' && item.row.id === openId;
              return (
                <div
                  key={item.key}
                  style={style}
                  role="treeitem"
                  aria-level={item.level}
                  aria-expanded={expandable ? item.expanded : undefined}
                  aria-selected={index === current}
                  aria-current={isOpen ? 'true' : undefined}
                  tabIndex={index === current ? 0 : -1}
                  data-index={index}
                  data-state={item.kind === 'session' ? item.row.state : undefined}
                  className={`sv-row sv-${item.kind}${isOpen ? ' is-open' : ''}${item.kind === 'session' && !item.matched ? ' is-context' : ''}`}
                  onClick={() => {
                    setFocus(index);
                    activate(item);
                  }}
                  onFocus={() => setFocus(index)}
                >
                  <span className="sv-indent" aria-hidden="true" data-level={item.level}>
                    {'\u00a0'.repeat((item.level - 1) * 3)}
                    {expandable ? (item.expanded ? '▾' : '▸') : '·'}
                  </span>
                  {item.kind === 'project' ? (
                    <>
                      <span className="sv-project mono">{item.label}</span>
                      <span className="muted">
                        {formatCount(item.sessions)} sessions · {timeAgo(item.modifiedAt, now)}
                      </span>
                    </>
                  ) : (
                    <SessionLine item={item} details={details[item.row.id]} now={now} />
                  )}
                </div>
              );
            }}
          />
        </div>
      )}
      {skipped.length > 0 ? (
        <details className="sv-skipped">
          <summary>
            {formatCount(skipped.length)} {skipped.length === 1 ? 'entry' : 'entries'} skipped
          </summary>
          <ul>
            {skipped.slice(0, 500).map((entry, i) => (
              <li key={i}>
                <span className="mono">{entry.where}</span>: {entry.reason}
              </li>
            ))}
            {skipped.length > 500 ? <li className="muted">… and {formatCount(skipped.length - 500)} more</li> : null}
          </ul>
        </details>
      ) : null}
    </section>
  );
}
