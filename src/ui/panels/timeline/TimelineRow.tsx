/** One timeline row (or its placeholder while the window loads). Text only: summaries are untrusted. */
import { memo } from 'react';
import type { CSSProperties } from 'react';
import type { SurfaceOpKind, TimelineRow as Row } from '../../../protocol/protocol';
import { Badge } from '../../widgets/Badge';
import { STATE_LABEL, familyClass, formatRelativeTime, formatTurnStep } from '../../format';
import { InspectReplaceButton } from '../replace/InspectReplaceButton';

export const ROW_HEIGHT = 22;

export const rowId = (index: number): string => `timeline-row-${index}`;

export interface TimelineRowProps {
  index: number;
  row: Row | null;
  style: CSSProperties;
  selected: boolean;
  /** The event applied last at the cursor (step = row.index + 1). */
  atCursor: boolean;
  highlighted: boolean;
  startTime: number | null;
  onSelect: (seq: number) => void;
  onApply: (row: Row) => void;
}

function OpMarker({ op }: { op: SurfaceOpKind }) {
  if (op === null) return null;
  const text = op === 'append' ? 'append' : op === 'replace' ? 'replace' : 'invalid op';
  const glyph = op === 'append' ? '+' : op === 'replace' ? '⇄' : '!';
  return (
    <span className={`op op-${op}`} title={text}>
      <span aria-hidden="true">{glyph}</span>
      <span className="op-text">{op === 'append' ? 'app' : op === 'replace' ? 'repl' : 'bad'}</span>
      <span className="sr-only">{text}</span>
    </span>
  );
}

/** Same content: a refetched window (every step refetches states) brings equal rows as new objects. */
function sameRow(a: Row | null, b: Row | null): boolean {
  if (a === b) return true;
  if (!a || !b) return false;
  return (
    a.index === b.index &&
    a.seq === b.seq &&
    a.state === b.state &&
    a.summary === b.summary &&
    a.type === b.type &&
    a.family === b.family &&
    a.op === b.op &&
    a.time === b.time &&
    a.turn === b.turn &&
    a.step === b.step
  );
}

function sameProps(a: TimelineRowProps, b: TimelineRowProps): boolean {
  return (
    a.index === b.index &&
    a.style === b.style &&
    a.selected === b.selected &&
    a.atCursor === b.atCursor &&
    a.highlighted === b.highlighted &&
    a.startTime === b.startTime &&
    a.onSelect === b.onSelect &&
    a.onApply === b.onApply &&
    sameRow(a.row, b.row)
  );
}

export const TimelineRow = memo(function TimelineRow({
  index,
  row,
  style,
  selected,
  atCursor,
  highlighted,
  startTime,
  onSelect,
  onApply,
}: TimelineRowProps) {
  if (!row) {
    return (
      <div role="row" id={rowId(index)} aria-rowindex={index + 1} aria-busy="true" className="tl-row tl-row-loading" style={style}>
        <span role="gridcell" className="c-loading">
          …
        </span>
      </div>
    );
  }
  const state = STATE_LABEL[row.state];
  const classes = [
    'tl-row',
    `state-${row.state}`,
    selected ? 'is-selected' : '',
    atCursor ? 'is-cursor' : '',
    highlighted ? 'is-highlighted' : '',
  ].join(' ');
  return (
    <div
      role="row"
      id={rowId(index)}
      aria-rowindex={index + 1}
      aria-selected={selected}
      className={classes}
      style={style}
      data-seq={row.seq}
      onClick={() => onSelect(row.seq)}
      onDoubleClick={() => onApply(row)}
    >
      <span role="gridcell" className="c-state" title={atCursor ? `${state.text} · cursor` : state.text}>
        <span aria-hidden="true">{atCursor ? '▸' : state.glyph}</span>
        <span className="sr-only">{atCursor ? `${state.text}, at cursor` : state.text}</span>
      </span>
      <span role="gridcell" className="c-seq mono">
        {row.seq}
      </span>
      <span role="gridcell" className="c-time mono">
        {formatRelativeTime(row.time, startTime)}
      </span>
      <span role="gridcell" className="c-type">
        <Badge tone={familyClass(row.family)}>{row.type}</Badge>
      </span>
      <span role="gridcell" className="c-turn mono">
        {formatTurnStep(row.turn, row.step)}
      </span>
      <span role="gridcell" className="c-op">
        {/* A replace marker opens the replace inspector (keyboard: the inspector's button). */}
        {row.op === 'replace' ? (
          <InspectReplaceButton seq={row.seq} tabIndex={-1} className="op-inspect">
            <OpMarker op={row.op} />
          </InspectReplaceButton>
        ) : (
          <OpMarker op={row.op} />
        )}
      </span>
      <span role="gridcell" className="c-summary">
        {row.summary}
      </span>
    </div>
  );
}, sameProps);
