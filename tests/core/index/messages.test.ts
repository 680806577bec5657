/**
 * The derived-message count after a step, however it is answered: the first `messagesAt` call
 * counts the nodes alive at that step, later ones read the message curve. Both must equal the
 * message-bearing nodes of the surface at the step. Seeds are in the names.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';

async function indexOf(seed: number) {
  const text = generateText({ seed, events: 1500, compaction: { thresholdTokens: 2500 } });
  const { sessions } = await openBytes(new TextEncoder().encode(text), { name: `messages-${seed}.jsonl`, checkpointEvery: 32 });
  return (sessions[0] as (typeof sessions)[number]).index;
}

describe('messagesAt', () => {
  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: the first answer (counted) and the curve's agree with the surface at every probed step`, async () => {
      const rng = new Rng(`messages-${seed}`);
      const steps = (await indexOf(seed)).steps;
      const probes = [0, steps, ...Array.from({ length: 20 }, () => rng.int(0, steps))];
      for (const k of probes) {
        // A fresh index each time, so `k` is its first question.
        const index = await indexOf(seed);
        const expected = index.nodesAt(k).filter((seq) => index.hasMessage(seq)).length;
        expect(index.messagesAt(k)).toBe(expected);
        expect(index.messagesAt(k)).toBe(expected);
        expect(index.curve().messages[k]).toBe(expected);
      }
      const index = await indexOf(seed);
      const curve = index.curve().messages;
      expect(curve.length).toBe(steps + 1);
      for (const k of probes) expect(curve[k]).toBe(index.nodesAt(k).filter((seq) => index.hasMessage(seq)).length);
    });
  }
});
