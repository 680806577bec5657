/**
 * Model requests and prefix reuse against an independent computation: the request points found
 * by a plain reading of the definition (docs/ANALYSIS.md), and at each the model view refolded
 * from scratch (`foldSurface` over the events before it), compared with the previous view by
 * JSON deep equality. Every break must be attributed to something the log shows.
 */
import { describe, expect, it } from 'vitest';
import { attributeBreak } from '../../../src/core/analysis/requests';
import { sessionLosses } from '../../../src/core/analysis/session-loss';
import { estimateTokens } from '../../../src/core/analyze/tokens';
import { openBytes } from '../../../src/core/analyze/open';
import { deriveEventMessage } from '../../../src/core/fold/manager';
import { foldSurface, jsonEqual } from '../../../src/core/fold/surface';
import type { GenMeta, GenOptions } from '../../../src/core/gen/generate';
import { generateLog } from '../../../src/core/gen/generate';
import { naiveDecode } from '../../support/naive-decode';

type Ev = { type: string; seq: number; data?: any; surfaceOp?: any }; // eslint-disable-line @typescript-eslint/no-explicit-any

interface Expected {
  seq: number;
  turn: number;
  step: number;
  messages: unknown[];
}

/** The request points, read plainly: a chunk of a step not yet streaming, or of a new attempt. */
function requestPoints(events: Ev[]): { seq: number; turn: number; step: number }[] {
  const out: { seq: number; turn: number; step: number }[] = [];
  let current: { turn: number; step: number } | null = null;
  for (const e of events) {
    const d = e.data ?? {};
    if (e.type === 'assistant/chunk') {
      if (current === null || current.turn !== d.turn || current.step !== d.step) {
        current = { turn: d.turn, step: d.step };
        out.push({ seq: e.seq, ...current });
      }
      if (d.chunk?.type === 'finish') current = null;
    } else if (e.type === 'llm/retry' || e.type === 'llm/retry-started' || e.type === 'step/start') current = null;
    else if (e.type === 'assistant/message') {
      if (!out.some((r) => r.turn === d.turn && r.step === d.step)) out.push({ seq: e.seq, turn: d.turn, step: d.step });
      current = null;
    }
  }
  return out;
}

function generate(options: GenOptions): { text: string; meta: GenMeta } {
  const log = generateLog(options);
  const lines = [...log.lines];
  return { text: `${lines.join('\n')}${log.meta.finalNewline ? '\n' : ''}`, meta: log.meta };
}

function viewBefore(events: Ev[], seq: number): unknown[] {
  const { nodes } = foldSurface(events.slice(0, seq));
  return nodes.map((n) => deriveEventMessage(events[n])).filter((m) => m !== null);
}

const chars = (ms: unknown[]): number => ms.reduce<number>((n, m) => n + JSON.stringify(m).length, 0);

const CASES: GenOptions[] = [
  { seed: 5, events: 6000, compaction: { thresholdTokens: 2000, keepRatio: 0.6 } },
  { seed: 6, events: 6000, pruneThreshold: 500, longToolResultRate: 0.3, compaction: { thresholdTokens: 1500, manualRate: 0.3 } },
  { seed: 11, events: 8000, packChunks: true, compaction: { thresholdTokens: 2500, failureRate: 0.3 } },
  { seed: 12, events: 4000, packChunks: false, pruneThreshold: 400, longToolResultRate: 0.5 },
];

