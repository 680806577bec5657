/**
 * The context curve: the model-visible size (bytes of the derived messages) over every step,
 * with the number of messages, each replace marked as a drop, and the cursor. Clicking moves the
 * cursor; focused, it is a slider (arrows, Page Up/Down, Home/End). Computed by the engine.
 */
import { useMemo, useState } from 'react';
import type { KeyboardEvent, MouseEvent } from 'react';
import type { CurveData, CurveRequest } from '../../../protocol/protocol';
import { useAppStore, useAppStoreApi } from '../../../store/react';
import { useDeferredStep } from '../../hooks/useDeferredCursor';
import { selectClient, selectIsReady, selectSessionId, selectSessionKey } from '../../../store/selectors';
import { useRemote } from '../../hooks/useRemote';
import { useWidth } from '../../hooks/useWidth';
import { Panel } from '../../widgets/Panel';
import { estimateTokens, formatBytes, formatCount, plural } from '../../format';
import {
  bandPath,
  bucketAt,
  bucketsFor,
  cacheReadPath,
  linePath,
  markNear,
  marksOf,
  marksPath,
  requestAt,
  requestCount,
  requestOf,
  reusedPath,
  stepAt,
  tenth,
  xOf,
  yOf,
} from './geometry';
import type { Mark, Plot } from './geometry';
import { TokenTable } from './TokenTable';

const HEIGHT = 76;

/** What the curve says about one step, as text (tooltip and slider value). */
export function describeStep(curve: CurveData, step: number): string {
  const b = bucketAt(curve, step);
  if (!b) return `step ${formatCount(step)}`;
  const exact = b.bytesMin === b.bytesMax;
  const bytes = exact ? formatBytes(b.bytesMax) : `${formatBytes(b.bytesMin)}–${formatBytes(b.bytesMax)}`;
  const tokens = exact
    ? `~${formatCount(estimateTokens(b.bytesMax))}`
    : `~${formatCount(estimateTokens(b.bytesMin))}–${formatCount(estimateTokens(b.bytesMax))}`;
  const where = b.from === b.to ? `step ${formatCount(step)}` : `steps ${formatCount(b.from)}–${formatCount(b.to)}`;
  return `${where}: ${bytes}, ${tokens} tokens, ${plural(b.messagesMax, 'message')}`;
}

/** The model request last made at or before a step, as text (the panel header shows it beside the size). */
export function describeRequest(curve: CurveData, step: number): string | null {
  const q = requestAt(curve, step);
  if (!q) return null;
  const cache = q.cacheRead === null ? '' : `, ${formatCount(q.cacheRead)} read from cache (recorded)`;
  return `model request seq ${q.seq}: ~${formatCount(q.tokens)} tokens sent, ~${formatCount(q.reusedTokens)} reusable${cache}`;
}

/** What a prefix break mark says: what broke the prefix, the estimate and the recorded cache reads. */
export function describeBreak(q: CurveRequest): string {
  const b = q.brokenBy;
  if (!b) return '';
  const cause =
    b.kind === 'replace'
      ? `the replace at seq ${b.seq ?? '?'} cut it at message ${b.at}`
      : b.kind === 'header'
        ? `the request header changed at seq ${b.seq ?? '?'} (system prompt, tools or config)`
        : `nothing in the log explains it (message ${b.at})`;
  const cache = q.cacheRead === null ? 'no cache reads recorded' : `recorded cache reads ${formatCount(q.cacheRead)} tokens`;
  return `✂ prefix break at request seq ${q.seq}: ${cause}; reusable ~${formatCount(q.reusedTokens)} of ~${formatCount(q.tokens)} tokens (estimate), ${cache}`;
}

export function ContextCurve() {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  // The curve follows a seek a frame later, like the other secondary panels: the surface paints
  // first (see hooks/useDeferredCursor.ts).
  const step = useDeferredStep();
  const { ref, width } = useWidth();
  const buckets = width === null ? 0 : bucketsFor(width);
  const key = ready && width !== null ? `${sessionKey}|curve|${buckets}` : null;
  const remote = useRemote<CurveData>(key, () => client.curve({ session, buckets }));
  const curve = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const meta = curve ? describeStep(curve, Math.min(step, curve.steps)) : undefined;
  return (
    <Panel title="Context curve" meta={meta} className="curve">
      <div ref={ref} className="curve-plot">
        {remote.error ? <p className="panel-error">Could not compute the curve: {remote.error}</p> : null}
        {curve && width !== null ? <CurvePlot curve={curve} width={width} /> : null}
      </div>
      {curve?.usage ? <TokenTable usage={curve.usage} /> : null}
    </Panel>
  );
}

