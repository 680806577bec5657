/**
 * `npm run bench`: generate (or reuse) a large log, then time the baseline and `check` in
 * fresh processes of the same run, and measure seeks. Prints a Markdown table of ratios and
 * writes bench/out/latest.json.
 *
 *   npm run bench -- [--events 1000000] [--seed 1] [--runs 3] [--no-app]
 *
 * Then, unless `--no-app`, the app benchmark (bench/app.ts) on the same log, given this run's
 * `check` time; its table follows and its results go into latest.json under `app`.
 */
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'vite';
import { generateLines } from '../src/core/gen/generate';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const events = arg('events', 1_000_000);
const seed = arg('seed', 1);
const runs = arg('runs', 3);
const withApp = !process.argv.includes('--no-app');
const outDir = join(process.cwd(), 'bench', 'out');
mkdirSync(outDir, { recursive: true });
const file = join(outDir, `gen-${events}-seed${seed}.jsonl`);

async function generate(): Promise<void> {
  if (existsSync(file)) return;
  const out = createWriteStream(file);
  let batch: string[] = [];
  for (const line of generateLines({ seed, events })) {
    batch.push(line);
    if (batch.length >= 4096) {
      if (!out.write(`${batch.join('\n')}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
      batch = [];
    }
  }
  if (batch.length > 0) out.write(`${batch.join('\n')}\n`);
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
}

const taskBundle = join(outDir, 'task.mjs');

/** Bundle the task runner like the shipped CLI (no TypeScript loader in the measured process). */
async function bundleTask(): Promise<void> {
  await build({
    logLevel: 'warn',
    configFile: false,
    build: {
      ssr: join('bench', 'task.ts'),
      outDir,
      emptyOutDir: false,
      target: 'node20',
      rollupOptions: { output: { entryFileNames: 'task.mjs' } },
    },
    ssr: { noExternal: true },
  });
}

function task(name: string): Record<string, number | string | null> {
  const out = execFileSync(process.execPath, [taskBundle, name, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop() as string) as Record<string, number | string | null>;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
}

async function main(): Promise<void> {
  const t0 = Date.now();
  await generate();
  await bundleTask();
  const size = statSync(file).size;
  console.error(`log: ${file} (${(size / 1e6).toFixed(1)} MB, generated/reused in ${Date.now() - t0} ms)`);
  const baselines: Record<string, number | string | null>[] = [];
  const checks: Record<string, number | string | null>[] = [];
  for (let i = 0; i < runs; i++) {
    baselines.push(task('baseline'));
    checks.push(task('check'));
  }
  const seek = task('seek');
  const baseMs = median(baselines.map((b) => b.ms as number));
  const checkMs = median(checks.map((c) => c.ms as number));
  const checkRss = Math.max(...checks.map((c) => c.peakRss as number));
  const baseRss = Math.max(...baselines.map((b) => b.peakRss as number));
  const last = checks[checks.length - 1] as Record<string, number | string | null>;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    file: { events: last.events, bytes: size },
    baseline: { ms: baseMs, peakRss: baseRss },
    check: { ms: checkMs, peakRss: checkRss, ...last },
    seek,
    ratios: {
      checkOverBaseline: checkMs / baseMs,
      checkRssOverFile: checkRss / size,
      baselineRssOverFile: baseRss / size,
    },
  };
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
  const f = (n: unknown, d = 2): string => (typeof n === 'number' ? n.toFixed(d) : String(n));
  console.log(`| measure | value | target |
|---|---|---|
| log | ${String(last.events)} events, ${mb(size)} JSONL | ~1M events, ~85 MB |
| baseline (read + JSON.parse + expand), median of ${runs} | ${f(baseMs, 0)} ms | — |
| \`check\` end to end incl. time-travel index, median of ${runs} | ${f(checkMs, 0)} ms | — |
| **check / baseline** | **${f(report.ratios.checkOverBaseline)}×** | ≤ 1.5× |
| seek, full surface at a random step: p50 / p99 | ${f(seek.fullP50, 3)} / **${f(seek.fullP99, 3)} ms** | p99 ≤ 2 ms |
| seek + 60-node surface window with previews: p50 / p99 | ${f(seek.windowP50, 3)} / ${f(seek.windowP99, 3)} ms | — |
| peak RSS of \`check\` | ${mb(checkRss)} = **${f(report.ratios.checkRssOverFile)}× file** | ≤ 3× file |
| peak RSS of the baseline | ${mb(baseRss)} = ${f(report.ratios.baselineRssOverFile)}× file | — |
| nodes that ever lived / replacements | ${String(last.nodesEverLived)} / ${String(last.replacements)} | — |
| index size (checkpoint every ${String(last.checkpointEvery)} steps) | ${mb(last.indexBytes as number)} | — |`);
  if (!withApp) return;
  const { appTable, runAppBench } = await import('./app');
  const app = await runAppBench({ file, checkMs });
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify({ ...report, app }, null, 2)}\n`);
  console.log(`\n${appTable(app)}`);
}

void main();
