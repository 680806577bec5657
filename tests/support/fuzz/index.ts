/**
 * Seeded mutation fuzzer for the decoder and analyzer (docs/ROBUSTNESS.md). A case is named by
 * `<seed>:<case>` and rebuilt exactly from it; see case.ts (inputs), mutate.ts and
 * containers.ts (mutators), check.ts (the property).
 */
import { buildCase } from './case';
import type { FuzzCase } from './case';
import { DEFAULT_BUDGET_MS, runCase } from './check';
import type { Failure, FailureKind, Outcome } from './check';

export { buildCase, runCase, DEFAULT_BUDGET_MS };
export type { Failure, FailureKind, FuzzCase, Outcome };

/** Parse `<seed>:<case>`. */
export function parseReplay(id: string): { seed: number; id: number } {
  const m = /^(-?\d+):(\d+)$/.exec(id.trim());
  if (!m) throw new Error(`not a replay id (expected <seed>:<case>): ${id}`);
  return { seed: Number(m[1]), id: Number(m[2]) };
}

/** Build and run one case; a failure to build is reported as a crash of the harness. */
export async function fuzzOne(
  seed: number,
  id: number,
  budgetMs = DEFAULT_BUDGET_MS,
): Promise<{ fuzzCase: FuzzCase | null; outcome: Outcome }> {
  let fuzzCase: FuzzCase;
  try {
    fuzzCase = await buildCase(seed, id);
  } catch (error) {
    const message = error instanceof Error ? `case construction failed: ${error.stack ?? error.message}` : String(error);
    return {
      fuzzCase: null,
      outcome: {
        replay: `${seed}:${id}`,
        openMs: 0,
        queryMs: 0,
        sessions: 0,
        compared: 0,
        failures: [{ kind: 'crash', session: null, message }],
      },
    };
  }
  return { fuzzCase, outcome: await runCase(fuzzCase, budgetMs) };
}

/** Counters of a run. */
export interface Tally {
  cases: number;
  sessions: number;
  compared: number;
  crashes: number;
  hangs: number;
  mismatches: number;
  prefixMismatches: number;
  /** Replay ids of failing cases, with their first failure. */
  failing: { replay: string; failure: Failure }[];
  maxOpenMs: number;
  /** The case with the longest openBytes time. */
  slowest: string | null;
  totalOpenMs: number;
}

export function emptyTally(): Tally {
  return {
    cases: 0,
    sessions: 0,
    compared: 0,
    crashes: 0,
    hangs: 0,
    mismatches: 0,
    prefixMismatches: 0,
    failing: [],
    maxOpenMs: 0,
    slowest: null,
    totalOpenMs: 0,
  };
}

const FIELD: Record<FailureKind, 'crashes' | 'hangs' | 'mismatches' | 'prefixMismatches'> = {
  crash: 'crashes',
  hang: 'hangs',
  mismatch: 'mismatches',
  prefix: 'prefixMismatches',
};

/** Add one outcome to a tally (each failure kind counts a case at most once). */
export function record(tally: Tally, outcome: Outcome): void {
  tally.cases += 1;
  tally.sessions += outcome.sessions;
  tally.compared += outcome.compared;
  if (outcome.openMs > tally.maxOpenMs) {
    tally.maxOpenMs = outcome.openMs;
    tally.slowest = outcome.replay;
  }
  tally.totalOpenMs += outcome.openMs;
  const kinds = new Set(outcome.failures.map((f) => f.kind));
  for (const kind of kinds) tally[FIELD[kind]] += 1;
  const first = outcome.failures[0];
  if (first) tally.failing.push({ replay: outcome.replay, failure: first });
}
