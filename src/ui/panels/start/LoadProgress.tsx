/** Bytes and events decoded so far, the rate, and Cancel. */
import { useAppStore } from '../../../store/react';
import { selectProgress, selectSourceName, selectStatus } from '../../../store/selectors';
import { ProgressBar } from '../../widgets/ProgressBar';
import { formatBytes, formatCount, formatRate } from '../../format';

export function LoadProgress() {
  const status = useAppStore(selectStatus);
  const progress = useAppStore(selectProgress);
  const name = useAppStore(selectSourceName);
  const cancel = useAppStore((s) => s.cancelLoad);
  if (status !== 'loading') return null;
  const bytes = progress?.bytes ?? 0;
  const total = progress?.totalBytes ?? null;
  const amount = total === null ? formatBytes(bytes) : `${formatBytes(bytes)} of ${formatBytes(total)}`;
  const rate = progress ? formatRate(progress.bytes, progress.elapsedMs, 'bytes') : '';
  return (
    <div className="load-progress">
      <p className="load-title">
        Loading <b>{name}</b>
      </p>
      <ProgressBar label="Loading" value={bytes} max={total} valueText={amount} />
      <p className="load-figures mono">
        <span>{amount}</span>
        <span>{formatCount(progress?.events ?? 0)} events</span>
        {rate ? <span>{rate}</span> : null}
        {progress && progress.elapsedMs >= 50 ? <span>{formatRate(progress.events, progress.elapsedMs, 'events')}</span> : null}
      </p>
      <button type="button" onClick={() => void cancel()}>
        Cancel
      </button>
    </div>
  );
}
