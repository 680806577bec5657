/**
 * The way back to a followed end, where the user is looking: while the scroll lock is paused and
 * events have arrived, a button at the foot of the timeline counts them and follows the end
 * again (as End does, keeping the selection). The Live control says the same in the header.
 */
import { useAppStore } from '../../../store/react';
import { selectArrivedSincePause } from '../../../store/selectors';
import { plural } from '../../format';

export function FollowPill() {
  const arrived = useAppStore(selectArrivedSincePause);
  const followEnd = useAppStore((s) => s.followEnd);
  if (arrived === 0) return null;
  const count = plural(arrived, 'new event');
  return (
    <button
      type="button"
      className="follow-pill"
      aria-label={`${count}: follow the end`}
      title="Follow the end again (End)"
      onClick={followEnd}
    >
      <span aria-hidden="true">↓</span> {count}
    </button>
  );
}
