/**
 * Seeded property tests (the seed is in each test's name) of the curve's pixel polyline: the
 * path it draws covers, column by column of each subpath, what the whole polyline covers (where
 * it enters and leaves, its lowest and highest point), holds only the polyline's own vertices in
 * their order, at most four a column, and is the polyline itself where columns are sparse. And
 * the curve's model requests, sent as columns, read back as the analysis recorded them.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { Rng } from '../../src/core/gen/rng';
import { PixelPolyline, requestAt, requestOf, tenth, tenthText } from '../../src/ui/panels/curve/geometry';
import { curveRequests } from '../../src/worker/query/analysis';

interface Vertex {
  x: number;
  y: number;
}

/** Parse a path of `M`/`L` vertices into subpaths. */
function parse(d: string): Vertex[][] {
  const subpaths: Vertex[][] = [];
  for (const token of d.match(/[ML][^ML]+/g) ?? []) {
    const [x, y] = token.slice(1).trim().split(' ').map(Number) as [number, number];
    if (token[0] === 'M') subpaths.push([]);
    subpaths[subpaths.length - 1]!.push({ x, y });
  }
  return subpaths;
}

/** The whole polyline's path, every vertex written. */
function whole(subpaths: Vertex[][]): string {
  return subpaths.flatMap((vs) => vs.map((v, i) => `${i === 0 ? 'M' : 'L'}${tenth(v.x)} ${tenth(v.y)}`)).join(' ');
}

/** Per column of a subpath (runs of one `floor(x)`): first, last, lowest and highest y. */
function columns(vs: readonly Vertex[]) {
  const out: { column: number; first: Vertex; last: Vertex; min: number; max: number; n: number }[] = [];
  for (const v of vs) {
    const column = Math.floor(v.x);
    const top = out[out.length - 1];
    if (top && top.column === column) {
      top.last = v;
      top.min = Math.min(top.min, v.y);
      top.max = Math.max(top.max, v.y);
      top.n += 1;
    } else out.push({ column, first: v, last: v, min: v.y, max: v.y, n: 1 });
  }
  return out;
}

function draw(subpaths: Vertex[][]): string {
  const line = new PixelPolyline();
  for (const vs of subpaths) vs.forEach((v, i) => (i === 0 ? line.move(v.x, v.y) : line.to(v.x, v.y)));
  return line.toString();
}

/** A random step line (or several, with gaps) over `width` px with `n` steps. */
function stepLines(rng: Rng, n: number, width: number): Vertex[][] {
  const xs = Array.from({ length: n }, () => rng.next() * width).sort((a, b) => a - b);
  const subpaths: Vertex[][] = [[]];
  xs.forEach((x0, i) => {
    if (i > 0 && rng.chance(0.05)) subpaths.push([]);
    const y = rng.chance(0.3) ? 40 : rng.next() * 80;
    const x1 = xs[i + 1] ?? width;
    subpaths[subpaths.length - 1]!.push({ x: x0, y }, { x: x1, y });
  });
  return subpaths.filter((vs) => vs.length > 0);
}

