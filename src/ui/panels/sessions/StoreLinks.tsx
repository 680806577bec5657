/**
 * Links between store sessions: in the inspector, the sessions the selected event names (or the
 * child a `subagent` call started); above the workspace, the open session's parent and children.
 */
import type { StoreSessionRow } from '../../../protocol/store-api';
import { useAppStore } from '../../../store/react';
import { familyOf, sessionLinks } from '../../../store/sessionLinks';
import { openStoreRow } from '../../../store/slices/sessions';

function SessionButton({ row, children }: { row: StoreSessionRow; children?: string }) {
  const open = useAppStore((s) => s.openStoreSession);
  const title = useAppStore((s) => s.storeDetails[row.id]?.title ?? null);
  return (
    <button type="button" className="link-button" onClick={() => void open(row.id)} title={row.sessionId ?? row.fileName}>
      {children ?? title ?? row.sessionId ?? row.fileName}
    </button>
  );
}

/** In the inspector: the store sessions the selected event links to. */
export function InspectorSessionLinks({ raw, event }: { raw: string; event: unknown }) {
  const rows = useAppStore((s) => s.storeListing?.sessions ?? null);
  const open = useAppStore(openStoreRow);
  if (!rows || !open) return null;
  const links = sessionLinks(rows, open, raw, event);
  if (links.length === 0) return null;
  return (
    <div className="kv">
      <dt>Sessions</dt>
      <dd>
        {links.map((link) => (
          <span key={link.row.id} className="link-chain">
            <span className="muted">
              {link.relation === 'parent'
                ? 'parent '
                : link.relation === 'child'
                  ? link.inferred
                    ? 'subagent started after this call '
                    : 'subagent '
                  : ''}
            </span>
            <SessionButton row={link.row} />{' '}
          </span>
        ))}
      </dd>
    </div>
  );
}

/** Above the workspace: back to the list, the parent, the children, and the follow note. */
export function StoreSessionBar() {
  const storeMode = useAppStore((s) => s.storeMode);
  const rows = useAppStore((s) => s.storeListing?.sessions ?? null);
  const open = useAppStore(openStoreRow);
  const note = useAppStore((s) => s.storeFollowNote);
  const showSessions = useAppStore((s) => s.showSessions);
  if (!storeMode || !rows) return null;
  const family = open ? familyOf(rows, open) : { parent: null, children: [] };
  return (
    <nav className="store-bar" aria-label="Store session">
      <button type="button" onClick={() => showSessions(true)}>
        ← Sessions
      </button>
      {open?.parentSession ? (
        <span>
          Parent:{' '}
          {family.parent ? (
            <SessionButton row={family.parent} />
          ) : (
            <span className="muted mono">{open.parentSession} (not in this store)</span>
          )}
        </span>
      ) : null}
      {family.children.length > 0 ? (
        <span>
          Subagents:{' '}
          {family.children.map((child) => (
            <SessionButton key={child.id} row={child} />
          ))}
        </span>
      ) : null}
      {open?.state === 'live' ? <span className="sv-state sv-state-live">live</span> : null}
      {note ? (
        <span className="muted" role="status">
          {note}
        </span>
      ) : null}
    </nav>
  );
}
