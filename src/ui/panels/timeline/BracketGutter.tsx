/**
 * The gutter at the left of the timeline: one bracket per replacement, spanning the rows of the
 * seqs it covers (directly or through nested replaces). Nested replacements sit one column in,
 * so nested compactions draw as nested brackets. A cap marks an end that is in view.
 */
import type { Bracket, TimelineRow } from '../../../protocol/protocol';
import { REPLACEMENT_KIND_LABEL } from '../../format';
import type { RowPosition } from '../../widgets/VirtualList';

export const BRACKET_COLUMN = 7;

export function gutterWidth(brackets: Bracket[]): number {
  const depth = brackets.reduce((max, b) => Math.max(max, b.depth), -1);
  return (depth + 1) * BRACKET_COLUMN + 4;
}

interface Props {
  brackets: Bracket[];
  positions: RowPosition[];
  rowHeight: number;
  rowAt: (index: number) => TimelineRow | null;
  highlighted: number | null;
}

export function BracketGutter({ brackets, positions, rowHeight, rowAt, highlighted }: Props) {
  if (brackets.length === 0 || positions.length === 0) return null;
  const rows = positions.map((p) => ({ ...p, row: rowAt(p.index) }));
  return (
    <div className="gutter" aria-hidden="true">
      {brackets.map((bracket) => {
        const inside = rows.filter((r) => r.row && r.row.seq >= bracket.first && r.row.seq <= bracket.last);
        const top = inside[0];
        const bottom = inside[inside.length - 1];
        if (!top || !bottom) return null;
        const before = rows[rows.indexOf(top) - 1];
        const after = rows[rows.indexOf(bottom) + 1];
        const capTop = top.index === 0 || (before?.row ? before.row.seq < bracket.first : false);
        const capBottom = after?.row ? after.row.seq > bracket.last : false;
        const classes = [
          'bracket',
          `bracket-${bracket.kind}`,
          capTop ? 'cap-top' : '',
          capBottom ? 'cap-bottom' : '',
          highlighted === bracket.replacement ? 'is-highlighted' : '',
        ].join(' ');
        return (
          <div
            key={bracket.replacement}
            className={classes}
            data-testid="bracket"
            data-replacement={bracket.replacement}
            data-first={bracket.first}
            data-last={bracket.last}
            data-depth={bracket.depth}
            title={`${REPLACEMENT_KIND_LABEL[bracket.kind]}: seq ${bracket.replacement} replaced ${bracket.first}…${bracket.last}`}
            style={{
              top: top.top + 3,
              height: bottom.top - top.top + rowHeight - 6,
              left: 2 + bracket.depth * BRACKET_COLUMN,
            }}
          />
        );
      })}
    </div>
  );
}
