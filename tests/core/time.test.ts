import { describe, expect, it } from 'vitest';
import { emptyTimeTally, factsOfTally, OutOfOrderFlags, tallyTimes, timeFacts } from '../../src/core/analyze/time';
import { Rng } from '../../src/core/gen/rng';
import type { Diagnostic } from '../../src/core/model';

const projected: Diagnostic = { severity: 'info', rule: 'decode/projected-snapshot', seq: null, line: null, message: '' };

describe('time facts', () => {
  it('real clocks count from the earliest time and count steps back', () => {
    const facts = timeFacts(new Float64Array([1000, 2000, 500, 3000, 2500]), []);
    expect(facts).toEqual({ kind: 'clock', origin: 500, outOfOrder: 2, note: null });
    expect([...new OutOfOrderFlags().update(new Float64Array([1000, 2000, 500, 3000, 2500]))]).toEqual([0, 0, 1, 0, 1]);
  });
  it('an all-zero log and a projected snapshot have synthetic times; no numeric time is absent', () => {
    expect(timeFacts(new Float64Array([0, 0, 0]), []).kind).toBe('synthetic');
    expect(timeFacts(new Float64Array([0, 0, 5]), [projected])).toMatchObject({ kind: 'synthetic' });
    expect(timeFacts(new Float64Array([NaN, NaN]), [])).toMatchObject({ kind: 'absent', origin: null });
    expect(timeFacts(new Float64Array([]), []).kind).toBe('absent');
  });

  it('seed 31: a column tallied and flagged in random growing prefixes gives what it gives whole, after every piece', () => {
    const rng = new Rng('time-tally-31');
    const times = new Float64Array(3000);
    let clock = 1_000_000;
    for (let i = 0; i < times.length; i++) {
      // Mostly forward, sometimes back, sometimes no time, sometimes a repeat.
      const roll = rng.int(0, 9);
      clock += roll === 0 ? -rng.int(1, 500) : roll === 1 ? 0 : rng.int(1, 50);
      times[i] = roll === 2 ? NaN : clock;
    }
    const tally = emptyTimeTally();
    const flags = new OutOfOrderFlags();
    for (let n = 0; n < times.length;) {
      const next = Math.min(times.length, n + rng.int(0, 200));
      tallyTimes(tally, times, n, next);
      n = next;
      const prefix = times.subarray(0, n);
      expect(factsOfTally(tally, [])).toEqual(timeFacts(prefix, []));
      expect([...flags.update(prefix)]).toEqual([...new OutOfOrderFlags().update(prefix)]);
    }
    // Every kind of flag happened, so the comparison could have failed.
    expect(timeFacts(times, []).outOfOrder).toBeGreaterThan(0);
  });
});
