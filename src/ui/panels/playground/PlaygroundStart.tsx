/** How a playground starts: empty, or from the cursor of the loaded session (main store). */
import { useAppStore } from '../../../store/react';
import { selectIsReady, selectLoad, selectPlaygroundError, selectPlaygroundStarting, selectStep } from '../../../store/selectors';
import { formatCount } from '../../format';

/** The two start buttons; `compact` for the toolbar above a running playground. */
export function PlaygroundStartButtons({ compact = false }: { compact?: boolean }) {
  const ready = useAppStore(selectIsReady);
  const load = useAppStore(selectLoad);
  const step = useAppStore(selectStep);
  const starting = useAppStore(selectPlaygroundStarting);
  const start = useAppStore((s) => s.startPlayground);
  const prefix = compact ? 'Restart ' : 'Start ';
  return (
    <span className="pg-start-buttons">
      <button type="button" disabled={starting} onClick={() => void start('empty')}>
        {prefix}empty
      </button>
      {ready && load ? (
        <button type="button" disabled={starting} onClick={() => void start('cursor')} title={`The first ${step} events of ${load.file}`}>
          {prefix}from step {formatCount(step)} of {load.file}
        </button>
      ) : null}
    </span>
  );
}

export function PlaygroundStart() {
  const error = useAppStore(selectPlaygroundError);
  return (
    <section className="pg-start" aria-label="Playground">
      <div className="start-card">
        <h2 className="start-label">Playground</h2>
        <p>
          Build a session log by hand: append events from templates or compose replaces from the surface. Every candidate is checked by the
          fold before it enters the log; a refusal shows the exact rule message and changes nothing.
        </p>
        <PlaygroundStartButtons />
        {error ? <p className="sev-error">{error}</p> : null}
      </div>
    </section>
  );
}
