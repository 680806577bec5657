import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import { App } from '../../src/ui/App';
import { engineStoreWith, makeEngineStore } from '../store/helpers';
import { renderWith } from './harness';

const playground = () => screen.getByRole('region', { name: 'Playground' });
const surface = () => screen.getByRole('region', { name: 'Surface' });
const surfaceSeqs = () =>
  [...surface().querySelectorAll<HTMLElement>('li[data-seq]')]
    .filter((li) => !li.closest('.sf-children'))
    .map((li) => Number(li.dataset.seq));
const offerButton = () => within(playground()).getByRole('button', { name: /^Offer event/ });
const chooseTemplate = (label: string) => fireEvent.change(within(playground()).getByLabelText('Template'), { target: { value: label } });

describe('Playground', () => {
  it('starts empty, appends from templates, refuses a bad candidate unchanged, undoes, redoes and exports', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const test = makeEngineStore({}, { download });
    renderWith(<App />, test);
    fireEvent.click(screen.getByRole('button', { name: 'Start empty' }));
    await waitFor(() => expect(playground()).toBeTruthy());
    expect(test.store.getState().view).toBe('playground');
    const sandbox = test.store.getState().sandbox!;

    fireEvent.change(within(playground()).getByLabelText('Text'), { target: { value: 'Hello <b>there</b>' } });
    fireEvent.click(offerButton());
    await waitFor(() => expect(playground().textContent).toContain('Accepted as seq 0.'));
    await waitFor(() => expect(surfaceSeqs()).toEqual([0]));
    expect(surface().textContent).toContain('Hello <b>there</b>');
    expect(surface().querySelector('b.mono + * b, .sf-preview b')).toBeNull();

    // A refused candidate: the exact rule message, and nothing changes.
    const before = { load: sandbox.getState().load, step: sandbox.getState().step, selected: sandbox.getState().selectedSeq };
    chooseTemplate('raw');
    fireEvent.change(within(playground()).getByLabelText(/^Event \(JSON/), {
      target: { value: '{"type":"user/message","data":{"role":"user","content":[]},"surfaceOp":{"op":"replace","start":99,"end":99}}' },
    });
    fireEvent.click(offerButton());
    const alert = await within(playground()).findByRole('alert');
    expect(within(alert).getByText('surface replace: start seq 99 not found in surface')).toBeTruthy();
    expect(alert.textContent).toContain('surface/replace-range');
    expect(alert.textContent).toContain('Refused by the fold');
    expect(sandbox.getState().load).toBe(before.load);
    expect(sandbox.getState().step).toBe(before.step);
    expect(sandbox.getState().selectedSeq).toBe(before.selected);
    expect(sandbox.getState().playground).toMatchObject({ nextSeq: 1, canUndo: true });
    expect(surfaceSeqs()).toEqual([0]);

    // Undo and redo.
    fireEvent.click(within(playground()).getByRole('button', { name: '↶ Undo' }));
    await waitFor(() => expect(within(surface()).getByText('The surface is empty at step 0')).toBeTruthy());
    expect(within(playground()).queryByRole('alert')).toBeNull();
    fireEvent.click(within(playground()).getByRole('button', { name: '↷ Redo' }));
    await waitFor(() => expect(surfaceSeqs()).toEqual([0]));

    // Export as session.jsonl.
    fireEvent.click(within(playground()).getByRole('button', { name: '⤓ Export session.jsonl' }));
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const file = download.mock.calls[0]![0];
    expect(file.name).toBe('playground.session.jsonl');
    expect(
      file.text
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).type),
    ).toEqual(['session', 'user/message']);
  });

  it('pairs a tool result with a pending call and logs log-only events by type', async () => {
    const test = makeEngineStore();
    renderWith(<App />, test);
    fireEvent.click(screen.getByRole('button', { name: 'Start empty' }));
    await waitFor(() => expect(playground()).toBeTruthy());
    chooseTemplate('log-only');
    expect(within(playground()).getByLabelText<HTMLTextAreaElement>('Data (JSON)').value).toBe('{"turn": 1}');
    fireEvent.click(offerButton());
    await waitFor(() => expect(playground().textContent).toContain('Accepted as seq 0.'));
    chooseTemplate('assistant-tools');
    expect(within(playground()).getByLabelText<HTMLInputElement>('Tool name 1').value).toBe('read_file');
    fireEvent.click(offerButton());
    await waitFor(() => expect(playground().textContent).toContain('Waiting for a result: read_file · call-1-0'));
    chooseTemplate('tool-result');
    expect(within(playground()).getByLabelText<HTMLSelectElement>('For call').value).toBe('call-1-0');
    fireEvent.change(within(playground()).getByLabelText('Result text'), { target: { value: '# README' } });
    fireEvent.click(offerButton());
    await waitFor(() => expect(playground().textContent).toContain('Accepted as seq 2.'));
    expect(playground().textContent).not.toContain('Waiting for a result');
    await waitFor(() => expect(surfaceSeqs()).toEqual([1, 2]));
    // Bad JSON data is refused before it reaches the fold.
    chooseTemplate('log-only');
    fireEvent.change(within(playground()).getByLabelText('Data (JSON)'), { target: { value: '{nope' } });
    fireEvent.click(offerButton());
    const refused = await within(playground()).findByRole('alert');
    expect(refused.textContent).toContain('playground/json');
    // Text that does not parse never reached the fold: the heading says so.
    expect(refused.textContent).toContain('Not valid JSON');
    expect(refused.textContent).not.toContain('Refused by the fold');
  });

  it('starts from the cursor of the loaded log and composes replaces from surface nodes', async () => {
    // The teaching sample at step 29: the question, the answer calling read_file, its result, the
    // second answer and the second question.
    const test = await engineStoreWith('teaching.jsonl');
    renderWith(<App />, test);
    act(() => test.store.getState().goTo(29));
    fireEvent.click(screen.getByRole('tab', { name: 'Playground' }));
    fireEvent.click(await screen.findByRole('button', { name: 'Start from step 29 of teaching.jsonl' }));
    await waitFor(() => expect(surfaceSeqs()).toEqual([2, 9, 11, 22, 28]));
    const pick = (seq: number, field: 'Start node' | 'End node' | 'Tool result') => {
      const node = [...surface().querySelectorAll<HTMLElement>('li[data-seq]')].find((li) => li.dataset.seq === String(seq)) as HTMLElement;
      fireEvent.click(within(node).getByRole('button', { name: new RegExp(`^${seq}`) }));
      fireEvent.click(within(playground()).getByRole('button', { name: `${field}: use the selected node (seq ${seq})` }));
    };
    // A prune of something that is not a tool result is refused with the fold's message.
    pick(9, 'Tool result');
    fireEvent.click(within(playground()).getByRole('button', { name: 'Offer prune' }));
    expect((await within(playground()).findByRole('alert')).textContent).toContain(
      'tool/result surface replacement must target a current tool/result',
    );
    pick(11, 'Tool result');
    fireEvent.click(within(playground()).getByRole('button', { name: 'Offer prune' }));
    await waitFor(() => expect(surfaceSeqs()).toEqual([2, 9, 29, 22, 28]));
    pick(9, 'Start node');
    pick(22, 'End node');
    fireEvent.click(within(playground()).getByRole('button', { name: 'Offer summary replace' }));
    await waitFor(() => expect(surfaceSeqs()).toEqual([2, 30, 28]));
    // The main log and its cursor are untouched.
    expect(test.store.getState().step).toBe(29);
    // The keyboard drives the playground's cursor while it is shown.
    const sandbox = test.store.getState().sandbox!;
    fireEvent.keyDown(document.body, { key: 'ArrowLeft' });
    expect(sandbox.getState().step).toBe(30);
    expect(test.store.getState().step).toBe(29);
    // Back to the log.
    fireEvent.click(screen.getByRole('tab', { name: 'Timeline' }));
    expect(screen.queryByRole('region', { name: 'Playground' })).toBeNull();
    expect(screen.getByRole('region', { name: 'Timeline' })).toBeTruthy();
  });
});
