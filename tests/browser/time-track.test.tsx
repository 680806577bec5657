/**
 * The time track in Chromium: the real App, store and engine worker, with real layout. A
 * generated log is opened, the Time track tab chosen beside the context curve; zooming in (the
 * button, then the wheel) narrows the range shown, and clicking a span moves the cursor to the
 * event that opened it.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import { generateText } from '../../src/core/gen/generate';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage, noLocation } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { App } from '../../src/ui/App';
import '../../src/ui/styles/index.css';

afterEach(() => cleanup());

/** "4 min 05 s of 2 h 03 min shown" → the first duration, in seconds. */
function shownSeconds(region: HTMLElement): number {
  const meta = region.querySelector('.panel-meta')?.textContent ?? '';
  const shown = meta.split(' of ')[0] ?? '';
  const h = /(\d+) h/.exec(shown);
  const m = /(\d+) min/.exec(shown);
  const s = /([\d.]+) s/.exec(shown);
  const ms = /(\d+) ms/.exec(shown);
  return (h ? Number(h[1]) * 3600 : 0) + (m ? Number(m[1]) * 60 : 0) + (s ? Number(s[1]) : 0) + (ms ? Number(ms[1]) / 1000 : 0);
}

describe('time track in the browser', () => {
  it('zooms with the button and the wheel, and a click on a span moves the cursor', async () => {
    const text = generateText({ seed: 9, events: 3000 });
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
      fireEvent.click(await screen.findByRole('tab', { name: 'Time track' }));
      const region = await screen.findByRole('region', { name: 'Time track' });
      await waitFor(() => expect(region.querySelector('.tt-lane[data-lane="turn"] .tt-item')).toBeTruthy(), { timeout: 20_000 });
      // Real layout: the plot is as wide as the panel, not the jsdom fallback.
      expect(region.querySelector('svg')!.getBoundingClientRect().width).toBeGreaterThan(1000);
      const whole = shownSeconds(region);
      expect(whole).toBeGreaterThan(60);

      fireEvent.click(within(region).getByRole('button', { name: 'Zoom in' }));
      await waitFor(() => expect(shownSeconds(region)).toBeLessThan(whole * 0.6), { timeout: 10_000 });
      const half = shownSeconds(region);
      const plot = within(region).getByRole('group', { name: /Time track lanes/ });
      const box = plot.getBoundingClientRect();
      plot.dispatchEvent(
        new WheelEvent('wheel', {
          deltaY: -120,
          clientX: box.left + box.width / 2,
          clientY: box.top + 20,
          bubbles: true,
          cancelable: true,
        }),
      );
      await waitFor(() => expect(shownSeconds(region)).toBeLessThan(half * 0.9), { timeout: 10_000 });

      store.getState().goTo(0);
      const item = region.querySelector<SVGRectElement>('.tt-lane[data-lane="step"] .tt-item')!;
      const seq = Number(item.getAttribute('data-seq'));
      item.scrollIntoView({ block: 'center', inline: 'center' });
      const at = item.getBoundingClientRect();
      // A real click where the span is drawn, on whatever element is there.
      const target = document.elementFromPoint(at.left + Math.max(1, at.width / 2), at.top + at.height / 2)!;
      expect(target).toBe(item);
      fireEvent.click(target);
      await waitFor(() => expect(store.getState().selectedSeq).toBe(seq), { timeout: 10_000 });
      expect(store.getState().step).toBe(seq + 1);
    } finally {
      store.dispose();
    }
  });
});
