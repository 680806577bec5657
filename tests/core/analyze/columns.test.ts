/**
 * Seeded property tests of the citation columns: the sparse rows (only events that cite
 * something have one) answer every question a per-event table would, and the "cited by" index
 * of a growing session equals the one built over the whole log.
 */
import { describe, expect, it } from 'vitest';
import { buildCitedBy, citersOf, citingRow, CitedByIndex, ColumnsBuilder, sourcesOf } from '../../../src/core/analyze/columns';
import { Rng } from '../../../src/core/gen/rng';

/** A log where a few events cite earlier (or later, or impossible) seqs, some with unusable entries. */
function events(rng: Rng, n: number): unknown[] {
  const out: unknown[] = [];
  for (let i = 0; i < n; i++) {
    const event: Record<string, unknown> = { seq: i, type: rng.chance(0.5) ? 'assistant/chunk' : 'tool/result' };
    if (rng.chance(0.15)) {
      const cites: unknown[] = [];
      for (let k = rng.int(0, 3); k > 0; k--) {
        const kind = rng.int(0, 9);
        cites.push(
          kind === 0 ? -1 : kind === 1 ? 'x' : kind === 2 ? 1.5 : kind === 3 ? i + rng.int(1, 20) : rng.int(0, Math.max(0, i - 1)),
        );
      }
      event.sourceEventSeqs = cites;
    } else if (rng.chance(0.02)) event.sourceEventSeqs = 'not a list';
    out.push(rng.chance(0.01) ? null : event);
  }
  return out;
}

/** The sources the columns are meant to keep for one event: its usable seqs, in order. */
function usable(event: unknown): number[] {
  const src = (event as { sourceEventSeqs?: unknown } | null)?.sourceEventSeqs;
  if (!Array.isArray(src)) return [];
  return src.filter((x): x is number => Number.isSafeInteger(x) && (x as number) >= 0 && (x as number) < 2 ** 31);
}

describe('citation columns', () => {
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: sourcesOf and citersOf equal a per-event table`, () => {
      const rng = new Rng(`columns-${seed}`);
      const log = events(rng, rng.int(1, 3000));
      const builder = new ColumnsBuilder();
      for (const event of log) builder.add(event);
      const columns = builder.finish();
      const citedBy = buildCitedBy(columns, 0);
      const citers: number[][] = log.map(() => []);
      log.forEach((event, i) => {
        for (const seq of usable(event)) if (seq < log.length) citers[seq]!.push(i);
      });
      let rows = 0;
      log.forEach((event, i) => {
        expect(sourcesOf(columns, i), `seed ${seed} event ${i}`).toEqual(usable(event));
        expect(citersOf(citedBy, i), `seed ${seed} cited ${i}`).toEqual(citers[i]);
        if (usable(event).length > 0) expect(citingRow(columns, i)).toBe(rows++);
        else expect(citingRow(columns, i)).toBeLessThan(0);
      });
      expect(columns.citing.length).toBe(rows);
      expect(columns.sourceOffset.length).toBe(rows + 1);
    });

    it(`seed ${seed}: a growing session's cited-by index equals the whole log's`, () => {
      const rng = new Rng(`cited-grow-${seed}`);
      const log = events(rng, 2000);
      const builder = new ColumnsBuilder();
      const growing = new CitedByIndex(0);
      let at = 0;
      while (at < log.length) {
        const next = Math.min(log.length, at + rng.int(1, 300));
        for (; at < next; at++) builder.add(log[at]);
        const columns = builder.snapshot();
        const grown = growing.update(columns);
        const whole = buildCitedBy(columns, 0);
        for (let i = 0; i < at; i++) expect(citersOf(grown, i), `seed ${seed} at ${at} cited ${i}`).toEqual(citersOf(whole, i));
      }
    });
  }
});
