/**
 * Seeded mutation fuzzer for long runs (docs/ROBUSTNESS.md). Cases run in worker threads; a
 * case that does not finish within a hard limit (default 10 × the budget, at least 20 s) is
 * counted as a hang and its worker replaced.
 *
 *   node --import tsx scripts/fuzz.ts --cases 20000 --seed 1 [--start 0] [--time-budget-ms 2000] [--workers 2]
 *   node --import tsx scripts/fuzz.ts --replay 1:4711 [--out case.bin]
 *
 * Prints cases run, crashes, hangs, oracle mismatches and prefix (time-travel) mismatches, and
 * the replay id `<seed>:<case>` of every failing case. Exit code 1 when anything failed.
 */
import { writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker, isMainThread, parentPort } from 'node:worker_threads';
import { DEFAULT_BUDGET_MS, emptyTally, fuzzOne, parseReplay, record } from '../tests/support/fuzz/index';
import type { Outcome, Tally } from '../tests/support/fuzz/index';

interface Job {
  seed: number;
  id: number;
  budgetMs: number;
}

interface Reply {
  outcome: Outcome;
  notes: string[];
}

function usage(message: string): never {
  process.stderr.write(
    `${message}\nusage: fuzz.ts [--cases N] [--seed S] [--start C] [--time-budget-ms MS] [--hard-limit-ms MS] [--workers W] [--json]\n       fuzz.ts --replay <seed>:<case> [--out FILE] [--time-budget-ms MS]\n`,
  );
  process.exit(2);
}

function parseArgs(argv: string[]): Map<string, string> {
  const flags = new Set(['--json']);
  const out = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (!arg.startsWith('--')) usage(`unexpected argument: ${arg}`);
    if (flags.has(arg)) {
      out.set(arg, 'true');
      continue;
    }
    const value = argv[i + 1];
    if (value === undefined) usage(`${arg} needs a value`);
    out.set(arg, value);
    i += 1;
  }
  return out;
}

function int(args: Map<string, string>, key: string, fallback: number): number {
  const raw = args.get(key);
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (!Number.isSafeInteger(n) || n < 0) usage(`${key} must be a non-negative integer`);
  return n;
}

async function replay(args: Map<string, string>): Promise<void> {
  const { seed, id } = parseReplay(args.get('--replay') as string);
  const budgetMs = int(args, '--time-budget-ms', DEFAULT_BUDGET_MS);
  const { fuzzCase, outcome } = await fuzzOne(seed, id, budgetMs);
  if (fuzzCase) {
    process.stdout.write(
      `case ${fuzzCase.replay}: ${fuzzCase.name}, ${fuzzCase.bytes.length} bytes, options ${JSON.stringify(fuzzCase.options)}\n`,
    );
    for (const note of fuzzCase.notes) process.stdout.write(`  - ${note}\n`);
    const out = args.get('--out');
    if (out !== undefined) {
      writeFileSync(out, fuzzCase.bytes);
      process.stdout.write(`input written to ${out}\n`);
    }
  }
  process.stdout.write(
    `openBytes ${outcome.openMs.toFixed(1)} ms, queries ${outcome.queryMs.toFixed(1)} ms, ${outcome.sessions} session(s), ${outcome.compared} compared\n`,
  );
  for (const f of outcome.failures) {
    process.stdout.write(`FAIL ${f.kind}${f.session === null ? '' : ` [${f.session}]`}: ${f.message}\n`);
    if (f.stack) process.stdout.write(`${f.stack}\n`);
  }
  if (outcome.failures.length === 0) process.stdout.write('ok\n');
  process.exitCode = outcome.failures.length === 0 ? 0 : 1;
}

