/**
 * Follow and the Live indicator: the open source looked at again while it grows. Shows the time
 * of the last change and what the last look said; a new replace is announced to screen readers.
 * While following, it says when the scroll lock is paused (the cursor stepped back, or the
 * timeline scrolled away from its end) and offers the way back; the timeline's foot counts the
 * events that arrived since (`FollowPill`).
 */
import { useAppStore } from '../../../store/react';
import { selectFollowPause } from '../../../store/selectors';

const time = new Intl.DateTimeFormat(undefined, { hour: '2-digit', minute: '2-digit', second: '2-digit' });

export function LiveControl() {
  const live = useAppStore((s) => s.live);
  const status = useAppStore((s) => s.status);
  const startFollow = useAppStore((s) => s.startFollow);
  const stopFollow = useAppStore((s) => s.stopFollow);
  const followEnd = useAppStore((s) => s.followEnd);
  const refusal = useAppStore((s) => s.followRefusal);
  const paused = useAppStore(selectFollowPause);
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
      {/* Said when the scroll lock pauses and when it follows the end again (that only to screen readers). */}
      {active ? (
        <span className="live-pin" aria-live="polite">
          {paused ? 'Paused — End to follow' : <span className="sr-only">Following the end</span>}
        </span>
      ) : null}
      {paused ? (
        <button
          type="button"
          className="live-resume"
          title={
            paused.by === 'scroll'
              ? 'The timeline was scrolled away from the end: move the cursor to the end and follow it again (End, or scroll to the bottom)'
              : 'The cursor was moved back: move it to the end and follow it again (End)'
          }
          onClick={followEnd}
        >
          Follow the end
        </button>
      ) : null}
      {live?.note ? <span className="live-note muted">{live.note}</span> : null}
      {live?.error ? (
        <span className="live-error" role="alert">
          {live.error}
        </span>
      ) : null}
      <span className="sr-only live-announce" aria-live="polite">
        {live?.announce ?? ''}
      </span>
    </span>
  );
}
