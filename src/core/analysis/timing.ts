/**
 * The time track's spans, computed once per session from the columns (type and time of every
 * event, `sourceEventSeqs`) and the model requests, parsing only the few event types that open
 * or close a span by id (turns, steps, tool calls, compactions, approvals — never the chunks):
 *
 * - turn: `turn/start` to `turn/end` (a start while one is open closes it there);
 * - step: `step/start` to `step/end` (closed too by the next step's start or the turn's end);
 * - stream: each model request, from its first `assistant/chunk` to its finish (`recorder.ts`);
 * - tool: `tool/call` to the first `tool/result` citing it (`sourceEventSeqs`);
 * - compaction: `compaction/start` to the `compaction/end` of the same `compactionId`;
 * - approval: `approval/asked` to the `approval/decided` of the same `id`.
 *
 * A span never closed ends at the log's last time (`open`); one whose end is earlier than its
 * start (the clock stepped back) is drawn as an instant (`clamped`). Gaps are idle stretches of
 * at least {@link GAP_THRESHOLD_MS} between consecutive events in log order. Only a session whose
 * times are a clock (`analyze/time.ts`) gets spans: synthetic or absent times are said, not drawn.
 */
import type { SessionAnalysis } from '../analyze/session';
import { sessionTimeFacts } from '../analyze/summary';
import type { TimeFacts } from '../analyze/time';
import { sourcesOf } from '../analyze/columns';

/** The lanes, top to bottom. */
export const TIME_LANES = ['turn', 'step', 'stream', 'tool', 'compaction', 'approval'] as const;
export type TimeLane = (typeof TIME_LANES)[number];

/** Idle time between consecutive events at least this long is a gap: 30 s. */
export const GAP_THRESHOLD_MS = 30_000;
/** The slowest spans marked per lane. */
export const SLOWEST_PER_LANE = 3;

/** Span flags. */
export const SPAN_OPEN = 1;
export const SPAN_CLAMPED = 2;

/** One lane's spans, in the order they opened. */
export interface LaneSpans {
  start: Float64Array;
  end: Float64Array;
  /** The seq of the event that opened each span, and of the one that closed it (-1: none). */
  seq: Int32Array;
  endSeq: Int32Array;
  flags: Uint8Array;
  label: string[];
  /** Indexes of the slowest spans (longest first; open spans not counted). */
  slowest: number[];
  /** The longest span's duration: a range query looks this far back of its start. */
  maxDuration: number;
}

/** An idle stretch: from the time of event `seqBefore` to that of `seqAfter`. */
export interface TimeGap {
  from: number;
  to: number;
  seqBefore: number;
  seqAfter: number;
}

/** Everything the time track draws of one session. */
export interface TimeSpans {
  time: TimeFacts;
  /** Earliest and latest time (null unless `time.kind` is `clock`). */
  from: number | null;
  to: number | null;
  lanes: Record<TimeLane, LaneSpans>;
  gaps: TimeGap[];
  gapThresholdMs: number;
}

class LaneBuilder {
  start: number[] = [];
  end: number[] = [];
  seq: number[] = [];
  endSeq: number[] = [];
  flags: number[] = [];
  label: string[] = [];

  open(t: number, seq: number, label: string): number {
    this.start.push(t);
    this.end.push(NaN);
    this.seq.push(seq);
    this.endSeq.push(-1);
    this.flags.push(0);
    this.label.push(label);
    return this.start.length - 1;
  }

  close(i: number, t: number, seq: number): void {
    if (!Number.isNaN(this.end[i])) return;
    const s = this.start[i]!;
    this.end[i] = Math.max(s, t);
    this.endSeq[i] = seq;
    if (t < s) this.flags[i] = this.flags[i]! | SPAN_CLAMPED;
  }

  finish(last: number): LaneSpans {
    const n = this.start.length;
    const durations: number[] = [];
    let maxDuration = 0;
    for (let i = 0; i < n; i++) {
      if (Number.isNaN(this.end[i])) {
        this.end[i] = Math.max(this.start[i]!, last);
        this.flags[i] = this.flags[i]! | SPAN_OPEN;
      } else durations.push(i);
      maxDuration = Math.max(maxDuration, this.end[i]! - this.start[i]!);
    }
    const d = (i: number): number => this.end[i]! - this.start[i]!;
    // Ties keep the earlier span first; instants are not "slow".
    const slowest = durations
      .filter((i) => d(i) > 0)
      .sort((a, b) => d(b) - d(a) || a - b)
      .slice(0, SLOWEST_PER_LANE);
    return {
      start: Float64Array.from(this.start),
      end: Float64Array.from(this.end),
      seq: Int32Array.from(this.seq),
      endSeq: Int32Array.from(this.endSeq),
      flags: Uint8Array.from(this.flags),
      label: this.label,
      slowest,
      maxDuration,
    };
  }
}

/* eslint-disable @typescript-eslint/no-explicit-any -- log content is untyped JSON, read defensively */
const dataOf = (e: any): any => (e !== null && typeof e === 'object' && e.data !== null && typeof e.data === 'object' ? e.data : {});
/* eslint-enable @typescript-eslint/no-explicit-any */

