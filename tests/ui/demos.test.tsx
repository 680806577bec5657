import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { makeEngineStore } from '../store/helpers';
import { renderWith } from './harness';

/** The app on the real engine, nothing loaded: the demos are the engine's own. */
const renderIdle = (ui: Parameters<typeof renderWith>[0]) => renderWith(ui, makeEngineStore());

const narration = () => screen.getByRole('region', { name: 'Narration' });

describe('Guided demos', () => {
  it('are listed on the start screen; opening one narrates the step at the cursor', async () => {
    const { store, client, scheduler } = renderIdle(<App />);
    const card = await screen.findByRole('region', { name: 'Guided demos' });
    fireEvent.click(await within(card).findByRole('button', { name: 'A summarizing compaction' }));
    await waitFor(() => expect(store.getState().status).toBe('ready'));
    expect(client.callsTo('open').at(-1)?.args[0]).toEqual({ kind: 'demo', id: 'compaction' });
    expect(store.getState().step).toBe(0);
    // The engine's compaction demo: 38 events, six notes.
    expect(narration().textContent).toContain('note 1/6 · step 0');
    expect(narration().textContent).toContain('A compaction replaces a range of surface nodes with one checkpoint message');
    fireEvent.click(within(narration()).getByRole('button', { name: '‹ Previous note' }));
    expect(store.getState().step).toBe(0);
    fireEvent.click(within(narration()).getByRole('button', { name: 'Next note ›' }));
    expect(store.getState().step).toBe(26);
    expect(narration().textContent).toContain('compaction/start opens the bracket (log-only).');
    // Play as usual: the narration follows the cursor.
    act(() => store.getState().setSpeed(1000));
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    act(() => scheduler.advance(5_000));
    expect(store.getState().step).toBe(38);
    expect(narration().textContent).toContain('note 6/6 · step 36');
    expect(narration().textContent).toContain('New messages append after the checkpoint.');
    expect(within(narration()).getByRole('button', { name: 'Next note ›' }).getAttribute('aria-disabled')).toBe('true');
    fireEvent.click(within(narration()).getByRole('button', { name: '‹ Previous note' }));
    expect(store.getState().step).toBe(29);
    expect(narration().textContent).toContain('compaction/end closes the bracket.');
  });

  it('open from the Demos menu in the header', async () => {
    const { store } = renderIdle(<App />);
    const menu = screen.getByRole('button', { name: 'Demos' });
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(menu);
    expect(menu.getAttribute('aria-expanded')).toBe('true');
    const list = screen.getByRole('list', { name: 'Guided demos' });
    fireEvent.click(await within(list).findByRole('button', { name: /A basic append flow/ }));
    expect(menu.getAttribute('aria-expanded')).toBe('false');
    await waitFor(() => expect(store.getState().activeDemo?.id).toBe('append-flow'));
    expect(narration().textContent).toContain('Every surface event appends at the tail, so the surface grows in log order.');
  });

  it('has no narration for an ordinary log', async () => {
    const { store } = renderIdle(<App />);
    await act(() => store.getState().openSource({ kind: 'text', name: 'x.jsonl', text: '{}' }));
    expect(screen.queryByRole('region', { name: 'Narration' })).toBeNull();
  });
});
