/**
 * Bounded mutation fuzzing inside the suite (docs/ROBUSTNESS.md): a fixed seed and case range,
 * so a failure names its replay id. Longer runs: `npm run fuzz -- --cases 20000 --seed 1`, and
 * `npm run fuzz -- --replay <seed>:<case>` to rebuild one case.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_BUDGET_MS, emptyTally, fuzzOne, record } from '../support/fuzz/index';

const SEED = 1;
const CASES = 300;
const BATCH = 100;

describe('mutation fuzzing', () => {
  for (let from = 0; from < CASES; from += BATCH) {
    const to = from + BATCH - 1;
    it(`seed ${SEED}, cases ${from}..${to}: openBytes never throws or hangs, folds agree with the reference, queries answer`, async () => {
      const tally = emptyTally();
      const failures: string[] = [];
      for (let id = from; id <= to; id++) {
        const { fuzzCase, outcome } = await fuzzOne(SEED, id, DEFAULT_BUDGET_MS);
        record(tally, outcome);
        for (const f of outcome.failures) {
          failures.push(
            `${outcome.replay} ${f.kind}${f.session === null ? '' : ` [${f.session}]`}: ${f.message}\n    ${fuzzCase?.notes.join(' | ') ?? ''}`,
          );
        }
      }
      expect(failures).toEqual([]);
      expect(tally.cases).toBe(BATCH);
      // The oracle is not vacuous: most sessions are compared with the reference fold.
      expect(tally.compared).toBeGreaterThan(BATCH * 0.7);
    });
  }
});
