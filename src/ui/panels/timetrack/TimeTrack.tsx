/**
 * The time track: lanes for turns, steps, model streams, tool calls, compactions and approvals
 * on the wall clock, with idle gaps and the slowest spans marked. Wheel or the buttons zoom, the
 * overview strip below (a brush) selects the range, and clicking a span moves the cursor to the
 * event that opened it. Focused, the track is keyboard-driven: ←/→ the previous/next span of
 * the lane, ↑/↓ the lane, Enter moves the cursor, +/− zoom, Shift+←/→ pan, 0 the whole session.
 * The engine computes the spans once and sends only what the range in view needs (spans, or
 * their density when too many for the width).
 */
import { useEffect, useRef, useState } from 'react';
import type { KeyboardEvent } from 'react';
import { TIME_LANES } from '../../../protocol/protocol';
import type { LaneWindow, TimeItem, TimeLane, TimeTrackData } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectClient, selectIsReady, selectSessionId, selectSessionKey } from '../../../store/selectors';
import { useDeferredStep } from '../../hooks/useDeferredCursor';
import { useRemote } from '../../hooks/useRemote';
import { useWidth } from '../../hooks/useWidth';
import { Panel } from '../../widgets/Panel';
import { Overview } from './Overview';
import { formatDuration, formatOffset, panRange, ticks, timeOfX, xOfTime, zoomRange } from './scale';
import type { Range, Scale } from './scale';

export const LANE_LABEL: Record<TimeLane, string> = {
  turn: 'Turns',
  step: 'Steps',
  stream: 'Model streams',
  tool: 'Tool calls',
  compaction: 'Compactions',
  approval: 'Approvals',
};

const LANE_H = 16;
const AXIS_H = 14;
const LABEL_W = 96;
const PAD_R = 8;

/** What a span says, as text (its tooltip, its accessible name, the readout). */
export function describeItem(item: TimeItem): string {
  const length = item.open
    ? `${formatDuration(item.end - item.start)} so far, never closed`
    : item.clamped
      ? 'an instant (its end is earlier than its start)'
      : formatDuration(item.end - item.start);
  return `${item.label}: ${length}, seq ${item.seq}${item.endSeq >= 0 ? `–${item.endSeq}` : ''}${item.slow ? ' (among the slowest)' : ''}`;
}

export function TimeTrack() {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const { ref, width: measured } = useWidth();
  // Nothing is asked for before the first layout gave the width (see useWidth).
  const width = measured ?? 0;
  const [range, setRange] = useState<Range | null>(null);
  const [rangeKey, setRangeKey] = useState(sessionKey);
  // A new session starts on the whole of it.
  if (rangeKey !== sessionKey) {
    setRangeKey(sessionKey);
    setRange(null);
  }
  const plotWidth = Math.max(10, width - LABEL_W - PAD_R);
  // The lanes change with the range and the width, not with the cursor: a seek re-renders only
  // the cursor's own layer (TrackCursor), which asks the time of the event at the step.
  const key = ready && measured !== null ? `${sessionKey}|time|${range?.from ?? ''}|${range?.to ?? ''}|${plotWidth}` : null;
  const remote = useRemote<TimeTrackData>(key, () =>
    client.timeTrack({ session, from: range?.from ?? null, to: range?.to ?? null, width: plotWidth }),
  );
  const data = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const whole = data && data.from !== null && data.to !== null ? { from: data.from, to: data.to } : null;
  const meta = data?.range
    ? `${formatDuration(data.range.to - data.range.from)} of ${formatDuration((data.to ?? 0) - (data.from ?? 0))} shown`
    : undefined;
  return (
    <Panel title="Time track" meta={meta} className="timetrack">
      <div ref={ref} className="tt-body">
        {remote.error ? <p className="panel-error">Could not compute the time track: {remote.error}</p> : null}
        {data && data.time.kind !== 'clock' ? (
          <p className="tt-none hint" role="note">
            No time track: this log&apos;s times are {data.time.kind === 'synthetic' ? 'synthetic' : 'absent'} ({data.time.note}), so there
            is no wall clock to draw.
          </p>
        ) : null}
        {data && whole && data.range ? (
          // The range asked for, not the one answered: a second zoom builds on the first at once.
          <TrackPlot
            data={data}
            view={range ?? whole}
            whole={whole}
            width={width}
            onRange={(r) => setRange(r.from <= whole.from && r.to >= whole.to ? null : r)}
          />
        ) : null}
      </div>
    </Panel>
  );
}

