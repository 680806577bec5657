/**
 * The two views' list of rows of different heights, with Chromium's layout: rows are measured, a
 * selected row is scrolled into view, and the row the user reads stays in place while the rows
 * around it are measured. (jsdom has no layout: the component tests check the rest.)
 */
import '../../src/ui/styles/index.css';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage, noLocation } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { TwoViews } from '../../src/ui/panels/views/TwoViews';
import { TestEngine, logText } from '../support/test-engine';
import type { LogEvent } from '../support/test-engine';

afterEach(() => cleanup());

/** 200 user messages, every third one ten lines long: rows of two very different heights. */
function messages(): LogEvent[] {
  return Array.from({ length: 200 }, (_, seq) => {
    const text = seq % 3 === 0 ? Array.from({ length: 10 }, (_, line) => `message ${seq}, line ${line}`).join('\n') : `message ${seq}`;
    return {
      seq,
      type: 'user/message',
      time: seq,
      data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
      surfaceOp: 'append',
    };
  });
}

const scroller = () => document.querySelector<HTMLElement>('.vw-list')!;
const rowOf = (seq: number) => document.querySelector<HTMLElement>(`.vw-row[data-seq="${seq}"]`);
/** Where row `seq` is relative to the top of the list's viewport, or null when it is not rendered. */
const offsetOf = (seq: number) => {
  const row = rowOf(seq);
  return row ? row.getBoundingClientRect().top - scroller().getBoundingClientRect().top : null;
};
const inView = (seq: number) => {
  const top = offsetOf(seq);
  const row = rowOf(seq);
  return top !== null && row !== null && top >= -1 && top + row.offsetHeight <= scroller().clientHeight + 1;
};
/** Whether the top of row `seq` is in the list's viewport (a row may still grow below it). */
const topInView = (seq: number) => {
  const top = offsetOf(seq);
  return top !== null && top >= -1 && top < scroller().clientHeight;
};
const frames = (n: number) =>
  new Promise<void>((resolve) => {
    const next = (left: number) => (left === 0 ? resolve() : requestAnimationFrame(() => next(left - 1)));
    next(n);
  });

describe('the two views list in Chromium', () => {
  it('measures its rows, scrolls a selected row into view and keeps the row read in place', async () => {
    const store = createAppStore(new TestEngine(), { storage: memoryStorage(), location: noLocation });
    render(
      <div style={{ height: '500px', display: 'flex', flexDirection: 'column' }}>
        <AppStoreProvider store={store}>
          <TwoViews />
        </AppStoreProvider>
      </div>,
    );
    await act(() => store.getState().openSource({ kind: 'text', name: 'rows.jsonl', text: logText(messages()) }));
    await screen.findByRole('region', { name: 'Transcript and model view' });

    // The first rows are shown, each measured: a ten-line row is taller than a one-line row.
    await waitFor(() => expect(inView(0)).toBe(true), { timeout: 5_000 });
    expect(rowOf(0)!.offsetHeight).toBeGreaterThan(rowOf(1)!.offsetHeight + 50);

    // A selected row far below is brought into view (its top: the rows arriving from the engine
    // after the scroll may make it taller than the space below it).
    act(() => store.getState().select(150));
    await waitFor(() => expect(topInView(150)).toBe(true), { timeout: 5_000 });

    // Once its own content has arrived (the list places it again then), it stays where it is
    // while the rows around it render and are measured.
    await waitFor(() => expect(rowOf(150)?.textContent).toContain('message 150'), { timeout: 5_000 });
    await frames(2);
    const before = offsetOf(150)!;
    await frames(10);
    expect(Math.abs(offsetOf(150)! - before)).toBeLessThan(2);

    // Scrolling up by hand, a wheel step at a time, into rows never measured: what the user reads
    // moves by the step and no more (rows above it measured on the way do not push it).
    // (The list turns the browser's own scroll anchoring off: the place kept is the list's doing.)
    const element = scroller();
    expect(getComputedStyle(element).overflowAnchor).toBe('none');
    for (let i = 0; i < 20; i++) {
      const read = [...document.querySelectorAll<HTMLElement>('.vw-row')].map((row) => Number(row.dataset.seq)).find((seq) => inView(seq))!;
      const at = offsetOf(read)!;
      element.scrollTop -= 100;
      await frames(2);
      expect(Math.abs(offsetOf(read)! - (at + 100))).toBeLessThan(2);
    }
  });
});
