/**
 * Seeded property tests (the seed is in each test's name) of the fold's indexed node list:
 * `LiveSurface` answers exactly as a plain array under random appends and replaces, and the
 * folds built on it (the stepwise fold, the analyzer's streaming fold) equal the reference fold
 * on replace-heavy logs — nodes, replacements, and the first refusal's message and seq.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { LiveSurface } from '../../../src/core/fold/live';
import { foldStepwise } from '../../../src/core/fold/surface';
import { Rng } from '../../../src/core/gen/rng';
import { referenceFold } from '../../support/reference-fold';

const HEADER = {
  type: 'session',
  version: 0,
  id: '5b0c8a52-6d0e-4c51-9d3e-2f4a8b7c9e10',
  createdAt: 1785400000000,
  cwd: '/home/dev/project',
  delegationDepth: 0,
};

describe('LiveSurface', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: answers as a plain array under random appends and replaces`, () => {
      const rng = new Rng(`live-${seed}`);
      const live = new LiveSurface();
      const model: number[] = [];
      let seq = seed * 7;
      let snapshot: { live: LiveSurface; model: number[] } | null = null;
      for (let op = 0; op < 3000; op++) {
        seq += rng.int(1, 3);
        if (model.length === 0 || rng.chance(0.55)) {
          live.push(seq);
          model.push(seq);
        } else {
          const pick = rng.int(0, 3);
          const start = pick === 0 ? model.length - 1 : pick === 1 ? 0 : rng.int(0, model.length - 1);
          const end = Math.min(model.length - 1, start + (rng.chance(0.7) ? 0 : rng.int(0, 6)));
          const expected = model.splice(start, end - start + 1, seq);
          expect(live.replace(start, end, seq)).toEqual(expected);
        }
        expect(live.length).toBe(model.length);
        for (let probe = 0; probe < 4; probe++) {
          const s = rng.int(0, seq + 2);
          expect(live.indexOf(s)).toBe(model.indexOf(s));
        }
        const at = rng.int(-1, model.length);
        expect(live.at(at)).toBe(model[at]);
        const a = rng.int(-3, model.length + 2);
        const b = rng.int(-3, model.length + 2);
        expect(live.slice(a, b)).toEqual(model.slice(a, b));
        if (op === 1500) snapshot = { live: live.clone(), model: model.slice() };
      }
      expect(live.slice()).toEqual(model);
      // A clone is independent of the surface it was taken from.
      expect(snapshot?.live.slice()).toEqual(snapshot?.model);
    });
  }

  it('falls back to array semantics for seqs that do not ascend', () => {
    const live = new LiveSurface();
    live.push(5);
    live.push(9);
    live.push(7);
    expect(live.slice()).toEqual([5, 9, 7]);
    expect(live.indexOf(7)).toBe(2);
    expect(live.replace(0, 1, 3)).toEqual([5, 9]);
    expect(live.slice()).toEqual([3, 7]);
  });
});

/** A random log of appends and replaces, most of them valid, some refused by one rule. */
function replaceHeavyLog(seed: number, count: number, allowErrors: boolean): unknown[] {
  const rng = new Rng(`replace-heavy-${seed}`);
  const events: Record<string, unknown>[] = [];
  const nodes: number[] = [];
  const errorAt = Math.floor(count * (0.7 + 0.2 * rng.next()));
  const text = (seq: number): { type: string; text: string }[] => [{ type: 'text', text: `node ${seq}` }];
  for (let seq = 0; seq < count; seq++) {
    const roll = rng.next();
    if (nodes.length < 2 || roll < 0.35) {
      if (rng.chance(0.2)) {
        events.push({ type: 'turn/start', seq, time: 1785400000001 + seq, data: { turn: seq } });
        continue;
      }
      const tool = rng.chance(0.3);
      events.push(
        tool
          ? {
              type: 'tool/result',
              seq,
              time: 1785400000001 + seq,
              data: { message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: `c${seq}`, content: text(seq) }] } },
              surfaceOp: 'append',
            }
          : {
              type: 'user/message',
              seq,
              time: 1785400000001 + seq,
              data: { role: 'user', content: text(seq), source: { kind: 'user' } },
              surfaceOp: 'append',
            },
      );
      nodes.push(seq);
      continue;
    }
    const where = rng.int(0, 3);
    let startIdx = where === 0 ? nodes.length - 1 : where === 1 ? 0 : rng.int(0, nodes.length - 1);
    let endIdx = Math.min(nodes.length - 1, startIdx + (rng.chance(0.6) ? 0 : rng.int(0, 5)));
    let start = nodes[startIdx]!;
    let end = nodes[endIdx]!;
    let sources = nodes.slice(startIdx, endIdx + 1);
    const last = events[start] as Record<string, unknown>;
    // A prune: a tool/result copy of a tool/result that changes only the content.
    if (startIdx === endIdx && last.type === 'tool/result' && rng.chance(0.5)) {
      const data = last.data as { message: { role: string; content: { toolCallId: string }[] } };
      const first = data.message.content[0] as { toolCallId: string };
      events.push({
        type: 'tool/result',
        seq,
        time: 1785400000001 + seq,
        data: { message: { role: 'tool', content: [{ type: 'tool-result', toolCallId: first.toolCallId, content: text(seq) }] } },
        surfaceOp: { op: 'replace', start, end },
        sourceEventSeqs: sources,
      });
      nodes.splice(startIdx, 1, seq);
      continue;
    }
    if (allowErrors && seq >= errorAt) {
      // One refused replace late in the log, by a rule the seed picks.
      const kind = seed % 4;
      if (kind === 0)
        start = seq + 1000; // R1: start not on the surface
      else if (kind === 1)
        end = seq + 5; // R2: end not on the surface
      else if (kind === 2)
        [start, end] = [nodes[1]!, nodes[0]!]; // R3
      else sources = sources.slice(1); // P6: a shadowed node not cited
      startIdx = -1;
      endIdx = -1;
    }
    events.push({
      type: 'assistant/message',
      seq,
      time: 1785400000001 + seq,
      data: { message: { role: 'assistant', content: text(seq) } },
      surfaceOp: { op: 'replace', start, end },
      sourceEventSeqs: sources,
    });
    if (startIdx < 0) break; // the log ends at its refused replace
    nodes.splice(startIdx, endIdx - startIdx + 1, seq);
  }
  return events;
}

