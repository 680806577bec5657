/**
 * Overhead of the compaction QA check on a big log (not a vitest test):
 *
 *   node --expose-gc --import tsx tests/core/qa/bench-qa.ts [FILE] [--runs 5]
 *
 * FILE defaults to bench/out/gen-1000000-seed1.jsonl (generate it with
 * `node --import tsx scripts/gen-log.ts --events 1000000 --seed 1 --out bench/out/gen-1000000-seed1.jsonl`).
 *
 * Like the analyzer, the benchmark calls its checks in a loop over an array (a no-op check
 * stands in for the others), so adding the QA check changes nothing else about the loop.
 *
 * Two measurements, each alternating "fold" and "fold + QA" runs and comparing medians:
 * - stream: JSON.parse every line, expand packed rows, fold (planEvent/applyPlan), and in the
 *   second variant feed the check — the analyzer's situation;
 * - memory: the same over events parsed once beforehand, so the difference is the check alone
 *   without parse noise.
 * `eventAt` re-parses the event's line, like the analyzer's byte-backed log.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { expandPackedRow, isPackedRow, validatePackedRow } from '../../../src/core/decode/packed';
import type { Plan, SurfaceState } from '../../../src/core/fold/surface';
import { applyPlan, planEvent } from '../../../src/core/fold/surface';
import type { EventCheck } from '../../../src/core/checks/check';
import type { Diagnostic } from '../../../src/core/model';
import { CompactionQaCheck } from '../../../src/core/qa';
import type { QaFoldContext } from '../../../src/core/qa';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 9;
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ?? 'bench/out/gen-1000000-seed1.jsonl';

const text = readFileSync(file, 'utf8');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Line boundaries (header excluded) and, per event, its line and member. */
const lineStart: number[] = [];
const lineEnd: number[] = [];
{
  let start = text.indexOf('\n') + 1;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    if (end > start) {
      lineStart.push(start);
      lineEnd.push(end);
    }
    start = end + 1;
  }
}
const eventLine = new Int32Array(2_000_000);
const eventMember = new Int32Array(2_000_000);
let eventCount = 0;

/** Re-parse event `i` from its line (the analyzer's log does the same from bytes). */
function parseEvent(i: number): unknown {
  const row = eventLine[i] as number;
  const value: unknown = JSON.parse(text.slice(lineStart[row], lineEnd[row]));
  const member = eventMember[i] as number;
  return member < 0 ? value : expandPackedRow(validatePackedRow(value as Record<string, unknown>))[member];
}

interface Stats {
  /** Wall time. */
  ms: number;
  /** CPU time of the process (less disturbed by other processes than wall time). */
  cpu: number;
  events: number;
  diagnostics: Diagnostic[];
  eventAtCalls: number;
  eventAtMs: number;
}

/** A fold that records its plan for the QA context. */
function makeFold() {
  const state: SurfaceState = { nodes: [], replaceGeneration: 0 };
  let plan: Plan | null = null;
  let eventAtCalls = 0;
  let eventAtMs = 0;
  const ctx: QaFoldContext = {
    planAt: () => plan,
    nodes: () => state.nodes,
    eventAt: (seq) => {
      const t = performance.now();
      const value = parseEvent(seq);
      eventAtMs += performance.now() - t;
      eventAtCalls++;
      return value;
    },
  };
  return {
    ctx,
    step(value: unknown, index: number): void {
      plan = planEvent(value, index, state.nodes, parseEvent);
      applyPlan(state, plan);
    },
    counters: () => ({ eventAtCalls, eventAtMs }),
  };
}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** Stands in for the analyzer's other checks, so the check loop's call site is the same in both variants. */
class NoopCheck implements EventCheck {
  seen = 0;
  event(): void {
    this.seen++;
  }
  finish(): Diagnostic[] {
    return [];
  }
}

/** The analyzer calls its checks in a loop over an array; so does the benchmark. */
function checksFor(fold: ReturnType<typeof makeFold>, withQa: boolean): { checks: EventCheck[]; qa: CompactionQaCheck | null } {
  const qa = withQa ? new CompactionQaCheck(fold.ctx) : null;
  const checks: EventCheck[] = [new NoopCheck()];
  if (qa) checks.push(qa);
  return { checks, qa };
}

