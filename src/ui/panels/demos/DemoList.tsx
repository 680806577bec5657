/** The guided demos on the start screen. */
import { useEffect } from 'react';
import { useAppStore } from '../../../store/react';
import { selectDemos, selectDemosError } from '../../../store/selectors';

export function DemoList() {
  const demos = useAppStore(selectDemos);
  const error = useAppStore(selectDemosError);
  const loadDemos = useAppStore((s) => s.loadDemos);
  const openDemo = useAppStore((s) => s.openDemo);
  useEffect(() => {
    void loadDemos();
  }, [loadDemos]);
  return (
    <section className="start-card" aria-labelledby="demos-title">
      <h2 id="demos-title" className="start-label">
        Guided demos
      </h2>
      <p className="hint">Short narrated sessions: step through them and read what each event does.</p>
      {error ? <p className="sev-error">{error}</p> : null}
      {demos === null && !error ? <p className="muted">Loading…</p> : null}
      <ul className="samples">
        {(demos ?? []).map((demo) => (
          <li key={demo.id}>
            <button type="button" onClick={() => void openDemo(demo.id)}>
              {demo.title}
            </button>
            <span className="hint">{demo.summary}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
