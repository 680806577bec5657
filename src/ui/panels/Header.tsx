/** The app bar: name, the open file, Open log (once a log is open), theme, shortcuts. */
import { useAppStore } from '../../store/react';
import { selectLoad, selectSession, selectTheme } from '../../store/selectors';
import { DemoMenu } from './demos/DemoMenu';
import { LiveControl } from './follow/LiveControl';
import { OpenLogInput } from './start/OpenLogInput';
import { OpenMenu } from './start/OpenMenu';
import { plural } from '../format';

export function Header({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const load = useAppStore(selectLoad);
  const session = useAppStore(selectSession);
  const theme = useAppStore(selectTheme);
  const toggleTheme = useAppStore((s) => s.toggleTheme);
  const storeMode = useAppStore((s) => s.storeMode);
  const showingSessions = useAppStore((s) => s.showingSessions);
  const showSessions = useAppStore((s) => s.showSessions);
  return (
    <header className="appbar">
      <span className="brand">
        <span className="brand-mark" aria-hidden="true">
          ◧
        </span>{' '}
        Surface Lens
      </span>
      {load && session ? (
        <span className="appbar-file" title={session.path}>
          <span className="mono">{load.file}</span>
          <span className="muted">
            {plural(session.events, 'event')} · {plural(session.nodes, 'node')} · {plural(session.replacements, 'replace')}
          </span>
        </span>
      ) : null}
      {load ? <LiveControl /> : null}
      <span className="appbar-spacer" />
      {storeMode && (load || !showingSessions) ? (
        <button type="button" aria-pressed={showingSessions} onClick={() => showSessions(!showingSessions)}>
          {showingSessions ? 'Back to the session' : 'Sessions'}
        </button>
      ) : null}
      {load ? <OpenMenu /> : null}
      <DemoMenu />
      {load ? <OpenLogInput variant="compact" /> : null}
      <button
        type="button"
        className="icon-button"
        aria-pressed={theme === 'dark'}
        aria-label="Dark theme"
        title="Dark theme"
        onClick={toggleTheme}
      >
        <span aria-hidden="true">{theme === 'dark' ? '☾' : '☀'}</span>
      </button>
      <button
        type="button"
        className="icon-button"
        aria-label="Keyboard shortcuts"
        title="Keyboard shortcuts (?)"
        onClick={onShowShortcuts}
      >
        <span aria-hidden="true">?</span>
      </button>
    </header>
  );
}
