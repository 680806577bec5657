/**
 * A text diff: removed parts marked "−" and struck through, added parts marked "+", with a word
 * for screen readers and a colour, so colour is never the only signal. Text only.
 */
import type { DiffPart } from '../../protocol/protocol';

const MARK: Record<DiffPart['op'], { glyph: string; word: string }> = {
  same: { glyph: ' ', word: 'unchanged' },
  add: { glyph: '+', word: 'added' },
  remove: { glyph: '−', word: 'removed' },
};

/** Splits a part into lines, keeping a trailing partial line. */
function lines(text: string): string[] {
  const out = text.split('\n');
  if (out.length > 1 && out[out.length - 1] === '') out.pop();
  return out;
}

export function DiffView({ parts, label }: { parts: DiffPart[]; label: string }) {
  return (
    <ol className="diff" aria-label={label}>
      {parts.flatMap((part, p) =>
        lines(part.text).map((line, i) => (
          <li key={`${p}:${i}`} className={`diff-line diff-${part.op}`}>
            <span className="diff-mark" aria-hidden="true">
              {MARK[part.op].glyph}
            </span>
            {part.op === 'same' ? null : <span className="sr-only">{MARK[part.op].word}: </span>}
            <span className="diff-text">{line === '' ? ' ' : line}</span>
          </li>
        )),
      )}
    </ol>
  );
}
