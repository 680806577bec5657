import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContextCurve } from '../../src/ui/panels/curve/ContextCurve';
import { stepAt } from '../../src/ui/panels/curve/geometry';
import { generateReplaceHeavyLines } from '../../src/core/gen/shapes';
import { engineStoreWithText } from '../store/helpers';
import { renderFixture, renderWith } from './harness';

const region = () => screen.getByRole('region', { name: 'Context curve' });
/** A number list the curve's marks of one kind carry (`data-steps`, `data-counts`), in x order. */
const marked = (root: Element, kind: 'replaces' | 'breaks', what: 'steps' | 'counts' | 'seqs'): number[] =>
  (root.querySelector(`.curve-${kind}`)?.getAttribute(`data-${what}`) ?? '').split(' ').filter(Boolean).map(Number);
const slider = () => within(region()).getByRole('slider', { name: 'Cursor on the context curve' });
/**
 * The teaching sample, on the real engine: 54 steps, a tool-result prune applied at step 31 and
 * a compaction at step 44.
 */
const STEPS = 54;
/** x of a step in the 600 px plot jsdom falls back to (padding 8 px each side). */
const xFor = (step: number, steps = STEPS) => 8 + (584 * step) / steps;

describe('Context curve', () => {
  it('seed 9: 3,000 replaces are drawn as one mark per pixel column, whose counts add up to every replace', async () => {
    const text = [...generateReplaceHeavyLines({ seed: 9, appends: 200, replaces: 3000, textChars: 40 })].join('\n') + '\n';
    renderWith(<ContextCurve />, await engineStoreWithText(text, 'replaces.jsonl'));
    await waitFor(() => expect(region().querySelector('.curve-replaces')).toBeTruthy(), { timeout: 10_000 });
    const steps = marked(region(), 'replaces', 'steps');
    const counts = marked(region(), 'replaces', 'counts');
    // The 600 px plot jsdom falls back to has 584 px between its paddings.
    expect(steps.length).toBeLessThanOrEqual(585);
    expect(counts).toHaveLength(steps.length);
    expect(counts.reduce((n, c) => n + c, 0)).toBe(3000);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps[0]).toBe(201);
    // All of them are two elements: the group and its one path of triangles (no guides, too many).
    const group = region().querySelector('.curve-replaces')!;
    expect(group.querySelectorAll('*')).toHaveLength(1);
    expect(group.querySelector('.curve-replace-marks')!.getAttribute('d')!.match(/M/g)).toHaveLength(steps.length);
  });

  it('plots the size with a drop marked at each replace and the cursor as a value', async () => {
    const { client, store } = await renderFixture(<ContextCurve />);
    await waitFor(() => expect(slider().getAttribute('aria-valuenow')).toBe(String(STEPS)));
    const session = store.getState().load!.sessions[0]!.id;
    expect(client.callsTo('curve')[0]?.args).toEqual([{ session, buckets: 300 }]);
    expect(marked(region(), 'replaces', 'steps')).toEqual([31, 44]);
    // Few enough for a guide line each, in one path beside the triangles.
    expect(region().querySelector('.curve-replace-guides')!.getAttribute('d')!.match(/M/g)).toHaveLength(2);
    expect(region().querySelector('.curve-line')?.getAttribute('d')).toMatch(/^M8 /);
    expect(region().querySelector('.curve-band')?.getAttribute('d')).toMatch(/Z$/);
    expect(slider().getAttribute('aria-valuemax')).toBe(String(STEPS));
    expect(slider().getAttribute('aria-valuetext')).toMatch(/^step 54: \d+ B, ~\d+ tokens, 2 messages$/);
    expect(region().textContent).toContain('tokens estimated as ⌈characters of the derived message JSON ÷ 4⌉');
  });

  it('moves the cursor on click and with the keyboard', async () => {
    const { store } = await renderFixture(<ContextCurve />);
    await waitFor(() => expect(slider().getAttribute('aria-valuenow')).toBe(String(STEPS)));
    fireEvent.click(slider(), { clientX: xFor(31) });
    expect(store.getState().step).toBe(31);
    expect(slider().getAttribute('aria-valuenow')).toBe('31');
    const cursor = region().querySelector('.curve-cursor');
    expect(Number(cursor?.getAttribute('x1'))).toBeCloseTo(xFor(31), 5);
    slider().focus();
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    expect(store.getState().step).toBe(30);
    // A page is a tenth of the steps (5 of 54).
    fireEvent.keyDown(slider(), { key: 'PageUp' });
    expect(store.getState().step).toBe(35);
    fireEvent.keyDown(slider(), { key: 'Home' });
    expect(store.getState().step).toBe(0);
    fireEvent.keyDown(slider(), { key: 'End' });
    expect(store.getState().step).toBe(STEPS);
  });

  it('shows a tooltip with step, bytes and tokens under the pointer', async () => {
    const { store } = await renderFixture(<ContextCurve />);
    await waitFor(() => expect(slider()).toBeTruthy());
    fireEvent.mouseMove(slider(), { clientX: xFor(30) });
    const tip = within(region()).getByRole('tooltip');
    expect(tip.textContent).toMatch(/^step 30: 1.4 KiB, ~356 tokens, 5 messages$/);
    // Over a replace's mark, the tooltip names it (and the prefix break the replace caused there).
    fireEvent.mouseMove(slider(), { clientX: xFor(31) + 2 });
    const lines = within(region()).getByRole('tooltip').textContent.split('\n');
    expect(lines[0]).toMatch(/^step 31: /);
    expect(lines[1]).toMatch(/^✂ prefix break at request seq 31: the replace at seq 30 cut it/);
    expect(lines[2]).toBe('▼ replace at step 31');
    // Between marks, only the step.
    fireEvent.mouseMove(slider(), { clientX: xFor(38) });
    expect(within(region()).getByRole('tooltip').textContent).not.toContain('\n');
    fireEvent.mouseLeave(slider());
    expect(within(region()).queryByRole('tooltip')).toBeNull();
    act(() => store.getState().goTo(44));
    // The panel header reads the values at the cursor: after the compaction, fewer bytes.
    expect(region().textContent).toMatch(/step 44: 382 B, ~96 tokens, 1 message(?!s)/);
  });

  it('maps a point to a step, clamped to the plot', () => {
    const plot = { width: 600, height: 76, padX: 8, padTop: 12, padBottom: 4 };
    expect(stepAt(plot, STEPS, xFor(31))).toBe(31);
    expect(stepAt(plot, STEPS, -50)).toBe(0);
    expect(stepAt(plot, STEPS, 10_000)).toBe(STEPS);
  });
});
