/** A determinate (value/max) or indeterminate progress bar. */
export interface ProgressBarProps {
  label: string;
  value: number;
  /** Null when the total is unknown: the bar is indeterminate. */
  max: number | null;
  /** Spoken value, e.g. "12 MB of 40 MB". */
  valueText?: string;
}

export function ProgressBar({ label, value, max, valueText }: ProgressBarProps) {
  const fraction = max !== null && max > 0 ? Math.min(1, Math.max(0, value / max)) : null;
  return (
    <div
      className={`progress ${fraction === null ? 'progress-indeterminate' : ''}`}
      role="progressbar"
      aria-label={label}
      aria-valuemin={0}
      aria-valuemax={fraction === null ? undefined : 100}
      aria-valuenow={fraction === null ? undefined : Math.round(fraction * 100)}
      aria-valuetext={valueText}
    >
      <div className="progress-fill" style={{ width: fraction === null ? undefined : `${fraction * 100}%` }} />
    </div>
  );
}
