/**
 * The time track's overview strip: every lane of the whole session in a few pixels each, and the
 * range shown as a window over it. Dragging across it selects the range (a brush); a click
 * centres the range there; focused, ←/→ move the range and +/− resize it.
 */
import { useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent } from 'react';
import { TIME_LANES } from '../../../protocol/protocol';
import type { TimeItem, TimeTrackData } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectSessionId, selectSessionKey } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { clampRange, formatDuration, formatOffset, panRange, timeOfX, xOfTime, zoomRange } from './scale';
import type { Range, Scale } from './scale';

const ROW_H = 4;
const HEIGHT = TIME_LANES.length * ROW_H + 4;

interface Props {
  data: TimeTrackData;
  whole: Range;
  view: Range;
  width: number;
  labelWidth: number;
  padRight: number;
  onRange: (r: Range) => void;
}

export function Overview({ whole, view, width, labelWidth, padRight, onRange }: Props) {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const plotWidth = Math.max(10, width - labelWidth - padRight);
  const key = ready ? `${sessionKey}|time-overview|${plotWidth}` : null;
  const remote = useRemote<TimeTrackData>(key, () => client.timeTrack({ session, from: null, to: null, width: plotWidth }));
  const all = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const scale: Scale = { range: whole, x0: labelWidth, x1: width - padRight };
  const drag = useRef<{ from: number; moved: boolean } | null>(null);
  const [brush, setBrush] = useState<Range | null>(null);
  const at = (event: PointerEvent<HTMLDivElement>) =>
    Math.min(whole.to, Math.max(whole.from, timeOfX(scale, event.clientX - event.currentTarget.getBoundingClientRect().left)));
  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    drag.current = { from: at(event), moved: false };
    event.currentTarget.setPointerCapture?.(event.pointerId);
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const t = at(event);
    if (Math.abs(xOfTime(scale, t) - xOfTime(scale, d.from)) >= 3) d.moved = true;
    if (d.moved) setBrush({ from: Math.min(d.from, t), to: Math.max(d.from, t) });
  };
  const onPointerUp = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    drag.current = null;
    setBrush(null);
    if (!d) return;
    const t = at(event);
    if (d.moved) onRange(clampRange({ from: Math.min(d.from, t), to: Math.max(d.from, t) }, whole));
    else {
      const half = (view.to - view.from) / 2;
      onRange(clampRange({ from: t - half, to: t + half }, whole));
    }
  };
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const mid = (view.from + view.to) / 2;
    const actions: Record<string, () => Range> = {
      ArrowRight: () => panRange(view, 0.25, whole),
      ArrowLeft: () => panRange(view, -0.25, whole),
      '+': () => zoomRange(view, 0.5, mid, whole),
      '=': () => zoomRange(view, 0.5, mid, whole),
      '-': () => zoomRange(view, 2, mid, whole),
      Home: () => clampRange({ from: whole.from, to: whole.from + (view.to - view.from) }, whole),
      End: () => clampRange({ from: whole.to - (view.to - view.from), to: whole.to }, whole),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    onRange(action());
  };
  const shown = brush ?? view;
  const x0 = xOfTime(scale, shown.from);
  const x1 = xOfTime(scale, shown.to);
  const span = (item: TimeItem) => ({
    x: xOfTime(scale, item.start),
    w: Math.max(1, xOfTime(scale, item.end) - xOfTime(scale, item.start)),
  });
  return (
    <div
      className="tt-overview"
      role="slider"
      tabIndex={0}
      aria-label="Range shown on the time track: drag across the overview to choose it, arrow keys move it, plus and minus resize it"
      aria-valuemin={0}
      aria-valuemax={Math.round(whole.to - whole.from)}
      aria-valuenow={Math.round(view.from - whole.from)}
      aria-valuetext={`${formatOffset(view.from - whole.from, 1000)} to ${formatOffset(view.to - whole.from, 1000)} (${formatDuration(view.to - view.from)})`}
      onPointerDown={onPointerDown}
      onPointerMove={onPointerMove}
      onPointerUp={onPointerUp}
      onKeyDown={onKeyDown}
    >
      <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" focusable="false">
        <text className="tt-lane-label" x={4} y={HEIGHT - 6}>
          Overview
        </text>
        {all?.lanes.map((lane, i) => (
          <g key={lane.lane} className={`tt-ov tt-${lane.lane}`}>
            {lane.items?.map((item) => {
              const { x, w } = span(item);
              return <rect key={item.index} x={x} y={2 + i * ROW_H} width={w} height={ROW_H - 1} />;
            })}
            {lane.buckets?.map((b) => (
              <rect
                key={b.from}
                x={xOfTime(scale, b.from)}
                y={2 + i * ROW_H}
                width={Math.max(1, xOfTime(scale, b.to) - xOfTime(scale, b.from))}
                height={ROW_H - 1}
              />
            ))}
          </g>
        ))}
        <rect className="tt-brush-window" x={x0} y={0.5} width={Math.max(2, x1 - x0)} height={HEIGHT - 1} />
      </svg>
    </div>
  );
}
