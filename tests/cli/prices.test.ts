/**
 * `check --prices FILE.json`: the JSON record gains `cost` per turn and in all, computed from
 * the record's own usage per model; a bad price file is a usage error naming what is wrong.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { generateText } from '../../src/core/gen/generate';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const dir = mkdtempSync(join(tmpdir(), 'surface-lens-prices-'));
const log = join(dir, 'gen.jsonl');
writeFileSync(log, generateText({ seed: 8, events: 3000 }));

interface Totals {
  requests: number;
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  reasoning: number;
}

describe('check --prices', () => {
  it('adds the cost of every turn and the total to the JSON record', async () => {
    const prices = join(dir, 'prices.json');
    writeFileSync(prices, JSON.stringify({ '*': { input: 2, output: 10, cacheRead: 0.5, cacheWrite: 2.5 } }));
    const r = await run(['check', '--json', '--jobs', '1', '--prices', prices, log]);
    const record = JSON.parse(r.out.trim()) as {
      usage: { turns: Totals[]; total: Totals };
      cost: { turns: { dollars: number }[]; total: { dollars: number; unpriced: number }; currency: string };
    };
    const at = (t: Totals) => (t.input * 2 + (t.output + t.reasoning) * 10 + t.cacheRead * 0.5 + t.cacheWrite * 2.5) / 1e6;
    expect(record.cost.currency).toBe('USD');
    expect(record.cost.total.unpriced).toBe(0);
    expect(record.cost.total.dollars).toBeGreaterThan(0);
    expect(record.cost.total.dollars).toBeCloseTo(at(record.usage.total), 9);
    expect(record.cost.turns.map((t) => t.dollars.toFixed(9))).toEqual(record.usage.turns.map((t) => at(t).toFixed(9)));
  });

  it('leaves the record without cost when no prices are given', async () => {
    const r = await run(['check', '--json', '--jobs', '1', log]);
    expect(JSON.parse(r.out.trim())).not.toHaveProperty('cost');
  });

  it('refuses a price file it cannot use, saying why', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify({ m: { input: 'three', output: 1 } }));
    const r = await run(['check', '--json', '--prices', bad, log]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`--prices ${bad}: "m".input: needs a number ≥ 0`);
  });
});
