import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { selectSessionId } from '../../src/store/selectors';
import { TwoViews } from '../../src/ui/panels/views/TwoViews';
import type { LogEvent } from '../support/test-engine';
import { renderFixture, renderIdle, renderLog } from './harness';

// The teaching sample on the real engine: at step 29 the surface is 2, 9, 11, 22, 28 (appends);
// the prune 30 replaces the tool result 11 (step 31); at the end (step 54) the checkpoint 43
// stands for 2, 9, 11, 22, 28 and 39, the prune nested inside it, and 51 follows.
const renderLoaded = (ui: Parameters<typeof renderFixture>[0]) => renderFixture(ui, 'teaching.jsonl');

const region = () => screen.getByRole('region', { name: 'Transcript and model view' });
const rows = () => [...region().querySelectorAll<HTMLElement>('.vw-row:not(.vw-loading)')];
const modelSeqs = () => rows().map((row) => Number(row.dataset.seq));
const transcriptOf = (row: HTMLElement) =>
  [...row.querySelectorAll<HTMLElement>('.vw-transcript article')].map((a) => Number(a.dataset.seq));
const userMessage = (seq: number, text: string): LogEvent => ({
  seq,
  type: 'user/message',
  time: seq,
  data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
  surfaceOp: 'append',
});