function TrackPlot({
  data,
  view,
  whole,
  width,
  onRange,
}: {
  data: TimeTrackData;
  view: Range;
  whole: Range;
  width: number;
  onRange: (r: Range) => void;
}) {
  const jumpToSeq = useAppStore((s) => s.jumpToSeq);
  const [focus, setFocus] = useState<{ lane: number; seq: number | null }>({ lane: 0, seq: null });
  const scale: Scale = { range: view, x0: LABEL_W, x1: width - PAD_R };
  const height = AXIS_H + TIME_LANES.length * LANE_H;
  const lanes = new Map(data.lanes.map((l) => [l.lane, l]));
  const laneItems = (i: number): TimeItem[] => {
    const l = lanes.get(TIME_LANES[i] as TimeLane);
    return l?.items ?? l?.slowest.filter((s) => s.end >= view.from && s.start <= view.to) ?? [];
  };
  const focused = laneItems(focus.lane).find((i) => i.seq === focus.seq) ?? null;
  const zoom = (factor: number, at = (view.from + view.to) / 2) => onRange(zoomRange(view, factor, at, whole));
  const plotRef = useRef<HTMLDivElement | null>(null);
  const onWheel = (event: WheelEvent) => {
    if (event.deltaY === 0 || !plotRef.current) return;
    // The wheel zooms the track, not the page under it.
    event.preventDefault();
    const at = timeOfX(scale, event.clientX - plotRef.current.getBoundingClientRect().left);
    if (event.shiftKey) onRange(panRange(view, event.deltaY > 0 ? 0.2 : -0.2, whole));
    else zoom(event.deltaY < 0 ? 0.8 : 1.25, Math.min(view.to, Math.max(view.from, at)));
  };
  const wheel = useRef(onWheel);
  useEffect(() => {
    wheel.current = onWheel;
  });
  // React's wheel listener is passive (it cannot keep the page from scrolling): a native one is not.
  useEffect(() => {
    const element = plotRef.current;
    if (!element) return;
    const listener = (event: WheelEvent) => wheel.current(event);
    element.addEventListener('wheel', listener, { passive: false });
    return () => element.removeEventListener('wheel', listener);
  }, []);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const items = laneItems(focus.lane);
    const at = focused ? items.indexOf(focused) : -1;
    const pick = (lane: number, list: TimeItem[], i: number) =>
      setFocus({ lane, seq: list[Math.max(0, Math.min(list.length - 1, i))]?.seq ?? null });
    const actions: Record<string, () => void> = {
      ArrowRight: () => (event.shiftKey ? onRange(panRange(view, 0.25, whole)) : pick(focus.lane, items, at + 1)),
      ArrowLeft: () =>
        event.shiftKey ? onRange(panRange(view, -0.25, whole)) : pick(focus.lane, items, at < 0 ? items.length - 1 : at - 1),
      ArrowDown: () => {
        const lane = Math.min(TIME_LANES.length - 1, focus.lane + 1);
        pick(lane, laneItems(lane), 0);
      },
      ArrowUp: () => {
        const lane = Math.max(0, focus.lane - 1);
        pick(lane, laneItems(lane), 0);
      },
      Home: () => pick(focus.lane, items, 0),
      End: () => pick(focus.lane, items, items.length - 1),
      Enter: () => focused && jumpToSeq(focused.seq),
      ' ': () => focused && jumpToSeq(focused.seq),
      '+': () => zoom(0.5, focused ? (focused.start + focused.end) / 2 : undefined),
      '=': () => zoom(0.5, focused ? (focused.start + focused.end) / 2 : undefined),
      '-': () => zoom(2),
      '0': () => onRange(whole),
    };
    const action = actions[event.key];
    if (!action) return;
    event.preventDefault();
    action();
  };
  const axis = ticks(view, Math.max(2, Math.floor((scale.x1 - scale.x0) / 90)));
  const slowest = data.lanes
    .flatMap((l) => l.slowest)
    .sort((a, b) => b.end - b.start - (a.end - a.start))
    .slice(0, 6);
  return (
    <>
      <div className="tt-tools" role="toolbar" aria-label="Time track zoom">
        <button type="button" onClick={() => zoom(0.5)} aria-label="Zoom in">
          +
        </button>
        <button type="button" onClick={() => zoom(2)} aria-label="Zoom out" disabled={view.from <= whole.from && view.to >= whole.to}>
          −
        </button>
        <button type="button" onClick={() => onRange(panRange(view, -0.5, whole))} aria-label="Earlier" disabled={view.from <= whole.from}>
          ◀
        </button>
        <button type="button" onClick={() => onRange(panRange(view, 0.5, whole))} aria-label="Later" disabled={view.to >= whole.to}>
          ▶
        </button>
        <button type="button" onClick={() => onRange(whole)}>
          Whole session
        </button>
        <span className="hint tt-legend">
          <span className="lg tt-lg-gap">▨ idle ≥ {formatDuration(data.gapThresholdMs)}</span>{' '}
          <span className="lg tt-lg-slow">▣ slowest</span> <span className="lg tt-lg-open">┅ never closed</span>{' '}
          <span className="lg lg-cursor">│ cursor</span>
          {data.gapsTotal > 0 ? ` · ${data.gapsTotal} gaps in all` : ''}
        </span>
      </div>
      <div
        className="tt-plot"
        role="group"
        tabIndex={0}
        aria-label="Time track lanes: arrow keys choose a span, Enter moves the cursor to it, plus and minus zoom"
        aria-describedby="tt-readout"
        onKeyDown={onKeyDown}
        ref={plotRef}
      >
        <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="presentation">
          {axis.times.map((t) => (
            <g key={t} className="tt-tick">
              <line x1={xOfTime(scale, t)} x2={xOfTime(scale, t)} y1={AXIS_H - 3} y2={height} />
              <text x={xOfTime(scale, t) + 2} y={AXIS_H - 4}>
                {formatOffset(t - whole.from, axis.step)}
              </text>
            </g>
          ))}
          {data.gaps.map((g) => (
            <rect
              key={g.seqBefore}
              className="tt-gap"
              x={xOfTime(scale, Math.max(view.from, g.from))}
              y={AXIS_H}
              width={Math.max(1, xOfTime(scale, Math.min(view.to, g.to)) - xOfTime(scale, Math.max(view.from, g.from)))}
              height={height - AXIS_H}
            >
              <title>{`idle ${formatDuration(g.to - g.from)} between seq ${g.seqBefore} and seq ${g.seqAfter}`}</title>
            </rect>
          ))}
          {TIME_LANES.map((lane, i) => (
            <Lane
              key={lane}
              lane={lane}
              index={i}
              data={lanes.get(lane)}
              scale={scale}
              focusedSeq={focus.lane === i ? focus.seq : null}
              onPick={(item) => {
                setFocus({ lane: i, seq: item.seq });
                jumpToSeq(item.seq);
              }}
            />
          ))}
        </svg>
        <TrackCursor scale={scale} width={width} height={height} />
      </div>
      <p id="tt-readout" className="tt-readout hint" aria-live="polite">
        {focused ? describeItem(focused) : 'No span chosen: click one, or focus the lanes and use the arrow keys.'}
      </p>
      <Overview data={data} whole={whole} view={view} width={width} labelWidth={LABEL_W} padRight={PAD_R} onRange={onRange} />
      {slowest.length > 0 ? (
        <div className="tt-slowest">
          <span className="hint">Slowest:</span>
          {slowest.map((item) => (
            <button
              key={`${item.lane}-${item.index}`}
              type="button"
              className="tt-slow-link"
              onClick={() => jumpToSeq(item.seq)}
              title={describeItem(item)}
            >
              {item.label} {formatDuration(item.end - item.start)}
            </button>
          ))}
        </div>
      ) : null}
    </>
  );
}

