/** The step slider, with a tick at every step that applied a replace (bucketed to pixels). */
import { memo, useMemo } from 'react';
import { useAppStore } from '../../../store/react';
import { selectAccepted, selectIsReady, selectSession, selectStep } from '../../../store/selectors';
import { useReplaceSteps } from '../../hooks/useReplaceSteps';
import { formatCount } from '../../format';

/** At most this many tick marks: more would not be distinguishable anyway. */
const MAX_TICKS = 400;

export function tickPositions(steps: Int32Array, accepted: number): number[] {
  if (accepted <= 0) return [];
  const buckets = new Set<number>();
  for (const step of steps) buckets.add(Math.round((Math.min(step, accepted) / accepted) * MAX_TICKS));
  return [...buckets].sort((a, b) => a - b).map((bucket) => (bucket / MAX_TICKS) * 100);
}

const NO_TICKS: number[] = [];

/**
 * The ticks as one path (x in percent of the track), not an element each: up to 400 positioned
 * elements were a third of the transport's layout work when the workspace first drew.
 */
const Ticks = memo(function Ticks({ ticks }: { ticks: number[] }) {
  if (ticks.length === 0) return null;
  return (
    <svg className="tick-marks" viewBox="0 0 100 6" preserveAspectRatio="none" data-count={ticks.length}>
      <path d={ticks.map((left) => `M${Math.round(left * 100) / 100} 0 V6`).join(' ')} />
    </svg>
  );
});

export function Scrubber() {
  const ready = useAppStore(selectIsReady);
  const summary = useAppStore(selectSession);
  const accepted = useAppStore(selectAccepted);
  const step = useAppStore(selectStep);
  const goTo = useAppStore((s) => s.goTo);
  const pause = useAppStore((s) => s.pause);
  const steps = useReplaceSteps();
  // The ticks change only with the session: not recomputed or re-rendered at every step.
  const ticks = useMemo(() => (steps ? tickPositions(steps, accepted) : NO_TICKS), [steps, accepted]);

  return (
    <div className="scrubber">
      <input
        type="range"
        aria-label="Step"
        min={0}
        max={accepted}
        step={1}
        value={step}
        disabled={!ready}
        aria-valuetext={`step ${formatCount(step)} of ${formatCount(accepted)}`}
        onChange={(event) => {
          pause();
          goTo(Number(event.currentTarget.value));
        }}
      />
      <div className="ticks" aria-hidden="true">
        <Ticks ticks={ticks} />
        {summary?.surfaceError ? <span className="tick tick-error" style={{ left: '100%' }} title="Surface error after this step" /> : null}
      </div>
    </div>
  );
}