const str = (x: unknown): string => (typeof x === 'string' ? x : typeof x === 'number' ? String(x) : '?');

/** Types whose events are parsed (for an id or a label). */
const PARSED = new Set([
  'turn/start',
  'step/start',
  'tool/call',
  'compaction/start',
  'compaction/end',
  'approval/asked',
  'approval/decided',
]);

function read(session: SessionAnalysis, i: number): unknown {
  try {
    return session.log.event(i);
  } catch {
    return null;
  }
}

/** The spans of a session (see the module comment). */
export function timeSpans(session: SessionAnalysis): TimeSpans {
  const { columns, baseSeq } = session;
  const time = sessionTimeFacts(session);
  const lanes = Object.fromEntries(TIME_LANES.map((l) => [l, new LaneBuilder()])) as Record<TimeLane, LaneBuilder>;
  const gaps: TimeGap[] = [];
  if (time.kind !== 'clock') {
    const empty = Object.fromEntries(TIME_LANES.map((l) => [l, lanes[l].finish(0)])) as Record<TimeLane, LaneSpans>;
    return { time, from: null, to: null, lanes: empty, gaps, gapThresholdMs: GAP_THRESHOLD_MS };
  }
  let turn = -1;
  let step = -1;
  const toolOf = new Map<number, number>();
  const compactions = new Map<string, number>();
  const approvals = new Map<string, number>();
  let latest = -Infinity;
  let latestSeq = -1;
  let first = Infinity;
  const n = session.log.length;
  for (let i = 0; i < n; i++) {
    const t = columns.time[i]!;
    if (Number.isNaN(t)) continue;
    const seq = baseSeq + i;
    if (latestSeq >= 0 && t - latest >= GAP_THRESHOLD_MS) gaps.push({ from: latest, to: t, seqBefore: latestSeq, seqAfter: seq });
    if (t >= latest) {
      latest = t;
      latestSeq = seq;
    }
    first = Math.min(first, t);
    const type = columns.types[columns.typeId[i]!] as string;
    const data = PARSED.has(type) ? dataOf(read(session, i)) : null;
    switch (type) {
      case 'turn/start':
        if (step >= 0) lanes.step.close(step, t, seq);
        if (turn >= 0) lanes.turn.close(turn, t, seq);
        step = -1;
        turn = lanes.turn.open(t, seq, `turn ${str(data.turn)}`);
        break;
      case 'turn/end':
        if (step >= 0) lanes.step.close(step, t, seq);
        if (turn >= 0) lanes.turn.close(turn, t, seq);
        step = -1;
        turn = -1;
        break;
      case 'step/start':
        if (step >= 0) lanes.step.close(step, t, seq);
        step = lanes.step.open(t, seq, `turn ${str(data.turn)} step ${str(data.step)}`);
        break;
      case 'step/end':
        if (step >= 0) lanes.step.close(step, t, seq);
        step = -1;
        break;
      case 'tool/call':
        toolOf.set(seq, lanes.tool.open(t, seq, `tool ${str(data.name)}`));
        break;
      case 'tool/result':
        for (const cited of sourcesOf(columns, i)) {
          const at = toolOf.get(cited);
          if (at !== undefined) {
            lanes.tool.close(at, t, seq);
            toolOf.delete(cited);
          }
        }
        break;
      case 'compaction/start':
        compactions.set(
          str(data.compactionId),
          lanes.compaction.open(t, seq, data.turn === null ? 'compaction (standalone)' : `compaction in turn ${str(data.turn)}`),
        );
        break;
      case 'compaction/end': {
        const at = compactions.get(str(data.compactionId));
        if (at !== undefined) {
          lanes.compaction.close(at, t, seq);
          if (typeof data.error === 'string') lanes.compaction.label[at] += ' (failed)';
          compactions.delete(str(data.compactionId));
        }
        break;
      }
      case 'approval/asked':
        approvals.set(str(data.id), lanes.approval.open(t, seq, `approval ${str(data.toolName)}`));
        break;
      case 'approval/decided': {
        const at = approvals.get(str(data.id));
        if (at !== undefined) {
          lanes.approval.close(at, t, seq);
          lanes.approval.label[at] += `: ${str(data.outcome)}`;
          approvals.delete(str(data.id));
        }
        break;
      }
      default:
        break;
    }
  }
  for (const r of session.analytics?.requests ?? []) {
    if (r.time === null) continue;
    const label = `model stream turn ${r.turn ?? '?'} step ${r.step ?? '?'}${r.attempt > 1 ? ` (attempt ${r.attempt})` : ''}${r.model ? `, ${r.model}` : ''}`;
    const at = lanes.stream.open(r.time, r.seq, label);
    if (r.endTime !== null) lanes.stream.close(at, r.endTime, -1);
  }
  const done = Object.fromEntries(TIME_LANES.map((l) => [l, lanes[l].finish(latest)])) as Record<TimeLane, LaneSpans>;
  return { time, from: first, to: latest, lanes: done, gaps, gapThresholdMs: GAP_THRESHOLD_MS };
}
