/**
 * Compose a replace from the surface: pick the start and end nodes in the Surface list (select a
 * node, then "Use selected") for a summary replace, or pick a tool result to prune. The engine
 * cites the shadowed nodes and the fold decides; a refusal shows its exact message.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useAppStore } from '../../../store/react';
import { selectPlaygroundBusy, selectSelectedSeq } from '../../../store/selectors';

function parseSeq(text: string): number | null {
  return /^\d{1,15}$/.test(text.trim()) ? Number(text.trim()) : null;
}

function SeqField({
  label,
  value,
  onChange,
  selected,
}: {
  label: string;
  value: string;
  onChange: (v: string) => void;
  selected: number | null;
}) {
  return (
    <div className="pg-seq">
      <label>
        <span>{label}</span>
        <input inputMode="numeric" value={value} placeholder="seq" onChange={(e) => onChange(e.currentTarget.value)} />
      </label>
      <button
        type="button"
        disabled={selected === null}
        onClick={() => onChange(String(selected))}
        aria-label={`${label}: use the selected node${selected === null ? '' : ` (seq ${selected})`}`}
      >
        Use selected{selected === null ? '' : ` (${selected})`}
      </button>
    </div>
  );
}

export function ReplaceComposer() {
  const offer = useAppStore((s) => s.offer);
  const busy = useAppStore(selectPlaygroundBusy);
  const selected = useAppStore(selectSelectedSeq);
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const [summary, setSummary] = useState('Summary of the earlier conversation.');
  const [target, setTarget] = useState('');
  const [pruned, setPruned] = useState('[... tool result middle pruned ...]');
  const id = useId();
  const range = { start: parseSeq(start), end: parseSeq(end) };
  const targetSeq = parseSeq(target);

  const offerSummary = async (event: FormEvent) => {
    event.preventDefault();
    if (range.start === null || range.end === null) return;
    const result = await offer({ kind: 'summary', start: range.start, end: range.end, text: summary });
    if (result?.ok) {
      setStart('');
      setEnd('');
    }
  };
  const offerPrune = async (event: FormEvent) => {
    event.preventDefault();
    if (targetSeq === null) return;
    const result = await offer({ kind: 'prune', target: targetSeq, text: pruned });
    if (result?.ok) setTarget('');
  };

  return (
    <div className="pg-compose" aria-labelledby={`${id}-title`} role="group">
      <h3 id={`${id}-title`}>Compose a replace</h3>
      <p className="hint">Select nodes in the Surface list, then use them as the range. The range is located by position on the surface.</p>
      <form className="pg-form" onSubmit={(e) => void offerSummary(e)} aria-label="Summary replace">
        <div className="pg-range">
          <SeqField label="Start node" value={start} onChange={setStart} selected={selected} />
          <SeqField label="End node" value={end} onChange={setEnd} selected={selected} />
        </div>
        <label className="pg-field">
          <span>Summary text</span>
          <textarea rows={2} value={summary} onChange={(e) => setSummary(e.currentTarget.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy || range.start === null || range.end === null}>
          Offer summary replace
        </button>
      </form>
      <form className="pg-form" onSubmit={(e) => void offerPrune(e)} aria-label="Prune a tool result">
        <SeqField label="Tool result" value={target} onChange={setTarget} selected={selected} />
        <label className="pg-field">
          <span>New content</span>
          <textarea rows={2} value={pruned} onChange={(e) => setPruned(e.currentTarget.value)} />
        </label>
        <button type="submit" className="primary" disabled={busy || targetSeq === null}>
          Offer prune
        </button>
      </form>
    </div>
  );
}
