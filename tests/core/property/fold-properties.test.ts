/**
 * Seeded property tests over generated logs (the seed is in each test's name so a failure can
 * be replayed): the streaming fold equals the reference fold, the incremental manager equals
 * the full fold, seeking to step k equals folding the first k events, a rejected candidate
 * leaves the manager untouched, and packed rows decode to the same events as unpacked ones.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import type { SessionAnalysis } from '../../../src/core/analyze/session';
import { SurfaceManager } from '../../../src/core/fold/manager';
import { foldStepwise, foldSurface } from '../../../src/core/fold/surface';
import { Rng } from '../../../src/core/gen/rng';
import { VIOLATION_KINDS, generateLog, generateText } from '../../../src/core/gen/generate';
import { naiveDecode } from '../../support/naive-decode';
import { referenceFold } from '../../support/reference-fold';

async function analyse(text: string, checkpointEvery?: number): Promise<SessionAnalysis> {
  const result = await openBytes(new TextEncoder().encode(text), {
    name: 'gen.jsonl',
    ...(checkpointEvery !== undefined ? { checkpointEvery } : {}),
  });
  return result.sessions[0] as SessionAnalysis;
}

const SEEDS = [1, 2, 3, 4, 5, 6, 7, 8];

describe('generated logs', () => {
  for (const seed of SEEDS) {
    it(`seed ${seed}: streaming fold equals the reference fold and the full fold`, async () => {
      const text = generateText({ seed, events: 3000, compaction: { thresholdTokens: 4000 } });
      const session = await analyse(text);
      const { events } = naiveDecode(text);
      const reference = referenceFold(events);
      expect(reference.error).toBeNull();
      expect(session.fold.error).toBeNull();
      expect(session.fold.nodes).toEqual(reference.nodes);
      expect(session.fold.replacements).toEqual(reference.replacements);
      expect(foldSurface(events)).toEqual({ nodes: reference.nodes, replacements: reference.replacements });
      expect(session.fold.replacements.length).toBeGreaterThan(0);
    });

    it(`seed ${seed}: the incremental manager equals the full fold after every event`, () => {
      const { events } = naiveDecode(generateText({ seed: seed + 100, events: 1500 }));
      const log: unknown[] = [];
      const manager = new SurfaceManager(log);
      const rng = new Rng(seed);
      for (let i = 0; i < events.length; i++) {
        manager.validateNext(events[i]);
        log.push(events[i]);
        if (rng.chance(0.05) || i === events.length - 1) {
          expect(manager.nodes).toEqual(foldSurface(log).nodes);
        }
      }
    });

    it(`seed ${seed}: seek(k) equals folding the first k events, for random k`, async () => {
      const text = generateText({ seed: seed + 200, events: 4000, compaction: { thresholdTokens: 4000 } });
      const { events } = naiveDecode(text);
      const session = await analyse(text, 64);
      const rng = new Rng(`seek-${seed}`);
      const steps = [0, 1, session.fold.accepted];
      for (let i = 0; i < 40; i++) steps.push(rng.int(0, session.fold.accepted));
      for (const k of steps) {
        const prefix = foldStepwise(events.slice(0, k));
        expect(session.index.nodesAt(k), `seed ${seed} step ${k}`).toEqual(prefix.nodes);
        expect(session.index.replaceGenerationAt(k)).toBe(prefix.replaceGeneration);
        expect(session.index.nodeCountAt(k)).toBe(prefix.nodes.length);
        const window = session.index.nodeWindowAt(k, 3, 5);
        expect(window).toEqual(prefix.nodes.slice(3, 8));
      }
    });
  }

  it('seed 9: a rejected candidate leaves the manager exactly as it was', () => {
    const { events } = naiveDecode(generateText({ seed: 9, events: 800 }));
    const log: unknown[] = [];
    const manager = new SurfaceManager(log);
    const rng = new Rng(9);
    const bad = (seq: number): unknown[] => [
      { type: 'user/message', seq: seq + 1, time: 0, data: {}, surfaceOp: 'append' },
      { type: 'turn/start', seq, time: 0, data: { turn: 1 }, surfaceOp: 'append' },
      { type: 'user/message', seq, time: 0, data: {}, surfaceOp: { op: 'replace', start: 999999, end: 0 } },
      { type: 'user/message', seq, time: 0, data: {}, sourceEventSeqs: [seq], surfaceOp: 'append' },
    ];
    let rejected = 0;
    for (let i = 0; i < events.length; i++) {
      if (rng.chance(0.1)) {
        const before = { nodes: [...manager.nodes], generation: manager.replaceGeneration, messages: manager.deriveMessages() };
        expect(() => manager.validateNext(rng.pick(bad(i)))).toThrow();
        rejected += 1;
        expect({ nodes: [...manager.nodes], generation: manager.replaceGeneration, messages: manager.deriveMessages() }).toEqual(before);
      }
      manager.validateNext(events[i]);
      log.push(events[i]);
    }
    expect(rejected).toBeGreaterThan(10);
    expect(manager.nodes).toEqual(foldSurface(events).nodes);
  });

  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: packed rows decode to the same events as unpacked ones`, async () => {
      const packed = naiveDecode(generateText({ seed, events: 2000, packChunks: true })).events;
      const unpacked = naiveDecode(generateText({ seed, events: 2000, packChunks: false })).events;
      expect(packed).toEqual(unpacked);
      const a = await analyse(generateText({ seed, events: 2000, packChunks: true }));
      const b = await analyse(generateText({ seed, events: 2000, packChunks: false }));
      expect(a.log.length).toBe(b.log.length);
      for (let i = 0; i < a.log.length; i += 37) expect(a.log.event(i)).toEqual(b.log.event(i));
      expect(a.fold).toEqual(b.fold);
    });
  }

  for (const [n, kind] of VIOLATION_KINDS.entries()) {
    it(`seed ${20 + n}: an injected ${kind} is reported where the generator put it`, async () => {
      const log = generateLog({ seed: 20 + n, events: 1200, violation: kind });
      const lines = Array.from(log.lines);
      const text = lines.join('\n') + (log.meta.finalNewline ? '\n' : '');
      const violation = log.meta.violation!;
      const session = await analyse(text);
      if (violation.foldMessage !== null) {
        expect(session.fold.error).toMatchObject({ index: violation.index, message: violation.foldMessage, line: violation.line });
        // Everything before the violation stays navigable.
        expect(session.fold.accepted).toBe(violation.index);
      } else if (kind === 'unparsable-line') {
        expect(session.decodeError?.line).toBe(violation.line);
        expect(session.log.length).toBe(violation.index);
      } else {
        expect(session.fold.error).toBeNull();
        expect(session.diagnostics.some((d) => d.rule === 'loader/torn-line')).toBe(true);
      }
    });
  }
});

describe('aligned views', () => {
  for (const seed of [41, 42, 43]) {
    it(`seed ${seed}: every append-origin event before k appears once, under the node that stands for it`, async () => {
      const text = generateText({ seed, events: 3000, compaction: { thresholdTokens: 3000 }, pruneThreshold: 1500 });
      const { events } = naiveDecode(text);
      const session = await analyse(text, 64);
      const rng = new Rng(`views-${seed}`);
      for (let n = 0; n < 20; n++) {
        const k = rng.int(0, session.fold.accepted);
        const rows = session.index.alignedViews(k);
        expect(rows.map((r) => r.model)).toEqual(session.index.nodesAt(k));
        const appends = events
          .slice(0, k)
          .filter((e) => (e as { surfaceOp?: unknown }).surfaceOp === 'append')
          .map((e) => (e as { seq: number }).seq);
        expect(rows.flatMap((r) => r.transcript)).toEqual(appends);
        for (const row of rows) {
          for (const seq of row.transcript) {
            const c = session.index.classify(seq, k);
            expect(c.state === 'current' ? seq : c.state === 'shadowed' ? c.visible : null).toBe(row.model);
          }
        }
      }
    });

    it(`seed ${seed}: one row's transcript, alone and in windows, equals its row of the aligned views`, async () => {
      const text = generateText({ seed, events: 3000, compaction: { thresholdTokens: 3000 }, pruneThreshold: 1500 });
      const session = await analyse(text, 64);
      const tt = session.index;
      const rng = new Rng(`transcript-${seed}`);
      // Random steps, and the steps of the replaces themselves (a row's first step).
      const steps = [...Array.from({ length: 10 }, () => rng.int(0, session.fold.accepted)), ...Array.from(tt.replaceSteps()).slice(-5)];
      let replacementRows = 0;
      for (const k of steps) {
        for (const row of tt.alignedViews(k)) {
          expect(tt.transcriptOf(row.model, k)).toEqual({ total: row.transcript.length, seqs: row.transcript });
          const start = rng.int(0, row.transcript.length);
          const count = rng.int(0, 5);
          expect(tt.transcriptOf(row.model, k, start, count)).toEqual({
            total: row.transcript.length,
            seqs: row.transcript.slice(start, start + count),
          });
          if (tt.replacementOfSeq(row.model) >= 0) replacementRows += 1;
        }
        // Not on the surface at k: shadowed, not applied yet, or log-only.
        for (const seq of [k + session.baseSeq, tt.replacement(0).shadowedSeqs[0] ?? -1]) {
          if (!tt.isCurrent(seq - session.baseSeq, k)) expect(tt.transcriptOf(seq, k)).toBeNull();
        }
      }
      expect(replacementRows).toBeGreaterThan(0);
    });

    it(`seed ${seed}: the view place of every event is the row of the aligned views that holds it`, async () => {
      const text = generateText({ seed, events: 2000, compaction: { thresholdTokens: 3000 }, pruneThreshold: 1500 });
      const session = await analyse(text, 64);
      const tt = session.index;
      const rng = new Rng(`view-place-${seed}`);
      const steps = [...Array.from({ length: 6 }, () => rng.int(0, session.fold.accepted)), ...Array.from(tt.replaceSteps()).slice(-3)];
      let inSpans = 0;
      for (const k of steps) {
        const rows = tt.alignedViews(k);
        // What each seq maps to, from the rows: its transcript place, or the row of a model or nested replacement.
        const expected = new Map<number, { row: number; rowSeq: number; index: number }>();
        rows.forEach((row, i) => {
          row.transcript.forEach((seq, index) => expected.set(seq, { row: i, rowSeq: row.model, index }));
          if (!expected.has(row.model)) expected.set(row.model, { row: i, rowSeq: row.model, index: -1 });
          const queue = [row.model];
          while (queue.length > 0) {
            const r = tt.replacementOfSeq(queue.shift() as number);
            if (r < 0 || tt.replacement(r).step > k) continue;
            for (const child of tt.replacement(r).shadowedSeqs) {
              if (tt.replacementOfSeq(child) >= 0) {
                expected.set(child, { row: i, rowSeq: row.model, index: -1 });
                queue.push(child);
              }
            }
          }
        });
        for (let i = 0; i < session.log.length; i++) {
          const seq = i + session.baseSeq;
          const place = tt.viewPlaceOf(seq, k);
          expect(place).toEqual(expected.get(seq) ?? null);
          if (place !== null && place.index >= 3) inSpans += 1;
        }
      }
      expect(inSpans).toBeGreaterThan(0);
    });
  }
});
