import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { TwoViews } from '../../src/ui/panels/views/TwoViews';
import type { FakeEvent } from '../support/fake-client';
import { renderIdle, renderLoaded } from './harness';

const region = () => screen.getByRole('region', { name: 'Transcript and model view' });
const rows = () => [...region().querySelectorAll<HTMLElement>('.vw-row:not(.vw-loading)')];
const modelSeqs = () => rows().map((row) => Number(row.dataset.seq));
const transcriptOf = (row: HTMLElement) => [...row.querySelectorAll<HTMLElement>('.vw-transcript article')].map((a) => Number(a.dataset.seq));

describe('Two views', () => {
  it('is a labelled region, empty before a load and at step 0', async () => {
    renderIdle(<TwoViews />);
    expect(within(region()).getByText('No log loaded')).toBeTruthy();
  });

  it('aligns each model message with the transcript messages it stands for', async () => {
    const { store } = await renderLoaded(<TwoViews />);
    act(() => store.getState().goTo(17));
    await waitFor(() => expect(modelSeqs()).toEqual([2, 5, 7, 10, 15]));
    // Appends: both sides show the same message.
    expect(rows().map(transcriptOf)).toEqual([[2], [5], [7], [10], [15]]);
    expect(region().textContent).toContain('5 derived messages at step 17');
    act(() => store.getState().goTo(30));
    await waitFor(() => expect(modelSeqs()).toEqual([28, 24]));
    const [compaction, prune] = rows() as [HTMLElement, HTMLElement];
    // The nested compaction folds into one bracket: 6 transcript messages, chain 28 ⊃ 18.
    const span = within(compaction).getByRole('group', { name: 'Shadowed by 28: 6 messages' });
    expect(span.textContent).toMatch(/Chain:\s*28\s*⊃\s*contains\s*18/);
    expect(transcriptOf(compaction)).toEqual([2, 5, 7]); // collapsed: the first three
    fireEvent.click(within(span).getByRole('button', { name: 'Show all 6 messages' }));
    expect(transcriptOf(compaction)).toEqual([2, 5, 7, 10, 15, 20]);
    expect(within(span).getAllByText('shadowed')).toHaveLength(6); // labelled, not only dimmed
    expect(compaction.querySelector('.vw-model')?.textContent).toContain('stands for 6 transcript messages');
    fireEvent.click(within(span).getByRole('button', { name: 'Collapse' }));
    expect(transcriptOf(compaction)).toEqual([2, 5, 7]);
    // The prune: the original result on the left, the pruned copy on the right.
    expect(transcriptOf(prune)).toEqual([22]);
    expect(prune.querySelector('.vw-model')?.textContent).toContain('[pruned]');
    expect(prune.querySelector('.vw-transcript')?.textContent).toContain('a very long output');
  });

  it('links the shadowed span to its replacement and each message to its event', async () => {
    const { store } = await renderLoaded(<TwoViews />);
    await waitFor(() => expect(modelSeqs()).toEqual([28, 24]));
    const compaction = rows()[0] as HTMLElement;
    fireEvent.click(within(compaction).getByRole('button', { name: 'Select replacement 28' }));
    expect(store.getState().selectedSeq).toBe(28);
    fireEvent.click(within(compaction).getByRole('button', { name: 'nested replacement seq 18' }));
    expect(store.getState().selectedSeq).toBe(18);
    fireEvent.click(within(compaction).getByRole('button', { name: 'user/message seq 2' }));
    expect(store.getState().selectedSeq).toBe(2);
    await waitFor(() => expect(rows()[0]?.className).toContain('is-selected'));
    fireEvent.click(within(compaction).getAllByRole('button', { name: 'Inspect replace 28' })[0] as HTMLElement);
    expect(store.getState().replaceTarget).toBe(28);
  });

  it('renders tool calls and results as pairs, with arguments and reasoning collapsible', async () => {
    const events: FakeEvent[] = [
      { seq: 0, type: 'user/message', time: 0, data: { role: 'user', content: [{ type: 'text', text: 'list' }] }, surfaceOp: 'append' },
      {
        seq: 1,
        type: 'assistant/message',
        time: 1,
        data: {
          message: {
            role: 'assistant',
            content: [
              { type: 'reasoning', text: 'I should call ls.' },
              { type: 'tool-call', id: 'call-9', name: 'ls', arguments: '{"path":"src"}' },
            ],
          },
        },
        surfaceOp: 'append',
      },
      {
        seq: 2,
        type: 'tool/result',
        time: 2,
        data: { message: { role: 'user', content: [{ type: 'tool-result', toolCallId: 'call-9', isError: true, content: [{ type: 'text', text: 'no such dir' }] }] } },
        surfaceOp: 'append',
      },
    ];
    const { store } = await renderLoaded(<TwoViews />, { events });
    await waitFor(() => expect(modelSeqs()).toEqual([0, 1, 2]));
    const call = rows()[1]!.querySelector('.vw-model .blk-call') as HTMLElement;
    expect(call.textContent).toContain('tool call ls');
    expect(call.querySelector('details')?.open).toBe(false);
    expect(call.querySelector('summary')?.textContent).toContain('{"path":"src"}');
    fireEvent.click(within(call).getByRole('button', { name: 'result seq 2' }));
    expect(store.getState().selectedSeq).toBe(2);
    const result = rows()[2]!.querySelector('.vw-model .blk-result') as HTMLElement;
    expect(result.textContent).toContain('result of ls');
    expect(result.textContent).toContain('✕ error');
    expect(within(result).getByRole('button', { name: 'call seq 1' })).toBeTruthy();
    const reasoning = rows()[1]!.querySelector('.vw-model .blk-reasoning') as HTMLDetailsElement;
    expect(reasoning.open).toBe(false);
    expect(reasoning.querySelector('summary')?.textContent).toBe('Reasoning · 17 characters');
  });

  it('clips long text, and loads the full text of a block the engine clipped', async () => {
    const { store, client } = await renderLoaded(<TwoViews />, { blockClip: 10 });
    await waitFor(() => expect(modelSeqs()).toEqual([28, 24]));
    const model = rows()[0]!.querySelector('.vw-model') as HTMLElement;
    expect(model.textContent).toContain('Summary of');
    expect(model.textContent).not.toContain('Summary of everything');
    fireEvent.click(within(model).getByRole('button', { name: 'Load the full text from the log' }));
    await waitFor(() => expect(model.textContent).toContain('Summary of everything'));
    expect(client.callsTo('detail').at(-1)?.args).toEqual([0, 28, store.getState().step]);
  });

  it('clips text longer than the preview with a Show all control', async () => {
    const long = `${'word '.repeat(200)}END`;
    const events: FakeEvent[] = [{ seq: 0, type: 'user/message', time: 0, data: { role: 'user', content: [{ type: 'text', text: long }] }, surfaceOp: 'append' }];
    await renderLoaded(<TwoViews />, { events });
    await waitFor(() => expect(modelSeqs()).toEqual([0]));
    const model = rows()[0]!.querySelector('.vw-model') as HTMLElement;
    expect(model.textContent).not.toContain('END');
    fireEvent.click(within(model).getByRole('button', { name: 'Show all 1,003 characters' }));
    expect(model.textContent).toContain('END');
    fireEvent.click(within(model).getByRole('button', { name: 'Show less' }));
    expect(model.textContent).not.toContain('END');
  });

  it('renders untrusted text as text, never as HTML', async () => {
    const { store } = await renderLoaded(<TwoViews />);
    act(() => store.getState().goTo(17));
    await waitFor(() => expect(modelSeqs()).toContain(15));
    expect(region().textContent).toContain('now summarize <b>this</b>');
    expect(region().querySelector('.vw-row b.mono, .clipped b')).toBeNull();
    expect([...region().querySelectorAll('.clipped b')]).toHaveLength(0);
  });

  it('says the views are empty at step 0', async () => {
    const { store } = await renderLoaded(<TwoViews />);
    act(() => store.getState().goTo(0));
    await waitFor(() => expect(within(region()).getByText('No message at step 0')).toBeTruthy());
  });
});
