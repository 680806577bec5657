import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Surface } from '../../src/ui/panels/surface/Surface';
import { renderIdle, renderLoaded } from './harness';

const surface = () => screen.getByRole('region', { name: 'Surface' });
const items = () => within(surface()).queryAllByRole('listitem').filter((li) => li.getAttribute('aria-busy') !== 'true');
const seqs = () => items().map((li) => Number(li.getAttribute('data-seq')));

describe('Surface', () => {
  it('is a labelled region, empty before a load', () => {
    renderIdle(<Surface />);
    expect(within(surface()).getByText('No log loaded')).toBeTruthy();
  });

  it('lists the nodes at the cursor as list items, with counts and what the step changed', async () => {
    const { store } = await renderLoaded(<Surface />);
    await waitFor(() => expect(seqs()).toEqual([28, 24]));
    expect(surface().textContent).toContain('2 nodes');
    expect(surface().textContent).toContain('generation 3');
    expect(surface().textContent).toContain('log-only 29');
    act(() => store.getState().goTo(19));
    await waitFor(() => expect(seqs()).toEqual([18, 15]));
    expect(surface().textContent).toContain('replaced 2…10 (4 nodes) with 18');
    expect(items()[0]?.textContent).toContain('replaced 4');
  });

  it('shows an empty state at step 0', async () => {
    const { store } = await renderLoaded(<Surface />);
    act(() => store.getState().goTo(0));
    await waitFor(() => expect(within(surface()).getByText('The surface is empty at step 0')).toBeTruthy());
  });

  it('expands replacement nodes to show what they shadowed, recursively', async () => {
    await renderLoaded(<Surface />);
    await waitFor(() => expect(seqs()).toEqual([28, 24]));
    fireEvent.click(within(surface()).getByRole('button', { name: 'Show what 28 replaced' }));
    await waitFor(() => expect(seqs()).toEqual([28, 18, 15, 20, 24]));
    expect(items()[1]?.textContent).toContain('shadowed by 28');
    const toggle18 = within(surface()).getByRole('button', { name: 'Show what 18 replaced' });
    expect(toggle18.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle18);
    await waitFor(() => expect(seqs()).toEqual([28, 18, 2, 5, 7, 10, 15, 20, 24]));
    fireEvent.click(within(surface()).getByRole('button', { name: 'Hide what 28 replaced' }));
    await waitFor(() => expect(seqs()).toEqual([28, 24]));
  });

  it('selects a node on click', async () => {
    const { store } = await renderLoaded(<Surface />);
    await waitFor(() => expect(seqs()).toEqual([28, 24]));
    fireEvent.click(within(items()[1] as HTMLElement).getByRole('button', { name: /^24/ }));
    expect(store.getState().selectedSeq).toBe(24);
  });

  it('renders untrusted previews as text, never as HTML', async () => {
    const { store } = await renderLoaded(<Surface />);
    act(() => store.getState().goTo(17));
    await waitFor(() => expect(seqs()).toContain(15));
    const node = items().find((li) => li.getAttribute('data-seq') === '15') as HTMLElement;
    expect(node.textContent).toContain('now summarize <b>this</b>');
    expect(node.querySelector('b')).toBeNull();
  });
});
