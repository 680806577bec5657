/**
 * A session grown in place answers every query exactly as opening its complete prefix whole,
 * after every piece, even though the engine keeps what it derived before the append (row lists
 * per filter, row and node facts, out-of-order flags, brackets, the "cited by" index, search
 * matches, running tallies, the message curve): pieces cut anywhere (inside lines too) of logs whose appended
 * parts hold replaces (compactions and prunes), the page asking between pieces so the kept
 * state is there to go stale. And a damaged Zstandard frame in an appended part keeps
 * everything before it, says where, and ends the following.
 */
import { describe, expect, it } from 'vitest';
import { generateText } from '../../src/core/gen/generate';
import { Rng } from '../../src/core/gen/rng';
import { cut } from '../support/pieces';
import type { CoreApi, RowFilter, SessionSummary } from '../../src/protocol/protocol';
import { createEngine } from '../../src/worker/engine';
import { concatBytes, zstdFrame } from '../support/zstd-frames';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const FILTERS: RowFilter[] = [
  { families: [], surfaceOnly: false },
  { families: [], surfaceOnly: true },
  { families: ['tool', 'compaction'], surfaceOnly: false },
];

/** What the page may ask of session `s`, as plain data (ids and load-specific fields dropped). */
async function answers(engine: CoreApi, s: SessionSummary): Promise<unknown> {
  const session = s.id;
  const step = s.accepted;
  const steps = [0, Math.floor(step / 3), Math.floor((2 * step) / 3), step];
  // The search a follower keeps open: asked first (after an append its kept scan goes on from
  // the rows it covered) and last (so it is the one kept when the next piece arrives).
  const followed = async (): Promise<unknown> => [
    await engine.searchMatches({ session, text: 'tool', filter: FILTERS[0]!, step, start: 0, count: 2000 }),
    await engine.search({ session, text: 'tool', filter: FILTERS[0]!, step, fromRow: -1, direction: -1 }),
  ];
  const out: unknown[] = [await followed(), { ...s, id: 0, fingerprint: '' }];
  for (const filter of FILTERS) {
    for (const k of [Math.floor(step / 2), step]) {
      const window = await engine.rows({ session, step: k, filter, start: 0, count: 2000 });
      out.push(window, await engine.rowOf({ session, filter, seq: s.baseSeq + Math.floor(s.events / 2) }));
    }
  }
  for (const k of steps) {
    out.push(
      await engine.surface({ session, step: k, start: 0, count: 500 }),
      await engine.replacements({ session, step: k, start: 0, count: 2000 }),
      await engine.brackets({ session, step: k, lo: s.baseSeq, hi: s.baseSeq + s.events }),
      await engine.views({ session, step: k, start: 0, count: 200 }),
    );
  }
  // Every event's detail: its sources and the events that cite it (the "cited by" index).
  for (let i = 0; i < s.events; i++) {
    const d = await engine.detail({ session, seq: s.baseSeq + i, step });
    out.push([d.seq, d.state, d.sourceEventSeqs, d.citedBy, d.replacedBy, d.replacementChain]);
  }
  // Searches the page keeps while following: one of text, one of a type, one of the cursor's state.
  for (const text of ['tool', 'type:tool/result', 'is:shadowed']) {
    for (const filter of FILTERS.slice(0, 2)) {
      out.push(await engine.searchMatches({ session, text, filter, step, start: 0, count: 2000 }));
      out.push(await engine.search({ session, text, filter, step, fromRow: -1, direction: 1 }));
    }
  }
  const diagnostics = await engine.diagnostics({ session, start: 0, count: 2000 });
  out.push({ ...diagnostics, items: diagnostics.items.map(({ provisional: _flag, ...d }) => d) });
  out.push(await engine.curve({ session, buckets: 64 }));
  out.push(await engine.timeTrack({ session, from: null, to: null, width: 300 }), await engine.timeAt({ session, step }));
  out.push(await followed());
  return out;
}

