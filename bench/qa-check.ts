/**
 * Overhead of the compaction QA check on a big log (not a vitest test):
 *
 *   node --expose-gc --import tsx bench/qa-check.ts [FILE] [--runs 9] [--memory]
 *
 * FILE defaults to bench/out/gen-1000000-seed1.jsonl (generate it with
 * `node --import tsx scripts/gen-log.ts --events 1000000 --seed 1 --out bench/out/gen-1000000-seed1.jsonl`).
 *
 * The loop is the analyzer's: JSON.parse every line, expand packed rows, fold each event
 * (planEvent/applyPlan), then call the checks in a loop over an array. Three variants, run
 * alternately and compared by median (and min) process CPU time:
 *
 * - `four`: four no-op checks of different classes (the analyzer runs four check classes:
 *   seed, loader, loader summary, relational);
 * - `five`: a fifth no-op class — the cost of a fifth class at that call site alone;
 * - `qa`: the four no-ops plus the QA check.
 *
 * `qa − five` is the QA check's own cost; `five − four` is what any fifth check class costs at a
 * polymorphic call site that turns megamorphic (a wiring matter, see the report).
 * With `--memory` the same comparison also runs over events parsed beforehand (no parse; but
 * cold caches make per-event reads dearer than right after JSON.parse).
 * `eventAt` re-parses the event's line, like the analyzer's byte-backed log.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import type { EventCheck } from '../src/core/checks/check';
import { expandPackedRow, isPackedRow, validatePackedRow } from '../src/core/decode/packed';
import type { Plan, SurfaceState } from '../src/core/fold/surface';
import { applyPlan, emptySurfaceState, planEvent } from '../src/core/fold/surface';
import type { Diagnostic } from '../src/core/model';
import { CompactionQaCheck } from '../src/core/qa';
import type { QaFoldContext } from '../src/core/qa';

const args = process.argv.slice(2);
const runsAt = args.indexOf('--runs');
const runs = runsAt >= 0 ? Number(args[runsAt + 1]) : 9;
const withMemory = args.includes('--memory');
const file = args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--runs') ?? 'bench/out/gen-1000000-seed1.jsonl';

const text = readFileSync(file, 'utf8');
const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});

/** Line boundaries (header excluded). */
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
/** Per event: its line and its member in a packed row (-1 for a plain line). */
const eventLine = new Int32Array(4_000_000);
const eventMember = new Int32Array(4_000_000);
let eventCount = 0;

/** Re-parse event `i` from its line (the analyzer's log does the same from bytes). */
function parseEvent(i: number): unknown {
  const row = eventLine[i]!;
  const value: unknown = JSON.parse(text.slice(lineStart[row], lineEnd[row]));
  const member = eventMember[i]!;
  return member < 0 ? value : expandPackedRow(validatePackedRow(value as Record<string, unknown>))[member];
}

type Variant = 'four' | 'five' | 'qa';

interface Stats {
  /** Process CPU time (less disturbed by other processes than wall time). */
  cpu: number;
  wall: number;
  events: number;
  diagnostics: Diagnostic[];
  eventAtCalls: number;
}

/** Stand-ins for the analyzer's other checks. */
abstract class NoopCheck implements EventCheck {
  seen = 0;
  event(): void {
    this.seen++;
  }
  finish(): Diagnostic[] {
    return [];
  }
}
class NoopA extends NoopCheck {}
class NoopB extends NoopCheck {}
class NoopC extends NoopCheck {}
class NoopD extends NoopCheck {}
class NoopE extends NoopCheck {}

