/**
 * `npm run bench:check`: `surface-lens check` over a store of many small sessions: `--jobs 1`,
 * `--jobs N` (one thread per core, asked for) and the default (threads once the run holds enough
 * bytes to repay them), each in a fresh process of the built CLI, alternating, in the same run.
 * Prints the medians and their ratios.
 *
 *   npm run bench:check -- [--sessions 1000] [--events 200] [--runs 3]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { generateText } from '../src/core/gen/generate';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const sessions = arg('sessions', 1000);
const events = arg('events', 200);
const runs = arg('runs', 3);
const bin = join(process.cwd(), 'bin', 'surface-lens.mjs');
if (!existsSync(join(process.cwd(), 'dist-cli', 'surface-lens.mjs'))) {
  process.stderr.write('bench:check: build the CLI first (npm run build:cli)\n');
  process.exit(2);
}
const root = join(process.cwd(), 'bench', 'out', `store-${sessions}x${events}`);
if (!existsSync(root)) {
  for (let i = 0; i < sessions; i++) {
    const dir = join(root, `--bench-${i % 10}--`, `s${i}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'session.jsonl'), generateText({ seed: i + 1, events }));
  }
}

function time(args: string[]): number {
  const start = process.hrtime.bigint();
  try {
    execFileSync(process.execPath, [bin, 'check', '--json', ...args, root], { stdio: ['ignore', 'ignore', 'ignore'] });
  } catch (error) {
    // Exit status 1 (a generated session with findings) is a result, not a failure of the run.
    if ((error as { status?: number }).status !== 1) throw error;
  }
  return Number(process.hrtime.bigint() - start) / 1e6;
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const loadBefore = loadavg()[0]!;
const cores = availableParallelism();
const serial: number[] = [];
const threads: number[] = [];
const auto: number[] = [];
for (let r = 0; r < runs; r++) {
  serial.push(time(['--jobs', '1']));
  threads.push(time(['--jobs', String(cores)]));
  auto.push(time([]));
}
const s = median(serial);
const t = median(threads);
const a = median(auto);
const bytes = execFileSync('du', ['-sb', root], { encoding: 'utf8' }).split('\t')[0];
process.stdout.write(
  `| check, ${sessions} sessions of ~${events} events (${(Number(bytes) / 1e6).toFixed(0)} MB) | median of ${runs} (ms) | --jobs 1 / this |\n|---|---|---|\n` +
    `| --jobs 1 | ${s.toFixed(0)} | 1.00× |\n| --jobs ${cores} | ${t.toFixed(0)} | ${(s / t).toFixed(2)}× |\n` +
    `| default | ${a.toFixed(0)} | ${(s / a).toFixed(2)}× |\n\n` +
    `${cores} cores; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after\n`,
);
