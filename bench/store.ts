/**
 * `npm run bench:store`: the Sessions view of `surface-lens view` over generated stores. Builds
 * the app once, then per store shape starts the server (cold: a fresh process cache) and opens the
 * page in Chromium, timing the page's first rows and the moment every title has arrived. The
 * baseline, measured in the same run on the same store, is the least any lister does: walk the
 * directories, `stat` every file and read its first 4 KiB.
 *
 *   npm run bench:store -- [--sessions 1000] [--big 10000]
 */
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium } from 'playwright';
import { build } from 'vite';
import { startViewServer } from '../src/server/server';
import { writeStore } from '../tests/support/store-builder';
import type { StoreSessionSpec } from '../tests/support/store-builder';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const outDir = join(process.cwd(), 'bench', 'out');
const sessions = arg('sessions', 1000);
const big = arg('big', 10_000);

interface Shape {
  name: string;
  count: number;
  spec: (i: number) => StoreSessionSpec;
}

const projects = 40;
const shapes: Shape[] = [
  {
    name: `${sessions} small zstd sessions (~200 events)`,
    count: sessions,
    spec: (i) => ({
      id: `s-${i}`,
      cwd: `/home/dev/p${i % projects}`,
      gen: { seed: i + 1, events: 200, startTime: 1785400000000 + i * 1000 },
      ...(i % 5 === 4 ? { parent: { id: `s-${i - 1}`, depth: 1 } } : {}),
    }),
  },
  {
    name: `${sessions} sessions, raw JSONL, every tenth ~5,000 events`,
    count: sessions,
    spec: (i) => ({
      id: `r-${i}`,
      cwd: `/home/dev/p${i % projects}`,
      encoding: 'jsonl',
      gen: { seed: i + 7, events: i % 10 === 0 ? 5000 : 200, startTime: 1785400000000 + i * 1000 },
    }),
  },
  {
    name: `${big} small zstd sessions`,
    count: big,
    spec: (i) => ({
      id: `b-${i}`,
      cwd: `/home/dev/p${i % (projects * 5)}`,
      gen: { seed: i + 3, events: 60, startTime: 1785400000000 + i * 1000 },
    }),
  },
];

async function storeFor(shape: Shape, index: number): Promise<string> {
  const dir = join(outDir, `store-${index}-${shape.count}`);
  if (existsSync(join(dir, '.complete'))) return dir;
  process.stderr.write(`generating ${shape.name} …\n`);
  const specs = Array.from({ length: shape.count }, (_, i) => shape.spec(i));
  for (let i = 0; i < specs.length; i += 200) await writeStore(dir, specs.slice(i, i + 200));
  writeFileSync(join(dir, '.complete'), '');
  return dir;
}

/** The baseline: walk, stat, read the first 4 KiB of every session file. */
async function baseline(root: string): Promise<number> {
  const start = performance.now();
  const buffer = Buffer.alloc(4096);
  for (const project of readdirSync(root)) {
    const projectDir = join(root, project);
    if (!statSync(projectDir).isDirectory()) continue;
    for (const session of readdirSync(projectDir)) {
      for (const name of readdirSync(join(projectDir, session))) {
        const path = join(projectDir, session, name);
        statSync(path);
        const handle = await open(path, 'r');
        await handle.read(buffer, 0, 4096, 0);
        await handle.close();
      }
    }
  }
  return performance.now() - start;
}

const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main(): Promise<void> {
  mkdirSync(outDir, { recursive: true });
  const appDir = join(outDir, 'store-app');
  await build({ logLevel: 'warn', build: { outDir: appDir, emptyOutDir: true, sourcemap: false } });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu'],
  });
  const rows: string[] = [];
  const results: unknown[] = [];
  for (const [index, shape] of shapes.entries()) {
    const root = await storeFor(shape, index);
    const base = median([await baseline(root), await baseline(root), await baseline(root)]);
    const firstRows: number[] = [];
    const allTitles: number[] = [];
    let listMs = 0;
    for (let run = 0; run < 3; run++) {
      // A fresh server each run: its header and title caches start empty.
      const started = performance.now();
      const server = await startViewServer({ paths: [root], appDir, defaultPort: 0, pollMs: 60_000, noWatcher: true });
      listMs = performance.now() - started;
      const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
      let titled = 0;
      let lastTitle = 0;
      page.on('response', (response) => {
        if (!response.url().includes('/api/store/details')) return;
        response.json().then(
          (list: { title: string | null }[]) => {
            titled += list.length;
            lastTitle = performance.now();
          },
          () => {},
        );
      });
      const opened = performance.now();
      await page.goto(server.url);
      await page.waitForFunction(
        () => {
          // Typed without the DOM library (this file is type-checked for Node).
          const doc = (globalThis as unknown as { document: { querySelectorAll(s: string): ArrayLike<{ textContent: string | null }> } })
            .document;
          return Array.from(doc.querySelectorAll('[role=treeitem] .sv-title')).some((el) => el.textContent !== '…');
        },
        undefined,
        { timeout: 120_000 },
      );
      firstRows.push(performance.now() - opened);
      const until = performance.now() + 120_000;
      while (titled < shape.count && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      if (titled < shape.count) throw new Error(`${shape.name}: only ${titled} titles arrived`);
      allTitles.push(lastTitle - opened);
      await page.close();
      await server.close();
    }
    const first = median(firstRows);
    const all = median(allTitles);
    results.push({
      shape: shape.name,
      sessions: shape.count,
      baselineMs: base,
      serverStartMs: listMs,
      firstRowsMs: first,
      allTitlesMs: all,
    });
    rows.push(
      `| ${shape.name} | ${base.toFixed(0)} ms | ${listMs.toFixed(0)} ms (${(listMs / base).toFixed(1)}×) | ${first.toFixed(0)} ms | **${all.toFixed(0)} ms** (${(all / base).toFixed(1)}×) |`,
    );
  }
  await browser.close();
  console.log(
    '| store | baseline: walk + stat + first 4 KiB | server start: walk + every header (cold) | page open → first titled rows | page open → every title (median of 3, cold) |',
  );
  console.log('|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  writeFileSync(join(outDir, 'store-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
}

void main();
