/** The app at 1100×800 with a real log: nothing that carries meaning is cut or overlapped. */
import { afterEach, describe, expect, it } from 'vitest';
import { page, userEvent } from 'vitest/browser';
import { mountApp, readFixture, region, statusText } from './app-harness';
import type { MountedApp } from './app-harness';
import { storeRow } from '../support/store-rows';

let app: MountedApp | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

async function open(name: string, bytes: Uint8Array): Promise<void> {
  const input = document.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  await userEvent.upload(input, new File([bytes as BlobPart], name));
  await expect.poll(statusText, { timeout: 20_000 }).toMatch(/^Loaded /);
}

describe('layout at 1100×800', () => {
  it('shows the timeline, surface and inspector without cutting what they say', async () => {
    app = await mountApp();
    await page.viewport(1100, 800);
    await open('nested.jsonl', await readFixture('tests/fixtures/nested.jsonl'));
    await new Promise((r) => setTimeout(r, 1500));
    const first = region('Surface').querySelector<HTMLButtonElement>('li[data-seq="604"] .sf-select');
    if (first) await userEvent.click(first);
    await new Promise((r) => setTimeout(r, 1000));
    // The timeline's summary keeps room for words, not three characters.
    const summary = region('Timeline').querySelector<HTMLElement>('[role="row"] .c-summary');
    expect(summary?.getBoundingClientRect().width ?? 0).toBeGreaterThanOrEqual(60);
    // A surface row's badges do not overlap what comes before them.
    const row = region('Surface').querySelector<HTMLElement>('li[data-seq="604"] .sf-row');
    const select = row?.querySelector<HTMLElement>('.sf-select')?.getBoundingClientRect();
    const replaced = row?.querySelector<HTMLElement>(':scope > .badge')?.getBoundingClientRect();
    expect(select && replaced && replaced.left >= select.right - 0.5).toBe(true);
    // Shadowed-range kind badges keep their words.
    const badges = [...region('Shadowed ranges').querySelectorAll<HTMLElement>('.sr-select .badge')];
    expect(badges.length).toBeGreaterThan(0);
    for (const badge of badges) expect(badge.scrollWidth).toBeLessThanOrEqual(badge.clientWidth + 1);
    // The inspector's surfaceOp wraps instead of being cut.
    const op = [...region('Inspector').querySelectorAll<HTMLElement>('.kv')].find(
      (kv) => kv.querySelector('dt')?.textContent === 'surfaceOp',
    );
    const dd = op?.querySelector<HTMLElement>('dd');
    expect(dd?.textContent).toContain('"op":"replace"');
    expect(dd!.scrollWidth).toBeLessThanOrEqual(dd!.clientWidth + 1);
  });

  it('times: elapsed or wall-clock with the date where it changes, never clipped; — for synthetic times', async () => {
    app = await mountApp();
    await page.viewport(1100, 800);
    await open('nested.jsonl', await readFixture('tests/fixtures/nested.jsonl'));
    const cells = (): HTMLElement[] => [...region('Timeline').querySelectorAll<HTMLElement>('[role="row"] .c-time')];
    await expect.poll(() => cells()[0]?.textContent).toBe('+0.000s');
    expect(cells()[0]?.title).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z \(\d+ ms\)$/);
    await userEvent.click(region('Timeline').querySelector<HTMLButtonElement>('button[aria-label="Show wall-clock time"]')!);
    await expect.poll(() => cells()[0]?.textContent ?? '').toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}$/);
    expect(cells()[1]?.textContent).toMatch(/^\d\d:\d\d:\d\d\.\d{3}$/);
    for (const cell of cells().slice(0, 10)) expect(cell.scrollWidth).toBeLessThanOrEqual(cell.clientWidth + 1);
    app.unmount();
    app = await mountApp();
    await open('nested.projected.jsonl', await readFixture('tests/fixtures/forms/nested.projected.jsonl'));
    await expect.poll(() => cells()[0]?.textContent).toBe('—');
    expect(region('Timeline').querySelector('.tl-note')?.textContent).toContain('envelope-projected snapshot records no times');
  });

  it('Sessions view: a row with a state badge, a reason or a note keeps the columns of the rows without', async () => {
    app = await mountApp();
    await page.viewport(1100, 800);
    const now = Date.now();
    const rows = [
      storeRow('a1', { modifiedAt: now - 60_000, createdAt: now - 3_600_000 }),
      storeRow('a2', {
        modifiedAt: now - 120_000,
        createdAt: now - 7_200_000,
        state: 'damaged',
        reason: 'corrupt session log: first line is not a session header',
      }),
      storeRow('a3', {
        modifiedAt: now - 180_000,
        createdAt: now - 7_300_000,
        parentSession: 'session-a1',
        origin: 'subagent',
        delegationDepth: 1,
        seedLength: 1200,
        state: 'live',
      }),
      storeRow('a4', {
        modifiedAt: now - 240_000,
        createdAt: now - 7_400_000,
        state: 'refused',
        reason: "a different encoding in this root: --home-dev-alpha--/x/session.jsonl is compression: 'none'",
      }),
      storeRow('a5', { modifiedAt: now - 300_000, createdAt: null, size: 12_345_678 }),
    ];
    const details = Object.fromEntries(
      rows.map((row, i) => [row.id, { id: row.id, title: `Session number ${i + 1}`, titleFrom: 'title' as const, events: 10 ** (i + 1) }]),
    );
    app.store.setState({
      storeMode: true,
      showingSessions: true,
      storeListing: { roots: ['/home/dev/.dsh/sessions'], sessions: rows, skipped: [] },
      storeDetails: details,
    });
    await expect.poll(() => document.querySelectorAll('.sv-row.sv-session').length).toBe(5);
    const sessionRows = [...document.querySelectorAll<HTMLElement>('.sv-row.sv-session')];
    for (const column of ['.sv-id', '.sv-time', '.sv-size', '.sv-events', '.sv-flags']) {
      const lefts = sessionRows.map((row) => row.querySelector<HTMLElement>(column)?.getBoundingClientRect().left ?? NaN);
      const rights = sessionRows.map((row) => row.querySelector<HTMLElement>(column)?.getBoundingClientRect().right ?? NaN);
      expect(Math.max(...lefts) - Math.min(...lefts), `${column} starts in the same place on every row`).toBeLessThan(1);
      expect(Math.max(...rights) - Math.min(...rights), `${column} ends in the same place on every row`).toBeLessThan(1);
    }
    // The badges keep their words, and nothing runs out of the row.
    for (const badge of document.querySelectorAll<HTMLElement>('.sv-state'))
      expect(badge.scrollWidth).toBeLessThanOrEqual(badge.clientWidth + 1);
    for (const row of sessionRows) {
      const flags = row.querySelector<HTMLElement>('.sv-flags')!.getBoundingClientRect();
      expect(flags.right).toBeLessThanOrEqual(row.getBoundingClientRect().right + 0.5);
    }
  });
});
