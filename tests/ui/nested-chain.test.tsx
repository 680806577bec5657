/**
 * The two views on a chain of 1,000 nested replacements (each replace shadows the previous one):
 * the outer replacement and its first few nested ones are named, the rest collapse into one
 * "N more nested replacements" control that renders a page at a time. On the real engine.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { generateReplaceHeavyLines } from '../../src/core/gen/shapes';
import { TwoViews } from '../../src/ui/panels/views/TwoViews';
import { CHAIN_PAGE, CHAIN_PREVIEW } from '../../src/ui/panels/views/ShadowedSpan';
import { makeEngineStore } from '../store/helpers';
import { renderWith } from './harness';

describe('a chain of nested replacements in the two views', () => {
  it('seed 11: 1,000 replaces, each of the last: collapsed to the outer one and a count, expanded a page at a time', async () => {
    const text = `${[...generateReplaceHeavyLines({ seed: 11, appends: 3, replaces: 1000, textChars: 40 })].join('\n')}\n`;
    const test = makeEngineStore();
    renderWith(<TwoViews />, test);
    await act(() => test.store.getState().openSource({ kind: 'text', name: 'chain.jsonl', text }));
    expect(test.store.getState().load?.sessions[0]?.replacements).toBe(1000);
    const chain = await waitFor(() => {
      const found = document.querySelector<HTMLElement>('.vw-chain');
      if (!found) throw new Error('no chain yet');
      return found;
    });
    const links = () => chain.querySelectorAll('.link-chain').length;
    // The outer replacement shadows the 999 before it.
    expect(links()).toBe(CHAIN_PREVIEW);
    const more = within(chain).getByRole('button', { name: /^[\d,]+ more nested replacements/ });
    expect(more.getAttribute('aria-expanded')).toBe('false');
    const hiddenBefore = Number(/([\d,]+) more/.exec(more.textContent ?? '')?.[1]?.replace(/,/g, ''));
    expect(hiddenBefore + CHAIN_PREVIEW).toBe(999);
    fireEvent.click(more);
    expect(links()).toBe(CHAIN_PREVIEW + CHAIN_PAGE);
    expect(
      within(chain).getByRole('button', {
        name: `${(hiddenBefore - CHAIN_PAGE).toLocaleString('en-US')} more nested replacements (show ${CHAIN_PAGE})`,
      }),
    ).toBeTruthy();
    fireEvent.click(within(chain).getByRole('button', { name: /^Collapse the chain/ }));
    expect(links()).toBe(CHAIN_PREVIEW);
    // Every named level is a link to its replacement.
    expect(screen.getAllByRole('button', { name: /nested replacement/ }).length).toBeGreaterThanOrEqual(CHAIN_PREVIEW);
  });
});
