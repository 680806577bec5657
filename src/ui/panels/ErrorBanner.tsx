/**
 * What went wrong, where, with the exact message: a dead engine (with Reload), an engine that
 * stopped answering (with Stop engine), a failed open, a surface error (seq, line, rule message:
 * the valid prefix stays navigable) or a decode stop.
 * Not a live region: the status region announces the same facts once.
 */
import { useAppStore } from '../../store/react';
import {
  acceptedPrefixText,
  selectEngineError,
  selectLoadError,
  selectSession,
  selectSourceName,
  selectStatus,
  surfaceErrorPlace,
} from '../../store/selectors';
import { formatCount } from '../format';

/** A message as a sentence: its own full stop, or one added. */
const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`);

const VERDICT_VERB = { refuses: 'refuse', truncates: 'truncate', repairs: 'repair' } as const;

export function ErrorBanner() {
  const engineError = useAppStore(selectEngineError);
  const status = useAppStore(selectStatus);
  const loadError = useAppStore(selectLoadError);
  const name = useAppStore(selectSourceName);
  const session = useAppStore(selectSession);
  const reload = useAppStore((s) => s.reload);
  const stalled = useAppStore((s) => s.engineStalled);
  const stopEngine = useAppStore((s) => s.stopEngine);
  const jumpToSeq = useAppStore((s) => s.jumpToSeq);
  const failedOpen = useAppStore((s) => s.failedOpen);
  const dismissFailedOpen = useAppStore((s) => s.dismissFailedOpen);
  const surface = session?.surfaceError ?? null;
  const decode = session?.decodeError ?? null;
  const verdict = session?.loaderVerdict ?? null;
  // A ZIP none of whose members could be read (no session.jsonl, a bomb, only unsafe paths).
  const refusedArchive = decode?.rule?.startsWith('zip/') === true;

  return (
    <div className="banners">
      {engineError ? (
        <div className="banner banner-error" aria-label="Engine stopped">
          <span className="banner-icon" aria-hidden="true">
            ✕
          </span>
          <span>{engineError}</span>
          <button type="button" onClick={() => void reload()}>
            Reload file
          </button>
        </div>
      ) : null}
      {stalled && !engineError ? (
        <div className="banner banner-warning" aria-label="Engine not answering">
          <span className="banner-icon" aria-hidden="true">
            ▲
          </span>
          <span>The engine has not answered for a while: it may be stuck on this log. Keep waiting, or stop it and reload the file.</span>
          <button type="button" onClick={stopEngine}>
            Stop engine
          </button>
        </div>
      ) : null}
      {status === 'error' && !engineError ? (
        <div className="banner banner-error" aria-label="Load error">
          <span className="banner-icon" aria-hidden="true">
            ✕
          </span>
          <span>
            Could not open <b>{name}</b>: {loadError}
          </span>
        </div>
      ) : null}
      {failedOpen && status === 'ready' ? (
        <div className="banner banner-error" aria-label="Open failed">
          <span className="banner-icon" aria-hidden="true">
            ✕
          </span>
          <span>
            Could not open <b>{failedOpen.name}</b>: {sentence(failedOpen.message)} The log shown stays open.
          </span>
          <button type="button" onClick={dismissFailedOpen}>
            Dismiss
          </button>
        </div>
      ) : null}
      {surface && status === 'ready' ? (
        <div className="banner banner-error" aria-label="Surface error">
          <span className="banner-icon" aria-hidden="true">
            ✕
          </span>
          <span>
            <b>Surface error</b> at <span className="mono">{surfaceErrorPlace(surface)}</span>
            {surface.line === null ? (
              ''
            ) : (
              <>
                , line <span className="mono">{surface.line}</span>
              </>
            )}
            : <span className="mono banner-message">{surface.message}</span> <span className="muted">({surface.rule})</span>.{' '}
            {acceptedPrefixText(session?.accepted ?? 0)}
          </span>
          {typeof surface.seq === 'number' ? (
            <button type="button" onClick={() => jumpToSeq(surface.seq as number)}>
              Show event
            </button>
          ) : null}
        </div>
      ) : null}
      {verdict && status === 'ready' ? (
        <div className="banner banner-warning" aria-label="Loader verdict">
          <span className="banner-icon" aria-hidden="true">
            ▲
          </span>
          <span>
            <b>dsh&apos;s loader would {VERDICT_VERB[verdict.kind]} this log</b>
            {verdict.projected ? ' (an envelope-projected test snapshot: no loader reads these)' : ''}:{' '}
            <span className="mono banner-message">{verdict.message}</span> <span className="muted">({verdict.rule})</span>. It is shown here
            as decoded.
          </span>
        </div>
      ) : null}
      {decode && status === 'ready' ? (
        <div
          className={`banner ${refusedArchive ? 'banner-error' : 'banner-warning'}`}
          aria-label={refusedArchive ? 'Archive refused' : 'Decode error'}
        >
          <span className="banner-icon" aria-hidden="true">
            {refusedArchive ? '✕' : '▲'}
          </span>
          <span>
            <b>{refusedArchive ? `${name ?? 'The archive'} was refused` : 'Decoding stopped'}</b>
            {decode.line === null ? '' : ` at line ${decode.line}`}
            {decode.byte === null ? '' : ` (byte ${formatCount(decode.byte)})`}:{' '}
            <span className="mono banner-message">{decode.message}</span>
            {decode.rule === undefined ? (
              ''
            ) : (
              <>
                {' '}
                <span className="muted">({decode.rule})</span>
              </>
            )}
            . {(session?.events ?? 0) > 0 ? 'Events before it are loaded.' : 'Nothing of it could be read.'}
          </span>
        </div>
      ) : null}
    </div>
  );
}
