import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { ShadowedRanges } from '../../src/ui/panels/ShadowedRanges';
import { Surface } from '../../src/ui/panels/surface/Surface';
import { Timeline } from '../../src/ui/panels/timeline/Timeline';
import { renderLoaded } from './harness';

const ranges = () => screen.getByRole('region', { name: 'Shadowed ranges' });

describe('Shadowed ranges', () => {
  it('lists every replacement up to the cursor with range, count and kind', async () => {
    const { store } = await renderLoaded(<ShadowedRanges />);
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(3));
    const [r18, r24, r28] = within(ranges()).getAllByRole('listitem');
    expect(r18?.textContent).toMatch(/18\s*2…10\s*4 shadowed\s*compaction summary\s*⊘ inside 28/);
    expect(r24?.textContent).toContain('tool-result prune');
    expect(r28?.textContent).toMatch(/28\s*18…20\s*3 shadowed/);
    act(() => store.getState().goTo(20));
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(1));
    act(() => store.getState().goTo(5));
    await waitFor(() => expect(within(ranges()).getByText('No replace up to step 5')).toBeTruthy());
  });

  it('refetches only when a replace is applied, not on every step', async () => {
    const { store, client } = await renderLoaded(<ShadowedRanges />);
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(3));
    const before = client.callsTo('replacements').length;
    // Asked once: not first by step and again when the replace steps arrive.
    expect(before).toBe(1);
    act(() => store.getState().goTo(29)); // after the last replace (step 29): same list
    act(() => store.getState().goTo(30));
    await new Promise((r) => setTimeout(r, 20));
    expect(client.callsTo('replacements').length).toBe(before);
    act(() => store.getState().goTo(28)); // before the nested compaction
    await waitFor(() => expect(within(ranges()).getAllByRole('listitem')).toHaveLength(2));
  });

  it('selecting one highlights it in the timeline and the surface', async () => {
    const { store, container } = await renderLoaded(
      <>
        <Timeline />
        <Surface />
        <ShadowedRanges />
      </>,
    );
    await waitFor(() => expect(within(ranges()).getAllByRole('button', { pressed: false })).toHaveLength(3));
    const button = within(ranges()).getAllByRole('button', { pressed: false })[0] as HTMLElement;
    fireEvent.click(button);
    expect(button.getAttribute('aria-pressed')).toBe('true');
    expect(store.getState().highlight).toEqual({ replacement: 18, shadowedSeqs: [2, 5, 7, 10], visible: 28 });
    expect(store.getState().selectedSeq).toBe(18);
    await waitFor(() => {
      const lit = [...container.querySelectorAll('.tl-row.is-highlighted')].map((row) => row.getAttribute('data-seq'));
      expect(lit).toEqual(['2', '5', '7', '10', '18']);
    });
    // The timeline gutter and the surface follow the cursor a frame later (deferred panels).
    await waitFor(() => {
      expect(container.querySelector('[data-testid="bracket"][data-replacement="18"]')?.className).toContain('is-highlighted');
      const surfaceNode = within(screen.getByRole('region', { name: 'Surface' }))
        .getAllByRole('listitem')
        .find((li) => li.getAttribute('data-seq') === '28');
      expect(surfaceNode?.className).toContain('is-highlighted');
    });
    fireEvent.click(button);
    expect(store.getState().highlight).toBeNull();
  });
});
