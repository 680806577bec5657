/**
 * "Compare with…": choose the second log — a file, a URL (a store session's too), or another
 * session of the open file — and the workspace shows the comparison.
 */
import { useId, useState } from 'react';
import type { FormEvent } from 'react';
import { useAppStore } from '../../../store/react';
import { selectSessionIndex, selectSessions } from '../../../store/selectors';

export function CompareMenu() {
  const [open, setOpen] = useState(false);
  const [url, setUrl] = useState('');
  const sessions = useAppStore(selectSessions);
  const current = useAppStore(selectSessionIndex);
  const openCompare = useAppStore((s) => s.openCompare);
  const id = useId();
  const choose = (go: () => Promise<void>) => {
    setOpen(false);
    void go();
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = url.trim();
    if (target !== '') choose(() => openCompare({ kind: 'url', url: target }));
  };
  return (
    <div className="cmp-menu">
      <button type="button" aria-expanded={open} aria-controls={`${id}-pop`} onClick={() => setOpen(!open)}>
        Compare with…
      </button>
      {open ? (
        <div id={`${id}-pop`} className="cmp-pop" role="group" aria-label="Compare with another log">
          <label className="file-button">
            A file…
            <input
              type="file"
              className="sr-only"
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) choose(() => openCompare({ kind: 'file', file, name: file.name }));
              }}
            />
          </label>
          <form onSubmit={submit} className="cmp-url">
            <input
              aria-label="URL of the log to compare with"
              placeholder="https://…/session.jsonl"
              value={url}
              onChange={(e) => setUrl(e.target.value)}
              spellCheck={false}
            />
            <button type="submit">Open URL</button>
          </form>
          {sessions.length > 1 ? (
            <ul className="cmp-sessions">
              {sessions.map((s, i) =>
                i === current ? null : (
                  <li key={s.id}>
                    <button type="button" onClick={() => choose(() => openCompare({ kind: 'loaded', index: i }))}>
                      Session {i + 1} of this file ({s.path})
                    </button>
                  </li>
                ),
              )}
            </ul>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
