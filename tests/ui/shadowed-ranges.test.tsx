import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShadowedRanges } from '../../src/ui/panels/ShadowedRanges';
import { Surface } from '../../src/ui/panels/surface/Surface';
import { Timeline } from '../../src/ui/panels/timeline/Timeline';
import { generateReplaceHeavyLines } from '../../src/core/gen/shapes';
import { engineStoreWithText } from '../store/helpers';
import { renderFixture, renderWith } from './harness';

// The teaching sample: a tool-result prune (30 replaces 11, step 31), then a compaction (43
// replaces 2…39, step 44) that shadows the prune.

const ranges = () => screen.getByRole('region', { name: 'Shadowed ranges' });

describe('Shadowed ranges', () => {
  it('lists every replacement up to the cursor with range, count and kind', async () => {
    const { store } = await renderFixture(<ShadowedRanges />);
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(2));
    const [r30, r43] = within(ranges()).getAllByRole('listitem');
    expect(r30?.textContent).toMatch(/30\s*11…11\s*1 shadowed\s*tool-result prune\s*⊘ inside 43/);
    expect(r43?.textContent).toMatch(/43\s*2…39\s*6 shadowed\s*compaction summary/);
    act(() => store.getState().goTo(40));
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(1));
    act(() => store.getState().goTo(5));
    await waitFor(() => expect(within(ranges()).getByText('No replace up to step 5')).toBeTruthy());
  });

  it('seed 12: 3,000 replacements are asked a window at a time, the count in the header', async () => {
    const text = [...generateReplaceHeavyLines({ seed: 12, appends: 50, replaces: 3000, textChars: 30 })].join('\n') + '\n';
    const test = await engineStoreWithText(text, 'replaces.jsonl');
    renderWith(<ShadowedRanges />, test);
    await waitFor(() => expect(ranges().textContent).toContain('3,000 at step 3,050'));
    const calls = test.client.callsTo('replacements');
    expect(calls.length).toBeGreaterThan(0);
    for (const call of calls) expect((call.args[0] as { count: number }).count).toBeLessThanOrEqual(400);
    const items = within(ranges()).getAllByRole('listitem');
    expect(items.length).toBeGreaterThan(0);
    expect(items.length).toBeLessThan(400);
    // Every replace shadows the previous one: the first is inside the second.
    expect(items[0]?.textContent).toMatch(/⊘ inside/);
  });

  it('refetches only when a replace is applied, not on every step', async () => {
    const { store, client } = await renderFixture(<ShadowedRanges />);
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(2));
    const before = client.callsTo('replacements').length;
    // Asked once: not first by step and again when the replace steps arrive.
    expect(before).toBe(1);
    act(() => store.getState().goTo(44)); // the last replace (step 44): same list
    act(() => store.getState().goTo(50));
    await new Promise((r) => setTimeout(r, 20));
    expect(client.callsTo('replacements').length).toBe(before);
    act(() => store.getState().goTo(43)); // before the compaction
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(1));
  });

  it('selecting one highlights it in the timeline and the surface', async () => {
    const { store, container } = await renderFixture(
      <>
        <Timeline />
        <Surface />
        <ShadowedRanges />
      </>,
    );
    await waitFor(() => expect(within(ranges()).getAllByRole('button', { pressed: false })).toHaveLength(2));
    const prune = within(ranges()).getAllByRole('button', { pressed: false })[0] as HTMLElement;
    fireEvent.click(prune);
    // The prune is shadowed in turn by the compaction: what stands for it on the surface is 43.
    expect(store.getState().highlight).toEqual({ replacement: 30, shadowedSeqs: [11], visible: 43 });
    const button = within(ranges()).getAllByRole('button', { pressed: false })[0] as HTMLElement;
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(store.getState().highlight).toEqual({ replacement: 43, shadowedSeqs: [2, 9, 30, 22, 28, 39], visible: 43 });
    expect(store.getState().selectedSeq).toBe(43);
    const lit = new Set(['2', '9', '22', '28', '30', '39', '43']);
    await waitFor(() => {
      const rows = [...container.querySelectorAll('.tl-row.is-highlighted')].map((row) => row.getAttribute('data-seq') as string);
      // The rows in view around the selection: the compaction and what it shadowed, nothing else.
      expect(rows).toContain('43');
      expect(rows).toContain('39');
      expect(rows.filter((seq) => !lit.has(seq))).toEqual([]);
    });
    // The timeline gutter and the surface follow the cursor a frame later (deferred panels).
    await waitFor(() => {
      expect(container.querySelector('[data-testid="bracket"][data-replacement="43"]')?.className).toContain('is-highlighted');
      const surfaceNode = within(screen.getByRole('region', { name: 'Surface' }))
        .getAllByRole('listitem')
        .find((li) => li.getAttribute('data-seq') === '43');
      expect(surfaceNode?.className).toContain('is-highlighted');
    });
    fireEvent.click(button);
    expect(store.getState().highlight).toBeNull();
  });
});