describe('a session grown in place', () => {
  for (const seed of [41, 42]) {
    it(`seed ${seed}: pieces holding compactions and prunes answer every query as the prefix opened whole, after every piece`, async () => {
      const text = enc(
        generateText({
          seed,
          events: 420,
          compaction: { thresholdTokens: 500 },
          pruneThreshold: 300,
          longToolResultRate: 0.4,
        }),
      );
      const rng = new Rng(`grow-in-place-${seed}`);
      const parts = cut(text, rng, 3000);
      // The first part is opened; the rest are appended one at a time.
      const head = parts.shift()!;
      const engine = createEngine({ pause: async () => {} });
      let summary = (await engine.open({ kind: 'bytes', name: 'live.jsonl', buffer: head.slice().buffer }, () => {})).sessions[0]!;
      let held = head;
      const handle = summary.id;
      const kinds = new Set<string>();
      let cited = 0;
      for (const piece of parts) {
        // The page asks first, so every cache holds the session as it was.
        await answers(engine, summary);
        const grown = await engine.grow({ kind: 'bytes', buffer: piece.slice().buffer, whole: false });
        held = concatBytes([held, piece]);
        if (grown.summary === null) {
          expect(grown.kind).toBe('pending');
          continue;
        }
        expect(grown.kind).toBe('appended');
        summary = grown.summary.sessions[0]!;
        expect(summary.id).toBe(handle);
        const complete = held.subarray(0, held.lastIndexOf(0x0a) + 1);
        const whole = createEngine({ pause: async () => {} });
        const reference = (await whole.open({ kind: 'bytes', name: 'live.jsonl', buffer: complete.slice().buffer }, () => {})).sessions[0]!;
        expect(await answers(engine, summary)).toEqual(await answers(whole, reference));
        for (const r of (await engine.replacements({ session: handle, step: summary.accepted, start: 0, count: 2000 })).items)
          kinds.add(r.kind);
        const last = await engine.detail({ session: handle, seq: summary.baseSeq + summary.events - 1, step: summary.accepted });
        cited += last.sourceEventSeqs.length;
      }
      // The appended parts held what the kept state must follow: both kinds of replace, and citations.
      expect([...kinds].sort()).toEqual(expect.arrayContaining(['compaction', 'prune']));
      expect(cited).toBeGreaterThan(0);
    });
  }

  it('seed 43: a damaged Zstandard frame in an appended part keeps everything before it, says where, and ends the following', async () => {
    const rng = new Rng('grow-damaged-frame-43');
    const lines = generateText({ seed: 43, events: 160, compaction: { thresholdTokens: 1200 } }).split(/(?<=\n)/);
    const frames: Uint8Array[] = [await zstdFrame(lines[0]!)];
    for (let i = 1; i < lines.length;) {
      const n = rng.int(1, 8);
      frames.push(await zstdFrame(lines.slice(i, i + n).join('')));
      i += n;
    }
    const damaged = rng.int(Math.floor(frames.length / 3), frames.length - 2);
    const bad = frames[damaged]!.slice();
    // A byte inside the frame's content (past its 4-byte magic and header): its checksum fails.
    bad[rng.int(Math.min(12, bad.length - 5), bad.length - 5)]! ^= 0x5a;
    const before = concatBytes(frames.slice(0, damaged));
    const bytes = concatBytes([before, bad, ...frames.slice(damaged + 1)]);
    const engine = createEngine({ pause: async () => {} });
    const opened = await engine.open(
      { kind: 'bytes', name: 'live.jsonl.zstd', buffer: concatBytes(frames.slice(0, 2)).slice().buffer },
      () => {},
    );
    const handle = opened.sessions[0]!.id;
    let size = concatBytes(frames.slice(0, 2)).length;
    let stopped = null as string | null;
    for (const piece of cut(bytes.subarray(size), rng, 400)) {
      const grown = await engine.grow({ kind: 'bytes', buffer: piece.slice().buffer, whole: false });
      size += piece.length;
      if (stopped !== null) {
        // Following ended: nothing after the damage is read.
        expect([grown.kind, grown.following, grown.summary]).toEqual(['unchanged', false, null]);
        continue;
      }
      if (grown.kind !== 'stopped') {
        expect(size).toBeLessThan(before.length + bad.length);
        continue;
      }
      stopped = grown.note;
      expect(grown.following).toBe(false);
      // It says where: the damaged frame's first byte.
      expect(grown.note).toContain(`byte ${before.length}`);
      const s = grown.summary!.sessions[0]!;
      // The page keeps its session: the same handle, now ending before the damage.
      expect(s.id).toBe(handle);
      expect(s.decodeError).toMatchObject({ byte: before.length });
      // Everything before the damage stays: the events of the frames before it, as opened alone.
      const whole = createEngine({ pause: async () => {} });
      const reference = (await whole.open({ kind: 'bytes', name: 'live.jsonl.zstd', buffer: before.slice().buffer }, () => {}))
        .sessions[0]!;
      expect(s.events).toBe(reference.events);
      const all = FILTERS[0]!;
      expect(await engine.rows({ session: s.id, step: s.accepted, filter: all, start: 0, count: 2000 })).toEqual(
        await whole.rows({ session: reference.id, step: reference.accepted, filter: all, start: 0, count: 2000 }),
      );
      expect(await engine.surface({ session: s.id, step: s.accepted, start: 0, count: 500 })).toEqual(
        await whole.surface({ session: reference.id, step: reference.accepted, start: 0, count: 500 }),
      );
    }
    expect(stopped).not.toBeNull();
    expect(size).toBe(bytes.length);
  });
});
