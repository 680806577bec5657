/** The keyboard shortcut sheet, opened with `?`. */
import { Dialog } from '../widgets/Dialog';

export const SHORTCUTS: [keys: string[], action: string][] = [
  [['→', '↓', 'j'], 'Next step'],
  [['←', '↑', 'k'], 'Previous step'],
  [['Shift', '+', '→ / j'], 'Next surface change (skip log-only steps)'],
  [['Shift', '+', '← / k'], 'Previous surface change'],
  [[']'], 'Next replace'],
  [['x', 'Shift+x'], 'Next / previous prefix-cache break'],
  [['['], 'Previous replace'],
  [['Space'], 'Play / pause'],
  [['Home'], 'Go to start'],
  [['End'], 'Go to end (following: follow the end again)'],
  [['g'], 'Jump to a seq (or a step)'],
  [['/'], 'Search events'],
  [['Enter', 'Shift+Enter'], 'Next / previous match (in search)'],
  [['↑', '↓', 'PgUp', 'PgDn'], 'Move the selection (in the timeline)'],
  [['Enter'], 'Apply up to the selected event (in the timeline)'],
  [['?'], 'This sheet'],
  [['Esc'], 'Close'],
];

/** The search language, as the search box reads it (README, "Search"). */
export const QUERY_TERMS: [term: string, meaning: string][] = [
  ['word', 'text a person reads: messages, tool arguments and results, summaries, labels'],
  ['"exact phrase"', 'these words in this order'],
  ['/regex/  /regex/i', 'a regular expression (i: ignore case)'],
  ['type:tool/result  type:compaction/', 'an event type; ending in / is a prefix'],
  ['tool:read_file', 'calls of a tool and their results'],
  ['turn:3  step:1..2  seq:10..200', 'a number or a range'],
  ['is:error  is:replace  is:prune  is:compaction', 'failures, replaces, prunes, compaction events'],
  ['is:surface  is:shadowed  is:log-only', 'the state at the cursor'],
  ['-term', 'leave out what the term matches'],
];

export function ShortcutSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, action]) => (
            <tr key={action}>
              <td>{keys.map((key) => (key === '+' || key === '/' ? <span key={key}> {key} </span> : <kbd key={key}>{key}</kbd>))}</td>
              <td>{action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Shortcuts are off while typing in a field.</p>
      <h3>Search</h3>
      <table className="shortcuts" aria-label="Search language">
        <tbody>
          {QUERY_TERMS.map(([term, meaning]) => (
            <tr key={term}>
              <td>
                <code>{term}</code>
              </td>
              <td>{meaning}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Terms must all hold. “replaces only” and “errors only” add is:replace and is:error.</p>
    </Dialog>
  );
}
