/**
 * The growing-session benchmark: a session of about `events` events opened in the engine, then
 * `appends` pieces appended one at a time with `grow({kind: 'bytes'})` (what following does
 * after each poll): for the generator's default log a piece is one turn, for the replace-heavy
 * log ten lines (appends, then replaces of the last node). Each append is timed as engine time
 * (the append, the analysis extended in place, the new summary), in wall-clock and in CPU time
 * (this process's, every thread: on a shared machine the wall clock also counts the time other
 * processes had the cores, the CPU time does not). On a sample of appends, and
 * after the last, the engine's answers are checked against opening that prefix whole in a
 * second engine; a mismatch fails the run. Part of `npm run bench`; on its own:
 *
 *   node --expose-gc --import tsx bench/grow.ts [--events 1000000] [--appends 1000] [--verify-every 100] [--shape default,replace-heavy]
 */
import { loadavg } from 'node:os';
import { generateText } from '../src/core/gen/generate';
import { generateReplaceHeavyLines } from '../src/core/gen/shapes';
import type { CoreApi, LoadSummary, RowFilter } from '../src/protocol/protocol';
import { createEngine } from '../src/worker/engine';

/** One shape's figures. */
export interface GrowShapeResult {
  shape: string;
  events: number;
  appends: number;
  p50: number;
  p95: number;
  max: number;
  /** CPU time per append (every thread of this process, the collector's helpers included). */
  cpuP50: number;
  cpuP95: number;
  /** The 1-minute load average at the end of the shape's run. */
  load: number;
  /** Opening the final prefix whole in a fresh engine: the cost each append used to have. */
  openMs: number;
  verified: number;
}

/** Options of {@link runGrowBench}. */
export interface GrowBenchOptions {
  events: number;
  appends: number;
  verifyEvery: number;
  shapes: readonly string[];
  seed: number;
}

const ALL: RowFilter = { families: [], surfaceOnly: false };

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** A log cut into a head and `appends` pieces. */
function pieces(shape: string, events: number, appends: number, seed: number): { head: string; parts: string[] } {
  if (shape === 'replace-heavy') {
    const lines = [...generateReplaceHeavyLines({ seed, appends: events / 2 + appends * 5, replaces: events / 2 + appends * 5 })];
    // Its replaces come after its appends: the pieces are cut from the middle of the replaces.
    const cut = lines.length - appends * 10;
    const parts: string[] = [];
    for (let i = cut; i < lines.length; i += 10) parts.push(`${lines.slice(i, i + 10).join('\n')}\n`);
    return { head: `${lines.slice(0, cut).join('\n')}\n`, parts };
  }
  const text = generateText({ seed, events: Math.ceil(events * 1.01) + appends * 500 });
  const turns: string[] = [];
  let start = 0;
  for (let at = text.indexOf('"type":"turn/start"'); at >= 0; at = text.indexOf('"type":"turn/start"', at + 1)) {
    const line = text.lastIndexOf('\n', at) + 1;
    if (line > start) turns.push(text.slice(start, line));
    start = line;
  }
  turns.push(text.slice(start));
  if (turns.length <= appends + 1) throw new Error(`only ${turns.length} turns generated`);
  return { head: turns.slice(0, turns.length - appends).join(''), parts: turns.slice(turns.length - appends) };
}

/** What the page would ask after an append, from `engine`, as plain data. */
async function answers(engine: CoreApi, summary: LoadSummary): Promise<unknown> {
  const s = summary.sessions[0];
  if (s === undefined) return null;
  const session = s.id;
  const steps = s.accepted;
  const out: unknown[] = [{ ...s, id: 0, fingerprint: '' }];
  for (const step of [0, Math.floor(steps / 2), steps]) {
    out.push(await engine.rows({ session, step, filter: ALL, start: Math.max(0, s.events - 200), count: 200 }));
    out.push(await engine.surface({ session, step, start: 0, count: 200 }));
  }
  const diagnostics = await engine.diagnostics({ session, start: 0, count: 500 });
  out.push({ ...diagnostics, items: diagnostics.items.map(({ provisional: _flag, ...d }) => d) });
  return out;
}

