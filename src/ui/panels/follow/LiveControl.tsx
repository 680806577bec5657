/**
 * Follow and the Live indicator: the open source looked at again while it grows. Shows the time
 * of the last change and what the last look said; a new replace is announced to screen readers.
 */
import { useAppStore } from '../../../store/react';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function LiveControl() {
  const live = useAppStore((s) => s.live);
  const status = useAppStore((s) => s.status);
  const startFollow = useAppStore((s) => s.startFollow);
  const stopFollow = useAppStore((s) => s.stopFollow);
  const refusal = useAppStore((s) => s.followRefusal);
  if (status !== 'ready') return null;
  const active = live?.active === true;
  const cannot = refusal();
  return (
    <span className="live-control">
      <button
        type="button"
        className="live-follow"
        aria-pressed={active}
        title={cannot ?? 'Look at the source again about once a second and show what it gained'}
        onClick={() => (active ? stopFollow() : startFollow())}
      >
        Follow
      </button>
      {active ? (
        <span className="live-indicator" title="Following: new events appear as they are written">
          <span className="live-dot" aria-hidden="true">
            ●
          </span>{' '}
          Live
          {live.lastAppendAt !== null ? <span className="muted"> · last change {time.format(live.lastAppendAt)}</span> : null}
        </span>
      ) : null}
      {live?.note ? <span className="live-note muted">{live.note}</span> : null}
      {live?.error ? (
        <span className="live-error" role="alert">
          {live.error}
        </span>
      ) : null}
      <span className="sr-only" aria-live="polite">
        {live?.announce ?? ''}
      </span>
    </span>
  );
}
