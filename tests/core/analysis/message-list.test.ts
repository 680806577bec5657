/**
 * Seeded property tests (the seed is in each test's name) of the analysis pass's message list:
 * `MessageList` answers exactly as plain arrays of the surface's nodes and their message sizes
 * under random appends, replaces (the last node, the first, anywhere; message-bearing or not) and
 * resizes.
 */
import { describe, expect, it } from 'vitest';
import { MessageList } from '../../../src/core/analysis/message-list';
import { Rng } from '../../../src/core/gen/rng';

/** The reference: every surface node in order with its message size (null: it bears none). */
interface ModelNode {
  seq: number;
  size: number | null;
  marked: boolean;
}

function bearing(model: readonly ModelNode[]): ModelNode[] {
  return model.filter((n) => n.size !== null);
}

describe('MessageList', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: answers as plain arrays under random appends and replaces`, () => {
      const rng = new Rng(`message-list-${seed}`);
      const list = new MessageList();
      const model: ModelNode[] = [];
      let seq = seed * 5;
      const size = (): number | null => (rng.chance(0.25) ? null : rng.int(0, 5000));
      for (let op = 0; op < 3000; op++) {
        seq += rng.int(1, 3);
        if (model.length > 0 && rng.chance(0.15)) {
          // Resize a node (live or not, bearing or not): only a live message-bearing one changes.
          const live = rng.chance(0.7);
          const target = live ? model[rng.int(0, model.length - 1)]!.seq : seq - rng.int(0, seq);
          const node = model.find((n) => n.seq === target);
          const bears = node !== undefined && node.size !== null;
          expect(list.bears(target)).toBe(bears);
          const s = rng.int(0, 5000);
          expect(list.resize(target, s)).toBe(bears);
          if (bears) node.size = s;
        } else if (model.length === 0 || rng.chance(0.5)) {
          const s = size();
          const marked = rng.chance(0.3);
          list.append(seq, s, marked);
          model.push({ seq, size: s, marked });
        } else {
          const pick = rng.int(0, 3);
          const start = pick === 0 ? model.length - 1 : pick === 1 ? 0 : rng.int(0, model.length - 1);
          const end = Math.min(model.length - 1, start + (rng.chance(0.6) ? 0 : rng.int(0, 8)));
          const s = size();
          const marked = rng.chance(0.3);
          const cutExpected = bearing(model.slice(0, start)).length;
          const shadowed = model.slice(start, end + 1);
          const removedExpected = bearing(shadowed).map((n) => n.seq);
          const markedExpected = bearing(shadowed)
            .filter((n) => n.marked)
            .map((n) => n.seq);
          model.splice(start, end - start + 1, { seq, size: s, marked });
          const got = list.replace(
            shadowed.map((n) => n.seq),
            seq,
            s,
            marked,
          );
          const removedSizes = bearing(shadowed).map((n) => n.size);
          expect(got).toEqual({ cut: cutExpected, removed: removedExpected, removedSizes, marked: markedExpected });
        }
        const messages = bearing(model);
        expect(list.length).toBe(messages.length);
        expect(list.totalSize).toBe(messages.reduce((a, n) => a + (n.size as number), 0));
        if (op % 37 === 0 || op > 2950) {
          let running = 0;
          for (let k = 0; k <= messages.length; k++) {
            expect(list.sizeBefore(k)).toBe(running);
            if (k < messages.length) {
              expect(list.at(k)).toBe(messages[k]?.seq);
              expect(list.sizeAt(k)).toBe(messages[k]?.size);
              running += messages[k]?.size as number;
            }
          }
          expect(list.at(messages.length)).toBeUndefined();
          expect(list.at(-1)).toBeUndefined();
        }
      }
    });
  }
});
