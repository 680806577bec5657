/**
 * The time track on the real engine in process: its lanes hold the spans the core computes for
 * the same log, clicking a span or choosing it with the keyboard moves the cursor to the event
 * that opened it, zooming narrows the range the engine is asked for, a dense log is sent as
 * buckets, and a log with no clock says so instead of drawing. The tab beside the curve shows it.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { timeSpans } from '../../src/core/analysis/timing';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { CurveArea } from '../../src/ui/panels/curve/CurveArea';
import { TimeTrack } from '../../src/ui/panels/timetrack/TimeTrack';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderWith } from './harness';

async function opened(text: string) {
  const test = makeEngineStore();
  await test.store.getState().openSource({ kind: 'text', name: 'log.jsonl', text });
  const session = (await openBytes(new TextEncoder().encode(text), { name: 'log.jsonl' })).sessions[0]!;
  return { test, session, spans: timeSpans(session) };
}

const region = () => screen.getByRole('region', { name: 'Time track' });
const lane = (name: string) => region().querySelector(`.tt-lane[data-lane="${name}"]`)!;

async function drawn() {
  await waitFor(() => expect(region().querySelector('.tt-item')).toBeTruthy(), { timeout: 10_000 });
}

describe('Time track', () => {
  it('draws each lane with the spans the core computes, and a click moves the cursor to the span', async () => {
    const { test, spans, session } = await opened(fixtureText('teaching.jsonl'));
    renderWith(<TimeTrack />, test);
    await drawn();
    for (const name of ['turn', 'step', 'stream', 'tool'] as const) {
      const seqs = [...lane(name).querySelectorAll('.tt-item')].map((r) => Number(r.getAttribute('data-seq')));
      expect(seqs).toEqual(Array.from(spans.lanes[name].seq));
    }
    expect(spans.lanes.step.seq.length).toBeGreaterThan(1);
    act(() => test.store.getState().goTo(0));
    const second = spans.lanes.step.seq[1]!;
    fireEvent.click(lane('step').querySelector(`.tt-item[data-seq="${second}"]`)!);
    expect(test.store.getState().step).toBe(second - session.baseSeq + 1);
    expect(test.store.getState().selectedSeq).toBe(second);
    expect(region().querySelector('#tt-readout')!.textContent).toMatch(/^turn 1 step 2: /);
  });

  it('a seek moves the cursor line to the time of the event at the step, asking its time and not the lanes again', async () => {
    const { test, session } = await opened(fixtureText('teaching.jsonl'));
    renderWith(<TimeTrack />, test);
    await drawn();
    const cursorAt = () => Number(region().querySelector('.tt-cursor')?.getAttribute('x1'));
    // Asked twice once drawn: the lanes, and the overview strip that mounts with them (its
    // request may come a moment after the lanes are in the DOM).
    await waitFor(() => expect(test.client.callsTo('timeTrack')).toHaveLength(2));
    const lanesAsked = test.client.callsTo('timeTrack').length;
    const times = session.columns.time;
    // Two steps whose events are far apart in time: the line moves between them, left to right.
    const early = 3;
    const late = session.index.steps - 2;
    expect(times[late - 1]!).toBeGreaterThan(times[early - 1]!);
    // The session opens at its last step, whose line is already drawn: start from step 0 (no
    // line) so the line read after the first seek is that seek's, not the opening step's.
    act(() => test.store.getState().goTo(0));
    await waitFor(() => expect(region().querySelector('.tt-cursor')).toBeNull());
    act(() => test.store.getState().goTo(early));
    await waitFor(() => expect(region().querySelector('.tt-cursor')).toBeTruthy());
    const x0 = cursorAt();
    act(() => test.store.getState().goTo(late));
    await waitFor(() => expect(cursorAt()).toBeGreaterThan(x0));
    const timeAt = test.client.callsTo('timeAt');
    expect(timeAt.at(-1)?.args).toEqual([{ session: test.store.getState().load!.sessions[0]!.id, step: late }]);
    expect(test.client.callsTo('timeTrack').length).toBe(lanesAsked);
  });

  it('chooses spans with the arrow keys and moves the cursor with Enter', async () => {
    const { test, spans, session } = await opened(fixtureText('teaching.jsonl'));
    renderWith(<TimeTrack />, test);
    await drawn();
    const plot = within(region()).getByRole('group', { name: /Time track lanes/ });
    fireEvent.keyDown(plot, { key: 'ArrowDown' }); // the steps lane, its first span
    fireEvent.keyDown(plot, { key: 'ArrowRight' }); // its second
    fireEvent.keyDown(plot, { key: 'Enter' });
    const seq = spans.lanes.step.seq[1]!;
    expect(test.store.getState().step).toBe(seq - session.baseSeq + 1);
    expect(lane('step').querySelector('.tt-item.is-focused')!.getAttribute('data-seq')).toBe(String(seq));
  });

  it('zooms in around the middle and back out to the whole session', async () => {
    const { test, spans } = await opened(generateText({ seed: 3, events: 1500 }));
    renderWith(<TimeTrack />, test);
    await drawn();
    const whole = spans.to! - spans.from!;
    const asked = () =>
      test.client
        .callsTo('timeTrack')
        .map((c) => c.args[0] as { from: number | null; to: number | null })
        .filter((p) => p.from !== null);
    fireEvent.click(within(region()).getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(asked().length).toBeGreaterThan(0));
    const first = asked().at(-1)!;
    expect(first.to! - first.from!).toBeCloseTo(whole / 2, 0);
    expect(first.from! - spans.from!).toBeCloseTo(whole / 4, 0);
    fireEvent.click(within(region()).getByRole('button', { name: 'Zoom in' }));
    await waitFor(() => expect(asked().at(-1)!.to! - asked().at(-1)!.from!).toBeCloseTo(whole / 4, 0));
    // The turns drawn are those overlapping the range.
    const range = asked().at(-1)!;
    await waitFor(() => {
      const inView = Array.from(spans.lanes.turn.seq).filter(
        (_, i) => spans.lanes.turn.start[i]! <= range.to! && spans.lanes.turn.end[i]! >= range.from!,
      );
      expect([...lane('turn').querySelectorAll('.tt-item')].map((r) => Number(r.getAttribute('data-seq')))).toEqual(inView);
    });
    // The wheel zooms too (deltaY < 0: in).
    const before = asked().length;
    fireEvent.wheel(within(region()).getByRole('group', { name: /Time track lanes/ }), { deltaY: -100, clientX: 300 });
    await waitFor(() => expect(asked().length).toBeGreaterThan(before));
    expect(asked().at(-1)!.to! - asked().at(-1)!.from!).toBeCloseTo((whole / 4) * 0.8, 0);
    fireEvent.click(within(region()).getByRole('button', { name: 'Whole session' }));
    await waitFor(() => expect(test.client.callsTo('timeTrack').at(-1)!.args[0]).toMatchObject({ from: null, to: null }));
  });

  it('marks the gaps and the slowest spans, and names the threshold', async () => {
    const { test, spans } = await opened(generateText({ seed: 3, events: 1500 }));
    renderWith(<TimeTrack />, test);
    await drawn();
    expect(spans.gaps.length).toBeGreaterThan(0);
    await waitFor(() => expect(region().querySelectorAll('.tt-gap')).toHaveLength(spans.gaps.length));
    expect(region().textContent).toContain('idle ≥ 30.0 s');
    const slowTurns = [...lane('turn').querySelectorAll('.tt-item.is-slow')].map((r) => Number(r.getAttribute('data-seq')));
    expect(slowTurns.sort((a, b) => a - b)).toEqual(spans.lanes.turn.slowest.map((i) => spans.lanes.turn.seq[i]!).sort((a, b) => a - b));
    const slowest = within(region()).getAllByRole('button', { name: /^(turn|step|model stream|tool|compaction|approval).* \d/ });
    expect(slowest.length).toBeGreaterThan(0);
  });

  it('sends a dense log as buckets of a few pixels, not span by span', async () => {
    const { test, spans } = await opened(generateText({ seed: 4, events: 36_000 }));
    expect(spans.lanes.step.seq.length).toBeGreaterThan(496 / 2);
    renderWith(<TimeTrack />, test);
    await waitFor(() => expect(lane('step').querySelector('.tt-bucket')).toBeTruthy(), { timeout: 10_000 });
    const answer = await test.client.engine.timeTrack({
      session: test.store.getState().load!.sessions[0]!.id,
      from: null,
      to: null,
      width: 496,
    });
    const steps = answer.lanes.find((l) => l.lane === 'step')!;
    expect(steps.items).toBeNull();
    expect(steps.buckets!.length).toBeLessThanOrEqual(Math.floor(496 / 3));
    expect(lane('step').querySelectorAll('.tt-bucket')).toHaveLength(steps.buckets!.length);
    expect(lane('step').textContent).toContain(`(${spans.lanes.step.seq.length})`);
  });

  it('says there is no wall clock for a log whose times are all the same', async () => {
    const flat = fixtureText('teaching.jsonl').replace(/"time":\d+/g, '"time":0');
    const { test } = await opened(flat);
    renderWith(<TimeTrack />, test);
    const note = await within(region()).findByRole('note', {}, { timeout: 10_000 });
    expect(note.textContent).toContain('synthetic');
    expect(note.textContent).toContain('every event has the same time');
    expect(region().querySelector('svg')).toBeNull();
  });

  it('is a tab beside the context curve', async () => {
    const { test } = await opened(fixtureText('teaching.jsonl'));
    renderWith(<CurveArea />, test);
    expect(screen.getByRole('region', { name: 'Context curve' })).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Time track' }));
    expect(screen.queryByRole('region', { name: 'Context curve' })).toBeNull();
    await drawn();
  });
});
