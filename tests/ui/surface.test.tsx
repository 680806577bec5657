import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Surface } from '../../src/ui/panels/surface/Surface';
import { makeEngineStore } from '../store/helpers';
import { renderFixture, renderIdle, renderWith } from './harness';

// The teaching sample on the real engine: at its end (step 54) the compaction 43 and the answer
// 51; 43 replaced 2…39 at step 44, among them the prune 30, which replaced 11 at step 31.

const surface = () => screen.getByRole('region', { name: 'Surface' });
const items = () =>
  within(surface())
    .queryAllByRole('listitem')
    .filter((li) => li.getAttribute('aria-busy') !== 'true');
const seqs = () => items().map((li) => Number(li.getAttribute('data-seq')));

describe('Surface', () => {
  it('is a labelled region, empty before a load', () => {
    renderIdle(<Surface />);
    expect(within(surface()).getByText('No log loaded')).toBeTruthy();
  });

  it('lists the nodes at the cursor as list items, with counts and what the step changed', async () => {
    const { store } = await renderFixture(<Surface />);
    await waitFor(() => expect(seqs()).toEqual([43, 51]));
    expect(surface().textContent).toContain('2 nodes');
    expect(surface().textContent).toContain('generation 2');
    expect(surface().textContent).toContain('turn/end 53 is log-only');
    act(() => store.getState().goTo(44));
    await waitFor(() => expect(seqs()).toEqual([43]));
    expect(surface().textContent).toContain('replaced 2…39 (6 nodes) with 43');
    expect(items()[0]?.textContent).toContain('replaced 6');
  });

  it('shows an empty state at step 0', async () => {
    const { store } = await renderFixture(<Surface />);
    act(() => store.getState().goTo(0));
    await waitFor(() => expect(within(surface()).getByText('The surface is empty at step 0')).toBeTruthy());
  });

  it('expands replacement nodes to show what they shadowed, recursively', async () => {
    await renderFixture(<Surface />);
    await waitFor(() => expect(seqs()).toEqual([43, 51]));
    fireEvent.click(within(surface()).getByRole('button', { name: 'Show what 43 replaced' }));
    await waitFor(() => expect(seqs()).toEqual([43, 2, 9, 30, 22, 28, 39, 51]));
    expect(items()[1]?.textContent).toContain('shadowed by 43');
    const toggle30 = within(surface()).getByRole('button', { name: 'Show what 30 replaced' });
    expect(toggle30.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle30);
    await waitFor(() => expect(seqs()).toEqual([43, 2, 9, 30, 11, 22, 28, 39, 51]));
    fireEvent.click(within(surface()).getByRole('button', { name: 'Hide what 43 replaced' }));
    await waitFor(() => expect(seqs()).toEqual([43, 51]));
  });

  it('selects a node on click', async () => {
    const { store } = await renderFixture(<Surface />);
    await waitFor(() => expect(seqs()).toEqual([43, 51]));
    fireEvent.click(within(items()[1] as HTMLElement).getByRole('button', { name: /^51/ }));
    expect(store.getState().selectedSeq).toBe(51);
  });

  it('renders untrusted previews as text, never as HTML', async () => {
    const header = '{"type":"session","version":0,"id":"html","createdAt":0,"delegationDepth":0}';
    const user =
      '{"type":"user/message","seq":0,"time":0,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"now summarize <b>this</b>"}],"source":{"kind":"user"}},"surfaceOp":"append"}';
    const test = makeEngineStore();
    await test.store.getState().openSource({ kind: 'text', name: 'html.jsonl', text: `${header}\n${user}\n` });
    renderWith(<Surface />, test);
    await waitFor(() => expect(seqs()).toEqual([0]));
    const node = items()[0] as HTMLElement;
    expect(node.textContent).toContain('now summarize <b>this</b>');
    expect(node.querySelector('b')).toBeNull();
  });
});
