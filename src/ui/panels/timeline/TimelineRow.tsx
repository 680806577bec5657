/** One timeline row (or its placeholder while the window loads). Text only: summaries are untrusted. */
import { memo } from 'react';
import type { CSSProperties } from 'react';
import type { SurfaceOpKind, TimeFacts, TimelineRow as Row } from '../../../protocol/protocol';
import type { TimeMode } from '../../../store/types';
import { Badge } from '../../widgets/Badge';
import { STATE_LABEL, familyClass, formatElapsed, formatIsoTime, formatTurnStep, formatWallClock } from '../../format';
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
  /** The event is one of a forked child's first `seedLength`: the parent's, not its own. */
  inherited?: boolean;
  /** How the session's times read (null before the summary arrives). */
  timeFacts: TimeFacts | null;
  timeMode: TimeMode;
  /** The time of the row shown above this one (a date is written where it changes). */
  previousTime: number | null;
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

/**
 * The time of a row: elapsed from the earliest event or wall-clock, the ISO time in its tooltip,
 * `↺` where the clock stepped back, and `—` when the log's times are absent or synthetic.
 */
function TimeCell({ row, facts, mode, previous }: { row: Row; facts: TimeFacts | null; mode: TimeMode; previous: number | null }) {
  if (facts === null || facts.kind !== 'clock' || row.time === null) {
    return (
      <span role="gridcell" className="c-time mono" title={facts?.note ?? 'this event records no time'}>
        —
      </span>
    );
  }
  const text = mode === 'clock' ? formatWallClock(row.time, previous) : formatElapsed(row.time, facts.origin);
  const back = row.timeBack ? ' — earlier than an event before it (the clock stepped back)' : '';
  return (
    <span role="gridcell" className="c-time mono" title={`${formatIsoTime(row.time)} (${row.time} ms)${back}`}>
      {text}
      {row.timeBack ? (
        <span className="time-back">
          <span aria-hidden="true">↺</span>
          <span className="sr-only">out of order</span>
        </span>
      ) : null}
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
    a.seqLabel === b.seqLabel &&
    a.timeBack === b.timeBack &&
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
    a.inherited === b.inherited &&
    a.timeFacts === b.timeFacts &&
    a.timeMode === b.timeMode &&
    a.previousTime === b.previousTime &&
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
  inherited = false,
  timeFacts,
  timeMode,
  previousTime,
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
    inherited ? 'is-seed' : '',
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
      <span
        role="gridcell"
        className={`c-seq mono ${row.seqLabel === String(row.seq) ? '' : 'seq-odd'}`}
        title={
          row.seqLabel === String(row.seq)
            ? undefined
            : `position ${row.index}; the event's own seq is ${row.seqLabel === '—' ? 'missing' : row.seqLabel}`
        }
      >
        {row.seqLabel}
      </span>
      <TimeCell row={row} facts={timeFacts} mode={timeMode} previous={previousTime} />
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
        {inherited ? (
          <span
            className="seed-mark"
            title="Inherited from the parent session: part of the seed this fork started from, not this session's own"
          >
            parent&apos;s<span className="sr-only"> (seed), </span>
          </span>
        ) : null}
        {row.summary}
      </span>
    </div>
  );
}, sameProps);
