/**
 * The gutter at the left of the timeline: one bracket per replacement, spanning the rows of the
 * seqs it covers (directly or through nested replaces). Nested replacements sit one column in,
 * so nested compactions draw as nested brackets. A cap marks an end that is in view.
 *
 * A long session nests compactions hundreds deep (each compaction replaces the previous summary),
 * so the gutter shows at most {@link MAX_COLUMNS} columns: brackets nested deeper are not drawn
 * one by one; the innermost column drawn says how many more it holds (class `has-deeper`, and
 * its title). A highlighted bracket nested deeper is drawn in the last column.
 */
import type { Bracket, TimelineRow } from '../../../protocol/protocol';
import { REPLACEMENT_KIND_LABEL } from '../../format';
import type { RowPosition } from '../../widgets/VirtualList';

export const BRACKET_COLUMN = 7;
/** Nesting levels drawn as their own column. */
export const MAX_COLUMNS = 6;

export function gutterWidth(brackets: Bracket[]): number {
  const depth = brackets.reduce((max, b) => Math.max(max, Math.min(b.depth, MAX_COLUMNS - 1)), -1);
  return (depth + 1) * BRACKET_COLUMN + 4;
}

/** Brackets nested deeper than the last column, inside `bracket` (which sits in the last column). */
function deeperInside(bracket: Bracket, brackets: Bracket[]): number {
  let n = 0;
  for (const b of brackets) if (b.depth > bracket.depth && b.first >= bracket.first && b.last <= bracket.last) n++;
  return n;
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
  const deep = brackets.some((b) => b.depth >= MAX_COLUMNS);
  return (
    <div className="gutter" aria-hidden="true">
      {brackets.map((bracket) => {
        // Deeper brackets are summed up by the last column; a highlighted one is drawn there.
        if (bracket.depth >= MAX_COLUMNS && highlighted !== bracket.replacement) return null;
        const column = Math.min(bracket.depth, MAX_COLUMNS - 1);
        const inside = rows.filter((r) => r.row && r.row.seq >= bracket.first && r.row.seq <= bracket.last);
        const top = inside[0];
        const bottom = inside[inside.length - 1];
        if (!top || !bottom) return null;
        const before = rows[rows.indexOf(top) - 1];
        const after = rows[rows.indexOf(bottom) + 1];
        const capTop = top.index === 0 || (before?.row ? before.row.seq < bracket.first : false);
        const capBottom = after?.row ? after.row.seq > bracket.last : false;
        const deeper = deep && bracket.depth === MAX_COLUMNS - 1 ? deeperInside(bracket, brackets) : 0;
        const classes = [
          'bracket',
          `bracket-${bracket.kind}`,
          capTop ? 'cap-top' : '',
          capBottom ? 'cap-bottom' : '',
          highlighted === bracket.replacement ? 'is-highlighted' : '',
          deeper > 0 ? 'has-deeper' : '',
        ].join(' ');
        const nested = deeper > 0 ? ` (and ${deeper} replacement${deeper === 1 ? '' : 's'} nested inside it)` : '';
        return (
          <div
            key={bracket.replacement}
            className={classes}
            data-testid="bracket"
            data-replacement={bracket.replacement}
            data-first={bracket.first}
            data-last={bracket.last}
            data-depth={bracket.depth}
            data-deeper={deeper > 0 ? deeper : undefined}
            title={`${REPLACEMENT_KIND_LABEL[bracket.kind]}: seq ${bracket.replacement} replaced ${bracket.first}…${bracket.last}${nested}`}
            style={{
              top: top.top + 3,
              height: bottom.top - top.top + rowHeight - 6,
              left: 2 + column * BRACKET_COLUMN,
            }}
          />
        );
      })}
    </div>
  );
}
