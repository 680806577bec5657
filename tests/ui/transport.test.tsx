import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { Transport } from '../../src/ui/panels/transport/Transport';
import { tickPositions } from '../../src/ui/panels/transport/Scrubber';
import { countAtOrBefore } from '../../src/ui/hooks/useReplaceSteps';
import { renderFixture } from './harness';

// The teaching sample on the real engine: 54 steps, replaces applied at steps 31 and 44.
const renderLoaded = (ui: Parameters<typeof renderFixture>[0]) => renderFixture(ui, 'teaching.jsonl');

const transport = () => screen.getByRole('region', { name: 'Transport' });
const button = (name: string) => within(transport()).getByRole('button', { name });

describe('Transport', () => {
  it('has the step buttons with their exact names', async () => {
    await renderLoaded(<Transport />);
    for (const name of ['Previous step', 'Next step', 'Previous replace', 'Next replace', 'Play', 'Go to start', 'Go to end']) {
      expect(button(name)).toBeTruthy();
    }
    // Play and pause are one toggle, not pressed while nothing plays.
    expect(within(transport()).queryByRole('button', { name: 'Pause' })).toBeNull();
    expect(button('Play').getAttribute('aria-pressed')).toBe('false');
  });

  it('steps, jumps between replaces and to both ends', async () => {
    const { store } = await renderLoaded(<Transport />);
    fireEvent.click(button('Go to start'));
    expect(store.getState().step).toBe(0);
    expect(button('Previous step').getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(button('Previous step'));
    expect(store.getState().step).toBe(0);
    fireEvent.click(button('Next step'));
    expect(store.getState().step).toBe(1);
    fireEvent.click(button('Next replace'));
    await waitFor(() => expect(store.getState().step).toBe(31));
    fireEvent.click(button('Next surface change'));
    await waitFor(() => expect(store.getState().step).toBe(40));
    fireEvent.click(button('Previous replace'));
    await waitFor(() => expect(store.getState().step).toBe(31));
    fireEvent.click(button('Go to end'));
    expect(store.getState().step).toBe(54);
    expect(transport().textContent).toContain('step 54 / 54');
  });

  it('plays and pauses at the chosen speed', async () => {
    const { store, scheduler } = await renderLoaded(<Transport />);
    fireEvent.change(within(transport()).getByRole('combobox', { name: 'Speed' }), { target: { value: '10' } });
    expect(store.getState().speed).toBe(10);
    fireEvent.click(button('Go to start'));
    fireEvent.click(button('Play'));
    expect(store.getState().playing).toBe(true);
    expect(button('Play').getAttribute('aria-pressed')).toBe('true');
    act(() => scheduler.advance(500));
    expect(store.getState().step).toBe(5);
    fireEvent.click(button('Play'));
    expect(button('Play').getAttribute('aria-pressed')).toBe('false');
    act(() => scheduler.advance(500));
    expect(store.getState().step).toBe(5);
    expect(store.getState().playing).toBe(false);
  });

  it('scrubs, and marks the replace steps on the scrubber', async () => {
    const { store, container } = await renderLoaded(<Transport />);
    const slider = within(transport()).getByRole('slider', { name: 'Step' });
    expect(slider.getAttribute('max')).toBe('54');
    fireEvent.change(slider, { target: { value: '12' } });
    expect(store.getState().step).toBe(12);
    await waitFor(() => expect(container.querySelector('.tick-marks')?.getAttribute('data-count')).toBe('2'));
    // One path for all of them: a vertical stroke per replace step, at its percent of the track.
    expect(container.querySelector('.tick-marks path')!.getAttribute('d')).toMatch(/^M[\d.]+ 0 V6 M[\d.]+ 0 V6$/);
    expect(tickPositions(Int32Array.of(19, 25, 29), 30).map(Math.round)).toEqual([63, 83, 97]);
    expect([0, 19, 24, 25, 30].map((k) => countAtOrBefore(Int32Array.of(19, 25, 29), k))).toEqual([0, 1, 1, 2, 3]);
  });

  it('jumps to a step or a seq', async () => {
    const { store } = await renderLoaded(<Transport />);
    fireEvent.change(within(transport()).getByRole('textbox', { name: 'Jump to step' }), { target: { value: '7' } });
    fireEvent.click(button('Go to step'));
    expect(store.getState().step).toBe(7);
    fireEvent.change(within(transport()).getByRole('textbox', { name: 'Jump to seq' }), { target: { value: '30' } });
    fireEvent.click(button('Go to seq'));
    expect(store.getState().step).toBe(31);
    expect(store.getState().selectedSeq).toBe(30);
  });

  it('explains invalid jump input instead of dropping it, and reads 1,000-style numbers', async () => {
    const { store } = await renderLoaded(<Transport />);
    const stepField = within(transport()).getByRole('textbox', { name: 'Jump to step' });
    fireEvent.change(stepField, { target: { value: 'abc' } });
    fireEvent.click(button('Go to step'));
    expect(within(transport()).getByRole('alert').textContent).toBe('“abc” is not a whole number.');
    expect(stepField.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(stepField, { target: { value: '99' } });
    fireEvent.click(button('Go to step'));
    expect(within(transport()).getByRole('alert').textContent).toBe('No step 99: steps here run from 0 to 54.');
    fireEvent.change(stepField, { target: { value: '0,012' } });
    fireEvent.click(button('Go to step'));
    expect(store.getState().step).toBe(12);
    expect(within(transport()).queryByRole('alert')).toBeNull();
  });
});

describe('parseJump', () => {
  it('accepts numbers as the readout writes them', async () => {
    const { parseJump } = await import('../../src/ui/panels/transport/JumpForm');
    expect(parseJump('777,778', 'seq', 0, 1_000_000)).toEqual({ value: 777778 });
    expect(parseJump(' 42 ', 'step', 0, 100)).toEqual({ value: 42 });
    expect(parseJump('', 'step', 0, 100)).toEqual({ error: 'Type a step number.' });
    expect(parseJump('1,2', 'seq', 0, 100)).toEqual({ error: '“1,2” is not a whole number.' });
    expect(parseJump('-3', 'seq', 0, 100)).toEqual({ error: '“-3” is not a whole number.' });
  });
});

describe('keyboard', () => {
  const key = (k: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(document.body, { key: k, ...init });

  it('steps with arrows and j/k, surface changes with shift, replaces with [ and ]', async () => {
    const { store } = await renderLoaded(<App />);
    key('Home');
    expect(store.getState().step).toBe(0);
    key('ArrowRight');
    key('j');
    expect(store.getState().step).toBe(2);
    key('k');
    expect(store.getState().step).toBe(1);
    key('ArrowRight', { shiftKey: true });
    await waitFor(() => expect(store.getState().step).toBe(3));
    key(']');
    await waitFor(() => expect(store.getState().step).toBe(31));
    key(']');
    await waitFor(() => expect(store.getState().step).toBe(44));
    key('[');
    await waitFor(() => expect(store.getState().step).toBe(31));
    key('End');
    expect(store.getState().step).toBe(54);
    key('ArrowLeft', { shiftKey: true });
    await waitFor(() => expect(store.getState().step).toBe(52)); // seq 51, the last surface event
  });

  it('space plays and pauses; / focuses search; g focuses the seq field; ? opens the sheet', async () => {
    const { store } = await renderLoaded(<App />);
    key('Home');
    key(' ');
    expect(store.getState().playing).toBe(true);
    key(' ');
    expect(store.getState().playing).toBe(false);
    key('/');
    expect(document.activeElement).toBe(screen.getByRole('searchbox', { name: 'Search events' }));
    // While typing, keys belong to the field.
    fireEvent.keyDown(document.activeElement as Element, { key: 'j' });
    expect(store.getState().step).toBe(0);
    (document.activeElement as HTMLElement).blur();
    key('g');
    expect(document.activeElement).toBe(screen.getByRole('textbox', { name: 'Jump to seq' }));
    (document.activeElement as HTMLElement).blur();
    key('?');
    const dialog = screen.getByRole('dialog', { name: 'Keyboard shortcuts' });
    expect(dialog.textContent).toContain('Next replace');
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
  });
});
