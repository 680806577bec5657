/**
 * The whole app in Chromium: the real App, store and engine worker. Files go in through the
 * "Open log" input; assertions read what the user sees (regions, list items, rows, banners, the
 * status region).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { userEvent } from 'vitest/browser';
import { generateText } from '../../src/core/gen/generate';
import { button, exists, mountApp, readFixture, region, statusText, surfaceSeqs, surfaceStep, transportStep } from './app-harness';
import type { MountedApp } from './app-harness';

const SHARED_FIXTURE = '../shared/fixtures/dsh-upstream/examples__headless-agent__tests__snapshots__compaction-recovery__session.jsonl';
const hasShared = await exists(SHARED_FIXTURE);

let app: MountedApp | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

async function open(name: string, bytes: Uint8Array): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input || input.labels?.[0]?.textContent?.trim() !== 'Open log') throw new Error('no "Open log" input');
  await userEvent.upload(input, new File([bytes as BlobPart], name));
}

const waitForStatus = (pattern: RegExp, timeout = 20_000) => expect.poll(statusText, { timeout }).toMatch(pattern);
/** Panels follow a seek within a frame or two; a loaded machine may take longer. */
const poll = <T,>(read: () => T) => expect.poll(read, { timeout: 10_000 });

async function press(name: string): Promise<void> {
  await userEvent.click(button(name));
}

/** Steps to the next replace and waits until the surface shows it. */
async function nextReplace(): Promise<number> {
  const from = transportStep();
  await press('Next replace');
  await poll(transportStep).not.toBe(from);
  const step = transportStep();
  await poll(surfaceStep).toBe(step);
  return step;
}

const bracket = (replacement: number) =>
  region('Timeline').querySelector<HTMLElement>(`[data-testid="bracket"][data-replacement="${replacement}"]`);

