/**
 * The log shapes the benchmark measures `check` on (each generated once into bench/out/ and
 * reused): the generator's default, and one shape per way a real log can differ from it.
 */
import { createReadStream, createWriteStream, existsSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { GenOptions } from '../src/core/gen/generate';
import { generateLines } from '../src/core/gen/generate';
import { generateReplaceHeavyLines, shiftRecord } from '../src/core/gen/shapes';

/** One benchmark log shape. */
export interface Shape {
  name: string;
  /** What it is, for the tables. */
  label: string;
  /** Writes the log's lines (without LF) given the target event count. */
  lines(events: number, seed: number, outDir: string): AsyncIterable<string> | Iterable<string>;
}

function gen(extra: Partial<GenOptions>): Shape['lines'] {
  return (events, seed) => generateLines({ seed, events, ...extra });
}

async function* fileLines(path: string): AsyncGenerator<string> {
  const rl = createInterface({ input: createReadStream(path), crlfDelay: Infinity });
  for await (const line of rl) if (line.length > 0) yield line;
}

/**
 * Every shape, by name. `events` is the target count; the replace-heavy log has a fifth of it
 * (100k appends and 100k replaces at 1M: about as many bytes as the others).
 */
export const SHAPES: readonly Shape[] = [
  { name: 'default', label: "the generator's default", lines: gen({}) },
  {
    name: 'packed',
    label: 'packed chunk rows of ~60 members (long streams)',
    lines: gen({ deltaScale: 1.6 }),
  },
  {
    name: 'unpacked',
    label: 'every chunk on its own line (~1 event per line)',
    lines: gen({ packChunks: false }),
  },
  {
    name: 'large-results',
    label: 'large tool results (10–40 KB), pruned past 8,192 characters to head 4096 + tail 1024',
    lines: gen({ longToolResultRate: 0.25, longToolResultChars: [10_000, 40_000] }),
  },
  {
    name: 'replace-heavy',
    label: 'a tenth of the size in appends, then as many replaces each of the last node',
    lines: (events, seed) => generateReplaceHeavyLines({ seed, appends: events / 10, replaces: events / 10 }),
  },
  {
    name: 'copies',
    label: 'ten shifted copies of the default log of a tenth of the size',
    lines: (events, seed, outDir) => tenCopies(Math.round(events / 10), seed, outDir),
  },
];

/** The default log at `events`, then nine copies of it with seqs and times moved past the last. */
async function* tenCopies(events: number, seed: number, outDir: string): AsyncGenerator<string> {
  const { path } = await ensureLog(SHAPES[0] as Shape, events, seed, outDir);
  const { count, span } = await measure(path);
  for (let k = 0; k < 10; k++) {
    let first = true;
    for await (const line of fileLines(path)) {
      if (first) {
        first = false;
        if (k === 0) yield line;
        continue;
      }
      yield k === 0 ? line : JSON.stringify(shiftRecord(JSON.parse(line), k * count, k * span));
    }
  }
}

/** Events in a log and its time span plus a minute (the shift between two copies). */
async function measure(path: string): Promise<{ count: number; span: number }> {
  let count = 0;
  let first = true;
  let lo = Infinity;
  let hi = -Infinity;
  for await (const line of fileLines(path)) {
    if (first) {
      first = false;
      continue;
    }
    const value = JSON.parse(line) as { seq0?: number; time?: number; time0?: number; data?: { dt?: number[] } };
    const packed = typeof value.seq0 === 'number';
    count += packed ? (value.data?.dt?.length ?? 0) + 1 : 1;
    const time = (packed ? value.time0 : value.time) ?? 0;
    const last = packed ? time + (value.data?.dt ?? []).reduce((x, y) => x + y, 0) : time;
    lo = Math.min(lo, time);
    hi = Math.max(hi, last);
  }
  return { count, span: hi - lo + 60_000 };
}

/** Generate the shape's log at this size unless it is already in `outDir`. */
export async function ensureLog(shape: Shape, events: number, seed: number, outDir: string): Promise<{ path: string }> {
  const path = join(outDir, shape.name === 'default' ? `gen-${events}-seed${seed}.jsonl` : `${shape.name}-${events}-seed${seed}.jsonl`);
  if (existsSync(path)) return { path };
  const partial = `${path}.partial`;
  const out = createWriteStream(partial);
  let batch: string[] = [];
  const flush = async (): Promise<void> => {
    if (!out.write(`${batch.join('\n')}\n`)) await new Promise<void>((r) => out.once('drain', () => r()));
    batch = [];
  };
  for await (const line of shape.lines(events, seed, outDir)) {
    batch.push(line);
    if (batch.length >= 4096) await flush();
  }
  if (batch.length > 0) await flush();
  await new Promise<void>((resolve, reject) => {
    out.once('error', reject);
    out.end(() => resolve());
  });
  renameSync(partial, path);
  return { path };
}
