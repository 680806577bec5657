import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Inspector } from '../../src/ui/panels/inspector/Inspector';
import { renderLoaded } from './harness';

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
});
