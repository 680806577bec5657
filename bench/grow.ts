/**
 * The growing-session benchmark: a session opened at `--events`, then `--appends` turns appended
 * one at a time through `GrowingInput` (what following a file does after each poll), each
 * measured as engine time (append + the analysis the queries answer on). The baseline, in the
 * same run: opening the whole prefix with `openBytes` (what `check` does). Prints a Markdown table
 * per shape.
 *
 *   node --expose-gc --import tsx bench/grow.ts [--events 1000000] [--appends 10] [--seed 1]
 */
import { GrowingInput } from '../src/core/analyze/growing';
import { openBytes } from '../src/core/analyze/open';
import { generateText } from '../src/core/gen/generate';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const seed = arg('seed', 1);
const shapes: [number, number][] = process.argv.includes('--events')
  ? [[arg('events', 1_000_000), arg('appends', 10)]]
  : [
      [10_000, 50],
      [100_000, 50],
      [1_000_000, 10],
    ];

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0;
}

/** The lines of a log cut into turns: the text before the first `turn/start`, then one string per turn. */
function turns(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (let at = text.indexOf('"type":"turn/start"'); at >= 0; at = text.indexOf('"type":"turn/start"', at + 1)) {
    const line = text.lastIndexOf('\n', at) + 1;
    if (line > start) out.push(text.slice(start, line));
    start = line;
  }
  out.push(text.slice(start));
  return out;
}

async function shape(events: number, appends: number): Promise<void> {
  const parts = turns(generateText({ seed, events: Math.ceil(events * 1.01) + appends * 500 }));
  const enc = new TextEncoder();
  // The session up to about `events`, then `appends` turns one at a time.
  if (parts.length <= appends + 1) throw new Error(`only ${parts.length} turns generated`);
  let cut = parts.length - appends;
  const head = enc.encode(parts.slice(0, cut).join(''));
  const input = new GrowingInput({ name: 'live.jsonl' });
  await input.append(head);
  const times: number[] = [];
  for (let i = 0; i < appends; i++, cut++) {
    const bytes = enc.encode(parts[cut] ?? '');
    const t0 = performance.now();
    await input.append(bytes);
    await input.result();
    times.push(performance.now() - t0);
  }
  const all = input.committedBytes;
  globalThis.gc?.();
  const t0 = performance.now();
  const whole = await openBytes(enc.encode(parts.join('')).subarray(0, all), { name: 'live.jsonl' });
  const openMs = performance.now() - t0;
  const n = whole.sessions[0]?.log.length ?? 0;
  const p50 = percentile(times, 50);
  const p95 = percentile(times, 95);
  console.log(
    `| ${n.toLocaleString('en')} events, ${appends} turns appended | ${p50.toFixed(1)} ms | ${p95.toFixed(1)} ms | ${openMs.toFixed(0)} ms | ${(p95 / openMs).toFixed(2)}× |`,
  );
}

console.log('| shape | append p50 | append p95 | open the prefix whole (baseline) | p95 / baseline |');
console.log('| --- | --- | --- | --- | --- |');
for (const [events, appends] of shapes) await shape(events, appends);
