/**
 * Untrusted text, rendered as text only, clipped to a few hundred characters with a control to
 * show all of it. When the text itself was clipped upstream (`truncated`), a second control
 * fetches the full text through `loadFull`.
 */
import { useState } from 'react';
import { formatCount } from '../format';

export interface ClippedTextProps {
  text: string;
  /** True when `text` is only the beginning of the real text. */
  truncated?: boolean;
  /** Fetches the whole text (e.g. from the full event). */
  loadFull?: () => Promise<string>;
  /** Characters shown before "Show all". @default 600 */
  limit?: number;
  /** Lines shown before "Show all". @default 12 */
  lineLimit?: number;
  className?: string;
}

/** Where to cut `text` to at most `limit` characters and `lineLimit` lines, or -1 when it fits. */
export function clipPoint(text: string, limit: number, lineLimit: number): number {
  let cut = text.length > limit ? limit : -1;
  let lines = 0;
  for (let i = 0; i < Math.min(text.length, limit); i++) {
    if (text.charCodeAt(i) === 10 && ++lines >= lineLimit) {
      cut = i;
      break;
    }
  }
  return cut;
}

export function ClippedText({ text, truncated = false, loadFull, limit = 600, lineLimit = 12, className }: ClippedTextProps) {
  const [open, setOpen] = useState(false);
  const [full, setFull] = useState<string | null>(null);
  const [state, setState] = useState<'idle' | 'loading' | 'error'>('idle');
  const value = full ?? text;
  const cut = open ? -1 : clipPoint(value, limit, lineLimit);
  const load = () => {
    if (!loadFull) return;
    setState('loading');
    loadFull().then(
      (whole) => {
        setFull(whole);
        setOpen(true);
        setState('idle');
      },
      () => setState('error'),
    );
  };
  return (
    <div className={`clipped ${className ?? ''}`}>
      <span className="clipped-text">{cut === -1 ? value : `${value.slice(0, cut)}…`}</span>
      <span className="clipped-actions">
        {cut !== -1 ? (
          <button type="button" className="link-button" onClick={() => setOpen(true)}>
            Show all {formatCount(value.length)}
            {truncated && full === null ? '+' : ''} characters
          </button>
        ) : null}
        {open && cut === -1 && clipPoint(value, limit, lineLimit) !== -1 ? (
          <button type="button" className="link-button" onClick={() => setOpen(false)}>
            Show less
          </button>
        ) : null}
        {truncated && full === null && loadFull && (open || cut === -1) ? (
          <button type="button" className="link-button" onClick={load} disabled={state === 'loading'}>
            {state === 'loading' ? 'Loading the full text…' : 'Load the full text from the log'}
          </button>
        ) : null}
        {state === 'error' ? <span className="sev-error">Could not load the full text.</span> : null}
      </span>
    </div>
  );
}
