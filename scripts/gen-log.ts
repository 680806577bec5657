/**
 * Write a generated dsh session log to a file, streaming.
 *
 *   node --import tsx scripts/gen-log.ts --events 1000000 --seed 1 --out /tmp/x.jsonl
 *     [--zstd] [--no-pack] [--violation <kind>] [--violation-at <n>] [--open-tail]
 *     [--no-compaction] [--session-id <id>] [--batch <lines>]
 *
 * Lines are written in batches with `writeSync`, so memory stays flat whatever the size. With
 * `--zstd` the file is a multi-frame Zstandard log like dsh stores it (log-format.md §7):
 * frame 1 holds the header line alone, then one independent frame per write batch, each with a
 * content checksum. A summary (sizes, speed, violation location) is printed as JSON on stdout.
 */
import { closeSync, openSync, writeSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { VIOLATION_KINDS, generateLog, type GenOptions, type ViolationKind } from '../src/core/gen/generate';
import { zstdFrames } from '../tests/support/zstd-frames';

const USAGE =
  'usage: gen-log --events <n> --seed <n> --out <file> [--zstd] [--no-pack] [--violation <kind>] ' +
  '[--violation-at <n>] [--open-tail] [--no-compaction] [--session-id <id>] [--batch <lines>]';

function fail(message: string): never {
  process.stderr.write(`gen-log: ${message}\n${USAGE}\nviolation kinds: ${VIOLATION_KINDS.join(', ')}\n`);
  process.exit(2);
}

function intArg(value: string | undefined, name: string, fallback?: number): number {
  if (value === undefined) {
    if (fallback === undefined) fail(`--${name} is required`);
    return fallback;
  }
  const n = Number(value);
  if (!Number.isSafeInteger(n) || n < 0) fail(`--${name} must be a non-negative integer, got ${value}`);
  return n;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      events: { type: 'string' },
      seed: { type: 'string' },
      out: { type: 'string' },
      zstd: { type: 'boolean', default: false },
      'no-pack': { type: 'boolean', default: false },
      violation: { type: 'string' },
      'violation-at': { type: 'string' },
      'open-tail': { type: 'boolean', default: false },
      'no-compaction': { type: 'boolean', default: false },
      'session-id': { type: 'string' },
      batch: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    strict: true,
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const out = values.out ?? fail('--out is required');
  const violation = values.violation;
  if (violation !== undefined && !(VIOLATION_KINDS as readonly string[]).includes(violation)) {
    fail(`unknown violation kind ${JSON.stringify(violation)}`);
  }
  const opts: GenOptions = {
    seed: intArg(values.seed, 'seed', 1),
    events: intArg(values.events, 'events'),
    packChunks: !values['no-pack'],
    openTail: values['open-tail'],
    violation: (violation as ViolationKind | undefined) ?? null,
  };
  if (values['violation-at'] !== undefined) opts.violationAt = intArg(values['violation-at'], 'violation-at');
  if (values['no-compaction']) opts.compaction = false;
  if (values['session-id'] !== undefined) opts.sessionId = values['session-id'];
  // A write batch of a few hundred lines, like one durable write of the live writer.
  const batchLines = Math.max(1, intArg(values.batch, 'batch', 256));

  const started = performance.now();
  const { lines, meta } = generateLog(opts);
  const fd = openSync(out, 'w');
  let bytes = 0;
  let frames = 0;

  /** Write one batch: lines joined with LF, plus a final LF unless the log ends torn. */
  const flush = async (batch: string[], finalLf: boolean): Promise<void> => {
    const text = batch.join('\n') + (finalLf ? '\n' : '');
    if (values.zstd) {
      const frame = await zstdFrames([text]);
      // Frame header descriptor bit 2 = Content_Checksum_flag (RFC 8878 §3.1.1.1.1).
      if (((frame[4] ?? 0) & 0x04) === 0) throw new Error('zstd frame was written without a content checksum');
      writeSync(fd, frame);
      frames++;
      bytes += Buffer.byteLength(text);
    } else {
      bytes += writeSync(fd, text);
    }
  };

  try {
    let batch: string[] = [];
    let r = lines.next();
    let first = true;
    while (!r.done) {
      const line = r.value;
      r = lines.next();
      const last = r.done === true;
      batch.push(line);
      // The header goes alone (zstd frame 1 must hold exactly the header line).
      if (first || last || batch.length >= batchLines) {
        await flush(batch, !last || meta.finalNewline);
        batch = [];
        first = false;
      }
    }
  } finally {
    closeSync(fd);
  }

  const ms = performance.now() - started;
  const summary = {
    out,
    format: values.zstd ? 'jsonl-zstd' : 'jsonl',
    events: meta.events,
    lines: meta.lines,
    logicalBytes: bytes,
    bytesPerEvent: Number((bytes / Math.max(1, meta.events)).toFixed(1)),
    frames: values.zstd ? frames : undefined,
    ms: Math.round(ms),
    eventsPerSecond: Math.round(meta.events / (ms / 1000)),
    openTurn: meta.openTurn,
    finalNewline: meta.finalNewline,
    violation: meta.violation,
    stats: meta.stats,
  };
  process.stdout.write(`${JSON.stringify(summary, null, 2)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`gen-log: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
