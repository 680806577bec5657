import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import { Inspector } from '../../src/ui/panels/inspector/Inspector';
import { makeEngineStore } from '../store/helpers';
import { renderFixture, renderWith } from './harness';

// The teaching sample on the real engine: the prune 30 replaced the tool result 11 (step 31),
// and the compaction 43 replaced 2…39, the prune among them (step 44).

const inspector = () => screen.getByRole('region', { name: 'Inspector' });

const HEADER = '{"type":"session","version":0,"id":"inspect","createdAt":0,"delegationDepth":0}';
const userLine = (seq: number, text: string) =>
  JSON.stringify({
    type: 'user/message',
    seq,
    time: 0,
    data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
    surfaceOp: 'append',
  });

/** A store on the real engine with a small log of user messages opened. */
async function withLog(texts: string[], deps: Parameters<typeof makeEngineStore>[1] = {}) {
  const test = makeEngineStore({}, deps);
  await test.store
    .getState()
    .openSource({ kind: 'text', name: 'inspect.jsonl', text: [HEADER, ...texts.map((t, i) => userLine(i, t)), ''].join('\n') });
  return test;
}

describe('Inspector', () => {
  it('says what to do when nothing is selected', async () => {
    await renderFixture(<Inspector />);
    expect(within(inspector()).getByText('Nothing selected')).toBeTruthy();
  });

  it('shows the event, where it is, its state and its relations as links', async () => {
    const { store } = await renderFixture(<Inspector />);
    act(() => store.getState().select(30));
    // Wait for the detail itself, not the "Loading seq 30…" placeholder (the inspector follows a moment later).
    await waitFor(() => expect(inspector().textContent).toContain('line 32 · byte 5,614'));
    const text = inspector().textContent ?? '';
    expect(text).toContain('tool/result');
    expect(text).toContain('shadowed');
    const sources = within(inspector()).getAllByRole('button', { name: /^sources seq/ });
    expect(sources.map((b) => b.textContent)).toEqual(['11']);
    expect(within(inspector()).getByRole('button', { name: 'replaced by seq 43' })).toBeTruthy();
    expect(
      within(inspector())
        .getAllByRole('button', { name: /^replaces seq/ })
        .map((b) => b.textContent),
    ).toEqual(['11']);
    fireEvent.click(within(inspector()).getByRole('button', { name: 'sources seq 11' }));
    expect(store.getState().selectedSeq).toBe(11);
  });

  it('links "cited by" and the replaced-by chain', async () => {
    const { store } = await renderFixture(<Inspector />);
    act(() => store.getState().select(11));
    // Wait for the detail itself, not the "Loading seq 11…" placeholder.
    await waitFor(() => expect(within(inspector()).getByRole('button', { name: 'cited by seq 30' })).toBeTruthy());
    const chain = within(inspector())
      .getAllByRole('button', { name: /^replaced by seq/ })
      .map((b) => b.textContent);
    expect(chain).toEqual(['30', '43']);
    fireEvent.click(within(inspector()).getByRole('button', { name: 'replaced by seq 43' }));
    expect(store.getState().selectedSeq).toBe(43);
  });

  it('renders the event as a JSON tree of text only', async () => {
    const test = await withLog(['hello', 'now summarize <b>this</b>']);
    renderWith(<Inspector />, test);
    act(() => test.store.getState().select(1));
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
    // The engine sends the first 20,000 characters of a longer raw line.
    const long = 'y'.repeat(30_000);
    const test = await withLog(['hello', long], { download });
    renderWith(<Inspector />, test);
    act(() => test.store.getState().select(1));
    const notice = await waitFor(() => within(inspector()).getByRole('note', { name: 'Clipped event' }));
    const length = userLine(1, long).length.toLocaleString('en-US');
    expect(notice.textContent).toContain(`clipped: showing 20,000 of ${length} characters of this event's raw line`);
    fireEvent.click(within(inspector()).getByText('Raw line'));
    expect(inspector().textContent).toContain(`clipped: showing 20,000 of ${length} characters`);
    fireEvent.click(within(notice).getByRole('button', { name: /Save full event/ }));
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const file = download.mock.calls[0]![0];
    expect(file.name).toBe('inspect.event-1.jsonl');
    expect(JSON.parse(file.text)).toMatchObject({ seq: 1, type: 'user/message' });
    const session = test.store.getState().load!.sessions[0]!.id;
    expect(test.client.callsTo('exportEvent').at(-1)?.args).toEqual([{ session, seq: 1 }]);
  });

  it('states one figure for a clipped event, the one the raw pane shows, and renders only what arrived', async () => {
    // 40,000 characters of text: the engine sends the first 20,000 of the raw line, the pane renders them.
    const long = 'y'.repeat(40_000);
    const test = await withLog(['hello', long]);
    renderWith(<Inspector />, test);
    act(() => test.store.getState().select(1));
    const notice = await waitFor(() => within(inspector()).getByRole('note', { name: 'Clipped event' }));
    const length = userLine(1, long).length.toLocaleString('en-US');
    expect(notice.textContent).toContain(`clipped: showing 20,000 of ${length} characters of this event's raw line`);
    fireEvent.click(within(inspector()).getByText('Raw line'));
    const pane = inspector().querySelector('details.raw') as HTMLElement;
    expect(pane.textContent).toContain(`clipped: showing 20,000 of ${length} characters`);
    expect(pane.querySelector('pre')?.textContent).toHaveLength(20_000 + 1);
  });

  it('shows no clipped notice for an event sent whole', async () => {
    const { store } = await renderFixture(<Inspector />);
    act(() => store.getState().select(30));
    await waitFor(() => expect(within(inspector()).getByRole('tree', { name: 'event as JSON' })).toBeTruthy());
    expect(within(inspector()).queryByRole('note', { name: 'Clipped event' })).toBeNull();
  });
});
