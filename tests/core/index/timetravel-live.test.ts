/**
 * Seeded property tests (the seed is in each test's name) of the time-travel index kept live:
 * after each look (`live`) at a log growing by random appends and replaces (of random ranges of
 * the current surface: the last node, the first nodes, the middle), every node's place in the
 * global order and the surface at probed steps are those of an index built whole over the same
 * events (`finish`), and the surface is the one a plain array fold gives.
 */
import { describe, expect, it } from 'vitest';
import type { Plan } from '../../../src/core/fold/surface';
import { Rng } from '../../../src/core/gen/rng';
import { TimeTravelBuilder } from '../../../src/core/index/timetravel';

/** A random log as plans, folded on a plain array of seqs as it goes. */
function plans(rng: Rng, events: number): { plans: Plan[]; surfaces: number[][] } {
  const out: Plan[] = [];
  const surfaces: number[][] = [[]];
  let surface: number[] = [];
  for (let seq = 0; seq < events; seq++) {
    const roll = rng.next();
    if (surface.length === 0 || roll < 0.45) {
      out.push({ kind: 'append', seq });
      surface = [...surface, seq];
    } else if (roll < 0.5) {
      out.push({ kind: 'log-only', seq });
    } else {
      // The last node most often (a log that replaces its last node again and again), else a
      // prefix (a compaction) or a range anywhere (a prune).
      const shape = rng.next();
      const n = surface.length;
      const [startIdx, endIdx] =
        shape < 0.5
          ? [n - 1, n - 1]
          : shape < 0.75
            ? [0, rng.int(0, n - 1)]
            : ((a, b) => [Math.min(a, b), Math.max(a, b)])(rng.int(0, n - 1), rng.int(0, n - 1));
      const shadowed = surface.slice(startIdx, endIdx + 1);
      out.push({ kind: 'replace', seq, start: shadowed[0]!, end: shadowed.at(-1)!, startIdx, endIdx, shadowed });
      surface = [...surface.slice(0, startIdx), seq, ...surface.slice(endIdx + 1)];
    }
    surfaces.push(surface);
  }
  return { plans: out, surfaces };
}

describe('TimeTravelBuilder.live', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: every look places every node and shows every probed surface as the index built whole`, () => {
      const rng = new Rng(`timetravel-live-${seed}`);
      const { plans: all, surfaces } = plans(rng, rng.int(200, 1500));
      const live = new TimeTravelBuilder(0);
      let index = 0;
      let looks = 0;
      while (index < all.length) {
        // Pieces of one event to a few hundred, as a follower's polls bring them.
        const piece = rng.chance(0.3) ? 1 : rng.int(1, rng.chance(0.2) ? 300 : 30);
        for (const end = Math.min(all.length, index + piece); index < end; index++) live.add(index, all[index]!);
        const got = live.live(index);
        looks += 1;
        const whole = new TimeTravelBuilder(0);
        for (let i = 0; i < index; i++) whole.add(i, all[i]!);
        const want = whole.finish(index, got.checkpointEvery);
        const seqs = all.slice(0, index).flatMap((p) => (p.kind === 'log-only' ? [] : [p.seq]));
        expect(seqs.map((seq) => got.position(seq))).toEqual(seqs.map((seq) => want.position(seq)));
        for (const step of [0, index, rng.int(0, index), rng.int(0, index)]) {
          expect(got.nodesAt(step)).toEqual(surfaces[step]);
          expect(want.nodesAt(step)).toEqual(surfaces[step]);
        }
      }
      expect(looks).toBeGreaterThan(3);
    });
  }
});