describe('PixelPolyline', () => {
  for (const seed of [1, 2, 3, 4, 5, 6]) {
    it(`seed ${seed}: dense step lines keep every column's entry, exit and extent with at most four vertices`, () => {
      const rng = new Rng(`pixel-polyline-${seed}`);
      for (let round = 0; round < 20; round++) {
        const width = rng.int(50, 600);
        const input = stepLines(rng, rng.int(1, 6000), width);
        const rounded = input.map((vs) => vs.map((v) => ({ x: tenth(v.x), y: tenth(v.y) })));
        const drawn = parse(draw(input));
        expect(drawn).toHaveLength(rounded.length);
        drawn.forEach((vs, k) => {
          const want = columns(rounded[k]!);
          const got = columns(vs);
          expect(got.map((c) => [c.column, c.first, c.last, c.min, c.max])).toEqual(
            want.map((c) => [c.column, c.first, c.last, c.min, c.max]),
          );
          expect(Math.max(...got.map((c) => c.n))).toBeLessThanOrEqual(4);
          // Only the polyline's own vertices, in its order.
          const own = rounded[k]!;
          let at = 0;
          const ordered = vs.every((v) => {
            while (at < own.length && (own[at]!.x !== v.x || own[at]!.y !== v.y)) at++;
            return at++ < own.length;
          });
          expect(ordered).toBe(true);
        });
      }
    });
  }

  for (const seed of [1, 2, 3]) {
    it(`seed ${seed}: a line of at most four vertices a column is drawn as it is`, () => {
      const rng = new Rng(`pixel-polyline-sparse-${seed}`);
      for (let round = 0; round < 20; round++) {
        // Steps at least a pixel apart: two vertices a column where the line jumps.
        const subpaths: Vertex[][] = [[]];
        let x = rng.next() * 10;
        for (let n = rng.int(1, 300); n > 0; n--) {
          const next = x + 1 + rng.next() * 6;
          if (rng.chance(0.05)) subpaths.push([]);
          const y = rng.next() * 80;
          subpaths[subpaths.length - 1]!.push({ x, y }, { x: next, y });
          x = next;
        }
        const input = subpaths.filter((vs) => vs.length > 0);
        const most = Math.max(...input.flatMap((vs) => columns(vs.map((v) => ({ x: tenth(v.x), y: v.y }))).map((c) => c.n)));
        expect(most).toBeLessThanOrEqual(4);
        expect(draw(input)).toBe(whole(input));
      }
    });
  }

  it('a dense column is drawn first, lowest and highest in their order, last', () => {
    const line = new PixelPolyline();
    for (const [x, y] of [
      [10.1, 5],
      [10.2, 9],
      [10.3, 1],
      [10.4, 7],
      [10.5, 3],
      [12, 3],
    ] as const)
      line.to(x, y);
    expect(line.toString()).toBe('M10.1 5 L10.2 9 L10.3 1 L10.5 3 L12 3');
  });
});

describe('tenthText', () => {
  it('seed 1: writes what tenth(n).toString() writes, for coordinates in and out of the plot', () => {
    const rng = new Rng('tenth-text-1');
    const values = [0, -0, 0.04, -0.04, 0.05, 0.95, 1e9, 2 ** 31, -3.25, Number.NaN, Infinity];
    for (let i = 0; i < 20000; i++) values.push((rng.next() - 0.1) * 10 ** rng.int(0, 6));
    for (const n of values) expect(tenthText(n)).toBe(tenth(n).toString());
  });
});

describe("the curve's model requests, as columns", () => {
  it('seed 6: every request reads back as the analysis recorded it, breaks and cache reads included', async () => {
    const text = generateText({
      seed: 6,
      events: 2500,
      pruneThreshold: 500,
      longToolResultRate: 0.3,
      compaction: { thresholdTokens: 1500 },
    });
    const session = (await openBytes(new TextEncoder().encode(text), { name: 'gen.jsonl' })).sessions[0]!;
    const recorded = session.analytics!.requests;
    const columns = curveRequests(session);
    // The log has what the columns encode apart: breaks, and requests with and without cache reads.
    expect(columns.breaks.length).toBeGreaterThan(0);
    expect(columns.cacheReads).toBeGreaterThan(0);
    expect(columns.cacheReads).toBeLessThan(recorded.length);
    const expected = recorded.map((r) => ({
      step: r.seq - session.baseSeq,
      seq: r.seq,
      tokens: r.tokens,
      reusedTokens: r.reusedTokens,
      reusedChars: r.reusedChars,
      cacheRead: r.usage?.cacheRead ?? null,
      brokenBy: r.brokenBy,
    }));
    expect(recorded.map((_, i) => requestOf(columns, i))).toEqual(expected);
    // The request at a step is the last one made at or before it.
    const curve = { steps: expected.at(-1)!.step + 10, buckets: [], replaces: [], bytesMax: 1, tokenMethod: '', requests: columns };
    for (const [i, q] of expected.entries()) {
      expect(requestAt(curve, q.step)).toEqual([...expected].reverse().find((r) => r.step <= q.step));
      if (i > 0 && q.step > expected[i - 1]!.step + 1) expect(requestAt(curve, q.step - 1)).toEqual(expected[i - 1]);
    }
    expect(requestAt(curve, (expected[0]?.step ?? 0) - 1)).toBeNull();
  });
});