describe('model requests over generated logs', () => {
  for (const options of CASES) {
    it(`seed ${options.seed}: requests, views and prefix reuse equal an independent refold`, async () => {
      const log = generate(options);
      const { events } = naiveDecode(log.text) as { events: Ev[] };
      const session = (await openBytes(new TextEncoder().encode(log.text), { name: 'gen' })).sessions[0]!;
      const got = session.analytics!.requests;
      const points = requestPoints(events);
      expect(got.map((r) => [r.seq, r.turn, r.step])).toEqual(points.map((p) => [p.seq, p.turn, p.step]));
      let prev: Expected | null = null;
      let header: unknown;
      let headerAtPrev: unknown;
      let breaks = 0;
      let cursor = 0;
      for (const [i, p] of points.entries()) {
        for (; cursor < p.seq; cursor++) if (events[cursor]!.type === 'request/header') header = events[cursor]!.data.header;
        const messages = viewBefore(events, p.seq);
        const r = got[i]!;
        expect(r.messages).toBe(messages.length);
        expect(r.tokens).toBe(estimateTokens(chars(messages)));
        let lcp = 0;
        if (prev) while (lcp < Math.min(prev.messages.length, messages.length) && jsonEqual(prev.messages[lcp], messages[lcp])) lcp++;
        const headerChanged = prev !== null && headerAtPrev !== undefined && !jsonEqual(header, headerAtPrev);
        if (headerChanged) lcp = 0;
        expect([r.seq, r.reusedMessages]).toEqual([p.seq, lcp]);
        expect(r.reusedTokens).toBe(estimateTokens(chars(messages.slice(0, lcp))));
        const broke = prev !== null && (headerChanged || lcp < prev.messages.length);
        expect(r.brokenBy !== null).toBe(broke);
        if (r.brokenBy) {
          breaks++;
          const between = events.slice(prev!.seq, p.seq);
          if (headerChanged) {
            expect(r.brokenBy).toMatchObject({ kind: 'header', at: 0 });
            expect(events[r.brokenBy.seq!]!.type).toBe('request/header');
          } else {
            // A replace between the two requests whose replacement now sits where the prefix broke
            // or before it, and no message before its position changed.
            expect(r.brokenBy.kind).toBe('replace');
            expect(r.brokenBy.at).toBe(lcp);
            const replace = events[r.brokenBy.seq!]!;
            expect(between).toContain(replace);
            expect(typeof replace.surfaceOp).toBe('object');
          }
        }
        prev = { ...p, messages };
        headerAtPrev = header;
      }
      expect(breaks).toBeGreaterThan(0);
      // One loss record per replace applied, at the replacement's seq; a summary keeping none of
      // the user's constraints it shadowed is a warning there.
      const losses = sessionLosses(session);
      expect(session.analytics!.replaces.map((c) => c.seq)).toEqual(session.fold.replacements.map((r) => r.seq));
      expect(losses.map((c) => c.seq)).toEqual(session.fold.replacements.map((r) => r.seq));
      const silent = losses
        .filter((c) => c.kind === 'compaction' && c.kept.constraints[1] > 0 && c.kept.constraints[0] === 0)
        .map((c) => c.seq);
      expect(session.diagnostics.filter((d) => d.rule === 'qa/constraints-dropped').map((d) => d.seq)).toEqual(silent);
      for (const c of losses) for (const [k, n] of Object.values(c.kept)) expect(k).toBeLessThanOrEqual(n);
      expect(session.diagnostics.filter((d) => d.rule === 'qa/unexplained-break')).toEqual([]);
    });
  }

  it("usage: the step message's usage goes to the attempt that produced it, a failed attempt keeps its own", async () => {
    const log = generate({ seed: 21, events: 30_000 });
    expect(log.meta.stats.retries).toBeGreaterThan(0);
    const { events } = naiveDecode(log.text) as { events: Ev[] };
    const session = (await openBytes(new TextEncoder().encode(log.text), { name: 'gen' })).sessions[0]!;
    const requests = session.analytics!.requests;
    const retried = requests.filter((r) => r.attempt > 1);
    let overflows = 0;
    for (const r of retried) {
      const failed = requests[requests.indexOf(r) - 1]!;
      expect([failed.turn, failed.step, failed.finish]).toEqual([r.turn, r.step, 'error']);
      expect(failed.usageFrom).not.toBe('message');
      const between = events.slice(failed.seq, r.seq);
      if (between.some((e) => e.type === 'llm/retry')) {
        // A plain retry is sent the same messages: nothing broke.
        expect([r.brokenBy, r.reusedMessages]).toEqual([null, failed.messages]);
      } else {
        // A context overflow compacted inside the step, then the request went again.
        overflows++;
        expect(between.some((e) => e.type === 'compaction/summary')).toBe(true);
        expect(r.brokenBy?.kind).toBe('replace');
      }
    }
    expect(retried.length - overflows).toBe(log.meta.stats.retries);
    expect(overflows).toBeGreaterThan(0);
    for (const e of events) {
      if (e.type !== 'assistant/message' || e.data.usage === undefined) continue;
      const owner = requests.filter((r) => r.turn === e.data.turn && r.step === e.data.step).at(-1)!;
      expect(owner.usageFrom).toBe('message');
      expect(owner.usage!.input).toBe(e.data.usage.inputTokens);
      expect(owner.usage!.cacheRead).toBe(e.data.usage.cacheReadTokens ?? null);
    }
  });
});

describe('break attribution', () => {
  it('a header change wins and loses the whole prefix', () => {
    expect(attributeBreak(3, 5, [{ seq: 40, cut: 3 }], 38)).toEqual({ seq: 38, kind: 'header', at: 0 });
    expect(attributeBreak(5, 5, [], 38)).toEqual({ seq: 38, kind: 'header', at: 0 });
  });
  it('no break when the previous messages are all reused', () => {
    expect(attributeBreak(5, 5, [{ seq: 40, cut: 7 }], null)).toBeNull();
  });
  it('the replace cutting at or closest before the break explains it', () => {
    const cuts = [
      { seq: 40, cut: 1 },
      { seq: 44, cut: 3 },
      { seq: 48, cut: 6 },
    ];
    expect(attributeBreak(3, 8, cuts, null)).toEqual({ seq: 44, kind: 'replace', at: 3 });
    expect(attributeBreak(4, 8, cuts, null)).toEqual({ seq: 44, kind: 'replace', at: 4 });
    expect(attributeBreak(0, 8, cuts, null)).toEqual({ seq: null, kind: 'other', at: 0 });
    expect(attributeBreak(2, 8, [], null)).toEqual({ seq: null, kind: 'other', at: 2 });
  });
});
