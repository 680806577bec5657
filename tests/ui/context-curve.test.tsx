import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ContextCurve } from '../../src/ui/panels/curve/ContextCurve';
import { stepAt } from '../../src/ui/panels/curve/geometry';
import { renderLoaded } from './harness';

const region = () => screen.getByRole('region', { name: 'Context curve' });
const slider = () => within(region()).getByRole('slider', { name: 'Cursor on the context curve' });
/** x of a step in the 600 px plot jsdom falls back to (padding 8 px each side). */
const xFor = (step: number, steps = 30) => 8 + (584 * step) / steps;

describe('Context curve', () => {
  it('plots the size with a drop marked at each replace and the cursor as a value', async () => {
    const { client } = await renderLoaded(<ContextCurve />);
    await waitFor(() => expect(slider().getAttribute('aria-valuenow')).toBe('30'));
    expect(client.callsTo('curve')[0]?.args).toEqual([0, 300]);
    const marks = [...region().querySelectorAll('.curve-replace')].map((g) => Number(g.getAttribute('data-step')));
    expect(marks).toEqual([19, 25, 29]);
    expect(region().querySelector('.curve-line')?.getAttribute('d')).toMatch(/^M8 /);
    expect(region().querySelector('.curve-band')?.getAttribute('d')).toMatch(/Z$/);
    expect(slider().getAttribute('aria-valuemax')).toBe('30');
    expect(slider().getAttribute('aria-valuetext')).toMatch(/^step 30: \d+ B, ~\d+ tokens, 2 messages$/);
    expect(region().textContent).toContain('tokens estimated as ⌈characters of the derived message JSON ÷ 4⌉');
  });

  it('moves the cursor on click and with the keyboard', async () => {
    const { store } = await renderLoaded(<ContextCurve />);
    await waitFor(() => expect(slider().getAttribute('aria-valuenow')).toBe('30'));
    fireEvent.click(slider(), { clientX: xFor(19) });
    expect(store.getState().step).toBe(19);
    expect(slider().getAttribute('aria-valuenow')).toBe('19');
    const cursor = region().querySelector('.curve-cursor');
    expect(Number(cursor?.getAttribute('x1'))).toBeCloseTo(xFor(19), 5);
    slider().focus();
    fireEvent.keyDown(slider(), { key: 'ArrowLeft' });
    expect(store.getState().step).toBe(18);
    fireEvent.keyDown(slider(), { key: 'PageUp' });
    expect(store.getState().step).toBe(21);
    fireEvent.keyDown(slider(), { key: 'Home' });
    expect(store.getState().step).toBe(0);
    fireEvent.keyDown(slider(), { key: 'End' });
    expect(store.getState().step).toBe(30);
  });

  it('shows a tooltip with step, bytes and tokens under the pointer', async () => {
    const { store } = await renderLoaded(<ContextCurve />);
    await waitFor(() => expect(slider()).toBeTruthy());
    fireEvent.mouseMove(slider(), { clientX: xFor(18) });
    const tip = within(region()).getByRole('tooltip');
    expect(tip.textContent).toMatch(/^step 18: \d+ B, ~\d+ tokens, 5 messages$/);
    fireEvent.mouseLeave(slider());
    expect(within(region()).queryByRole('tooltip')).toBeNull();
    act(() => store.getState().goTo(19));
    // The panel header reads the values at the cursor: after the compaction, fewer bytes.
    expect(region().textContent).toMatch(/step 19: \d+ B, ~\d+ tokens, 2 messages/);
  });

  it('maps a point to a step, clamped to the plot', () => {
    const plot = { width: 600, height: 76, padX: 8, padTop: 12, padBottom: 4 };
    expect(stepAt(plot, 30, xFor(19))).toBe(19);
    expect(stepAt(plot, 30, -50)).toBe(0);
    expect(stepAt(plot, 30, 10_000)).toBe(30);
  });
});
