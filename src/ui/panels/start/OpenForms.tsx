/** The forms that open a log from pasted text or a URL: on the start screen and in the Open menu. */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useAppStore } from '../../../store/react';

export interface OpenFormProps {
  /** Called after the form asked to open its log. */
  onOpen?: () => void;
  className?: string;
}

/** Opens pasted log text; `onOpen` runs once it is submitted (a dialog closes). */
export function PasteForm({ onOpen, className = 'start-card' }: OpenFormProps) {
  const openSource = useAppStore((s) => s.openSource);
  const [text, setText] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim() === '') return;
    void openSource({ kind: 'text', name: 'pasted text', text });
    onOpen?.();
  };
  return (
    <form className={className} onSubmit={submit}>
      <label htmlFor={id} className="start-label">
        Paste log text
      </label>
      <textarea
        id={id}
        rows={5}
        spellCheck={false}
        placeholder='{"type":"session",…}'
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
      />
      <button type="submit" disabled={text.trim() === ''}>
        Open pasted text
      </button>
    </form>
  );
}

/** Opens a log from a URL the user typed (fetched by the engine only then). */
export function UrlForm({ onOpen, className = 'start-card' }: OpenFormProps) {
  const openSource = useAppStore((s) => s.openSource);
  const [url, setUrl] = useState('');
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (url.trim() === '') return;
    void openSource({ kind: 'url', url: url.trim() });
    onOpen?.();
  };
  return (
    <form className={className} onSubmit={submit}>
      <label htmlFor={id} className="start-label">
        Open from a URL
      </label>
      <input
        id={id}
        type="url"
        placeholder="https://example.com/session.jsonl"
        value={url}
        onChange={(e) => setUrl(e.currentTarget.value)}
      />
      <button type="submit" disabled={url.trim() === ''}>
        Fetch
      </button>
      <p className="hint">Fetched only when you ask. The server must allow cross-origin requests (CORS).</p>
    </form>
  );
}