function CurvePlot({ curve, width }: { curve: CurveData; width: number }) {
  const step = Math.min(useDeferredStep(), curve.steps);
  const store = useAppStoreApi();
  const goTo = useAppStore((s) => s.goTo);
  const pause = useAppStore((s) => s.pause);
  const [hover, setHover] = useState<number | null>(null);
  const plot: Plot = useMemo(() => ({ width, height: HEIGHT, padX: 8, padTop: 12, padBottom: 4 }), [width]);
  // The curve itself only changes with the data or the width; each step redraws the cursor only.
  const marks = useMemo(() => curveMarks(curve, plot), [curve, plot]);
  const layer = useMemo(() => <CurveLayer curve={curve} plot={plot} marks={marks} />, [curve, plot, marks]);
  const move = (target: number) => {
    pause();
    goTo(Math.max(0, Math.min(curve.steps, target)));
  };
  const stepFromEvent = (event: MouseEvent<HTMLElement>) =>
    stepAt(plot, curve.steps, event.clientX - event.currentTarget.getBoundingClientRect().left);
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    // Relative moves start from the live cursor, which may be a frame ahead of `step`.
    const step = Math.min(store.getState().step, curve.steps);
    const page = Math.max(1, Math.round(curve.steps / 10));
    const targets: Record<string, number> = {
      ArrowRight: step + 1,
      ArrowUp: step + 1,
      ArrowLeft: step - 1,
      ArrowDown: step - 1,
      PageUp: step + page,
      PageDown: step - page,
      Home: 0,
      End: curve.steps,
    };
    const target = targets[event.key];
    if (target === undefined) return;
    event.preventDefault();
    move(target);
  };
  const cursorX = xOf(plot, curve.steps, step);
  const here = bucketAt(curve, step);
  const request = describeRequest(curve, step);
  const tip =
    hover === null ? null : { x: xOf(plot, curve.steps, hover), text: describeHover(curve, marks, xOf(plot, curve.steps, hover), hover) };
  return (
    <>
      <div
        className="curve-slider"
        role="slider"
        tabIndex={0}
        aria-label="Cursor on the context curve"
        aria-valuemin={0}
        aria-valuemax={curve.steps}
        aria-valuenow={step}
        aria-valuetext={describeStep(curve, step)}
        onKeyDown={onKeyDown}
        onClick={(event) => move(stepFromEvent(event))}
        onMouseMove={(event) => setHover(stepFromEvent(event))}
        onMouseLeave={() => setHover(null)}
      >
        <svg width={width} height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" focusable="false">
          {layer}
        </svg>
        {/* The cursor has an SVG of its own over the plot: a seek changes three elements, and
            the plot's thousands of marks (a replace, a prefix break each) are not laid out again. */}
        <svg
          className="curve-cursor-layer"
          width={width}
          height={HEIGHT}
          viewBox={`0 0 ${width} ${HEIGHT}`}
          aria-hidden="true"
          focusable="false"
        >
          <line className="curve-cursor-halo" x1={cursorX} x2={cursorX} y1={0} y2={HEIGHT} />
          <line className="curve-cursor" x1={cursorX} x2={cursorX} y1={0} y2={HEIGHT} />
          {here ? <circle className="curve-dot" cx={cursorX} cy={yOf(plot, curve.bytesMax, here.bytesMax)} r={3} /> : null}
        </svg>
      </div>
      {tip ? (
        <div className="curve-tip" role="tooltip" style={tip.x > width / 2 ? { right: width - tip.x + 6 } : { left: tip.x + 6 }}>
          {tip.text}
        </div>
      ) : null}
      <p className="curve-legend hint">
        <span className="mono">max {formatBytes(curve.bytesMax)}</span> · <span className="lg lg-line">━ bytes</span>{' '}
        <span className="lg lg-band">▒ range per pixel</span> <span className="lg lg-messages">┄ messages</span>{' '}
        <span className="lg lg-replace">▼ replace</span>{' '}
        {requestCount(curve) > 0 ? (
          <>
            <span className="lg lg-reused">━ reused prefix (estimate)</span>{' '}
            {(curve.requests?.cacheReads ?? 0) > 0 ? (
              <span className="lg lg-cache" title="Recorded cache-read tokens of each request, drawn at 4 characters a token">
                ┅ cache reads (recorded)
              </span>
            ) : null}{' '}
            <span className="lg lg-break">✂ prefix break</span>{' '}
          </>
        ) : null}
        <span className="lg lg-cursor">│ cursor</span> · tokens {curve.tokenMethod}
      </p>
      {request ? <p className="curve-request hint">{request}</p> : null}
    </>
  );
}

/** The plot's marks: prefix breaks and replaces, one per pixel column at most (see marksOf). */
interface CurveMarks {
  breaks: Mark<CurveRequest>[];
  replaces: Mark<number>[];
}

function curveMarks(curve: CurveData, plot: Plot): CurveMarks {
  const requests = curve.requests;
  return {
    breaks: marksOf(requests ? requests.breaks.map((b) => requestOf(requests, b.index)) : [], plot, (q) => xOf(plot, curve.steps, q.step)),
    replaces: marksOf(curve.replaces, plot, (r) => xOf(plot, curve.steps, r)),
  };
}

