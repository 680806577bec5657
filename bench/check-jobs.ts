/**
 * `npm run bench:check`: `surface-lens check` over a store of many small sessions, the default
 * `--jobs` (one thread per core) against `--jobs 1`, each in a fresh process of the built CLI,
 * alternating, in the same run. Prints the medians and their ratio.
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
const serial: number[] = [];
const parallel: number[] = [];
for (let r = 0; r < runs; r++) {
  serial.push(time(['--jobs', '1']));
  parallel.push(time([]));
}
const s = median(serial);
const p = median(parallel);
process.stdout.write(
  `| check, ${sessions} sessions of ~${events} events | median of ${runs} (ms) |\n|---|---|\n` +
    `| --jobs 1 | ${s.toFixed(0)} |\n| default (--jobs ${availableParallelism()}) | ${p.toFixed(0)} |\n` +
    `| speed-up (--jobs 1 / default) | ${(s / p).toFixed(2)}× |\n\n` +
    `${availableParallelism()} cores; 1-minute load average ${loadBefore.toFixed(1)} before, ${loadavg()[0]!.toFixed(1)} after\n`,
);
