/**
 * The time track's spans on hand-made logs whose times are known: every lane's spans and
 * labels, the pairing by id and by citation, spans never closed, a clock that steps back, the
 * gaps over the threshold, the slowest spans, the windowing (items, then buckets when too many
 * for the width), and a log with no clock (said, not drawn).
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { GAP_THRESHOLD_MS, SLOWEST_PER_LANE, TIME_LANES, timeSpans } from '../../../src/core/analysis/timing';
import type { TimeSpans } from '../../../src/core/analysis/timing';
import { timeWindow } from '../../../src/core/analysis/timing-window';

const T0 = 1_785_400_000_000;
const HEADER = { type: 'session', version: 0, id: 'timing', createdAt: T0, delegationDepth: 0 };

type Ev = { type: string; at: number; data: unknown; surfaceOp?: unknown; sourceEventSeqs?: number[] };

function log(events: Ev[]): string {
  const lines = [JSON.stringify(HEADER)];
  events.forEach((e, seq) => {
    const { at, ...rest } = e;
    lines.push(JSON.stringify({ ...rest, seq, time: T0 + at }));
  });
  return `${lines.join('\n')}\n`;
}

const user = (at: number, text: string): Ev => ({
  type: 'user/message',
  at,
  data: { id: `u${at}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
  surfaceOp: 'append',
});
const chunk = (at: number, turn: number, step: number, chunk: unknown): Ev => ({
  type: 'assistant/chunk',
  at,
  data: { turn, step, chunk },
});
const assistant = (at: number, turn: number, step: number, cites: number[], blocks: unknown[]): Ev => ({
  type: 'assistant/message',
  at,
  data: {
    turn,
    step,
    message: { id: `a${at}`, role: 'assistant', content: blocks, source: { kind: 'model', provider: 'p', model: 'm1' } },
  },
  surfaceOp: 'append',
  sourceEventSeqs: cites,
});

/**
 * Turn 1 (0 – 12 s): step 1 streams 1 – 3 s, calls `bash` at 3.5 s, an approval asked at 3.6 s
 * and decided at 9.6 s, the result at 10 s; step 2 streams 10.5 – 11 s. Then 100 s idle, a
 * standalone compaction 112 – 115 s, and turn 2 (120 s) that never ends, with a step whose
 * tool call never gets a result.
 */
function sample(): Ev[] {
  return [
    { type: 'turn/start', at: 0, data: { turn: 1 } }, // 0
    { type: 'step/start', at: 500, data: { turn: 1, step: 1 } }, // 1
    user(600, 'run the tests please'), // 2
    chunk(1000, 1, 1, { type: 'block-start', index: 0, blockType: 'tool-call' }), // 3
    chunk(3000, 1, 1, { type: 'finish', reason: { kind: 'tool-calls' } }), // 4
    assistant(3100, 1, 1, [3, 4], [{ type: 'tool-call', id: 'c1', name: 'bash', arguments: '{"command":"npm test"}' }]), // 5
    { type: 'tool/call', at: 3500, data: { turn: 1, step: 1, callId: 'c1', name: 'bash', arguments: '{"command":"npm test"}' } }, // 6
    { type: 'approval/asked', at: 3600, data: { id: 'ap1', toolName: 'bash', callId: 'c1' } }, // 7
    { type: 'approval/decided', at: 9600, data: { id: 'ap1', outcome: 'allowed-once' } }, // 8
    {
      type: 'tool/result',
      at: 10_000,
      data: {
        turn: 1,
        step: 1,
        message: {
          id: 'r1',
          role: 'user',
          content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }],
          source: { kind: 'tool', callId: 'c1' },
        },
      },
      surfaceOp: 'append',
      sourceEventSeqs: [6],
    }, // 9
    { type: 'step/end', at: 10_100, data: { turn: 1, step: 1 } }, // 10
    { type: 'step/start', at: 10_200, data: { turn: 1, step: 2 } }, // 11
    chunk(10_500, 1, 2, { type: 'block-start', index: 0, blockType: 'text' }), // 12
    chunk(11_000, 1, 2, { type: 'finish', reason: { kind: 'stop' } }), // 13
    assistant(11_100, 1, 2, [12, 13], [{ type: 'text', text: 'done' }]), // 14
    { type: 'step/end', at: 11_200, data: { turn: 1, step: 2 } }, // 15
    { type: 'turn/end', at: 12_000, data: { turn: 1, reason: { kind: 'completed' } } }, // 16
    { type: 'compaction/start', at: 112_000, data: { compactionId: 'k1', turn: null } }, // 17
    { type: 'compaction/end', at: 115_000, data: { compactionId: 'k1', turn: null, error: 'summary not smaller' } }, // 18
    { type: 'turn/start', at: 120_000, data: { turn: 2 } }, // 19
    { type: 'step/start', at: 120_100, data: { turn: 2, step: 1 } }, // 20
    { type: 'tool/call', at: 121_000, data: { turn: 2, step: 1, callId: 'c2', name: 'read', arguments: '{}' } }, // 21
    // The clock steps back: this step ends before it started.
    { type: 'step/end', at: 120_050, data: { turn: 2, step: 1 } }, // 22
    user(125_000, 'and now?'), // 23
  ];
}

async function spansOf(text: string): Promise<TimeSpans> {
  const session = (await openBytes(new TextEncoder().encode(text), { name: 'timing.jsonl' })).sessions[0]!;
  expect(session.fold.error).toBeNull();
  return timeSpans(session);
}

const spansAsRows = (s: TimeSpans, lane: (typeof TIME_LANES)[number]) =>
  Array.from(s.lanes[lane].start, (start, i) => [
    start - T0,
    s.lanes[lane].end[i]! - T0,
    s.lanes[lane].seq[i],
    s.lanes[lane].endSeq[i],
    s.lanes[lane].label[i],
    s.lanes[lane].flags[i],
  ]);