describe('replace-heavy logs', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: the indexed fold equals the reference fold (nodes, replacements, first error and seq)`, async () => {
      const events = replaceHeavyLog(seed, 4000, seed % 2 === 0);
      const reference = referenceFold(events);
      const stepwise = foldStepwise(events);
      expect(stepwise.nodes).toEqual(reference.nodes);
      expect(stepwise.replacements).toEqual(reference.replacements);
      expect(
        stepwise.error === null ? null : { index: stepwise.error.index, seq: stepwise.error.seq, message: stepwise.error.message },
      ).toEqual(reference.error);
      expect(reference.replacements.length).toBeGreaterThan(500);
      const text = [HEADER, ...events].map((e) => JSON.stringify(e)).join('\n') + '\n';
      const result = await openBytes(new TextEncoder().encode(text), { name: `replace-heavy-${seed}.jsonl` });
      const session = result.sessions[0];
      expect(session?.fold.nodes).toEqual(reference.nodes);
      expect(session?.fold.replacements).toEqual(reference.replacements);
      expect(session?.fold.error?.message ?? null).toBe(reference.error?.message ?? null);
      expect(session?.fold.error?.seq ?? null).toBe(reference.error?.seq ?? null);
      // The time-travel index agrees at the end of the accepted prefix.
      expect(session?.index.nodesAt(session.index.steps)).toEqual(reference.nodes);
    });
  }

  it('seeds 2, 4, 6, 8: each log with a damaged replace ends in the refusal of that replace', () => {
    for (const seed of [2, 4, 6, 8]) {
      const events = replaceHeavyLog(seed, 4000, true);
      expect(referenceFold(events).error?.index).toBe(events.length - 1);
    }
  });
});
