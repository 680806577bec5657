/**
 * Live follow in the store, against the real engine in process: a URL that grows is followed,
 * the cursor pinned to the end follows it while a cursor stepped back stays, the selection
 * stays, a new replace is announced, a shrink is re-read and said; a plain file says why it
 * cannot be followed.
 */
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { generateText } from '../../src/core/gen/generate';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage, noLocation } from '../../src/store/deps';
import type { Scheduler } from '../../src/store/deps';
import { createEngine } from '../../src/worker/engine';
import { rangeHost } from '../support/range-host';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

/** Timers run only when the test says so. */
class ManualScheduler implements Scheduler {
  private queue: (() => void)[] = [];
  setTimeout(callback: () => void, _ms: number): () => void {
    this.queue.push(callback);
    return () => {
      this.queue = this.queue.filter((c) => c !== callback);
    };
  }
  get waiting(): number {
    return this.queue.length;
  }
  runAll(): void {
    const due = this.queue;
    this.queue = [];
    for (const c of due) c();
  }
}

const lines = generateText({
  seed: 41,
  events: 900,
  compaction: { thresholdTokens: 1200 },
  pruneThreshold: 400,
  longToolResultRate: 0.3,
}).split(/(?<=\n)/);
const prefix = (n: number): Uint8Array => enc(lines.slice(0, n).join(''));

async function settle(scheduler: ManualScheduler, until: () => boolean): Promise<void> {
  for (let i = 0; i < 200 && !until(); i++) {
    await new Promise((r) => setTimeout(r, 0));
    if (scheduler.waiting > 0 && !until()) scheduler.runAll();
  }
  expect(until()).toBe(true);
}

describe('live follow', () => {
  it('follows a growing URL: pinned cursor moves, a stepped-back cursor and the selection stay, replaces announced, a shrink said', async () => {
    const server = rangeHost();
    server.set(prefix(Math.floor(lines.length / 5)));
    const scheduler = new ManualScheduler();
    let clock = 1000;
    const store = createAppStore(new InProcessCoreClient(createEngine({ pause: async () => {}, fetch: server.fetch })), {
      storage: memoryStorage(),
      location: noLocation,
      scheduler,
      now: () => clock,
    });
    await store.getState().openSource({ kind: 'url', url: 'http://host/live.jsonl' });
    expect(store.getState().status).toBe('ready');
    const first = store.getState().load!.sessions[0]!;
    expect(store.getState().step).toBe(first.accepted);
    store.getState().startFollow();
    expect(store.getState().live?.active).toBe(true);

    // At the end: the cursor follows the new end.
    server.set(prefix(Math.floor(lines.length / 2)));
    clock = 2000;
    await settle(scheduler, () => (store.getState().load?.sessions[0]?.events ?? 0) > first.events);
    const grown = store.getState().load!.sessions[0]!;
    expect(store.getState().step).toBe(grown.accepted);
    expect(store.getState().live?.lastAppendAt).toBe(2000);

    // Stepped back with a selection: both stay while more arrives.
    store.getState().goTo(10);
    store.getState().select(5);
    server.set(prefix(lines.length));
    await settle(scheduler, () => (store.getState().load?.sessions[0]?.events ?? 0) > grown.events);
    const full = store.getState().load!.sessions[0]!;
    expect([store.getState().step, store.getState().selectedSeq]).toEqual([10, 5]);
    expect(full.replacements).toBeGreaterThan(grown.replacements);
    expect(store.getState().live?.announce).toMatch(/new replaces? (was|were) applied/);

    // Rewritten shorter: read again from the start, and said.
    server.set(prefix(Math.floor(lines.length / 8)));
    await settle(scheduler, () => (store.getState().load?.sessions[0]?.events ?? Infinity) < first.events);
    expect(store.getState().live?.note).toMatch(/shrank .*read again from the start/);
    expect(store.getState().step).toBe(store.getState().load!.sessions[0]!.accepted);
    store.getState().stopFollow();
    expect(store.getState().live?.active).toBe(false);
    store.dispose();
  });

  it('a file picked without a handle says why it cannot be followed', async () => {
    const store = createAppStore(new InProcessCoreClient(createEngine({ pause: async () => {} })), {
      storage: memoryStorage(),
      location: noLocation,
    });
    await store.getState().openSource({ kind: 'file', file: new Blob([prefix(20).slice()]), name: 'x.jsonl' });
    store.getState().startFollow();
    expect(store.getState().live).toMatchObject({
      active: false,
      error: expect.stringMatching(/needs Chromium .* or `surface-lens view`/),
    });
    store.dispose();
  });
});