function streamRun(withQa: boolean): Stats {
  gc();
  const c0 = cpuNow();
  const t0 = performance.now();
  const fold = makeFold();
  const { checks, qa } = checksFor(fold, withQa);
  let index = 0;
  for (let row = 0; row < lineStart.length; row++) {
    const value: unknown = JSON.parse(text.slice(lineStart[row], lineEnd[row]));
    if (isPackedRow(value)) {
      const members = expandPackedRow(validatePackedRow(value));
      for (let k = 0; k < members.length; k++) {
        eventLine[index] = row;
        eventMember[index] = k;
        fold.step(members[k], index);
        for (const check of checks) check.event(members[k], index, row + 2);
        index++;
      }
    } else {
      eventLine[index] = row;
      eventMember[index] = -1;
      fold.step(value, index);
      for (const check of checks) check.event(value, index, row + 2);
      index++;
    }
  }
  const diagnostics = qa ? qa.finish() : [];
  eventCount = index;
  return { ms: performance.now() - t0, cpu: cpuNow() - c0, events: index, diagnostics, ...fold.counters() };
}

function memoryRun(events: readonly unknown[], withQa: boolean): Stats {
  gc();
  const c0 = cpuNow();
  const t0 = performance.now();
  const fold = makeFold();
  const { checks, qa } = checksFor(fold, withQa);
  for (let i = 0; i < events.length; i++) {
    fold.step(events[i], i);
    for (const check of checks) check.event(events[i], i, null);
  }
  const diagnostics = qa ? qa.finish() : [];
  return { ms: performance.now() - t0, cpu: cpuNow() - c0, events: events.length, diagnostics, ...fold.counters() };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function compare(label: string, run: (withQa: boolean) => Stats): void {
  const first = [run(false), run(true)]; // cold: the first run of each in this process
  const base: Stats[] = [];
  const qa: Stats[] = [];
  for (let r = 0; r < runs; r++) {
    base.push(run(false));
    qa.push(run(true));
  }
  const cpuB = base.map((x) => x.cpu);
  const cpuQ = qa.map((x) => x.cpu);
  const wallB = base.map((x) => x.ms);
  const wallQ = qa.map((x) => x.ms);
  const f = (x: number): string => x.toFixed(1);
  console.log(`${label} (${runs} alternating runs after one cold run each)`);
  console.log(
    `  CPU  fold median ${f(median(cpuB))} ms, fold+QA median ${f(median(cpuQ))} ms: overhead ${f(median(cpuQ) - median(cpuB))} ms ` +
      `(min-to-min ${f(Math.min(...cpuQ) - Math.min(...cpuB))} ms)`,
  );
  console.log(
    `  wall fold median ${f(median(wallB))} ms, fold+QA median ${f(median(wallQ))} ms: overhead ${f(median(wallQ) - median(wallB))} ms ` +
      `(min-to-min ${f(Math.min(...wallQ) - Math.min(...wallB))} ms)`,
  );
  const [coldB, coldQ] = first as [Stats, Stats];
  console.log(`  cold (first runs, includes JIT warm-up): fold ${f(coldB.cpu)} ms CPU, fold+QA ${f(coldQ.cpu)} ms CPU`);
  const last = qa[qa.length - 1] as Stats;
  console.log(
    `  events ${last.events}, eventAt calls ${last.eventAtCalls} (${last.eventAtMs.toFixed(1)} ms), qa findings ${last.diagnostics.length}`,
  );
  for (const d of last.diagnostics.slice(0, 10)) console.log(`  ${d.severity} ${d.rule} seq ${String(d.seq)}: ${d.message}`);
}

compare('stream (parse + fold)', streamRun);
const events: unknown[] = [];
for (let i = 0; i < eventCount; i++) events.push(parseEvent(i));
compare('memory (fold only)', (withQa) => memoryRun(events, withQa));
