/**
 * A growing input answers, after every piece appended, exactly what opening its complete prefix
 * whole answers: raw JSONL up to its last LF, Zstandard up to its last complete frame, whatever
 * the pieces (ends inside a line or a frame included). A shrink or a rewrite is read again from
 * the start and said; damage in an appended part keeps what came before and ends the following.
 */
import { describe, expect, it } from 'vitest';
import { GrowingInput, isEndDependent } from '../../../src/core/analyze/growing';
import { openBytes } from '../../../src/core/analyze/open';
import type { LoadResult } from '../../../src/core/analyze/open';
import { generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import { cut } from '../../support/pieces';
import { sessionDiagnostics } from '../../../src/core/analyze/diagnostics';
import { sessionQueries } from '../../../src/worker/query';
import type { RowFilter } from '../../../src/protocol/protocol';
import { concatBytes, zstdFrame } from '../../support/zstd-frames';

const ALL: RowFilter = { families: [], surfaceOnly: false };
const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

/** What every query answers, as plain data: summary fields, rows, the surface at a few steps, diagnostics. */
function answers(result: LoadResult): unknown {
  return result.sessions.map((s) => {
    const q = sessionQueries(s);
    const steps = s.index.steps;
    return {
      path: s.path,
      format: s.format,
      events: s.log.length,
      fold: s.fold,
      decodeError: s.decodeError,
      // A growing input flags its end-dependent findings (checked by `flags` below); the rest is equal.
      diagnostics: sessionDiagnostics(s).map(({ provisional: _flag, ...d }) => d),
      rows: q.rows({ step: steps, filter: ALL, start: 0, count: 40 }),
      lastRows: q.rows({ step: steps, filter: ALL, start: Math.max(0, s.log.length - 20), count: 20 }),
      surfaces: [0, Math.floor(steps / 3), Math.floor((2 * steps) / 3), steps].map((k) => q.surface({ step: k, start: 0, count: 60 })),
      replaceSteps: Array.from(s.index.replaceSteps()),
    };
  });
}

/** The end-dependent findings are flagged while growing, and only they. */
function expectFlags(result: LoadResult, growing: boolean): void {
  for (const s of result.sessions) {
    for (const d of s.diagnostics) expect(d.provisional === true, `${d.rule}: ${d.message}`).toBe(growing && isEndDependent(d));
  }
}

function lastLf(bytes: Uint8Array): number {
  return bytes.lastIndexOf(0x0a) + 1;
}

describe('GrowingInput', () => {
  for (const seed of [11, 12, 13]) {
    it(`seed ${seed}: raw JSONL in random pieces answers as its complete prefix opened whole, after every piece`, async () => {
      const text = enc(
        generateText({ seed, events: 220, violation: seed === 13 ? 'seq-gap' : null, compaction: { thresholdTokens: 1500 } }),
      );
      const rng = new Rng(`growing-jsonl-${seed}`);
      const input = new GrowingInput({ name: 'live.jsonl', checkpointEvery: 4 });
      let held: Uint8Array = new Uint8Array(0);
      for (const piece of cut(text, rng, 900)) {
        const growth = await input.append(piece);
        held = concatBytes([held, piece]);
        const prefix = held.subarray(0, lastLf(held));
        expect(growth.committed).toBe(prefix.length);
        expect(growth.size).toBe(held.length);
        const result = await input.result();
        expect(answers(result)).toEqual(answers(await openBytes(prefix, { name: 'live.jsonl', checkpointEvery: 4 })));
        expectFlags(result, true);
        if (prefix.length > 0) expect(input.inPlace).toBe(true);
      }
      expect(input.following).toBe(true);
      const final = await input.end();
      expect(answers(final)).toEqual(answers(await openBytes(text, { name: 'live.jsonl', checkpointEvery: 4 })));
      expectFlags(final, false);
    });
  }

  for (const seed of [21, 22]) {
    it(`seed ${seed}: Zstandard frames in random pieces answer as the complete frames opened whole, after every piece`, async () => {
      const lines = generateText({ seed, events: 160 }).split(/(?<=\n)/);
      const rng = new Rng(`growing-zstd-${seed}`);
      // The header frame, then one frame per batch of 1..8 lines, as dsh writes them.
      const frames: Uint8Array[] = [await zstdFrame(lines[0]!)];
      for (let i = 1; i < lines.length;) {
        const n = rng.int(1, 8);
        frames.push(await zstdFrame(lines.slice(i, i + n).join('')));
        i += n;
      }
      const bytes = concatBytes(frames);
      const ends: number[] = [];
      let end = 0;
      for (const f of frames) ends.push((end += f.length));
      const input = new GrowingInput({ name: 'live.jsonl.zstd' });
      let size = 0;
      for (const piece of cut(bytes, rng, 300)) {
        await input.append(piece);
        size += piece.length;
        const complete = ends.filter((e) => e <= size).pop() ?? 0;
        expect(input.committedBytes).toBe(complete);
        const result = await input.result();
        expect(answers(result)).toEqual(answers(await openBytes(bytes.subarray(0, complete), { name: 'live.jsonl.zstd' })));
        expectFlags(result, true);
        if (complete > 0) expect(input.inPlace).toBe(true);
      }
      expect(input.following).toBe(true);
    });
  }

  it('a shrink is read again from the start, and said', async () => {
    const text = enc(generateText({ seed: 5, events: 120 }));
    const input = new GrowingInput({ name: 's.jsonl' });
    await input.append(text);
    const shorter = text.subarray(0, lastLf(text.subarray(0, Math.floor(text.length / 2))));
    expect(input.plan(shorter.length, shorter.subarray(0, 64))).toBe('whole');
    const growth = await input.replace(shorter);
    expect(growth.kind).toBe('reread');
    expect(growth.note).toMatch(/^the file shrank from \d+ to \d+ bytes .*read again from the start/);
    expect(answers(await input.result())).toEqual(answers(await openBytes(shorter, { name: 's.jsonl' })));
  });

  it('a rewrite with a different start is read again; the same start with more bytes is an append', async () => {
    const a = enc(generateText({ seed: 6, events: 80 }));
    const b = enc(generateText({ seed: 7, events: 90 }));
    const input = new GrowingInput({ name: 'r.jsonl' });
    await input.append(a);
    expect(input.plan(b.length, b.subarray(0, 64))).toBe('whole');
    expect((await input.replace(b)).note).toMatch(/the start of the file changed/);
    expect(answers(await input.result())).toEqual(answers(await openBytes(b, { name: 'r.jsonl' })));
    const more = concatBytes([b, enc('{"seq":999,"type":"turn/start","time":1}\n')]);
    expect(input.plan(more.length, more.subarray(0, 64))).toBe('tail');
    const growth = await input.replace(more);
    expect([growth.kind, growth.newEvents]).toEqual(['appended', 1]);
    expect(input.plan(more.length, more.subarray(0, 64))).toBe('none');
  });

  it('an unparsable appended line keeps what came before, says where, and ends the following', async () => {
    const text = enc(generateText({ seed: 8, events: 60 }));
    const input = new GrowingInput({ name: 'd.jsonl' });
    await input.append(text);
    const before = (await input.result()).sessions[0]!.log.length;
    const lines = new TextDecoder().decode(text).split('\n').length;
    const growth = await input.append(enc('{"seq": oops\n'));
    expect(growth.kind).toBe('stopped');
    expect(growth.note).toContain(`line ${lines}`);
    expect(input.following).toBe(false);
    expect((await input.result()).sessions[0]!.log.length).toBe(before);
    expect((await input.append(enc('{"seq":1}\n'))).kind).toBe('unchanged');
  });

  it('adopting an input opened whole keeps its analysis when it is complete, and opens the complete prefix when not', async () => {
    const text = enc(generateText({ seed: 10, events: 50 }));
    const opened = await openBytes(text, { name: 'a.jsonl' });
    const input = new GrowingInput({ name: 'a.jsonl' });
    await input.adopt(text, opened);
    expect(await input.result()).toBe(opened);
    expect(input.plan(text.length, text.subarray(0, 64))).toBe('none');
    const torn = concatBytes([text, enc('{"seq":50,')]);
    const tornInput = new GrowingInput({ name: 'a.jsonl' });
    await tornInput.adopt(torn, await openBytes(torn, { name: 'a.jsonl' }));
    expect(tornInput.committedBytes).toBe(text.length);
    expect(answers(await tornInput.result())).toEqual(answers(opened));
  });

  it('a last line without LF is not yet: the end reads it as a torn tail', async () => {
    const input = new GrowingInput({ name: 't.jsonl' });
    const text = generateText({ seed: 9, events: 30 });
    await input.append(enc(text));
    const growth = await input.append(enc('{"seq":1000,"ty'));
    expect(growth.kind).toBe('pending');
    const ended = await input.end();
    expect(ended.sessions[0]!.diagnostics.map((d) => d.rule)).toContain('loader/torn-line');
  });
});
