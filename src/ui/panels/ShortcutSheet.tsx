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
  [['End'], 'Go to end'],
  [['g'], 'Jump to a seq (or a step)'],
  [['/'], 'Search events'],
  [['Enter', 'Shift+Enter'], 'Next / previous match (in search)'],
  [['↑', '↓', 'PgUp', 'PgDn'], 'Move the selection (in the timeline)'],
  [['Enter'], 'Apply up to the selected event (in the timeline)'],
  [['?'], 'This sheet'],
  [['Esc'], 'Close'],
];

export function ShortcutSheet({ open, onClose }: { open: boolean; onClose: () => void }) {
  return (
    <Dialog open={open} title="Keyboard shortcuts" onClose={onClose}>
      <table className="shortcuts">
        <tbody>
          {SHORTCUTS.map(([keys, action]) => (
            <tr key={action}>
              <td>
                {keys.map((key) => (key === '+' || key === '/' ? <span key={key}> {key} </span> : <kbd key={key}>{key}</kbd>))}
              </td>
              <td>{action}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">Shortcuts are off while typing in a field.</p>
    </Dialog>
  );
}
