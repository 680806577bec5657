/** The empty state of the app: drop, pick, paste, a URL, or a bundled sample. */
import { useEffect } from 'react';
import { useAppStore } from '../../../store/react';
import { selectSamples, selectStatus } from '../../../store/selectors';
import { DemoList } from '../demos/DemoList';
import { PlaygroundStartButtons } from '../playground/PlaygroundStart';
import { LoadProgress } from './LoadProgress';
import { OpenLogInput } from './OpenLogInput';
import { PasteForm, UrlForm } from './OpenForms';

function Samples() {
  const samples = useAppStore(selectSamples);
  const openSource = useAppStore((s) => s.openSource);
  const loadIndex = useAppStore((s) => s.loadSampleIndex);
  useEffect(() => {
    void loadIndex();
  }, [loadIndex]);
  return (
    <section className="start-card" aria-labelledby="samples-title">
      <h2 id="samples-title" className="start-label">
        Samples
      </h2>
      <ul className="samples">
        {samples.map((sample) => (
          <li key={sample.name}>
            <button type="button" onClick={() => void openSource({ kind: 'sample', name: sample.name })}>
              {sample.title}
            </button>
            <span className="hint">{sample.description}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function PlaygroundCard() {
  return (
    <section className="start-card" aria-labelledby="playground-title">
      <h2 id="playground-title" className="start-label">
        Playground
      </h2>
      <p className="hint">Build a log event by event; the fold checks every candidate and explains a refusal.</p>
      <PlaygroundStartButtons />
    </section>
  );
}

export function StartScreen() {
  const loading = useAppStore(selectStatus) === 'loading';
  return (
    <div className="start">
      <header className="start-hero">
        <h1>Surface Lens</h1>
        <p>Load a DeepSeek Harness session log, validate it, and step through the surface the model sees.</p>
      </header>
      {loading ? <LoadProgress /> : null}
      <div className="start-grid">
        <div className="start-card dropzone">
          <p className="dropzone-title">Drop a log anywhere on this page</p>
          <p className="hint">.jsonl · .jsonl.zst · .jsonl.gz · export .zip · stream-json · JSON array</p>
          <OpenLogInput />
          <p className="hint">Files stay on your machine: they are decoded in a worker in this tab.</p>
        </div>
        <PasteForm />
        <UrlForm />
        <Samples />
        <DemoList />
        <PlaygroundCard />
      </div>
    </div>
  );
}
