/**
 * Seeded property tests (the seed is in each test's name): `SeqTable` answers as a `Map` under
 * random sets and deletes, with seqs mostly ascending (as a fold creates nodes) and sometimes
 * not (updates of present seqs, and seqs below the last one).
 */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/gen/rng';
import { SeqTable } from '../../../src/core/util/seq-table';

describe('SeqTable', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: answers as a Map`, () => {
      const rng = new Rng(`seq-table-${seed}`);
      const table = new SeqTable<string>();
      const model = new Map<number, string>();
      let next = seed;
      const known: number[] = [];
      for (let op = 0; op < 4000; op++) {
        const roll = rng.int(0, 9);
        if (roll < 5) {
          next += rng.int(1, 4);
          table.set(next, `v${op}`);
          model.set(next, `v${op}`);
          known.push(next);
        } else if (roll < 8 && known.length > 0) {
          const seq = known[rng.int(0, known.length - 1)]!;
          expect(table.delete(seq)).toBe(model.delete(seq));
        } else if (roll === 8 && known.length > 0) {
          // A present or deleted seq set again, or a new one below the last.
          const seq = rng.chance(0.5) ? known[rng.int(0, known.length - 1)]! : next - rng.int(1, 3) + 0.5;
          table.set(seq, `w${op}`);
          model.set(seq, `w${op}`);
          known.push(seq);
        }
        expect(table.size).toBe(model.size);
        const probe = known.length > 0 ? known[rng.int(0, known.length - 1)]! : 0;
        expect(table.get(probe)).toBe(model.get(probe));
        expect(table.has(probe)).toBe(model.has(probe));
        expect(table.get(next + 1)).toBeUndefined();
      }
    });
  }
});
