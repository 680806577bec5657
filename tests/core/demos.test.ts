/**
 * The guided demos load and fold as their narration says: each is a valid log except the
 * rejected-replace demo, whose last event is refused with the surface left untouched.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { demos } from '../../src/core/demos/demos';
import { teachingSession } from '../../src/core/gen/script';

const enc = (t: string): Uint8Array => new TextEncoder().encode(t);

describe('guided demos', () => {
  const all = demos();

  it('cover the lessons', () => {
    expect(all.map((d) => d.id)).toEqual(['three-types', 'append-flow', 'compaction', 'nested', 'prune', 'rejected', 'two-views']);
  });

  for (const demo of all) {
    it(`${demo.id}: folds as narrated, with narration inside the log`, async () => {
      const [session] = (await openBytes(enc(demo.jsonl), { name: `${demo.id}.jsonl` })).sessions;
      expect(session).toBeDefined();
      const s = session!;
      expect(s.decodeError).toBeNull();
      // Every note is reachable: the cursor ranges over the accepted prefix only.
      for (const note of demo.notes) expect(note.step).toBeLessThanOrEqual(s.fold.accepted);
      expect(s.diagnostics.filter((d) => d.severity !== 'info')).toEqual(demo.id === 'rejected' ? expect.any(Array) : []);
      if (demo.id === 'rejected') {
        expect(s.fold.error?.message).toMatch(/^surface replace: sourceEventSeqs must include every shadowed surface node; missing /);
        expect(s.fold.accepted).toBe(s.log.length - 1);
        expect(s.fold.nodes).toEqual(s.index.nodesAt(s.fold.accepted));
      } else {
        expect(s.fold.error).toBeNull();
      }
      if (demo.id === 'nested') {
        const [first, second] = s.fold.replacements;
        expect(second!.shadowedSeqs).toContain(first!.seq);
        expect(second!.start).toBeGreaterThan(second!.end);
      }
      if (demo.id === 'prune') expect(s.fold.replacements[0]!.shadowedSeqs).toHaveLength(1);
    });
  }

  it('the teaching sample is clean and has a prune inside a compaction', async () => {
    const [s] = (await openBytes(enc(teachingSession().toJsonl()), { name: 'teaching.jsonl' })).sessions;
    expect(s!.fold.error).toBeNull();
    expect(s!.diagnostics.filter((d) => d.severity !== 'info')).toEqual([]);
    const [prune, compaction] = s!.fold.replacements;
    expect(compaction!.shadowedSeqs).toContain(prune!.seq);
  });
});
