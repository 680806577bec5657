/**
 * A guided demo played end to end in Chromium: the real App, a real store, the real engine in
 * its web worker. Open the demo from the start screen, follow the narration note by note, play
 * to the end, and check the final surface and the two views.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage, noLocation } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { App } from '../../src/ui/App';
import '../../src/ui/styles/index.css';

afterEach(() => cleanup());

const narration = () => screen.getByRole('region', { name: 'Narration' });
const surface = () => screen.getByRole('region', { name: 'Surface' });

describe('guided demo in the browser', () => {
  it('plays "A summarizing compaction" from the first note to the final surface', async () => {
    const store = createAppStore(new WorkerCoreClient(), { storage: memoryStorage(), location: noLocation });
    render(
      <div style={{ height: '800px' }}>
        <AppStoreProvider store={store}>
          <App />
        </AppStoreProvider>
      </div>,
    );
    try {
      const demos = await screen.findByRole('region', { name: 'Guided demos' });
      fireEvent.click(await within(demos).findByRole('button', { name: 'A summarizing compaction' }, { timeout: 10_000 }));
      await waitFor(() => expect(document.querySelector('.app')?.getAttribute('data-status')).toBe('ready'), { timeout: 20_000 });
      expect(store.getState().step).toBe(0);
      expect(narration().textContent).toContain('note 1/6 · step 0');
      expect(narration().textContent).toContain('A compaction replaces a range of surface nodes with one checkpoint message');
      await waitFor(() => expect(within(surface()).getByText('The surface is empty at step 0')).toBeTruthy());

      // Note by note: the cursor jumps to the narrated step.
      fireEvent.click(within(narration()).getByRole('button', { name: 'Next note ›' }));
      expect(store.getState().step).toBe(26);
      expect(narration().textContent).toContain('compaction/start opens the bracket (log-only).');
      await waitFor(() => expect(surface().textContent).toContain('4 nodes'));

      // Play to the end: the narration follows the cursor.
      fireEvent.change(screen.getByRole('combobox', { name: 'Speed' }), { target: { value: '10' } });
      fireEvent.click(screen.getByRole('button', { name: 'Play' }));
      await waitFor(() => expect(narration().textContent).toContain('The checkpoint user/message replaces 2…23: four nodes become one.'), {
        timeout: 10_000,
      });
      await waitFor(() => expect(store.getState().playing).toBe(false), { timeout: 10_000 });
      expect(store.getState().step).toBe(38);
      expect(narration().textContent).toContain('note 6/6 · step 36');
      expect(narration().textContent).toContain('New messages append after the checkpoint.');
      expect(within(narration()).getByRole('button', { name: 'Next note ›' }).getAttribute('aria-disabled')).toBe('true');

      // The final surface: the checkpoint (it replaced four nodes) and the last answer.
      await waitFor(() => expect(surface().textContent).toContain('2 nodes'));
      const nodes = [...surface().querySelectorAll<HTMLElement>('li[data-seq]')].filter((li) => !li.closest('.sf-children'));
      expect(nodes.map((li) => li.dataset.seq)).toEqual(['27', '35']);
      expect(nodes[0]?.textContent).toContain('replaced 4');

      // The context curve marks the replace and sits at the end.
      const curve = screen.getByRole('region', { name: 'Context curve' });
      expect(curve.querySelector('.curve-replaces')?.getAttribute('data-steps')).toBe('28');
      // The curve follows the cursor through a deferred value, so it may settle a frame later.
      await waitFor(() => expect(within(curve).getByRole('slider').getAttribute('aria-valuenow')).toBe('38'));

      // The two views: the transcript keeps the four shadowed messages, dimmed and linked.
      fireEvent.click(screen.getByRole('tab', { name: 'Two views' }));
      const views = screen.getByRole('region', { name: 'Transcript and model view' });
      const span = await within(views).findByRole('group', { name: 'Shadowed by 27: 4 messages' }, { timeout: 10_000 });
      expect(span.textContent).toContain('compaction summary');
      expect(views.textContent).toContain('2 derived messages at step 38');
      expect(span.querySelectorAll('article')).toHaveLength(3); // the preview the row carries
      // The rest of the span is fetched from the worker when asked for.
      fireEvent.click(within(span).getByRole('button', { name: 'Show all 4 messages' }));
      await waitFor(() => expect(span.querySelectorAll('article')).toHaveLength(4), { timeout: 10_000 });
    } finally {
      store.dispose();
    }
  });
});
