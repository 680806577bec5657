import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Timeline } from '../../src/ui/panels/timeline/Timeline';
import { renderFixture, renderIdle } from './harness';

// The teaching sample on the real engine: 54 events; the prune 30 replaced 11 (step 31) and the
// compaction 43 replaced 2…39 (step 44). The 1,000,000-row cases keep synthetic rows.
const renderLoaded = (ui: Parameters<typeof renderFixture>[0], options: Parameters<typeof renderFixture>[2] = {}) =>
  renderFixture(ui, 'teaching.jsonl', options);

const timeline = () => screen.getByRole('region', { name: 'Timeline' });
const rows = () => within(timeline()).queryAllByRole('row');
const loadedRows = () => rows().filter((row) => row.getAttribute('aria-busy') !== 'true');

describe('Timeline', () => {
  it('is a labelled region with an empty state before a load', () => {
    renderIdle(<Timeline />);
    expect(timeline()).toBeTruthy();
    expect(screen.getByText('No log loaded')).toBeTruthy();
  });

  it('renders the rows with seq, type, op markers and state', async () => {
    const { store } = await renderLoaded(<Timeline />);
    act(() => store.getState().select(30));
    await waitFor(() => expect(loadedRows().some((row) => row.getAttribute('data-seq') === '30')).toBe(true));
    expect(loadedRows().length).toBeLessThan(54); // the rows in view and an overscan, not all of them
    const row30 = loadedRows().find((row) => row.getAttribute('data-seq') === '30');
    expect(row30?.textContent).toContain('tool/result');
    expect(row30?.textContent).toContain('replace');
    expect(row30?.textContent).toContain('shadowed');
    expect(screen.getByRole('grid', { name: 'Events' }).getAttribute('aria-rowcount')).toBe('54');
  });

  it('renders a bounded number of rows for 1,000,000 events and scrolls to the last one', async () => {
    const { container } = await renderLoaded(<Timeline />, { syntheticRows: 1_000_000 });
    await waitFor(() => expect(loadedRows().length).toBeGreaterThan(10));
    expect(rows().length).toBeLessThan(60);
    const grid = screen.getByRole('grid', { name: 'Events' });
    expect(grid.getAttribute('aria-rowcount')).toBe('1000000');
    const content = container.querySelector<HTMLElement>('.vlist-content');
    const height = Number.parseFloat(content?.style.height ?? '0');
    expect(height).toBeGreaterThan(1_000_000);
    expect(height).toBeLessThanOrEqual(10_000_000 + 1000);
    // Scroll to the very end: the last row renders, still few rows.
    act(() => {
      grid.scrollTop = height - 440;
      fireEvent.scroll(grid);
    });
    await waitFor(() => expect(loadedRows().some((row) => row.getAttribute('data-seq') === '999999')).toBe(true), { timeout: 5000 });
    expect(rows().length).toBeLessThan(60);
  });

  it('selects on click and moves the cursor on double-click', async () => {
    const { store } = await renderLoaded(<Timeline />);
    await waitFor(() => expect(loadedRows().length).toBeGreaterThan(0));
    const row5 = loadedRows().find((row) => row.getAttribute('data-seq') === '5') as HTMLElement;
    fireEvent.click(row5);
    expect(store.getState().selectedSeq).toBe(5);
    await waitFor(() => expect(row5.getAttribute('aria-selected')).toBe('true'));
    fireEvent.doubleClick(row5);
    expect(store.getState().step).toBe(6);
  });

  it('marks events after the cursor as future, in text', async () => {
    const { store } = await renderLoaded(<Timeline />);
    act(() => store.getState().goTo(3));
    act(() => store.getState().select(2));
    await waitFor(() => {
      const row10 = loadedRows().find((row) => row.getAttribute('data-seq') === '10');
      expect(row10?.textContent).toContain('future');
    });
    const row2 = loadedRows().find((row) => row.getAttribute('data-seq') === '2');
    expect(row2?.textContent).toContain('current, at cursor');
  });

  it('draws the brackets of the replacements, nested ones one column in', async () => {
    const test = await renderLoaded(<Timeline />);
    const { container, store } = test;
    act(() => store.getState().select(11));
    await waitFor(() => expect(container.querySelectorAll('[data-testid="bracket"]').length).toBe(2));
    const brackets = [...container.querySelectorAll<HTMLElement>('[data-testid="bracket"]')].map((b) => ({
      r: b.dataset.replacement,
      first: b.dataset.first,
      last: b.dataset.last,
      depth: b.dataset.depth,
    }));
    expect(brackets).toEqual([
      { r: '30', first: '11', last: '11', depth: '1' },
      { r: '43', first: '2', last: '39', depth: '0' },
    ]);
  });

  it('filters by family and surface events only', async () => {
    const { store, client } = await renderLoaded(<Timeline />);
    await waitFor(() => expect(loadedRows().length).toBeGreaterThan(0));
    fireEvent.click(screen.getByRole('checkbox', { name: 'surface events only' }));
    await waitFor(() => expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('9'));
    fireEvent.click(screen.getByRole('button', { name: /^tool/ }));
    expect(store.getState().filter).toEqual({ families: ['tool'], surfaceOnly: true });
    await waitFor(() => expect(screen.getByRole('grid').getAttribute('aria-rowcount')).toBe('2'));
    expect((client.callsTo('rows').at(-1)?.args[0] as { filter: unknown }).filter).toEqual({ families: ['tool'], surfaceOnly: true });
  });

  it('searches in the engine and selects rows that were not rendered', async () => {
    const { store } = await renderLoaded(<Timeline />, { syntheticRows: 1_000_000 });
    await waitFor(() => expect(loadedRows().length).toBeGreaterThan(0));
    // The engine searches the sample's 54 events; a hit selects the seq, and the grid reveals it.
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search events' }), { target: { value: 'sunsets red?' } });
    await waitFor(() => expect(store.getState().selectedSeq).toBe(28));
    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    await waitFor(() => expect(store.getState().search.wrapped).toBe(true));
  });

  it('moves the selection with the arrow keys inside the grid', async () => {
    const { store } = await renderLoaded(<Timeline />);
    await waitFor(() => expect(loadedRows().length).toBeGreaterThan(0));
    act(() => store.getState().select(3));
    const grid = screen.getByRole('grid');
    await waitFor(() => expect(grid.getAttribute('aria-activedescendant')).toBe('timeline-row-3'));
    fireEvent.keyDown(grid, { key: 'ArrowDown' });
    expect(store.getState().selectedSeq).toBe(4);
    fireEvent.keyDown(grid, { key: 'Enter' });
    await waitFor(() => expect(store.getState().step).toBe(5));
  });
});
