/**
 * `check --format html`: one self-contained page under a strict CSP, checked as text and then
 * opened in Chromium with the network off (no request leaves, no policy violation, the table sorts).
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import { describe, expect, it } from 'vitest';
import { REPORT_CSP } from '../../src/cli/check/html';
import { runCli } from '../../src/cli/run';
import { SessionStore } from '../../src/server/listing';
import { nodeFs } from '../../src/server/store-fs';

const header = (id: string): string => `{"type":"session","version":0,"id":"${id}","createdAt":0,"delegationDepth":0}`;
const user = (seq: number, text: string): string =>
  `{"type":"user/message","seq":${seq},"time":0,"data":{"id":"u${seq}","role":"user","content":[{"type":"text","text":${JSON.stringify(text)}}],"source":{"kind":"user"}},"surfaceOp":"append"}`;

const root = mkdtempSync(join(tmpdir(), 'surface-lens-html-'));
for (let i = 0; i < 5; i++) {
  const dir = join(root, '--p--', `s${i}`);
  mkdirSync(dir, { recursive: true });
  const seqs = Array.from({ length: 2 + i * 3 }, (_, k) => k);
  if (i === 2) seqs.push(seqs.length + 1);
  writeFileSync(
    join(dir, 'session.jsonl'),
    [header(`<img src=x onerror=alert(${i})>`), ...seqs.map((k) => user(k, `<script>alert(${k})</script>`.repeat(i + 1))), ''].join('\n'),
  );
}

async function report(): Promise<{ code: number; html: string }> {
  let html = '';
  const code = await runCli(['check', '--format', 'html', '--jobs', '1', root], {
    stdout: { write: (t: string) => (html += t) },
    stderr: { write: () => true },
  });
  return { code, html };
}

const sha = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

describe('check --format html', () => {
  it('is one document with a strict CSP whose hashes match its only style and script, and log text escaped', async () => {
    const { code, html } = await report();
    expect(code).toBe(1);
    expect(html).toContain(`<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">`);
    expect(REPORT_CSP).toMatch(/^default-src 'none';/);
    const styles = [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map((m) => m[1] as string);
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1] as string);
    expect(styles).toHaveLength(1);
    expect(scripts).toHaveLength(1);
    expect(REPORT_CSP).toContain(`style-src ${sha(styles[0]!)}`);
    expect(REPORT_CSP).toContain(`script-src ${sha(scripts[0]!)}`);
    // Nothing refers outside the file, and no log text became markup.
    expect(html.replace(/"[^"]*"/g, '""')).not.toMatch(/<[^>]*\s(src|href)=/);
    expect(html).not.toContain('<img');
    expect(html).toContain('&lt;img src=x onerror=alert(0)&gt;');
    expect((html.match(/<tr class="(pass|fail)">/g) ?? []).length).toBe(5);
    expect((html.match(/<polyline /g) ?? []).length).toBe(5);
  });

  it('with --view-url, links each session to the id `surface-lens view` lists it under', async () => {
    const store = new SessionStore({ fs: nodeFs, paths: [root] });
    await store.refresh();
    const ids = new Map<string, string>();
    for (const row of store.current().sessions) {
      const found = await store.pathOf(row.id);
      if (found) ids.set(found.path, row.id);
    }
    expect(ids.size).toBe(5);
    let html = '';
    const base = 'http://127.0.0.1:7380/?token=t0k3n';
    const code = await runCli(['check', '--format', 'html', '--jobs', '1', '--view-url', base, root], {
      stdout: { write: (t: string) => (html += t) },
      stderr: { write: () => true },
    });
    expect(code).toBe(1);
    const rows = [...html.matchAll(/<td class="path" data-v="([^"]*)">[\s\S]*?<a href="([^"]*)" rel="noopener noreferrer">open<\/a>/g)];
    expect(rows).toHaveLength(5);
    for (const [, path, href] of rows) {
      const id = ids.get(realpathSync(path as string));
      expect(id).toBeDefined();
      expect(href).toBe(`${base}#session=${id}`);
    }
    const usage = async (...argv: string[]): Promise<number> =>
      runCli(['check', ...argv, root], { stdout: { write: () => true }, stderr: { write: () => true } });
    expect(await usage('--format', 'html', '--view-url', 'file:///x')).toBe(2);
    expect(await usage('--format', 'json', '--view-url', base)).toBe(2);
  });

  const browser = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
  it.skipIf(!existsSync(browser))(
    `opens offline in Chromium without a request or a CSP violation, and sorts${existsSync(browser) ? '' : ' [SKIPPED: no Chromium]'}`,
    async () => {
      const { html } = await report();
      const file = join(root, 'report.html');
      writeFileSync(file, html);
      const instance = await chromium.launch({ executablePath: browser, headless: true, args: ['--no-sandbox', '--disable-gpu'] });
      try {
        const context = await instance.newContext({ offline: true });
        const page = await context.newPage();
        const requests: string[] = [];
        const problems: string[] = [];
        page.on('request', (r) => {
          if (r.url() !== pathToFileURL(file).href) requests.push(r.url());
        });
        page.on('console', (m) => {
          if (m.type() === 'error') problems.push(m.text());
        });
        page.on('pageerror', (e) => problems.push(e.message));
        page.on('dialog', (d) => {
          problems.push(`dialog: ${d.message()}`);
          void d.dismiss();
        });
        await page.goto(pathToFileURL(file).href);
        const events = async (): Promise<number[]> =>
          page.$$eval('#sessions tbody tr', (rows) =>
            rows.map((r) =>
              Number(
                (r as unknown as { cells: ArrayLike<{ getAttribute(name: string): string | null }> }).cells[4]!.getAttribute('data-v'),
              ),
            ),
          );
        const before = await events();
        expect(before).toHaveLength(5);
        await page.click('th:nth-child(5) button');
        const ascending = await events();
        expect(ascending).toEqual([...before].sort((a, b) => a - b));
        await page.click('th:nth-child(5) button');
        expect(await events()).toEqual([...before].sort((a, b) => b - a));
        expect(await page.getAttribute('th:nth-child(5)', 'aria-sort')).toBe('descending');
        expect(requests).toEqual([]);
        expect(problems).toEqual([]);
      } finally {
        await instance.close();
      }
    },
  );
});