async function shapeRun(shape: string, options: GrowBenchOptions): Promise<GrowShapeResult> {
  const { head, parts } = pieces(shape, options.events, options.appends, options.seed);
  const enc = new TextEncoder();
  const engine = createEngine({ pause: async () => {} });
  const held: Uint8Array[] = [enc.encode(head)];
  const whole = (): ArrayBuffer => {
    const out = new Uint8Array(held.reduce((n, b) => n + b.length, 0));
    let at = 0;
    for (const b of held) {
      out.set(b, at);
      at += b.length;
    }
    return out.buffer;
  };
  await engine.open({ kind: 'bytes', name: 'live.jsonl', buffer: whole() }, () => {});
  // The first look hands the opened bytes to the growing input; the first append then reads
  // them once into the open pipeline (the `max` column), every later one only what it adds.
  await engine.grow({ kind: 'bytes', buffer: new ArrayBuffer(0), whole: false });
  const times: number[] = [];
  const cpu: number[] = [];
  let verified = 0;
  for (let i = 0; i < parts.length; i++) {
    const bytes = enc.encode(parts[i]);
    const buffer = bytes.slice().buffer;
    const c0 = process.cpuUsage();
    const t0 = performance.now();
    const grown = await engine.grow({ kind: 'bytes', buffer, whole: false });
    times.push(performance.now() - t0);
    const used = process.cpuUsage(c0);
    cpu.push((used.user + used.system) / 1000);
    if (grown.summary === null) throw new Error(`append ${i} changed nothing (${grown.kind})`);
    const summary = grown.summary;
    held.push(bytes);
    if ((i + 1) % options.verifyEvery === 0 || i === parts.length - 1) {
      const other = createEngine({ pause: async () => {} });
      const reference = await other.open({ kind: 'bytes', name: 'live.jsonl', buffer: whole() }, () => {});
      const [mine, theirs] = [JSON.stringify(await answers(engine, summary)), JSON.stringify(await answers(other, reference))];
      if (mine !== theirs) throw new Error(`${shape}: after append ${i + 1} the engine's answers differ from opening that prefix whole`);
      verified += 1;
    }
  }
  globalThis.gc?.();
  const t0 = performance.now();
  const final = await createEngine({ pause: async () => {} }).open({ kind: 'bytes', name: 'live.jsonl', buffer: whole() }, () => {});
  const openMs = performance.now() - t0;
  return {
    shape,
    events: final.sessions[0]?.events ?? 0,
    appends: parts.length,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    max: Math.max(...times),
    cpuP50: percentile(cpu, 50),
    cpuP95: percentile(cpu, 95),
    load: loadavg()[0] ?? 0,
    openMs,
    verified,
  };
}

/** Every shape's run, in order. */
export async function runGrowBench(options: GrowBenchOptions): Promise<GrowShapeResult[]> {
  const out: GrowShapeResult[] = [];
  for (const shape of options.shapes) {
    const result = await shapeRun(shape, options);
    console.error(
      `  grow ${shape}: p50 ${result.p50.toFixed(2)} ms, p95 ${result.p95.toFixed(2)} ms (CPU ${result.cpuP50.toFixed(2)} / ${result.cpuP95.toFixed(2)} ms) over ${result.appends} appends (${result.verified} verified, load ${result.load.toFixed(1)})`,
    );
    out.push(result);
  }
  return out;
}

/** The Markdown table of {@link runGrowBench}'s results. */
export function growTable(results: readonly GrowShapeResult[]): string {
  const rows = results.map(
    (r) =>
      `| ${r.shape} | ${r.events.toLocaleString('en')} | ${r.appends} | ${r.p50.toFixed(2)} ms | **${r.p95.toFixed(2)} ms** | ${r.cpuP50.toFixed(2)} / ${r.cpuP95.toFixed(2)} ms | ${r.max.toFixed(1)} ms | ${r.openMs.toFixed(0)} ms | ${r.verified} | ${r.load.toFixed(1)} |`,
  );
  return `| shape | events at the end | appends | engine time per append p50 | p95 (target ≤ 5 ms) | CPU time p50 / p95 | max | opening the end whole | appends verified equal to opening the prefix whole | load average |
|---|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}`;
}

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? (process.argv[i + 1] ?? fallback) : fallback;
}

if (process.argv[1]?.endsWith('grow.ts')) {
  const results = await runGrowBench({
    events: Number(arg('events', '1000000')),
    appends: Number(arg('appends', '1000')),
    verifyEvery: Number(arg('verify-every', '100')),
    shapes: arg('shape', 'default,replace-heavy').split(','),
    seed: Number(arg('seed', '1')),
  });
  console.log(growTable(results));
}
