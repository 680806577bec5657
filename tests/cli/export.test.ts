/**
 * `surface-lens export`: usage errors exit 2; `--jsonl --step K` writes a log that folds as the
 * first K events; `--redact` leaves no seeded secret, path or address and reports counts only;
 * `--html` is one page with a strict policy that Chromium opens with the network off, at the
 * step and selection asked, without a request or a policy violation.
 * Uses Debian's Chromium (`CHROMIUM_PATH` overrides it); that part is skipped, visibly, without it.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { chromium } from 'playwright';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createExportCommand } from '../../src/cli/commands/export';
import { runCli } from '../../src/cli/run';
import { openBytes } from '../../src/core/analyze/open';
import type { SessionAnalysis } from '../../src/core/analyze/session';
import { generateText } from '../../src/core/gen/generate';
import { SEEDED_SECRETS } from '../support/secrets';
import { seedSecrets } from '../support/seed-secrets';

/** What the page-side functions use (this file is type-checked without the DOM library). */
interface PageGlobals {
  document: { querySelector(selector: string): { textContent: string | null } | null };
}
const shows = ([selector, text]: [string, string]): boolean =>
  ((globalThis as unknown as PageGlobals).document.querySelector(selector)?.textContent ?? '').includes(text);

const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const repo = join(import.meta.dirname, '..', '..');
const work = mkdtempSync(join(tmpdir(), 'surface-lens-export-'));
const viewerDir = join(work, 'viewer');
const log = join(work, 'seeded.jsonl');
writeFileSync(
  log,
  seedSecrets(
    generateText({ seed: 21, events: 500, pruneThreshold: 1500, longToolResultRate: 0.3, compaction: { thresholdTokens: 2500 } }),
    3,
  ),
);
const commands = [createExportCommand({ templatePath: join(viewerDir, 'standalone.html') })];

async function cli(...argv: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    ['export', ...argv],
    { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: (t: string) => (stderr += t) } },
    commands,
  );
  return { code, stdout, stderr };
}

async function open(path: string): Promise<SessionAnalysis> {
  return (await openBytes(readFileSync(path), { name: path })).sessions[0] as SessionAnalysis;
}

afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('surface-lens export', () => {
  it('exits 2 with a message for what it cannot use', async () => {
    expect((await cli()).code).toBe(2);
    const noOutput = await cli(log);
    expect(noOutput.code).toBe(2);
    expect(noOutput.stderr).toContain('export needs --html OUT or --jsonl OUT');
    expect((await cli(log, '--jsonl', join(work, 'x.jsonl'), '--step', 'ten')).code).toBe(2);
    expect((await cli(log, '--jsonl', join(work, 'x.jsonl'), '--step', '100000')).stderr).toMatch(/--step 100000: .* has \d+ events/);
    expect((await cli(log, '--jsonl', join(work, 'x.jsonl'), '--frobnicate')).code).toBe(2);
    expect((await cli(log, '--jsonl', join(work, 'x.jsonl'), '--redact-report', join(work, 'r.json'))).code).toBe(2);
    expect((await cli(join(work, 'missing.jsonl'), '--jsonl', join(work, 'x.jsonl'))).code).toBe(2);
    expect(existsSync(join(work, 'x.jsonl'))).toBe(false);
    const help = await runCli(['export', '--help'], { stdout: { write: () => true }, stderr: { write: () => true } }, commands);
    expect(help).toBe(0);
  });

  it('--jsonl --step K writes the header and the first K events, folding as they did', async () => {
    const original = await open(log);
    for (const k of [0, 37, 211, original.log.length]) {
      const out = join(work, `cut-${k}.jsonl`);
      const { code, stderr } = await cli(log, '--jsonl', out, '--step', String(k));
      expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
      const cut = await open(out);
      expect(cut.log.length).toBe(k);
      expect(cut.header).toEqual(original.header);
      expect(cut.fold.nodes).toEqual(original.index.nodesAt(Math.min(k, original.fold.accepted)));
      expect(cut.fold.replacements).toEqual(original.fold.replacements.filter((r) => r.seq < k));
    }
  });

  it('--redact: no seeded value survives, the fold is the same, and the report has counts only', async () => {
    const out = join(work, 'redacted.jsonl');
    const reportPath = join(work, 'redacted.report.json');
    const { code, stderr } = await cli(log, '--jsonl', out, '--redact', '--redact-report', reportPath);
    expect(code).toBe(0);
    const text = readFileSync(out, 'utf8');
    const report = readFileSync(reportPath, 'utf8');
    for (const secret of SEEDED_SECRETS) {
      expect(text).not.toContain(secret.leak);
      expect(stderr).not.toContain(secret.leak);
      expect(report).not.toContain(secret.leak);
    }
    expect(stderr).toMatch(/^redacted \d+ values in \d+ records:\n/);
    expect(stderr).toMatch(/ {2}email: \d+ occurrences?, 1 different/);
    const kinds = (JSON.parse(report) as { kinds: Record<string, { occurrences: number }> }).kinds;
    for (const secret of SEEDED_SECRETS) expect(kinds[secret.kind]?.occurrences).toBeGreaterThan(0);
    const [original, redacted] = [await open(log), await open(out)];
    expect(redacted.fold).toEqual(original.fold);
  });
});

describe.skipIf(!existsSync(executablePath))('export --html in Chromium with the network off', () => {
  beforeAll(async () => {
    await build({
      configFile: join(repo, 'vite.standalone.config.ts'),
      logLevel: 'silent',
      build: { outDir: viewerDir, emptyOutDir: true },
    });
  }, 180_000);

  it('is one page that opens offline at the step and selection, redacted, with no request and no policy violation', async () => {
    const out = join(work, 'shared.html');
    const { code } = await cli(log, '--html', out, '--step', '120', '--seq', '100', '--redact');
    expect(code).toBe(0);
    const html = readFileSync(out, 'utf8');
    expect(html).toMatch(
      /<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'sha256-[^']+'; style-src 'sha256-[^']+'/,
    );
    const markup = html.replace(/<script type="module"[^>]*>[\s\S]*?<\/script>/g, '').replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
    expect(markup.match(/<script type="application\/gzip\+base64" id="surface-lens-session">/g)).toHaveLength(1);
    expect(markup).not.toMatch(/<script[^>]+src=|<link[^>]+href=/);
    for (const secret of SEEDED_SECRETS) expect(html).not.toContain(secret.leak);

    const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu'] });
    try {
      const context = await browser.newContext({ offline: true });
      const page = await context.newPage();
      const requests: string[] = [];
      const problems: string[] = [];
      page.on('request', (request) => requests.push(request.url()));
      page.on('pageerror', (error) => problems.push(error.message));
      page.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      const url = pathToFileURL(out).href;
      await page.goto(url);
      await page.waitForSelector('.app[data-status=ready]');
      // Functions, not strings: the page's policy forbids evaluating text as script.
      await page.waitForFunction(shows, ['.tp-readout', 'step 120 /'] as [string, string]);
      await page.waitForFunction(shows, ['.inspector-title', 'seq 100'] as [string, string]);
      const shown = await page.textContent('.tp-readout');
      expect(shown).toMatch(/^step 120 \/ 120/);
      const body = (await page.textContent('body')) ?? '';
      for (const secret of SEEDED_SECRETS) expect(body).not.toContain(secret.leak);
      expect(requests).toEqual([url]);
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  }, 120_000);
});
