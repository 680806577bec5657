/**
 * One benchmark task in a fresh process, so its peak RSS is its own. Prints one JSON line.
 *
 *   node --expose-gc --import tsx bench/task.ts baseline|check|check-json|seek|zstd FILE
 *
 * `check` is what the CLI's `check FILE` computes (the file read, opened and reduced to what
 * its default report needs); `check-json` adds the `--format json` record, with every replace's
 * compaction loss.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { sessionCheck } from '../src/cli/check/check-file';
import { expandPackedRow, isPackedRow, validatePackedRow } from '../src/core/decode/packed';
import { decodeZstdLog } from '../tests/support/zstd-log';
import { openLogFile } from '../src/node/store';
import { sessionQueries } from '../src/worker/query';

const [task, file] = process.argv.slice(2);
if (!task || !file) throw new Error('usage: task.ts baseline|check|check-json|seek|zstd FILE');

function peakRss(): number {
  return process.resourceUsage().maxRSS * 1024;
}

/** CPU time of the whole process so far (every thread: the main one and V8's GC helpers). */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Piece size of the baseline's reads: a whole 860 MB log would not fit in one string. */
const PIECE = 64 * 1024 * 1024;

/**
 * The baseline: read the file in pieces of at most 64 MiB, decode each up to its last LF,
 * `JSON.parse` every line and expand packed rows; nothing else.
 */
function baseline(path: string): number {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(PIECE);
  let carry = 0;
  let events = 0;
  const parseLines = (text: string): void => {
    let start = 0;
    while (start < text.length) {
      let end = text.indexOf('\n', start);
      if (end === -1) end = text.length;
      if (end > start) {
        const value: unknown = JSON.parse(text.slice(start, end));
        events += isPackedRow(value) ? expandPackedRow(validatePackedRow(value)).length : 1;
      }
      start = end + 1;
    }
  };
  for (;;) {
    const read = readSync(fd, buffer, carry, PIECE - carry, null);
    const filled = carry + read;
    if (read === 0) {
      if (filled > 0) parseLines(buffer.toString('utf8', 0, filled));
      break;
    }
    const lastLf = buffer.lastIndexOf(0x0a, filled - 1);
    if (lastLf < 0) throw new Error(`a line longer than ${PIECE} bytes`);
    parseLines(buffer.toString('utf8', 0, lastLf + 1));
    carry = filled - lastLf - 1;
    buffer.copy(buffer, 0, lastLf + 1, filled);
  }
  closeSync(fd);
  return events;
}

/** The CLI's `check FILE` (`checkFile` without its error wrapping, so the analysis stays at hand). */
async function check(path: string, record: boolean) {
  const result = await openLogFile(path);
  const checked = result.sessions.map((session) => sessionCheck(session, { record }));
  return { result, checked };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
  const path = file as string;
  const t0 = performance.now();
  if (task === 'baseline') {
    const events = baseline(path);
    const ms = performance.now() - t0;
    console.log(JSON.stringify({ task, ms, cpuMs: cpuMs(), events, peakRss: peakRss() }));
    return;
  }
  if (task === 'zstd') {
    // Decoding alone: the structural walk, every frame decompressed and its checksum verified.
    const buffer = readFileSync(path);
    const t1 = performance.now();
    const decoded = await decodeZstdLog(new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength));
    const ms = performance.now() - t1;
    const plaintext = decoded.frames.reduce((n, frame) => n + frame.length, 0);
    console.log(
      JSON.stringify({
        task,
        ms,
        cpuMs: cpuMs(),
        frames: decoded.frames.length,
        compressed: buffer.byteLength,
        plaintext,
        error: decoded.error?.message ?? null,
        peakRss: peakRss(),
      }),
    );
    return;
  }
  const { result, checked } = await check(path, task === 'check-json');
  const ms = performance.now() - t0;
  const session = result.sessions[0];
  if (!session || checked.length === 0) throw new Error('no session');
  if (task === 'check' || task === 'check-json') {
    console.log(
      JSON.stringify({
        task,
        ms,
        cpuMs: cpuMs(),
        events: session.log.length,
        nodesEverLived: session.index.nodeCount,
        replacements: session.fold.replacements.length,
        surfaceError: session.fold.error?.message ?? null,
        indexBytes: session.index.byteSize(),
        checkpointEvery: session.index.checkpointEvery,
        peakRss: peakRss(),
      }),
    );
    return;
  }
  if (task === 'seek') {
    // Random steps from a fixed LCG so runs are comparable.
    let x = 12345;
    const next = (): number => {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0;
      return x / 2 ** 32;
    };
    const steps = session.index.steps;
    const query = sessionQueries(session);
    const full: number[] = [];
    const window: number[] = [];
    let nodes = 0;
    for (let i = 0; i < 2000; i++) {
      const k = Math.floor(next() * (steps + 1));
      const a = performance.now();
      nodes += session.index.nodesAt(k).length + session.index.replaceGenerationAt(k) + session.index.messagesAt(k);
      full.push(performance.now() - a);
      const k2 = Math.floor(next() * (steps + 1));
      const b = performance.now();
      nodes += query.surface({ step: k2, start: 0, count: 60 }).nodes.length;
      window.push(performance.now() - b);
    }
    full.sort((p, q) => p - q);
    window.sort((p, q) => p - q);
    console.log(
      JSON.stringify({
        task,
        samples: full.length,
        fullP50: percentile(full, 50),
        fullP99: percentile(full, 99),
        windowP50: percentile(window, 50),
        windowP99: percentile(window, 99),
        checksum: nodes,
      }),
    );
    return;
  }
  throw new Error(`unknown task ${task}`);
}

void main();
