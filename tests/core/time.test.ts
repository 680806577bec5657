import { describe, expect, it } from 'vitest';
import { outOfOrderFlags, timeFacts } from '../../src/core/analyze/time';
import type { Diagnostic } from '../../src/core/model';

const projected: Diagnostic = { severity: 'info', rule: 'decode/projected-snapshot', seq: null, line: null, message: '' };

describe('time facts', () => {
  it('real clocks count from the earliest time and count steps back', () => {
    const facts = timeFacts(new Float64Array([1000, 2000, 500, 3000, 2500]), []);
    expect(facts).toEqual({ kind: 'clock', origin: 500, outOfOrder: 2, note: null });
    expect([...outOfOrderFlags(new Float64Array([1000, 2000, 500, 3000, 2500]))]).toEqual([0, 0, 1, 0, 1]);
  });
  it('an all-zero log and a projected snapshot have synthetic times; no numeric time is absent', () => {
    expect(timeFacts(new Float64Array([0, 0, 0]), []).kind).toBe('synthetic');
    expect(timeFacts(new Float64Array([0, 0, 5]), [projected])).toMatchObject({ kind: 'synthetic' });
    expect(timeFacts(new Float64Array([NaN, NaN]), [])).toMatchObject({ kind: 'absent', origin: null });
    expect(timeFacts(new Float64Array([]), []).kind).toBe('absent');
  });
});
