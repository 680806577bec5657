/**
 * Conformance: every spec vector gives the expected nodes, replacements and first surface error
 * (message and seq), through the full load path and through the plain stepwise fold; and the
 * time-travel index agrees with the fold of every prefix.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import type { SessionAnalysis } from '../../src/core/analyze/session';
import { foldStepwise } from '../../src/core/fold/surface';
import { HAS_SHARED, SHARED_NOTE, SPEC_VECTORS, listFiles, readBytes, readJson } from '../support/shared';

interface Expected {
  nodes: number[];
  replacements: { seq: number; start: number; end: number; shadowedSeqs: number[] }[];
  error: { seq: number | string; message: string } | null;
}

const expected = HAS_SHARED ? readJson<Record<string, Expected>>(join(SPEC_VECTORS, 'expected.json')) : {};
const vectors = listFiles(SPEC_VECTORS, (name) => name.endsWith('.jsonl') || name.endsWith('.zstd'));

function events(session: SessionAnalysis): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < session.log.length; i++) out.push(session.log.event(i));
  return out;
}

describe.skipIf(!HAS_SHARED)(`spec vectors${SHARED_NOTE}`, () => {
  it('has an expectation for every vector', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(49);
    for (const name of vectors) expect(expected[name], name).toBeDefined();
  });

  for (const name of vectors) {
    it(`${name}: nodes, replacements and first error match`, async () => {
      const want = expected[name] as Expected;
      const result = await openBytes(readBytes(join(SPEC_VECTORS, name)), { name, checkpointEvery: 2 });
      expect(result.sessions).toHaveLength(1);
      const session = result.sessions[0] as SessionAnalysis;
      expect(session.decodeError).toBeNull();
      expect({
        nodes: session.fold.nodes,
        replacements: session.fold.replacements,
        error: session.fold.error && { seq: session.fold.error.seq, message: session.fold.error.message },
      }).toEqual(want);

      // The plain stepwise fold over the lazily re-parsed events agrees.
      const stepwise = foldStepwise(events(session));
      expect(stepwise.nodes).toEqual(want.nodes);
      expect(stepwise.replacements).toEqual(want.replacements);
      expect(stepwise.error?.message ?? null).toBe(want.error?.message ?? null);

      // Seeking to every step equals folding that prefix.
      const all = events(session);
      for (let k = 0; k <= session.fold.accepted; k++) {
        const prefix = foldStepwise(all.slice(0, k));
        expect(session.index.nodesAt(k), `step ${k}`).toEqual(prefix.nodes);
        expect(session.index.replaceGenerationAt(k)).toBe(prefix.replaceGeneration);
      }
    });
  }
});