/** Pixels either side of the pointer in which a mark is described by the tooltip (a mark is 6–8 px wide). */
const MARK_REACH = 4;

/** The tooltip at a point: the step's values, and the prefix break and replace marked there. */
function describeHover(curve: CurveData, marks: CurveMarks, x: number, step: number): string {
  const lines = [describeStep(curve, step)];
  const broken = markNear(marks.breaks, x, MARK_REACH);
  if (broken) {
    const more = broken.count > 1 ? ` (and ${formatCount(broken.count - 1)} more breaks at this pixel)` : '';
    lines.push(`${describeBreak(broken.item)}${more}`);
  }
  const replaced = markNear(marks.replaces, x, MARK_REACH);
  if (replaced) {
    const more = replaced.count > 1 ? ` (and ${formatCount(replaced.count - 1)} more at this pixel)` : '';
    lines.push(`▼ replace at step ${formatCount(replaced.item)}${more}`);
  }
  return lines.join('\n');
}

/** A prefix break: a cross standing on the axis (the ✂ of the legend and the transport). */
const breakShape = (y: number) => (x: number) =>
  `M${tenth(x - 3)} ${y - 6} L${tenth(x + 3)} ${y} M${tenth(x + 3)} ${y - 6} L${tenth(x - 3)} ${y}`;
/** A replace: a small triangle pointing down from the top edge. */
const replaceShape = (x: number) => `M${tenth(x - 4)} 1 L${tenth(x + 4)} 1 L${x} 8 Z`;
/** A number of each mark, space-separated (for the marks' data attributes). */
function list<T>(marks: readonly Mark<T>[], value: (m: Mark<T>) => number): string {
  return marks.map(value).join(' ');
}

/**
 * One path of the layer, its `d` built in its own render: each is a unit of React's work, so the
 * first render of a large curve (the request lines of a 10M-event log walk some 90,000 requests)
 * arrives in a transition that yields between paths instead of one long task.
 */
function DrawnPath({ className, draw }: { className: string; draw: () => string }) {
  return <path className={className} d={draw()} />;
}

/** Everything of the plot but the cursor: axis, size band and line, messages, replace marks. */
function CurveLayer({ curve, plot, marks }: { curve: CurveData; plot: Plot; marks: CurveMarks }) {
  const { width } = plot;
  const messagesMax = curve.buckets.reduce((max, b) => Math.max(max, b.messagesMax), 0);
  // With many replaces, their guide lines would hide the curve: keep only the markers.
  const guides = curve.replaces.length * 8 <= width;
  return (
    <>
      <line className="curve-axis" x1={plot.padX} x2={width - plot.padX} y1={HEIGHT - plot.padBottom} y2={HEIGHT - plot.padBottom} />
      <DrawnPath className="curve-band" draw={() => bandPath(plot, curve)} />
      <DrawnPath className="curve-line" draw={() => linePath(plot, curve, (b) => b.bytesMax, curve.bytesMax)} />
      {messagesMax > 0 ? (
        <DrawnPath className="curve-messages" draw={() => linePath(plot, curve, (b) => b.messagesMax, messagesMax)} />
      ) : null}
      {requestCount(curve) > 0 ? <DrawnPath className="curve-reused" draw={() => reusedPath(plot, curve)} /> : null}
      {(curve.requests?.cacheReads ?? 0) > 0 ? <DrawnPath className="curve-cache" draw={() => cacheReadPath(plot, curve)} /> : null}
      {marks.breaks.length > 0 ? (
        // The steps, seqs and counts of the marks, in x order, for tools and tests: the marks are
        // one path, not one element each.
        <g
          className="curve-breaks"
          data-steps={list(marks.breaks, (m) => m.item.step)}
          data-seqs={list(marks.breaks, (m) => m.item.seq)}
          data-counts={list(marks.breaks, (m) => m.count)}
        >
          <path d={marksPath(marks.breaks, breakShape(HEIGHT - plot.padBottom - 1))} />
          <path
            className="is-unexplained"
            d={marksPath(
              marks.breaks.filter((m) => m.item.brokenBy?.kind === 'other'),
              breakShape(HEIGHT - plot.padBottom - 1),
            )}
          />
        </g>
      ) : null}
      {marks.replaces.length > 0 ? (
        <g className="curve-replaces" data-steps={list(marks.replaces, (m) => m.item)} data-counts={list(marks.replaces, (m) => m.count)}>
          {guides ? (
            <path
              className="curve-replace-guides"
              d={marksPath(marks.replaces, (x) => `M${x} ${plot.padTop - 2} L${x} ${HEIGHT - plot.padBottom}`)}
            />
          ) : null}
          <path className="curve-replace-marks" d={marksPath(marks.replaces, replaceShape)} />
        </g>
      ) : null}
    </>
  );
}
