/**
 * A generated 1,000,000-event log in the real app: generated in the page with the core
 * generator (about 85 MB of JSONL), handed to the "Open log" input as a File, loaded by the
 * worker, then scrolled to its end by the timeline's own scroll container and keyboard.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
import { generateLines } from '../../src/core/gen/generate';
import { mountApp, region, statusText, timelineRows } from './app-harness';
import type { MountedApp } from './app-harness';

const EVENTS = 1_000_000;
/** Bounded: the viewport's rows plus overscan, whatever the log's size. */
const MAX_ROWS = 200;

/** The generated log as a File, built from batches of lines (never one 85 MB string). */
function generatedFile(): File {
  const parts: string[] = [];
  let batch: string[] = [];
  for (const line of generateLines({ seed: 1, events: EVENTS })) {
    batch.push(line);
    if (batch.length === 4096) {
      parts.push(`${batch.join('\n')}\n`);
      batch = [];
    }
  }
  if (batch.length > 0) parts.push(`${batch.join('\n')}\n`);
  return new File(parts, 'gen-1000000-seed1.jsonl', { type: 'application/x-ndjson' });
}

/** Puts `file` in the "Open log" input the way a picker does (no copy through the test runner). */
function pick(file: File): void {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input || input.labels?.[0]?.textContent?.trim() !== 'Open log') throw new Error('no "Open log" input');
  const transfer = new DataTransfer();
  transfer.items.add(file);
  input.files = transfer.files;
  input.dispatchEvent(new Event('change', { bubbles: true }));
}

const grid = (): HTMLElement => {
  const element = region('Timeline').querySelector<HTMLElement>('[role="grid"]');
  if (!element) throw new Error('no timeline grid');
  return element;
};

/** Seqs of the rows with data whose box is inside the grid's viewport. */
function visibleSeqs(): number[] {
  const box = grid().getBoundingClientRect();
  return timelineRows()
    .filter((row) => row.dataset.seq !== undefined)
    .filter((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top + 1 && r.top < box.bottom - 1;
    })
    .map((row) => Number(row.dataset.seq));
}

const frame = () => new Promise<void>((resolve) => requestAnimationFrame(() => resolve()));

describe('a 1,000,000-event log', () => {
  let app: MountedApp | undefined;
  let events = 0;
  beforeAll(async () => {
    app = await mountApp();
    pick(generatedFile());
    await vi.waitFor(() => expect(statusText()).toMatch(/^Loaded [\d,]+ events\.$/), { timeout: 90_000, interval: 200 });
    events = Number(/Loaded ([\d,]+)/.exec(statusText())?.[1]?.replace(/,/g, ''));
  }, 120_000);
  afterAll(() => app?.unmount());

  it('loads every event', async () => {
    expect(events).toBeGreaterThanOrEqual(EVENTS);
    await expect.poll(() => grid().getAttribute('aria-rowcount')).toBe(String(events));
  });

  it('scrolls to its end with a bounded number of row elements, and shows the last seq', async () => {
    const lastSeq = events - 1; // generated logs start at seq 0
    const counts: number[] = [timelineRows().length];
    // Jumps through the whole range, as dragging the scrollbar does.
    for (const fraction of [0.1, 0.37, 0.5, 0.81, 0.999]) {
      grid().scrollTop = fraction * (grid().scrollHeight - grid().clientHeight);
      await frame();
      await frame();
      counts.push(timelineRows().length);
    }
    // To the very end by the scroll container.
    grid().scrollTop = grid().scrollHeight;
    await expect.poll(visibleSeqs, { timeout: 10_000 }).toContain(lastSeq);
    counts.push(timelineRows().length);
    // And from the start to the end by keyboard.
    grid().scrollTop = 0;
    await expect.poll(visibleSeqs, { timeout: 10_000 }).toContain(0);
    grid().focus();
    await userEvent.keyboard('{End}');
    await expect.poll(visibleSeqs, { timeout: 10_000 }).toContain(lastSeq);
    counts.push(timelineRows().length);
    expect(Math.max(...counts)).toBeLessThan(MAX_ROWS);
    expect(Math.min(...counts)).toBeGreaterThan(10);
    // The last row is the last event, fully inside the viewport.
    const last = region('Timeline').querySelector<HTMLElement>(`[role="row"][data-seq="${lastSeq}"]`);
    expect(last?.getBoundingClientRect().bottom).toBeLessThanOrEqual(grid().getBoundingClientRect().bottom + 1);
  });
});
