import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import { Inspector } from '../../src/ui/panels/inspector/Inspector';
import { loadedTestStore } from '../store/helpers';
import { FAKE_EVENTS } from '../support/fake-client';
import { renderLoaded, renderWith } from './harness';

const inspector = () => screen.getByRole('region', { name: 'Inspector' });

describe('Inspector', () => {
  it('says what to do when nothing is selected', async () => {
    await renderLoaded(<Inspector />);
    expect(within(inspector()).getByText('Nothing selected')).toBeTruthy();
  });

  it('shows the event, where it is, its state and its relations as links', async () => {
    const { store } = await renderLoaded(<Inspector />);
    act(() => store.getState().select(18));
    // Wait for the detail itself, not the "Loading seq 18…" placeholder (the inspector follows a moment later).
    await waitFor(() => expect(inspector().textContent).toContain('line 20 · byte 2,160'));
    const text = inspector().textContent ?? '';
    expect(text).toContain('user/message');
    expect(text).toContain('shadowed');
    expect(text).toContain('line 20 · byte 2,160');
    const sources = within(inspector()).getAllByRole('button', { name: /^sources seq/ });
    expect(sources.map((b) => b.textContent)).toEqual(['16', '17', '2', '5', '7', '10']);
    expect(within(inspector()).getByRole('button', { name: 'replaced by seq 28' })).toBeTruthy();
    expect(within(inspector()).getAllByRole('button', { name: /^replaces seq/ }).map((b) => b.textContent)).toEqual(['2', '5', '7', '10']);
    fireEvent.click(within(inspector()).getByRole('button', { name: 'sources seq 16' }));
    expect(store.getState().selectedSeq).toBe(16);
  });

  it('links "cited by" and the replaced-by chain', async () => {
    const { store } = await renderLoaded(<Inspector />);
    act(() => store.getState().select(2));
    // Wait for the detail itself, not the "Loading seq 2…" placeholder.
    await waitFor(() => expect(within(inspector()).getByRole('button', { name: 'cited by seq 18' })).toBeTruthy());
    const chain = within(inspector()).getAllByRole('button', { name: /^replaced by seq/ }).map((b) => b.textContent);
    expect(chain).toEqual(['18', '28']);
    fireEvent.click(within(inspector()).getByRole('button', { name: 'replaced by seq 28' }));
    expect(store.getState().selectedSeq).toBe(28);
  });

  it('renders the event as a JSON tree of text only', async () => {
    const { store } = await renderLoaded(<Inspector />);
    act(() => store.getState().select(15));
    await waitFor(() => expect(within(inspector()).getByRole('tree', { name: 'event as JSON' })).toBeTruthy());
    const tree = within(inspector()).getByRole('tree');
    fireEvent.click(within(tree).getByRole('button', { name: 'Expand 0' }));
    expect(tree.textContent).toContain('"now summarize <b>this</b>"');
    expect(tree.querySelector('b')).toBeNull();
    fireEvent.click(within(tree).getByRole('button', { name: 'Collapse data' }));
    expect(tree.textContent).not.toContain('now summarize');
  });

  it('says when an event arrived clipped, how much of it, and saves the whole of it', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    // The fake clips raw lines over 100 characters, as the engine clips those over ~1 MB.
    const test = await loadedTestStore({ detailRawLimit: 100 }, { download });
    renderWith(<Inspector />, test);
    act(() => test.store.getState().select(15));
    const notice = await waitFor(() => within(inspector()).getByRole('note', { name: 'Clipped event' }));
    const length = JSON.stringify(FAKE_EVENTS[15]).length;
    expect(notice.textContent).toContain(`clipped: showing 100 of ${length} characters of this event's raw line`);
    fireEvent.click(within(inspector()).getByText('Raw line'));
    expect(inspector().textContent).toContain(`clipped: showing 100 of ${length} characters`);
    fireEvent.click(within(notice).getByRole('button', { name: /Save full event/ }));
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const file = download.mock.calls[0]![0];
    expect(file.name).toBe('fake-0.event-15.jsonl');
    expect(JSON.parse(file.text)).toMatchObject({ seq: 15, type: 'user/message' });
    expect(test.client.callsTo('exportEvent').at(-1)?.args).toEqual([0, 15]);
  });

  it('states one figure for a clipped event, the one the raw pane shows, when more arrived than it renders', async () => {
    // 25,000 characters arrive; the raw pane renders its first 20,000, and both say so.
    const long = FAKE_EVENTS.map((e) => (e.seq === 15 ? { ...e, data: { role: 'user', content: [{ type: 'text', text: 'y'.repeat(40_000) }] } } : e));
    const test = await loadedTestStore({ events: long, detailRawLimit: 25_000 });
    renderWith(<Inspector />, test);
    act(() => test.store.getState().select(15));
    const notice = await waitFor(() => within(inspector()).getByRole('note', { name: 'Clipped event' }));
    const length = JSON.stringify(long[15]).length;
    expect(notice.textContent).toContain(`clipped: showing 20,000 of ${length.toLocaleString('en-US')} characters of this event's raw line`);
    fireEvent.click(within(inspector()).getByText('Raw line'));
    const pane = inspector().querySelector('details.raw') as HTMLElement;
    expect(pane.textContent).toContain(`clipped: showing 20,000 of ${length.toLocaleString('en-US')} characters`);
    expect(pane.querySelector('pre')?.textContent).toHaveLength(20_000 + 1);
  });

  it('shows no clipped notice for an event sent whole', async () => {
    const { store } = await renderLoaded(<Inspector />);
    act(() => store.getState().select(15));
    await waitFor(() => expect(within(inspector()).getByRole('tree', { name: 'event as JSON' })).toBeTruthy());
    expect(within(inspector()).queryByRole('note', { name: 'Clipped event' })).toBeNull();
  });
});
