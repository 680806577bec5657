/**
 * Seeded property tests (the seed is in each test's name) of the analysis pass's edit log: a
 * position of the list before a run of edits, followed through them, lands where plain arrays
 * edited the same way put it — on the message an edit removed, or on a position of the list after.
 */
import { describe, expect, it } from 'vitest';
import { EditLog } from '../../../src/core/analysis/edit-log';
import { Rng } from '../../../src/core/gen/rng';

describe('EditLog', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: every position before the edits is followed to where plain arrays put it`, () => {
      const rng = new Rng(`edit-log-${seed}`);
      // One log for every round, cleared between them as a request clears it.
      const log = new EditLog();
      for (let round = 0; round < 40; round++) {
        log.clear();
        const before = Array.from({ length: rng.int(1, 60) }, (_, i) => i * 10);
        const sizeOf = (seq: number): number => seq * 3 + 1;
        // Each element: its seq and where it came from (a position of `before`, or -1 when added).
        let list = before.map((seq, p) => ({ seq, from: p }));
        const removedAt = new Map<number, number>();
        let added = 1000;
        for (let e = rng.int(0, 25); e > 0 && list.length > 0; e--) {
          const cut = rng.int(0, list.length - 1);
          const count = rng.chance(0.2) ? 0 : rng.int(1, Math.min(6, list.length - cut));
          const gone = list.slice(cut, cut + count);
          const put = count === 0 || rng.chance(0.7) ? 1 : 0;
          const inserted = put === 1 ? [{ seq: added++, from: -1 }] : [];
          list = [...list.slice(0, cut), ...inserted, ...list.slice(cut + count)];
          for (const g of gone) if (g.from >= 0) removedAt.set(g.from, g.seq);
          log.push(
            cut,
            gone.map((g) => g.seq),
            gone.map((g) => sizeOf(g.seq)),
            put,
          );
        }
        for (let p = 0; p < before.length; p++) {
          const got = log.at(p);
          const removed = removedAt.get(p);
          if (removed !== undefined) {
            expect([p, got, log.size]).toEqual([p, removed, sizeOf(removed)]);
          } else {
            expect([p, got]).toEqual([p, -1 - list.findIndex((x) => x.from === p)]);
          }
        }
      }
    });
  }
});
