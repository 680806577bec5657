/**
 * The shadowed-ranges list: each replacement's `shadowedBy` and `visible` (the replacement that
 * stands for it at the step) equal a walk up its chain of replaced-by, on logs whose replaces nest
 * (compactions of compactions) and on one where every replace shadows the previous one; a window
 * is those rows, cut.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { generateReplaceHeavyLines } from '../../src/core/gen/shapes';
import { Rng } from '../../src/core/gen/rng';
import { sessionQueries } from '../../src/worker/query';

async function open(text: string) {
  return (await openBytes(new TextEncoder().encode(text), { name: 'r.jsonl' })).sessions[0]!;
}

/** The reference: for each replacement applied by `step`, walk up replaced-by while it is shadowed by then. */
function walked(session: Awaited<ReturnType<typeof open>>, step: number): { seq: number; shadowedBy: number | null; visible: number }[] {
  const tt = session.index;
  const over = (seq: number): number | null => {
    const leave = tt.leaveStep(seq);
    return leave >= 0 && leave <= step ? tt.replacedBy(seq) : null;
  };
  return Array.from({ length: tt.replaceGenerationAt(step) }, (_, r) => {
    const seq = tt.replacement(r).seq;
    let visible = seq;
    for (let by = over(visible); by !== null; by = over(visible)) visible = by;
    return { seq, shadowedBy: over(seq), visible };
  });
}

describe('replacements at a step', () => {
  for (const seed of [3, 4, 5]) {
    it(`seed ${seed}: nested compactions and prunes, at 40 random steps, equal the walk up each chain`, async () => {
      const session = await open(generateText({ seed, events: 4000, pruneThreshold: 400, compaction: { thresholdTokens: 1200 } }));
      const q = sessionQueries(session);
      expect(session.index.replacementCount).toBeGreaterThan(5);
      const rng = new Rng(`replacements-${seed}`);
      const steps = [session.index.steps, ...Array.from({ length: 39 }, () => rng.int(0, session.index.steps))];
      let nested = 0;
      for (const step of steps) {
        const rows = q
          .replacements({ step, start: 0, count: 2000 })
          .items.map(({ seq, shadowedBy, visible }) => ({ seq, shadowedBy, visible }));
        expect(rows).toEqual(walked(session, step));
        // A window is the same rows as the whole list, cut.
        const from = rng.int(0, rows.length);
        const window = q.replacements({ step, start: from, count: 7 });
        expect(window.total).toBe(rows.length);
        expect(window.items.map(({ seq, shadowedBy, visible }) => ({ seq, shadowedBy, visible }))).toEqual(rows.slice(from, from + 7));
        nested += rows.filter((r) => r.shadowedBy !== null).length;
      }
      expect(nested).toBeGreaterThan(0);
    });
  }

  it('seed 8: 3,000 replaces each shadowing the previous one stand for the last one', async () => {
    const text = [...generateReplaceHeavyLines({ seed: 8, appends: 50, replaces: 3000, textChars: 30 })].join('\n') + '\n';
    const session = await open(text);
    const q = sessionQueries(session);
    const step = session.index.steps;
    const rows = [0, 1000, 2000].flatMap((start) => q.replacements({ step, start, count: 1000 }).items);
    expect(q.replacements({ step, start: 0, count: 1 }).total).toBe(3000);
    expect(rows).toHaveLength(3000);
    // A window is at most 2,000 rows, however many are asked.
    expect(q.replacements({ step, start: 0, count: 5000 }).items).toHaveLength(2000);
    const last = rows[rows.length - 1]!.seq;
    expect(rows.every((r) => r.visible === last)).toBe(true);
    expect(rows.map(({ seq, shadowedBy, visible }) => ({ seq, shadowedBy, visible }))).toEqual(walked(session, session.index.steps));
  });
});
