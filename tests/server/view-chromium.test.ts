/**
 * `surface-lens view` in Chromium: the built app served by the real server over a temporary
 * store of Zstandard sessions with a subagent tree. Opens a session, appends frames to it and
 * adds a session while the page is open, and reloads to the same session and step; searches the
 * whole store, opens a result, and finds what a session gained after the index was built.
 * Uses Debian's Chromium (`CHROMIUM_PATH` overrides it); skipped, visibly, where there is none.
 */
import { appendFileSync, existsSync } from 'node:fs';
import { chromium } from 'playwright';
import type { Browser, Page } from 'playwright';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { generateLog } from '../../src/core/gen/generate';
import { startViewServer } from '../../src/server/server';
import type { ViewServer } from '../../src/server/server';
import { writeStore } from '../support/store-builder';
import type { StoreSessionSpec } from '../support/store-builder';
import { zstdFrames } from '../support/zstd-frames';
import { tempDir, treeSpecs } from './helpers';

/** What the page-side functions use (this file is type-checked without the DOM library). */
interface PageGlobals {
  location: { hash: string };
  document: {
    querySelector(selector: string): { textContent: string | null } | null;
    querySelectorAll(selector: string): { length: number };
  };
}

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const haveChromium = existsSync(executablePath);

describe.skipIf(!haveChromium)('surface-lens view in Chromium', () => {
  const app = tempDir('sl-app-');
  const store = tempDir();
  let browser: Browser;
  let server: ViewServer;
  let paths: string[];
  const specs: StoreSessionSpec[] = treeSpecs('zstd');

  beforeAll(async () => {
    await build({ logLevel: 'silent', build: { outDir: app.dir, emptyOutDir: true, sourcemap: false } });
    paths = await writeStore(store.dir, specs);
    server = await startViewServer({ paths: [store.dir], appDir: app.dir, defaultPort: 0, pollMs: 500 });
    browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await server?.close();
    app.remove();
    store.remove();
  });

  const rows = (page: Page) =>
    page.$$eval('[role=treeitem]', (items) =>
      items.map((item) => `${item.getAttribute('aria-level')} ${item.querySelector('.sv-id, .sv-project')?.textContent ?? ''}`),
    );
  const eventsShown = async (page: Page): Promise<number> => {
    const text = (await page.textContent('.appbar-file .muted')) ?? '';
    return Number(/([\d,]+) events/.exec(text)?.[1]?.replace(/,/g, '') ?? NaN);
  };

  it('lists the tree, opens a session, follows appended frames and a new session, and a reload restores session and step', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForSelector('[role=tree] [role=treeitem]');
    const listed = await rows(page);
    expect([...listed].sort()).toEqual(['1 /home/dev/alpha', '1 /home/dev/beta', '2 other-1', '2 parent-1', '3 child-1', '4 grandchild-1']);
    const at = listed.indexOf('2 parent-1');
    expect(listed.slice(at - 1, at + 3)).toEqual(['1 /home/dev/alpha', '2 parent-1', '3 child-1', '4 grandchild-1']);
    // The token moved from the address bar to a cookie.
    expect(page.url()).not.toContain('token=');

    // Open the parent.
    await page.click('[role=treeitem]:has-text("parent-1")');
    await page.waitForSelector('.app[data-status=ready]');
    const before = await eventsShown(page);
    const parent = specs[0] as StoreSessionSpec;
    const initial = Array.from(generateLog({ ...parent.gen, sessionId: parent.id }).lines);
    expect(before).toBeGreaterThan(0);
    await page.waitForFunction(() => (globalThis as unknown as PageGlobals).location.hash.startsWith('#session='));

    // dsh appends two batches: one frame each.
    const longer = Array.from(generateLog({ ...parent.gen, events: 1200, sessionId: parent.id }).lines);
    expect(longer.slice(0, initial.length)).toEqual(initial);
    const extra = longer.slice(initial.length);
    const half = Math.ceil(extra.length / 2);
    appendFileSync(paths[0] as string, await zstdFrames([`${extra.slice(0, half).join('\n')}\n`, `${extra.slice(half).join('\n')}\n`]));
    await page.waitForFunction(
      (n) => {
        const text = (globalThis as unknown as PageGlobals).document.querySelector('.appbar-file .muted')?.textContent ?? '';
        return Number(/([\d,]+) events/.exec(text)?.[1]?.replace(/,/g, '')) > n;
      },
      before,
      { timeout: 15_000 },
    );
    expect(await page.textContent('.store-bar')).toMatch(/The open session grew: [\d,]+ new events?, only the new bytes read\./);

    // A new session while the page is open shows up in the list.
    await writeStore(store.dir, [{ id: 'fresh-1', cwd: '/home/dev/gamma', gen: { seed: 77, events: 60 } }]);
    await page.click('button:has-text("← Sessions")');
    await page.waitForSelector('[role=treeitem]:has-text("fresh-1")', { timeout: 15_000 });
    await page.click('button:has-text("Back to the session")');

    // Move to a step; the URL carries it; a reload comes back to it.
    await page.fill('input[aria-label="Jump to step"]', '17');
    await page.press('input[aria-label="Jump to step"]', 'Enter');
    await page.waitForFunction(() => /[#&]step=17(&|$)/.test((globalThis as unknown as PageGlobals).location.hash));
    const hash = await page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash);
    const grown = await eventsShown(page);
    expect(grown).toBeGreaterThan(before);
    await page.reload();
    await page.waitForSelector('.app[data-status=ready]');
    expect(await page.evaluate(() => (globalThis as unknown as PageGlobals).location.hash)).toBe(hash);
    expect(await page.textContent('.transport')).toContain('step 17 /');
    expect(await eventsShown(page)).toBe(grown);
    expect(errors).toEqual([]);
    await page.close();
  });
  it('searches every session of the store, opens a result at its event, and finds what a session gained after indexing', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    await page.goto(server.url);
    await page.waitForSelector('[role=tree] [role=treeitem]');
    const box = 'input[aria-label="Search all sessions"]';
    const results = 'section[aria-label="Search results"]';

    // Every session of the store has user messages: one group per session.
    await page.fill(box, 'type:user/message');
    await page.press(box, 'Enter');
    await page.waitForSelector(`${results} .ss-session`, { timeout: 15_000 });
    await page.waitForFunction(
      (n) =>
        (globalThis as unknown as PageGlobals).document.querySelectorAll('section[aria-label="Search results"] .ss-session').length >= n,
      5,
      {
        timeout: 15_000,
      },
    );

    // dsh writes a user message with a word no session holds into other-1, after the index was built.
    const other = specs[3] as StoreSessionSpec;
    const path = paths[3] as string;
    const lines = Array.from(generateLog({ ...other.gen, sessionId: other.id }).lines);
    const opened = await openBytes(new TextEncoder().encode(`${lines.join('\n')}\n`), { name: 'other.jsonl' });
    const log = opened.sessions[0]!.log;
    const last = log.event(log.length - 1) as { seq: number; time: number };
    const seq = last.seq + 1;
    const event = {
      seq,
      time: last.time + 1000,
      type: 'user/message',
      data: { id: 'u-zebraquill', role: 'user', content: [{ type: 'text', text: 'please rename zebraquill' }], source: { kind: 'user' } },
      surfaceOp: 'append',
    };
    appendFileSync(path, await zstdFrames([`${JSON.stringify(event)}\n`]));

    // The index follows the growth: the new word is found in that session, at that event.
    // Asked again until the server has seen the change (its watch polls every 500 ms here).
    const found = async (): Promise<string | null> => {
      await page.fill(box, 'zebraquill');
      await page.press(box, 'Enter');
      await page.waitForTimeout(300);
      return page.textContent(`${results} .ss-match`).catch(() => null);
    };
    let text: string | null = null;
    for (let i = 0; i < 40 && !(text ?? '').includes('zebraquill'); i++) text = await found();
    expect(text).toContain(String(seq));
    expect(text).toContain('zebraquill');
    await page.click(`${results} .ss-match`);
    await page.waitForSelector('.app[data-status=ready]');
    await page.waitForFunction((n) => new RegExp(`[#&]seq=${n}(&|$)`).test((globalThis as unknown as PageGlobals).location.hash), seq, {
      timeout: 15_000,
    });
    expect(errors).toEqual([]);
    await page.close();
  });
});