function Lane({
  lane,
  index,
  data,
  scale,
  focusedSeq,
  onPick,
}: {
  lane: TimeLane;
  index: number;
  data: LaneWindow | undefined;
  scale: Scale;
  focusedSeq: number | null;
  onPick: (item: TimeItem) => void;
}) {
  const y = AXIS_H + index * LANE_H;
  const { from, to } = scale.range;
  const clip = (t: number) => Math.min(to, Math.max(from, t));
  const drawn = data?.items ?? data?.slowest.filter((s) => s.end >= from && s.start <= to) ?? [];
  const max = data?.buckets?.reduce((m, b) => Math.max(m, b.count), 0) ?? 0;
  return (
    <g className={`tt-lane tt-${lane}`} data-lane={lane}>
      <text className="tt-lane-label" x={4} y={y + LANE_H - 4}>
        {LANE_LABEL[lane]}
        {data && data.visible > 0 && data.items === null ? ` (${data.visible})` : ''}
      </text>
      <line className="tt-lane-rule" x1={scale.x0} x2={scale.x1} y1={y + LANE_H} y2={y + LANE_H} />
      {data?.buckets?.map((b) => (
        <rect
          key={b.from}
          className="tt-bucket"
          x={xOfTime(scale, b.from)}
          y={y + 3}
          width={Math.max(1, xOfTime(scale, b.to) - xOfTime(scale, b.from))}
          height={LANE_H - 6}
          style={{ opacity: 0.25 + (0.75 * b.count) / Math.max(1, max) }}
        >
          <title>{`${b.count} ${LANE_LABEL[lane].toLowerCase()} here: zoom in to see each`}</title>
        </rect>
      ))}
      {drawn.map((item) => {
        const x = xOfTime(scale, clip(item.start));
        const w = Math.max(2, xOfTime(scale, clip(item.end)) - x);
        const cls = `tt-item${item.slow ? ' is-slow' : ''}${item.open ? ' is-open' : ''}${focusedSeq === item.seq ? ' is-focused' : ''}`;
        return (
          <rect
            key={item.index}
            className={cls}
            data-seq={item.seq}
            x={x}
            y={y + 2}
            width={w}
            height={LANE_H - 4}
            rx={2}
            onClick={() => onPick(item)}
          >
            <title>{describeItem(item)}</title>
          </rect>
        );
      })}
    </g>
  );
}

/**
 * The cursor's line, on an SVG of its own over the lanes: the one part of the track that follows
 * a seek, a frame after the surface (see useDeferredCursor).
 */
function TrackCursor({ scale, width, height }: { scale: Scale; width: number; height: number }) {
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const step = useDeferredStep();
  const remote = useRemote<number | null>(`${sessionKey}|timeAt|${step}`, () => client.timeAt({ session, step }));
  const time = remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const x = time === null || time < scale.range.from || time > scale.range.to ? null : xOfTime(scale, time);
  return (
    <svg className="tt-cursor-layer" width={width} height={height} viewBox={`0 0 ${width} ${height}`} aria-hidden="true" focusable="false">
      {x === null ? null : <line className="tt-cursor" x1={x} x2={x} y1={AXIS_H} y2={height} />}
    </svg>
  );
}