function summary(tally: Tally, seed: number, start: number, elapsedMs: number): string {
  const lines = [
    `seed ${seed}, cases ${start}..${start + tally.cases - 1}: ${tally.cases} cases run in ${(elapsedMs / 1000).toFixed(1)} s`,
    `sessions ${tally.sessions}, compared with the reference ${tally.compared}`,
    `crashes ${tally.crashes}, hangs ${tally.hangs}, oracle mismatches ${tally.mismatches}, prefix mismatches ${tally.prefixMismatches}`,
    `openBytes: max ${tally.maxOpenMs.toFixed(0)} ms (${tally.slowest ?? '-'}), mean ${(tally.totalOpenMs / Math.max(1, tally.cases)).toFixed(1)} ms`,
  ];
  // Group failures by kind and message shape (numbers blanked), so one bug is one line.
  const groups = new Map<string, string[]>();
  for (const { replay: id, failure } of tally.failing) {
    const key = `${failure.kind}: ${(failure.message.split('\n')[0] ?? '').replace(/\d+/g, '#')}`;
    groups.set(key, [...(groups.get(key) ?? []), id]);
  }
  for (const [key, ids] of groups) {
    lines.push(
      `  ${ids.length} × ${key}`,
      `      replay: ${ids.slice(0, 12).join(' ')}${ids.length > 12 ? ` … (+${ids.length - 12})` : ''}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * A worker running this file. Workers do not inherit the `--import tsx` hooks, so the worker
 * registers tsx itself before importing this (TypeScript) module.
 */
function startWorker(): Worker {
  const tsx = import.meta.resolve('tsx/esm/api');
  const code = `import { register } from ${JSON.stringify(tsx)}; register(); await import(${JSON.stringify(import.meta.url)});`;
  return new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
}

async function run(args: Map<string, string>): Promise<void> {
  const seed = int(args, '--seed', 1);
  const cases = int(args, '--cases', 1000);
  const start = int(args, '--start', 0);
  const budgetMs = int(args, '--time-budget-ms', DEFAULT_BUDGET_MS);
  const workers = Math.max(1, int(args, '--workers', Math.min(2, availableParallelism())));
  // A case that never finishes cannot report itself: past this, its worker is replaced.
  const hardLimitMs = int(args, '--hard-limit-ms', Math.max(10 * budgetMs, 20_000));
  const tally = emptyTally();
  const started = performance.now();
  let next = start;
  const end = start + cases;
  let lastReport = started;

  await new Promise<void>((resolve) => {
    let active = 0;
    const spawn = (): void => {
      if (next >= end) {
        if (active === 0) resolve();
        return;
      }
      active += 1;
      const worker = startWorker();
      let current: Job | null = null;
      let timer: NodeJS.Timeout | null = null;
      const dispatch = (): void => {
        if (next >= end) {
          current = null;
          void worker.terminate();
          return;
        }
        current = { seed, id: next++, budgetMs };
        timer = setTimeout(() => {
          const job = current as Job;
          record(tally, {
            replay: `${job.seed}:${job.id}`,
            openMs: hardLimitMs,
            queryMs: 0,
            sessions: 0,
            compared: 0,
            failures: [{ kind: 'hang', session: null, message: `no answer within ${hardLimitMs} ms (worker terminated)` }],
          });
          current = null;
          void worker.terminate();
        }, hardLimitMs);
        worker.postMessage(current);
      };
      worker.on('message', (reply: Reply | 'ready') => {
        if (reply === 'ready') {
          dispatch(); // the clock starts once the worker has loaded
          return;
        }
        if (timer) clearTimeout(timer);
        record(tally, reply.outcome);
        if (reply.outcome.failures.length > 0) {
          process.stderr.write(
            `FAIL ${reply.outcome.replay}: ${reply.outcome.failures[0]?.message.split('\n')[0]}\n    ${reply.notes.join(' | ')}\n`,
          );
        }
        const now = performance.now();
        if (now - lastReport > 30_000) {
          lastReport = now;
          process.stderr.write(
            `… ${tally.cases}/${cases} cases, ${tally.failing.length} failing, ${((now - started) / 1000).toFixed(0)} s\n`,
          );
        }
        dispatch();
      });
      worker.on('error', (error) => {
        if (timer) clearTimeout(timer);
        const job = current;
        if (job) {
          record(tally, {
            replay: `${job.seed}:${job.id}`,
            openMs: 0,
            queryMs: 0,
            sessions: 0,
            compared: 0,
            failures: [{ kind: 'crash', session: null, message: `worker died: ${error.stack ?? error.message}` }],
          });
        }
        current = null;
      });
      worker.on('exit', () => {
        active -= 1;
        spawn(); // replace a terminated worker while cases remain
      });
    };
    for (let i = 0; i < workers; i++) spawn();
  });

  tally.failing.sort((a, b) => Number(a.replay.split(':')[1]) - Number(b.replay.split(':')[1]));
  const elapsed = performance.now() - started;
  process.stdout.write(summary(tally, seed, start, elapsed));
  if (args.has('--json')) {
    const { failing, ...counts } = tally;
    process.stdout.write(
      `${JSON.stringify({ seed, start, budgetMs, elapsedMs: Math.round(elapsed), ...counts, failing: failing.map((f) => f.replay) })}\n`,
    );
  }
  process.exitCode = tally.failing.length === 0 ? 0 : 1;
}

if (isMainThread) {
  const args = parseArgs(process.argv.slice(2));
  await (args.has('--replay') ? replay(args) : run(args));
} else {
  const port = parentPort;
  port?.postMessage('ready');
  port?.on('message', (job: Job) => {
    void fuzzOne(job.seed, job.id, job.budgetMs).then(({ fuzzCase, outcome }) => {
      const reply: Reply = { outcome, notes: fuzzCase?.notes ?? [] };
      port.postMessage(reply);
    });
  });
}