describe('time track spans', () => {
  it('pairs every lane by its rule, with labels, on a log of known times', async () => {
    const s = await spansOf(log(sample()));
    expect(s.time.kind).toBe('clock');
    expect([s.from! - T0, s.to! - T0]).toEqual([0, 125_000]);
    expect(spansAsRows(s, 'turn')).toEqual([
      [0, 12_000, 0, 16, 'turn 1', 0],
      [120_000, 125_000, 19, -1, 'turn 2', 1],
    ]);
    expect(spansAsRows(s, 'step')).toEqual([
      [500, 10_100, 1, 10, 'turn 1 step 1', 0],
      [10_200, 11_200, 11, 15, 'turn 1 step 2', 0],
      [120_100, 120_100, 20, 22, 'turn 2 step 1', 2],
    ]);
    expect(spansAsRows(s, 'stream')).toEqual([
      [1000, 3000, 3, -1, 'model stream turn 1 step 1, m1', 0],
      [10_500, 11_000, 12, -1, 'model stream turn 1 step 2, m1', 0],
    ]);
    expect(spansAsRows(s, 'tool')).toEqual([
      [3500, 10_000, 6, 9, 'tool bash', 0],
      [121_000, 125_000, 21, -1, 'tool read', 1],
    ]);
    expect(spansAsRows(s, 'compaction')).toEqual([[112_000, 115_000, 17, 18, 'compaction (standalone) (failed)', 0]]);
    expect(spansAsRows(s, 'approval')).toEqual([[3600, 9600, 7, 8, 'approval bash: allowed-once', 0]]);
  });

  it(`marks idle stretches of ${GAP_THRESHOLD_MS} ms or more between consecutive events, and the slowest spans`, async () => {
    const s = await spansOf(log(sample()));
    expect(s.gapThresholdMs).toBe(30_000);
    expect(s.gaps.map((g) => [g.from - T0, g.to - T0, g.seqBefore, g.seqAfter])).toEqual([[12_000, 112_000, 16, 17]]);
    // Longest first; an open span is not "slow", nor an instant.
    expect(s.lanes.step.slowest).toEqual([0, 1]);
    expect(s.lanes.turn.slowest).toEqual([0]);
    expect(s.lanes.stream.slowest).toEqual([0, 1]);
    expect(SLOWEST_PER_LANE).toBe(3);
  });

  it('keeps the three slowest of many, longest first, ties in log order', async () => {
    const events: Ev[] = [];
    const lengths = [5, 40, 7, 40, 90, 1, 12];
    let at = 0;
    lengths.forEach((len, i) => {
      events.push({ type: 'step/start', at, data: { turn: 1, step: i + 1 } });
      at += len * 1000;
      events.push({ type: 'step/end', at, data: { turn: 1, step: i + 1 } });
      at += 1000;
    });
    const s = await spansOf(log(events));
    expect(s.lanes.step.slowest).toEqual([4, 1, 3]);
    expect(s.lanes.step.maxDuration).toBe(90_000);
  });

  it('sends the spans in view one by one, and their density when too many for the width', async () => {
    const s = await spansOf(log(sample()));
    const whole = timeWindow(s, null, null, 600);
    expect(whole.range).toEqual({ from: T0, to: T0 + 125_000 });
    const tool = whole.lanes.find((l) => l.lane === 'tool')!;
    expect(tool.items!.map((i) => [i.seq, i.open, i.slow])).toEqual([
      [6, false, true],
      [21, true, false],
    ]);
    // Zoomed on the first 11 s: the compaction and turn 2 are out of view.
    const zoomed = timeWindow(s, T0, T0 + 11_000, 600);
    expect(zoomed.lanes.find((l) => l.lane === 'turn')!.items!.map((i) => i.seq)).toEqual([0]);
    expect(zoomed.lanes.find((l) => l.lane === 'compaction')!.visible).toBe(0);
    expect(zoomed.gaps).toEqual([]);
    expect(timeWindow(s, T0 + 50_000, T0 + 60_000, 600).gaps).toHaveLength(1);

    // 400 steps of 1 s in a 200 px track: bucketed; every bucket counts the steps that touch it.
    const many: Ev[] = [];
    for (let i = 0; i < 400; i++) {
      many.push(
        { type: 'step/start', at: i * 2000, data: { turn: 1, step: i + 1 } },
        { type: 'step/end', at: i * 2000 + 1000, data: { turn: 1, step: i + 1 } },
      );
    }
    const dense = timeWindow(await spansOf(log(many)), null, null, 200);
    const steps = dense.lanes.find((l) => l.lane === 'step')!;
    expect(steps.items).toBeNull();
    expect(steps.visible).toBe(400);
    expect(steps.buckets!.length).toBeGreaterThan(0);
    expect(steps.buckets!.length).toBeLessThanOrEqual(Math.floor(200 / 3));
    // Each bucket spans ~12 s, holding ~6 steps.
    for (const b of steps.buckets!) expect(b.count).toBeGreaterThanOrEqual(5);
    expect(steps.slowest).toHaveLength(3);
  });

  it('draws nothing for a log whose times are all the same, and says why', async () => {
    const flat = sample().map((e) => ({ ...e, at: 0 }));
    const s = await spansOf(log(flat));
    expect(s.time.kind).toBe('synthetic');
    expect(s.time.note).toContain('same time');
    for (const lane of TIME_LANES) expect(s.lanes[lane].start).toHaveLength(0);
    const w = timeWindow(s, null, null, 600);
    expect(w.range).toBeNull();
    expect(w.lanes).toEqual([]);
  });
});
