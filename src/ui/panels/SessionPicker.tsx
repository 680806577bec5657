/** The sessions of an export ZIP: the parent and each subagent child. Hidden for one session. */
import { useAppStore } from '../../store/react';
import { selectSessionIndex, selectSessions } from '../../store/selectors';
import { formatCount } from '../format';

function shortPath(path: string): string {
  const inner = path.includes('!') ? path.slice(path.indexOf('!') + 1) : path;
  return inner.length > 60 ? `…${inner.slice(-59)}` : inner;
}

export function SessionPicker() {
  const sessions = useAppStore(selectSessions);
  const current = useAppStore(selectSessionIndex);
  const selectSession = useAppStore((s) => s.selectSession);
  if (sessions.length <= 1) return null;
  return (
    <nav className="session-picker" aria-label="Sessions">
      <span className="session-picker-title">{formatCount(sessions.length)} sessions</span>
      <ul>
        {sessions.map((session) => {
          const failed = session.surfaceError !== null || session.decodeError !== null;
          return (
            <li key={session.index}>
              <button
                type="button"
                aria-current={session.index === current ? 'true' : undefined}
                onClick={() => selectSession(session.index)}
                title={session.path}
              >
                <span className="session-kind">{session.parentSession === null ? 'parent' : 'subagent'}</span>
                <span className="mono">{shortPath(session.path)}</span>
                <span className="muted">{formatCount(session.events)} events</span>
                {failed ? <span className="sev-error">✕ error</span> : null}
              </button>
            </li>
          );
        })}
      </ul>
    </nav>
  );
}
