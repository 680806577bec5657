/**
 * Cost from recorded usage under a user's price list: hand-made figures, the `*` fallback, the
 * cache prices' default, unpriced models, the price-list parser, and a generated log priced
 * request by request (an independent sum) against the per-turn split.
 */
import { describe, expect, it } from 'vitest';
import { costOf, dollarsOf, parsePriceList, sessionCost } from '../../../src/core/analysis/cost';
import type { PriceList } from '../../../src/core/analysis/cost';
import { usageByTurn } from '../../../src/core/analysis/usage';
import { openBytes } from '../../../src/core/analyze/open';
import { generateText } from '../../../src/core/gen/generate';

const totals = (
  model: string | null,
  t: Partial<Record<'requests' | 'input' | 'output' | 'cacheRead' | 'cacheWrite' | 'reasoning', number>>,
) => ({
  model,
  requests: 1,
  input: 0,
  output: 0,
  cacheRead: 0,
  cacheWrite: 0,
  reasoning: 0,
  ...t,
});

describe('cost', () => {
  it('prices each count at its own rate, reasoning at the output rate', () => {
    const t = totals('m', { input: 1_000_000, output: 2_000_000, cacheRead: 4_000_000, cacheWrite: 500_000, reasoning: 1_000_000 });
    expect(dollarsOf(t, { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 })).toBeCloseTo(3 + 45 + 1.2 + 1.875, 10);
  });

  it('counts cache reads and writes at the input price when none is given', () => {
    const t = totals('m', { cacheRead: 2_000_000, cacheWrite: 1_000_000 });
    expect(dollarsOf(t, { input: 2, output: 8 })).toBeCloseTo(6, 10);
  });

  it('uses * for models not listed and counts models without a price as unpriced', () => {
    const models = [
      totals('a', { requests: 2, input: 1_000_000 }),
      totals('b', { requests: 3, input: 1_000_000 }),
      totals(null, { requests: 1, input: 1_000_000 }),
    ];
    expect(costOf(models, { a: { input: 1, output: 0 } })).toEqual({ dollars: 1, priced: 2, unpriced: 4, unpricedModels: ['b', null] });
    const all = costOf(models, { a: { input: 1, output: 0 }, '*': { input: 10, output: 0 } });
    expect(all).toEqual({ dollars: 21, priced: 6, unpriced: 0, unpricedModels: [] });
  });

  it('reads a price list and says what is wrong with a bad one', () => {
    expect(parsePriceList({ m: { input: 1, output: 2 } })).toEqual({ prices: { m: { input: 1, output: 2 } } });
    expect(parsePriceList([])).toHaveProperty('error');
    expect(parsePriceList({ m: { input: 1 } })).toEqual({ error: '"m".output: needs a number ≥ 0 (dollars per million tokens)' });
    expect(parsePriceList({ m: { input: -1, output: 1 } })).toHaveProperty('error');
    expect(parsePriceList({ m: { input: 1, output: 1, extra: 1 } })).toEqual({
      error: '"m": unknown field "extra" (fields: input, output, cacheRead, cacheWrite)',
    });
    expect(parsePriceList({ '': { input: 1, output: 1 } })).toHaveProperty('error');
  });

  it('splits a generated log (seed 21) by turn and model so the turns add up to the request-by-request cost', async () => {
    const text = generateText({ seed: 21, events: 20000 });
    const session = (await openBytes(new TextEncoder().encode(text), { name: 'gen.jsonl' })).sessions[0]!;
    const requests = session.analytics!.requests;
    const models = new Set(requests.map((r) => r.model));
    expect(models.size).toBeGreaterThan(1);
    expect(models.has(null)).toBe(false);
    const [first] = [...models] as string[];
    const prices: PriceList = { [first!]: { input: 3, output: 15, cacheRead: 0.3 }, '*': { input: 1, output: 2, cacheWrite: 1.25 } };
    // Independent: each request at its own model's price.
    let expected = 0;
    for (const r of requests) {
      const p = r.model === first ? prices[first]! : prices['*']!;
      const u = r.usage;
      if (u === null) continue;
      expected +=
        ((u.input ?? 0) * p.input +
          ((u.output ?? 0) + (u.reasoning ?? 0)) * p.output +
          (u.cacheRead ?? 0) * (p.cacheRead ?? p.input) +
          (u.cacheWrite ?? 0) * (p.cacheWrite ?? p.input)) /
        1e6;
    }
    const cost = sessionCost(usageByTurn(requests), prices);
    expect(expected).toBeGreaterThan(0);
    expect(cost.total.dollars).toBeCloseTo(expected, 9);
    expect(cost.turns.reduce((s, t) => s + t.dollars, 0)).toBeCloseTo(expected, 9);
    expect(cost.total.priced).toBe(requests.length);
  });
});
