/** Seeded tests of the searches over ascending arrays, against a linear scan. */
import { describe, expect, it } from 'vitest';
import { Rng } from '../../../src/core/gen/rng';
import { firstAtLeast, indexOfAscending } from '../../../src/core/util/sorted';

describe('searches in ascending arrays', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: firstAtLeast and indexOfAscending equal a linear scan of the first count values`, () => {
      const rng = new Rng(`sorted-${seed}`);
      for (let round = 0; round < 200; round++) {
        const values: number[] = [];
        let v = rng.int(-5, 5);
        for (let n = rng.int(0, 40); n > 0; n--) values.push((v += rng.int(1, 4)));
        const count = rng.int(0, values.length);
        for (let q = values[0]! - 2 || -3; q <= (values.at(-1) ?? 0) + 2; q++) {
          let first = 0;
          while (first < count && values[first]! < q) first++;
          expect(firstAtLeast(values, count, q), `seed ${seed} round ${round} value ${q}`).toBe(first);
          expect(indexOfAscending(values, count, q)).toBe(first < count && values[first] === q ? first : -1);
        }
      }
    });
  }
});
