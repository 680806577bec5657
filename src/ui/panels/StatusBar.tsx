/**
 * The status bar. Its `role="status"` part reads "Loaded N events" when a load finishes, or the
 * error; the details beside it are not part of the announcement.
 */
import { useAppStore } from '../../store/react';
import { selectClient, selectLoad, selectSession, selectStatusText } from '../../store/selectors';
import { formatBytes } from '../format';

export function StatusBar() {
  const text = useAppStore(selectStatusText);
  const load = useAppStore(selectLoad);
  const session = useAppStore(selectSession);
  // Read when a load is shown: by then the client knows where its engine runs.
  const onPage = useAppStore(selectClient).engineHome === 'page';
  return (
    <footer className="statusbar">
      <div role="status" className="status-text">
        {text}
      </div>
      {load && session ? (
        <div className="status-details mono">
          <span>{session.format}</span>
          <span>{formatBytes(load.bytes)}</span>
          <span>{Math.round(load.elapsedMs)} ms</span>
          {session.partial ? (
            <span title="A window of the session: seqs start at the base seq">window from seq {session.baseSeq}</span>
          ) : null}
          <span title="Content fingerprint: the one deep links carry in the URL">fp {session.fingerprint}</span>
          {onPage ? (
            <span
              className="status-warning"
              title="Web workers are unavailable here or could not start: decoding runs on the page, and a large log makes it less responsive"
            >
              engine on this page
            </span>
          ) : null}
        </div>
      ) : null}
    </footer>
  );
}
