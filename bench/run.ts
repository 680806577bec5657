/**
 * `npm run bench`: generate (or reuse) large logs of each shape, then time the baseline and
 * `check` in fresh processes of the same run, alternated, and measure seeks. Prints Markdown
 * tables of ratios and writes bench/out/latest.json.
 *
 *   npm run bench -- [--shape default|all|NAME,NAME] [--events 1000000[,3000000]] [--seed 1]
 *                    [--runs 3] [--no-app] [--no-grow] [--json]
 *
 * `check` is the CLI's `check FILE` (default report); with `--json`, `check --format json` (which
 * also measures every replace's compaction loss) is timed too, in the same alternation.
 *
 * Then, unless `--no-app`, the app benchmark (bench/app.ts) on the default log of the first
 * size, given this run's `check` time; its table follows and its results go into latest.json
 * under `app`.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { build } from 'vite';
import type { Shape } from './shapes';
import { ensureLog, SHAPES } from './shapes';

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? String(process.argv[i + 1]) : fallback;
}

const sizes = arg('events', '1000000').split(',').map(Number);
const seed = Number(arg('seed', '1'));
const runs = Number(arg('runs', '3'));
const shapeArg = arg('shape', 'default');
const shapes = shapeArg === 'all' ? SHAPES : SHAPES.filter((s) => shapeArg.split(',').includes(s.name));
if (shapes.length === 0) throw new Error(`unknown --shape ${shapeArg}; one of all, ${SHAPES.map((s) => s.name).join(', ')}`);
const withApp = !process.argv.includes('--no-app');
const withJson = process.argv.includes('--json');
const withGrow = !process.argv.includes('--no-grow');
const outDir = join(process.cwd(), 'bench', 'out');
mkdirSync(outDir, { recursive: true });

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

type TaskResult = Record<string, number | string | null>;

function task(name: string, file: string): TaskResult {
  const out = execFileSync(process.execPath, [taskBundle, name, file], {
    encoding: 'utf8',
    maxBuffer: 1 << 24,
  });
  return JSON.parse(out.trim().split('\n').pop() as string) as TaskResult;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  // The lower middle for an even count: on a loaded machine the slower run is the noisier one.
  return sorted[(sorted.length - 1) >> 1]!;
}

interface ShapeResult {
  shape: string;
  label: string;
  file: { path: string; events: number; bytes: number };
  baseline: { ms: number; cpuMs: number; peakRss: number; runs: number[] };
  check: TaskResult & { ms: number; cpuMs: number; peakRss: number };
  checkRuns: number[];
  /** With `--json`: `check --format json`, median wall and CPU ms and their ratios to the baseline. */
  json: { ms: number; cpuMs: number; peakRss: number; ratio: number; cpuRatio: number } | null;
  ratios: { checkOverBaseline: number; cpuCheckOverBaseline: number; checkRssOverFile: number; baselineRssOverFile: number };
  /** `check` ms per million events, wall-clock and CPU. */
  msPerMillion: number;
  cpuMsPerMillion: number;
}

/** Baseline and `check`, alternated `runs` times on one log (so both see the same load). */
function measureLog(shape: Shape, path: string): ShapeResult {
  const size = statSync(path).size;
  const baselines: TaskResult[] = [];
  const checks: TaskResult[] = [];
  const jsons: TaskResult[] = [];
  for (let i = 0; i < runs; i++) {
    baselines.push(task('baseline', path));
    checks.push(task('check', path));
    if (withJson) jsons.push(task('check-json', path));
  }
  const baseMs = median(baselines.map((b) => b.ms as number));
  const checkMs = median(checks.map((c) => c.ms as number));
  const checkRss = Math.max(...checks.map((c) => c.peakRss as number));
  const baseCpu = median(baselines.map((b) => b.cpuMs as number));
  const checkCpu = median(checks.map((c) => c.cpuMs as number));
  const baseRss = Math.max(...baselines.map((b) => b.peakRss as number));
  const last = checks[checks.length - 1] as TaskResult;
  const events = last.events as number;
  return {
    shape: shape.name,
    label: shape.label,
    file: { path, events, bytes: size },
    baseline: { ms: baseMs, cpuMs: baseCpu, peakRss: baseRss, runs: baselines.map((b) => b.ms as number) },
    check: { ...last, ms: checkMs, cpuMs: checkCpu, peakRss: checkRss },
    checkRuns: checks.map((c) => c.ms as number),
    json:
      jsons.length === 0
        ? null
        : (() => {
            const ms = median(jsons.map((c) => c.ms as number));
            const cpu = median(jsons.map((c) => c.cpuMs as number));
            return {
              ms,
              cpuMs: cpu,
              peakRss: Math.max(...jsons.map((c) => c.peakRss as number)),
              ratio: ms / baseMs,
              cpuRatio: cpu / baseCpu,
            };
          })(),
    ratios: {
      checkOverBaseline: checkMs / baseMs,
      cpuCheckOverBaseline: checkCpu / baseCpu,
      checkRssOverFile: checkRss / size,
      baselineRssOverFile: baseRss / size,
    },
    msPerMillion: checkMs / (events / 1e6),
    cpuMsPerMillion: checkCpu / (events / 1e6),
  };
}