function cpuNow(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** A streaming fold plus the checks of a variant, as the analyzer runs them. */
class Pass {
  private readonly state: SurfaceState = emptySurfaceState();
  private plan: Plan | null = null;
  eventAtCalls = 0;
  readonly qa: CompactionQaCheck | null;
  readonly checks: EventCheck[];

  constructor(variant: Variant) {
    const ctx: QaFoldContext = {
      planAt: () => this.plan,
      nodes: () => this.state.nodes,
      eventAt: (seq) => {
        this.eventAtCalls++;
        return parseEvent(seq);
      },
    };
    this.qa = variant === 'qa' ? new CompactionQaCheck(ctx) : null;
    this.checks = [new NoopA(), new NoopB(), new NoopC(), new NoopD()];
    if (this.qa) this.checks.push(this.qa);
    if (variant === 'five') this.checks.push(new NoopE());
  }

  event(value: unknown, index: number, line: number | null): void {
    this.plan = planEvent(value, index, this.state.nodes, parseEvent);
    applyPlan(this.state, this.plan);
    for (const check of this.checks) check.event(value, index, line);
  }
}

function streamRun(variant: Variant): Stats {
  gc();
  const c0 = cpuNow();
  const t0 = performance.now();
  const pass = new Pass(variant);
  let index = 0;
  for (let row = 0; row < lineStart.length; row++) {
    const value: unknown = JSON.parse(text.slice(lineStart[row], lineEnd[row]));
    if (isPackedRow(value)) {
      const members = expandPackedRow(validatePackedRow(value));
      for (let k = 0; k < members.length; k++) {
        eventLine[index] = row;
        eventMember[index] = k;
        pass.event(members[k], index, row + 2);
        index++;
      }
    } else {
      eventLine[index] = row;
      eventMember[index] = -1;
      pass.event(value, index, row + 2);
      index++;
    }
  }
  const diagnostics = pass.qa ? pass.qa.finish() : [];
  eventCount = index;
  return { cpu: cpuNow() - c0, wall: performance.now() - t0, events: index, diagnostics, eventAtCalls: pass.eventAtCalls };
}

function memoryRun(events: readonly unknown[], variant: Variant): Stats {
  gc();
  const c0 = cpuNow();
  const t0 = performance.now();
  const pass = new Pass(variant);
  for (let i = 0; i < events.length; i++) pass.event(events[i], i, null);
  const diagnostics = pass.qa ? pass.qa.finish() : [];
  return { cpu: cpuNow() - c0, wall: performance.now() - t0, events: events.length, diagnostics, eventAtCalls: pass.eventAtCalls };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}

function compare(label: string, run: (variant: Variant) => Stats): void {
  const variants: Variant[] = ['four', 'five', 'qa'];
  const cold = variants.map((v) => run(v)); // first run of each in this process (JIT warm-up)
  const cpu: Record<Variant, number[]> = { four: [], five: [], qa: [] };
  let last: Stats | null = null;
  for (let r = 0; r < runs; r++) {
    for (const v of variants) {
      const stats = run(v);
      cpu[v].push(stats.cpu);
      if (v === 'qa') last = stats;
    }
  }
  const f = (x: number): string => x.toFixed(1);
  const m = (v: Variant): number => median(cpu[v]);
  const lo = (v: Variant): number => Math.min(...cpu[v]);
  console.log(`${label}: ${runs} rounds after one cold round; process CPU ms, median (min)`);
  for (const v of variants) console.log(`  ${v.padEnd(4)} ${f(m(v))} (${f(lo(v))})`);
  console.log(`  QA check's own cost (qa − five):   ${f(m('qa') - m('five'))} ms (min-to-min ${f(lo('qa') - lo('five'))})`);
  console.log(`  a fifth check class (five − four): ${f(m('five') - m('four'))} ms (min-to-min ${f(lo('five') - lo('four'))})`);
  console.log(`  cold round: four ${f((cold[0] as Stats).cpu)}, five ${f((cold[1] as Stats).cpu)}, qa ${f((cold[2] as Stats).cpu)}`);
  if (last) {
    console.log(`  events ${last.events}, eventAt calls ${last.eventAtCalls}, qa findings ${last.diagnostics.length}`);
    for (const d of last.diagnostics.slice(0, 10)) console.log(`  ${d.severity} ${d.rule} seq ${String(d.seq)}: ${d.message}`);
  }
}

compare('stream (parse + fold + checks)', streamRun);
if (withMemory) {
  const events: unknown[] = [];
  for (let i = 0; i < eventCount; i++) events.push(parseEvent(i));
  compare('memory (fold + checks over parsed events)', (v) => memoryRun(events, v));
}