describe('Two views', () => {
  it('is a labelled region, empty before a load and at step 0', async () => {
    renderIdle(<TwoViews />);
    expect(within(region()).getByText('No log loaded')).toBeTruthy();
  });

  it('aligns each model message with the transcript messages it stands for', async () => {
    const { store } = await renderLoaded(<TwoViews />);
    act(() => store.getState().goTo(29));
    await waitFor(() => expect(modelSeqs()).toEqual([2, 9, 11, 22, 28]));
    // Appends: both sides show the same message.
    expect(rows().map(transcriptOf)).toEqual([[2], [9], [11], [22], [28]]);
    expect(region().textContent).toContain('5 derived messages at step 29');
    // The prune: the original result on the left, the pruned copy on the right.
    act(() => store.getState().goTo(31));
    await waitFor(() => expect(modelSeqs()).toEqual([2, 9, 30, 22, 28]));
    const prune = rows()[2] as HTMLElement;
    expect(transcriptOf(prune)).toEqual([11]);
    expect(prune.querySelector('.vw-model')?.textContent).toContain('[... tool result middle pruned ...]');
    expect(prune.querySelector('.vw-model')?.textContent).not.toContain('Air molecules');
    expect(prune.querySelector('.vw-transcript')?.textContent).toContain('Air molecules are much smaller');
    act(() => store.getState().goTo(54));
    await waitFor(() => expect(modelSeqs()).toEqual([43, 51]));
    const compaction = rows()[0] as HTMLElement;
    // The compaction over the prune folds into one bracket: 6 transcript messages, chain 43 ⊃ 30.
    const span = within(compaction).getByRole('group', { name: 'Shadowed by 43: 6 messages' });
    expect(span.textContent).toMatch(/Chain:\s*43\s*⊃\s*contains\s*30/);
    expect(transcriptOf(compaction)).toEqual([2, 9, 11]); // collapsed: the first three
    fireEvent.click(within(span).getByRole('button', { name: 'Show all 6 messages' }));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual([2, 9, 11, 22, 28, 39]));
    expect(within(span).getAllByText('shadowed')).toHaveLength(6); // labelled, not only dimmed
    expect(compaction.querySelector('.vw-model')?.textContent).toContain('stands for 6 transcript messages');
    fireEvent.click(within(span).getByRole('button', { name: 'Collapse' }));
    expect(transcriptOf(compaction)).toEqual([2, 9, 11]);
  });

  it('links the shadowed span to its replacement and each message to its event', async () => {
    const { store } = await renderLoaded(<TwoViews />);
    await waitFor(() => expect(modelSeqs()).toEqual([43, 51]));
    const compaction = rows()[0] as HTMLElement;
    fireEvent.click(within(compaction).getByRole('button', { name: 'Select replacement 43' }));
    expect(store.getState().selectedSeq).toBe(43);
    fireEvent.click(within(compaction).getByRole('button', { name: 'nested replacement seq 30' }));
    expect(store.getState().selectedSeq).toBe(30);
    fireEvent.click(within(compaction).getByRole('button', { name: 'user/message seq 2' }));
    expect(store.getState().selectedSeq).toBe(2);
    await waitFor(() => expect(rows()[0]?.className).toContain('is-selected'));
    fireEvent.click(within(compaction).getAllByRole('button', { name: 'Inspect replace 43' })[0] as HTMLElement);
    expect(store.getState().replaceTarget).toBe(43);
  });

  it('renders tool calls and results as pairs, with arguments and reasoning collapsible', async () => {
    const events: LogEvent[] = [
      userMessage(0, 'list'),
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
        data: {
          message: {
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: 'call-9', isError: true, content: [{ type: 'text', text: 'no such dir' }] }],
          },
        },
        surfaceOp: 'append',
      },
    ];
    const { store } = await renderLog(<TwoViews />, events);
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
    // The engine sends the first 4,000 characters of a block; the rest is asked for on demand.
    const long = `${'x'.repeat(4_500)} THE END`;
    const { store, client } = await renderLog(<TwoViews />, [userMessage(0, long)]);
    await waitFor(() => expect(modelSeqs()).toEqual([0]));
    const model = rows()[0]!.querySelector('.vw-model') as HTMLElement;
    // Past the preview: the whole of what arrived is shown, and it ends before the end.
    fireEvent.click(within(model).getByRole('button', { name: 'Show all 4,000+ characters' }));
    expect(model.textContent).toContain('xxxx');
    expect(model.textContent).not.toContain('THE END');
    fireEvent.click(within(model).getByRole('button', { name: 'Load the full text from the log' }));
    await waitFor(() => expect(model.textContent).toContain('THE END'));
    expect(client.callsTo('blockText').at(-1)?.args).toEqual([{ session: selectSessionId(store.getState()), seq: 0, block: 0 }]);
  });

  it('clips text longer than the preview with a Show all control', async () => {
    const long = `${'word '.repeat(200)}END`;
    await renderLog(<TwoViews />, [userMessage(0, long)]);
    await waitFor(() => expect(modelSeqs()).toEqual([0]));
    const model = rows()[0]!.querySelector('.vw-model') as HTMLElement;
    expect(model.textContent).not.toContain('END');
    fireEvent.click(within(model).getByRole('button', { name: 'Show all 1,003 characters' }));
    expect(model.textContent).toContain('END');
    fireEvent.click(within(model).getByRole('button', { name: 'Show less' }));
    expect(model.textContent).not.toContain('END');
  });

  it('renders untrusted text as text, never as HTML', async () => {
    const { store } = await renderLog(<TwoViews />, [userMessage(0, 'hello'), userMessage(1, 'now summarize <b>this</b>')]);
    act(() => store.getState().goTo(2));
    await waitFor(() => expect(modelSeqs()).toContain(1));
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

/**
 * A compaction standing for 250 messages (seqs 0…249, with a tool call at 60 answered at 61),
 * then one append after it: rows [250, 251] at the end.
 */
function bigSpan(): LogEvent[] {
  const events: LogEvent[] = [];
  for (let seq = 0; seq < 250; seq++) {
    if (seq === 60) {
      const message = { role: 'assistant', content: [{ type: 'tool-call', id: 'call-60', name: 'grep', arguments: '{}' }] };
      events.push({ seq, type: 'assistant/message', time: seq, data: { message }, surfaceOp: 'append' });
    } else if (seq === 61) {
      const message = {
        role: 'user',
        content: [{ type: 'tool-result', toolCallId: 'call-60', content: [{ type: 'text', text: 'match' }] }],
      };
      events.push({ seq, type: 'tool/result', time: seq, data: { message }, surfaceOp: 'append', sourceEventSeqs: [60] });
    } else events.push(userMessage(seq, `message ${seq}`));
  }
  events.push({
    ...userMessage(250, 'Summary of 250 messages'),
    surfaceOp: { op: 'replace', start: 0, end: 249 },
    sourceEventSeqs: events.map((e) => e.seq),
  });
  events.push(userMessage(251, 'next'));
  return events;
}

/** The transcript requests made, as (step, replacement, start, count). */
const transcriptCalls = (client: { callsTo(m: 'transcript'): { args: unknown[] }[] }) =>
  client.callsTo('transcript').map((c) => {
    const { step, seq, start, count } = c.args[0] as { step: number; seq: number; start: number; count: number };
    return [step, seq, start, count];
  });
const viewPlaceCalls = (client: { callsTo(m: 'viewPlace'): { args: unknown[] }[] }) =>
  client.callsTo('viewPlace').map((c) => {
    const { step, seq } = c.args[0] as { step: number; seq: number };
    return [step, seq];
  });

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

describe('Two views: a long shadowed span', () => {
  it('arrives with its preview and total only; the rest is fetched page by page as shown', async () => {
    const { store, client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    const compaction = rows()[0] as HTMLElement;
    const span = within(compaction).getByRole('group', { name: 'Shadowed by 250: 250 messages' });
    expect(compaction.querySelector('.vw-model')?.textContent).toContain('stands for 250 transcript messages');
    // Collapsed: the preview the row carried, and no transcript request.
    expect(transcriptOf(compaction)).toEqual([0, 1, 2]);
    expect(client.callsTo('transcript')).toEqual([]);
    const window = await client.views({ session: selectSessionId(store.getState()), step: 252, start: 0, count: 10 });
    expect(window.rows[0]).toMatchObject({ transcriptTotal: 250 });
    expect(window.rows[0]?.transcript.map((m) => m.seq)).toEqual([0, 1, 2]);

    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 103)));
    expect(transcriptCalls(client)).toEqual([[252, 250, 3, 100]]);
    // The tool call and its result, both fetched, are paired.
    const call = compaction.querySelector('article[data-seq="60"] .blk-call') as HTMLElement;
    expect(within(call).getByRole('button', { name: 'result seq 61' })).toBeTruthy();
    const result = compaction.querySelector('article[data-seq="61"] .blk-result') as HTMLElement;
    expect(result.textContent).toContain('result of grep');

    // Only the next page is asked for.
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (147 hidden)' }));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 203)));
    fireEvent.click(within(span).getByRole('button', { name: 'Show all 250 messages' }));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 250)));
    expect(transcriptCalls(client).map((c) => c[2])).toEqual([3, 103, 203]);
    expect(within(span).queryByRole('button', { name: /^Show/ })).toBeNull();

    // Collapsing needs nothing; expanding again at the same step reuses the pages.
    fireEvent.click(within(span).getByRole('button', { name: 'Collapse' }));
    expect(transcriptOf(compaction)).toEqual([0, 1, 2]);
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 103)));
    expect(client.callsTo('transcript')).toHaveLength(3);
  });

  it('brings a selected event into view, opening its span far enough to show it', async () => {
    const { store, client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    const compaction = rows()[0] as HTMLElement;
    act(() => store.getState().select(150));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 203)));
    expect(viewPlaceCalls(client)).toEqual([[252, 150]]);
    await waitFor(() => expect(compaction.querySelector('article[data-seq="150"]')?.className).toContain('is-selected'));
    // The row is marked as holding the selection, though its preview does not show it.
    await waitFor(() => expect(compaction.className).toContain('is-selected'));
    expect((rows()[1] as HTMLElement).className).not.toContain('is-selected');
    // A selection in the preview opens nothing more; the model row itself neither.
    act(() => store.getState().select(1));
    await waitFor(() => expect(client.callsTo('viewPlace')).toHaveLength(2));
    expect(transcriptOf(compaction)).toEqual(range(0, 203));
  });

  it('brings an event selected before it is on the surface into view once the cursor gets there', async () => {
    const { store, client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    act(() => store.getState().goTo(100));
    await waitFor(() => expect(region().textContent).toContain('100 derived messages at step 100'));
    act(() => store.getState().select(150));
    await waitFor(() => expect(client.callsTo('viewPlace').length).toBeGreaterThan(0));
    await new Promise((r) => setTimeout(r, 20));
    expect(rows()[0]?.className).not.toContain('is-selected');
    act(() => store.getState().goTo(252, { select: false }));
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    await waitFor(() => expect(viewPlaceCalls(client)).toContainEqual([252, 150]));
    const compaction = rows()[0] as HTMLElement;
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 203)));
    await waitFor(() => expect(compaction.className).toContain('is-selected'));
  });

  it('shows a loading state while a page is on its way', async () => {
    const { client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    const compaction = rows()[0] as HTMLElement;
    const span = within(compaction).getByRole('group', { name: 'Shadowed by 250: 250 messages' });
    client.hold();
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(client.callsTo('transcript')).toHaveLength(1));
    expect(within(span).getByRole('status').textContent).toBe('Loading messages…');
    expect(span.querySelector('.vw-span-body')?.getAttribute('aria-busy')).toBe('true');
    expect(transcriptOf(compaction)).toEqual([0, 1, 2]); // the preview stays
    // The controls count what is asked for, not what has arrived.
    expect(within(span).getByRole('button', { name: 'Show 100 more (147 hidden)' })).toBeTruthy();
    act(() => client.release());
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 103)));
    expect(within(span).queryByRole('status')).toBeNull();
  });

  it('shows a failed fetch in the span, keeps the preview, and fetches again when expanded again', async () => {
    const { client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    const compaction = rows()[0] as HTMLElement;
    const span = within(compaction).getByRole('group', { name: 'Shadowed by 250: 250 messages' });
    const transcript = vi.spyOn(client, 'transcript').mockRejectedValueOnce(new Error('the engine lost its place'));
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(span.textContent).toContain('Could not load the messages: the engine lost its place'));
    expect(transcriptOf(compaction)).toEqual([0, 1, 2]);
    expect(within(span).queryByRole('status')).toBeNull();
    fireEvent.click(within(span).getByRole('button', { name: 'Collapse' }));
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(transcriptOf(compaction)).toEqual(range(0, 103)));
    expect(span.textContent).not.toContain('Could not load');
    expect(transcript).toHaveBeenCalledTimes(2);
  });

  it('tries a failed fetch again once the step moves, once', async () => {
    const { store, client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    const span = within(rows()[0] as HTMLElement).getByRole('group', { name: 'Shadowed by 250: 250 messages' });
    const transcript = vi.spyOn(client, 'transcript').mockRejectedValueOnce(new Error('busy'));
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(span.textContent).toContain('Could not load the messages: busy'));
    await new Promise((r) => setTimeout(r, 20));
    expect(transcript).toHaveBeenCalledTimes(1); // not again at once
    act(() => store.getState().goTo(251));
    await waitFor(() => expect(transcriptOf(rows()[0] as HTMLElement)).toEqual(range(0, 103)));
    expect(transcript).toHaveBeenCalledTimes(2);
    act(() => store.getState().goTo(252));
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    expect(transcript).toHaveBeenCalledTimes(2); // nothing more once it worked
  });

  it("keeps an open span's pages across steps: a row's messages do not change while it is on the surface", async () => {
    const { store, client } = await renderLog(<TwoViews />, bigSpan());
    await waitFor(() => expect(modelSeqs()).toEqual([250, 251]));
    const span = within(rows()[0] as HTMLElement).getByRole('group', { name: 'Shadowed by 250: 250 messages' });
    fireEvent.click(within(span).getByRole('button', { name: 'Show 100 more (247 hidden)' }));
    await waitFor(() => expect(transcriptOf(rows()[0] as HTMLElement)).toEqual(range(0, 103)));
    act(() => store.getState().goTo(251));
    await waitFor(() => expect(modelSeqs()).toEqual([250]));
    await waitFor(() => expect(transcriptOf(rows()[0] as HTMLElement)).toEqual(range(0, 103)));
    // The next page is still fetched when asked for, at the current step.
    fireEvent.click(within(rows()[0] as HTMLElement).getByRole('button', { name: 'Show 100 more (147 hidden)' }));
    await waitFor(() => expect(transcriptOf(rows()[0] as HTMLElement)).toEqual(range(0, 203)));
    expect(transcriptCalls(client)).toEqual([
      [252, 250, 3, 100],
      [251, 250, 103, 100],
    ]);
  });
});