const mb = (n: number): string => `${(n / 1e6).toFixed(0)} MB`;
const f = (n: unknown, d = 2): string => (typeof n === 'number' ? n.toFixed(d) : String(n));

function shapeTable(results: ShapeResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.shape}: ${r.label} | ${r.file.events.toLocaleString('en')} / ${mb(r.file.bytes)} | ` +
      `${f(r.baseline.ms, 0)} ms | ${f(r.check.ms, 0)} ms | **${f(r.ratios.checkOverBaseline)}×** | ${f(r.ratios.cpuCheckOverBaseline)}× | ` +
      `${f(r.msPerMillion, 0)} ms (CPU ${f(r.cpuMsPerMillion, 0)} ms) | **${f(r.ratios.checkRssOverFile)}×** (baseline ${f(r.ratios.baselineRssOverFile)}×) | ` +
      `${String(r.check.surfaceError ?? 'none')} |` +
      (withJson ? ` ${r.json === null ? '—' : `${f(r.json.ratio)}× (CPU ${f(r.json.cpuRatio)}×)`} |` : ''),
  );
  const jsonHead = withJson ? ' `check --format json` / baseline |' : '';
  const jsonRule = withJson ? '---|' : '';
  return `| log | events / size | baseline, median of ${runs} | \`check\`, median of ${runs} | check / baseline (≤ 1.5×) | the same in CPU time | \`check\` per 1M events (CPU) | peak RSS / file (≤ 3×) | fold error |${jsonHead}
|---|---|---|---|---|---|---|---|---|${jsonRule}
${rows.join('\n')}`;
}

async function main(): Promise<void> {
  await bundleTask();
  const loadBefore = os.loadavg()[0];
  const results: ShapeResult[] = [];
  for (const events of sizes) {
    for (const shape of shapes) {
      const t0 = Date.now();
      const { path } = await ensureLog(shape, events, seed, outDir);
      console.error(`log: ${path} (${(statSync(path).size / 1e6).toFixed(1)} MB, generated/reused in ${Date.now() - t0} ms)`);
      const result = measureLog(shape, path);
      console.error(
        `  ${shape.name}: check/baseline ${f(result.ratios.checkOverBaseline)}× (${f(result.check.ms, 0)} / ${f(result.baseline.ms, 0)} ms), ` +
          `CPU ${f(result.ratios.cpuCheckOverBaseline)}×, RSS ${f(result.ratios.checkRssOverFile)}× file` +
          (result.json === null ? '' : `; --format json ${f(result.json.ratio)}× (CPU ${f(result.json.cpuRatio)}×)`),
      );
      results.push(result);
    }
  }
  const main = results.find((r) => r.shape === 'default' && r.file.path.includes(`gen-${String(sizes[0])}-`));
  const seek = main !== undefined ? task('seek', main.file.path) : null;
  const report = {
    date: new Date().toISOString(),
    node: process.version,
    cores: os.cpus().length,
    load: { before: loadBefore, after: os.loadavg()[0] },
    runs,
    shapes: results,
    seek,
  };
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
  console.log(shapeTable(results));
  console.log(`\n${os.cpus().length} cores, 1-minute load average ${f(report.load.before)} → ${f(report.load.after)}`);
  if (seek !== null && main !== undefined) {
    console.log(`
| measure (default log, ${main.file.events.toLocaleString('en')} events) | value | target |
|---|---|---|
| seek, full surface at a random step: p50 / p99 | ${f(seek.fullP50, 3)} / **${f(seek.fullP99, 3)} ms** | p99 ≤ 2 ms |
| seek + 60-node surface window with previews: p50 / p99 | ${f(seek.windowP50, 3)} / ${f(seek.windowP99, 3)} ms | — |
| nodes that ever lived / replacements | ${String(main.check.nodesEverLived)} / ${String(main.check.replacements)} | — |
| index size (checkpoint every ${String(main.check.checkpointEvery)} steps) | ${mb(main.check.indexBytes as number)} | — |`);
  }
  if (!withGrow) return;
  // A growing session: a 1M-event log (the first size) followed by 1,000 appends, per shape.
  const { growTable, runGrowBench } = await import('./grow');
  const growShapes = ['default', 'replace-heavy'];
  const grow = await runGrowBench({ events: sizes[0] ?? 1_000_000, appends: 1000, verifyEvery: 100, shapes: growShapes, seed });
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify({ ...report, grow }, null, 2)}\n`);
  console.log(`\n${growTable(grow)}`);
  if (!withApp || main === undefined) return;
  const { appTable, runAppBench } = await import('./app');
  const app = await runAppBench({ file: main.file.path, checkMs: main.check.ms });
  writeFileSync(join(outDir, 'latest.json'), `${JSON.stringify({ ...report, grow, app }, null, 2)}\n`);
  console.log(`\n${appTable(app)}`);
}

void main();