describe('the app with its engine worker', () => {
  it(
    hasShared
      ? 'opens a real dsh log (../shared compaction-recovery) through "Open log" and steps to its replace'
      : 'opens a real dsh log through "Open log" (SKIPPED: ../shared/fixtures is not in this checkout)',
    async ({ skip }) => {
      if (!hasShared) skip();
      app = await mountApp();
      await open('compaction-recovery.jsonl', await readFixture(SHARED_FIXTURE));
      await waitForStatus(/^Loaded 31 events\.$/);
      await press('Go to start');
      await poll(surfaceStep).toBe(0);
      // The summarizing compaction: user/message seq 21 replaces node 4.
      expect(await nextReplace()).toBe(22);
      const surface = region('Surface');
      expect(surface.querySelector('.surface-change')?.textContent).toContain('replaced 4…4 (1 node) with 21');
      expect(surfaceSeqs()).toContain(21);
      expect(surfaceSeqs()).not.toContain(4);
      const node = surface.querySelector<HTMLElement>('li[data-seq="21"]');
      expect(node?.className).toContain('sf-replacement');
      expect(node?.textContent).toContain('replaced 1');
      // It expands to what it shadowed.
      await userEvent.click(button('Show what 21 replaced'));
      await poll(() => surface.querySelector('li[data-seq="21"] li[data-seq="4"]')?.textContent ?? '').toContain('shadowed by 21');
      // The timeline's gutter brackets the shadowed range.
      await poll(() => bracket(21)?.dataset.first).toBe('4');
      expect(bracket(21)?.dataset.last).toBe('4');
      expect(bracket(21)?.dataset.depth).toBe('0');
    },
  );

  it('opens a project fixture through "Open log" and steps through nested replaces', async () => {
    app = await mountApp();
    await open('teaching.jsonl', await readFixture('tests/fixtures/teaching.jsonl'));
    await waitForStatus(/^Loaded 54 events\.$/);
    await press('Go to start');
    await poll(surfaceStep).toBe(0);
    // A tool-result prune (seq 30 replaces 11), then a compaction (seq 43 replaces 2…39).
    expect(await nextReplace()).toBe(31);
    expect(region('Surface').querySelector('.surface-change')?.textContent).toContain('with 30');
    expect(surfaceSeqs()).toContain(30);
    await poll(() => bracket(30)?.dataset.depth).toBe('0');
    expect(await nextReplace()).toBe(44);
    expect(region('Surface').querySelector('.surface-change')?.textContent).toContain('replaced 2…39');
    expect(surfaceSeqs()[0]).toBe(43);
    expect(surfaceSeqs()).not.toContain(30);
    // The compaction's bracket, with the prune nested one column in (the prune's node, 11, is
    // near the top: show the top of the timeline).
    await poll(() => region('Timeline').querySelector('[role="row"][data-seq="43"]')?.getAttribute('aria-selected')).toBe('true');
    // The selection's reveal may scroll the grid after this point on a slow machine, so each read
    // scrolls to the top again rather than once before the polls.
    const grid = region('Timeline').querySelector<HTMLElement>('[role="grid"]') as HTMLElement;
    const atTop =
      <T,>(read: () => T) =>
      () => {
        grid.scrollTop = 0;
        return read();
      };
    await poll(atTop(() => bracket(43)?.dataset.depth)).toBe('0');
    await poll(atTop(() => bracket(30)?.dataset.depth)).toBe('1');
    expect(Number(bracket(43)?.dataset.first)).toBe(2);
    expect(Number(bracket(30)?.getBoundingClientRect().left)).toBeGreaterThan(Number(bracket(43)?.getBoundingClientRect().left));
    // Back to the prune: the compaction is no longer applied.
    await press('Previous replace');
    await poll(surfaceStep).toBe(31);
    await poll(() => bracket(43)).toBeNull();
  });

  it('shows a surface error with seq, line and rule message, and keeps the valid prefix navigable', async () => {
    app = await mountApp();
    await open('violation-replace.jsonl', await readFixture('tests/fixtures/violation-replace.jsonl'));
    const message = 'surface replace: sourceEventSeqs must include every shadowed surface node; missing 908';
    await waitForStatus(new RegExp(`^Loaded 3,424 events\\. Surface error at seq 1177, line 228: ${message}$`));
    const banner = document.querySelector('[aria-label="Surface error"]')?.textContent ?? '';
    expect(banner).toContain('Surface error at seq 1177, line 228:');
    expect(banner).toContain(message);
    expect(banner).toContain('surface/missing-shadowed-source');
    expect(banner).toContain('The 1,177 events before it stay fully navigable.');
    // The cursor stops at the end of the valid prefix; stepping works both ways inside it.
    await poll(surfaceStep).toBe(1177);
    expect(button('Next step').getAttribute('aria-disabled')).toBe('true');
    await press('Previous step');
    await poll(surfaceStep).toBe(1176);
    await press('Next step');
    await poll(surfaceStep).toBe(1177);
    await press('Go to start');
    await poll(surfaceStep).toBe(0);
    await press('Next step');
    await press('Next step');
    await poll(surfaceStep).toBe(2);
    await press('Previous step');
    await poll(surfaceStep).toBe(1);
    // The refused event is marked in the timeline, and "Show event" goes there.
    await userEvent.click(button('Show event'));
    await poll(() => region('Timeline').querySelector('[role="row"][data-seq="1177"]')?.className ?? '').toContain('state-rejected');
  });

  it('shows where decoding stopped in a damaged file, and keeps what came before', async () => {
    app = await mountApp();
    await open('violation-unparsable.jsonl', await readFixture('tests/fixtures/violation-unparsable.jsonl'));
    await waitForStatus(/^Loaded 1,165 events\. Decoding stopped at line 216: line 216 is not valid JSON/);
    expect(document.querySelector('[aria-label="Decode error"]')?.textContent).toContain('Decoding stopped at line 216 (byte 86,245)');
    await poll(surfaceStep).toBe(1165);
    await press('Previous step');
    await poll(surfaceStep).toBe(1164);
    await press('Next step');
    await poll(surfaceStep).toBe(1165);
  });

  it('shows where a load stopped at its memory limit, with the rule, and keeps what came before', async () => {
    app = await mountApp({ memoryLimitBytes: 6 * 2 ** 20 });
    const bytes = new TextEncoder().encode(generateText({ seed: 5, events: 40_000 }));
    await open('big.jsonl', bytes);
    await waitForStatus(
      /^Loaded [\d,]+ events\. Decoding stopped at line \d+: stopped reading big\.jsonl at byte \d+ \(line \d+\): reading on would need about/,
    );
    const banner = document.querySelector('[aria-label="Decode error"]')?.textContent ?? '';
    expect(banner).toMatch(/^▲Decoding stopped at line (\d+) \(byte ([\d,]+)\): stopped reading big\.jsonl at byte \d+ \(line \1\)/);
    expect(banner).toMatch(
      /reading on would need about [\d.]+ MiB, over this tab's memory limit of 6\.0 MiB \(decode\/memory-limit\)\. Events before it are loaded\.$/,
    );
    const loaded = Number(/^Loaded ([\d,]+) events/.exec(statusText())?.[1]?.replace(/,/g, ''));
    expect(loaded).toBeGreaterThan(1000);
    // The prefix is folded and navigable.
    await poll(surfaceStep).toBe(loaded);
    await press('Previous step');
    await poll(surfaceStep).toBe(loaded - 1);
  });

  it('reports a stopped engine and reloads the file on a new one', async () => {
    app = await mountApp();
    await open('teaching.jsonl', await readFixture('tests/fixtures/teaching.jsonl'));
    await waitForStatus(/^Loaded 54 events\.$/);
    app.store.getState().client.terminate();
    await waitForStatus(/^The engine stopped: The engine was stopped\. Reload the file to continue\.$/);
    expect(document.querySelector('[aria-label="Engine stopped"]')?.textContent).toContain('The engine stopped');
    await userEvent.click(button('Reload file'));
    await waitForStatus(/^Loaded 54 events\.$/);
    expect(app.workers).toHaveLength(2);
    await press('Go to start');
    await poll(surfaceStep).toBe(0);
  });

  it('reports an engine that crashed (an uncaught error in the worker) and offers to reload', async () => {
    app = await mountApp();
    await open('teaching.jsonl', await readFixture('tests/fixtures/teaching.jsonl'));
    await waitForStatus(/^Loaded 54 events\.$/);
    // A message the worker's RPC layer cannot decode throws outside any handler: the worker
    // reports an uncaught error, as it would for any crash of the engine.
    const worker = app.workers[0] as unknown as Worker;
    worker.postMessage({
      id: 'crash',
      type: 'APPLY',
      path: ['hello'],
      argumentList: [{ type: 'HANDLER', name: 'no-such-handler', value: null }],
    });
    await waitForStatus(/^The engine stopped: The engine worker crashed or failed to start: .+ Reload the file to continue\.$/);
    expect(button('Reload file')).toBeTruthy();
    await userEvent.click(button('Reload file'));
    await waitForStatus(/^Loaded 54 events\.$/);
  });
});
