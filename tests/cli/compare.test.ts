/**
 * `surface-lens compare` on pairs of logs that share a prefix of known length: a log and its
 * own prefix, a log and a copy changed at one event (a chunk's text, a prompt's text).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCompare } from '../../src/cli/compare';
import { generateText } from '../../src/core/gen/generate';

const dir = mkdtempSync(join(tmpdir(), 'surface-lens-compare-'));
const text = generateText({ seed: 3, events: 1500, packChunks: false, compaction: { thresholdTokens: 2000 } });
const [header, ...lines] = text.trimEnd().split('\n') as [string, ...string[]];
const events = lines.map((l) => JSON.parse(l) as { type: string; seq: number; data: Record<string, unknown> });

function write(name: string, body: string[]): string {
  const path = join(dir, name);
  writeFileSync(path, `${[header, ...body].join('\n')}\n`);
  return path;
}

async function compare(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCompare(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

/** The log with event `k` changed by `edit`. */
function changedAt(k: number, edit: (e: (typeof events)[number]) => void): string[] {
  return events.map((e, i) => {
    if (i !== k) return JSON.stringify(e);
    const copy = structuredClone(e);
    edit(copy);
    return JSON.stringify(copy);
  });
}

describe('surface-lens compare', () => {
  const whole = write('whole.jsonl', lines);

  it('a log and itself: equal, exit 0', async () => {
    const r = await compare(whole, write('copy.jsonl', lines), '--json');
    expect(r.code).toBe(0);
    const c = JSON.parse(r.out);
    expect(c).toMatchObject({ commonPrefix: events.length, equal: true, divergence: { a: null, b: null }, deltas: [] });
    expect(c.requests.same).toBe(c.requests.a);
  });

  it('a log and its first 700 events: the prefix is 700, B ends there', async () => {
    const r = await compare(whole, write('prefix.jsonl', lines.slice(0, 700)), '--json');
    expect(r.code).toBe(1);
    const c = JSON.parse(r.out);
    expect(c.commonPrefix).toBe(700);
    expect(c.divergence).toEqual({ a: { seq: 700, type: events[700]!.type }, b: null });
    expect(c.requests.b).toBeLessThan(c.requests.a);
    // The requests B has are A's first ones, identical; the rest are listed with B missing.
    expect(c.requests.same).toBe(c.requests.b);
    expect(c.deltas.every((d: { b: unknown }) => d.b === null)).toBe(true);
  });

  it('a changed chunk text: diverges at that event; views and requests unchanged', async () => {
    const k = events.findIndex(
      (e, i) => i > 300 && e.type === 'assistant/chunk' && (e.data.chunk as { type: string }).type === 'text-delta',
    );
    const r = await compare(
      whole,
      write(
        'chunk.jsonl',
        changedAt(k, (e) => ((e.data.chunk as { text: string }).text += ' (edited)')),
      ),
      '--json',
    );
    expect(r.code).toBe(1);
    const c = JSON.parse(r.out);
    expect(c.commonPrefix).toBe(k);
    expect(c.divergence).toEqual({ a: { seq: k, type: 'assistant/chunk' }, b: { seq: k, type: 'assistant/chunk' } });
    expect(c.finalViews.commonMessages).toBe(c.finalViews.a.messages);
    expect(c.deltas).toEqual([]);
  });

  it('a changed prompt: the requests from it on differ in tokens', async () => {
    const k = events.findIndex((e, i) => i > 200 && e.type === 'user/message' && (e.data.source as { kind: string }).kind === 'user');
    const edited = changedAt(k, (e) => ((e.data.content as { text: string }[])[0]!.text += ' And one more requirement, stated at length.'));
    const r = await compare(whole, write('prompt.jsonl', edited), '--json');
    expect(r.code).toBe(1);
    const c = JSON.parse(r.out);
    expect(c.commonPrefix).toBe(k);
    const first = c.deltas[0];
    expect(first.a.seq).toBeGreaterThan(k);
    expect(first.tokens).toBeGreaterThan(0);
    // Every request before the changed prompt is identical.
    expect(c.deltas.every((d: { a: { seq: number } }) => d.a.seq > k)).toBe(true);
    const human = await compare(whole, write('prompt2.jsonl', edited));
    expect(human.out).toContain(`common prefix: ${k} events`);
    expect(human.out).toContain(`diverge: A seq ${k} (user/message) · B seq ${k} (user/message)`);
  });

  it('usage errors exit 2', async () => {
    expect((await compare(whole)).code).toBe(2);
    expect((await compare(whole, join(dir, 'missing.jsonl'))).code).toBe(2);
    expect((await compare(whole, whole, '--bogus')).code).toBe(2);
    expect((await compare('--help')).code).toBe(0);
  });
});
