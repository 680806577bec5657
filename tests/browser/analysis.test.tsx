/**
 * The prefix-cache analysis in Chromium: the real App, store and engine worker. A generated log
 * with compactions and prunes is opened; the context curve carries a ✂ mark at every prefix
 * break the core finds (computed here, in the page, from the same text), and the transport's
 * button walks the cursor through them.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage, noLocation } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { App } from '../../src/ui/App';
import '../../src/ui/styles/index.css';

afterEach(() => cleanup());

describe('prefix-cache breaks in the browser', () => {
  it('marks each break on the curve and jumps to them from the transport', async () => {
    const text = generateText({
      seed: 5,
      events: 3000,
      pruneThreshold: 500,
      longToolResultRate: 0.3,
      compaction: { thresholdTokens: 1500 },
    });
    const expected = (await openBytes(new TextEncoder().encode(text), { name: 'gen.jsonl' })).sessions[0]!;
    const breaks = expected.analytics!.requests.filter((r) => r.brokenBy !== null).map((r) => r.seq - expected.baseSeq);
    expect(breaks.length).toBeGreaterThan(1);
    const store = createAppStore(new WorkerCoreClient(), { storage: memoryStorage(), location: noLocation });
    render(
      <div style={{ height: '900px', width: '1400px' }}>
        <AppStoreProvider store={store}>
          <App />
        </AppStoreProvider>
      </div>,
    );
    try {
      await store.getState().openSource({ kind: 'text', name: 'gen.jsonl', text });
      await waitFor(() => expect(document.querySelector('.app')?.getAttribute('data-status')).toBe('ready'), { timeout: 20_000 });
      const curve = await screen.findByRole('region', { name: 'Context curve' }, { timeout: 10_000 });
      const marked = () => (curve.querySelector('.curve-breaks')?.getAttribute('data-steps') ?? '').split(' ').filter(Boolean).map(Number);
      await waitFor(() => expect(marked()).toHaveLength(breaks.length), { timeout: 20_000 });
      expect(marked()).toEqual(breaks);
      expect(curve.querySelector('.curve-reused')?.getAttribute('d')).toMatch(/^M/);
      // The tokens-per-turn rows are rendered once the table is opened.
      expect(within(curve).queryByRole('table')).toBeNull();
      fireEvent.click(within(curve).getByText(/^Tokens per turn/));
      await waitFor(() => expect(within(curve).getByRole('table')).toBeTruthy());

      store.getState().goTo(0);
      const next = screen.getByRole('button', { name: 'Next prefix-cache break' });
      // At the end the button is inert; it acts once the transport has rendered the new step.
      await waitFor(() => expect(next.getAttribute('aria-disabled')).toBeNull());
      fireEvent.click(next);
      await waitFor(() => expect(store.getState().step).toBe(breaks[0]), { timeout: 10_000 });
      fireEvent.click(next);
      await waitFor(() => expect(store.getState().step).toBe(breaks[1]), { timeout: 10_000 });
    } finally {
      store.dispose();
    }
  });
});
