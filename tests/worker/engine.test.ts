/**
 * The engine behind the protocol, driven directly (no worker): loads, windows, surface at a
 * step, replacements and brackets, details, navigation, cancellation.
 */
import { describe, expect, it } from 'vitest';
import { generateText } from '../../src/core/gen/generate';
import { DEFAULT_MEMORY_LIMIT, createEngine, memoryLimitFor } from '../../src/worker/engine';
import type { RowFilter } from '../../src/protocol/protocol';

const ALL: RowFilter = { families: [], surfaceOnly: false };
const noop = (): void => {};

// E4 of the spec (nested replace with start > end numerically), with log-only events around.
const NESTED = [
  '{"type":"session","version":0,"id":"nested","createdAt":0,"delegationDepth":0}',
  '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}',
  '{"type":"user/message","seq":1,"time":2,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"a <script>alert(1)</script>"}],"source":{"kind":"user"}},"surfaceOp":"append"}',
  '{"type":"assistant/message","seq":2,"time":3,"data":{"turn":1,"step":1,"message":{"id":"a2","role":"assistant","content":[{"type":"text","text":"b"}],"source":{"kind":"model","provider":"p","model":"m"}}},"surfaceOp":"append"}',
  '{"type":"user/message","seq":3,"time":4,"data":{"id":"u3","role":"user","content":[{"type":"text","text":"summary of a"}],"source":{"kind":"user"}},"sourceEventSeqs":[1],"surfaceOp":{"op":"replace","start":1,"end":1}}',
  '{"type":"user/message","seq":4,"time":5,"data":{"id":"u4","role":"user","content":[{"type":"text","text":"summary of all"}],"source":{"kind":"plugin","plugin":"compact","compactionId":"c1"}},"sourceEventSeqs":[3,2],"surfaceOp":{"op":"replace","start":3,"end":2}}',
  '{"type":"turn/end","seq":5,"time":6,"data":{"turn":1,"reason":{"kind":"completed"}}}',
  '',
].join('\n');

async function loadNested() {
  const engine = createEngine({ pause: async () => {} });
  const summary = await engine.open({ kind: 'text', name: 'nested.jsonl', text: NESTED }, noop);
  return { engine, summary };
}

describe('engine', () => {
  it('summarises a load', async () => {
    const { summary } = await loadNested();
    expect(summary.sessions).toHaveLength(1);
    const s = summary.sessions[0]!;
    expect(s).toMatchObject({ events: 6, accepted: 6, nodes: 1, replacements: 2, replaceGeneration: 2, messages: 1, surfaceError: null });
    expect(s.fingerprint).toMatch(/-0$/);
  });

  it('answers row windows with states at the cursor', async () => {
    const { engine } = await loadNested();
    const atEnd = await engine.rows({ session: 0, step: 6, filter: ALL, start: 0, count: 100 });
    expect(atEnd.total).toBe(6);
    expect(atEnd.rows.map((r) => r.state)).toEqual(['log-only', 'shadowed', 'shadowed', 'shadowed', 'current', 'log-only']);
    expect(atEnd.rows[1]!.summary).toBe('a <script>alert(1)</script>');
    const atThree = await engine.rows({ session: 0, step: 3, filter: ALL, start: 0, count: 100 });
    expect(atThree.rows.map((r) => r.state)).toEqual(['log-only', 'current', 'current', 'future', 'future', 'future']);
    const surfaceOnly = await engine.rows({ session: 0, step: 6, filter: { families: [], surfaceOnly: true }, start: 0, count: 100 });
    expect(surfaceOnly.rows.map((r) => r.seq)).toEqual([1, 2, 3, 4]);
    const turns = await engine.rows({ session: 0, step: 6, filter: { families: ['turn'], surfaceOnly: false }, start: 0, count: 100 });
    expect(turns.rows.map((r) => r.seq)).toEqual([0, 5]);
  });

  it('gives the surface at any step with what the step changed', async () => {
    const { engine } = await loadNested();
    const s4 = await engine.surface({ session: 0, step: 4, start: 0, count: 10 });
    expect(s4.nodes.map((n) => n.seq)).toEqual([3, 2]);
    expect(s4.change.text).toBe('replaced 1…1 (1 node) with 3');
    expect(s4.replaceGeneration).toBe(1);
    const s5 = await engine.surface({ session: 0, step: 5, start: 0, count: 10 });
    expect(s5.nodes.map((n) => n.seq)).toEqual([4]);
    expect(s5.change.text).toBe('replaced 3…2 (2 nodes) with 4');
    expect(s5.nodes[0]).toMatchObject({ replacement: true, shadowedCount: 2 });
    expect((await engine.surface({ session: 0, step: 2, start: 0, count: 10 })).change.text).toBe('appended 1');
    expect((await engine.surface({ session: 0, step: 1, start: 0, count: 10 })).change.kind).toBe('log-only');
    expect((await engine.shadowedBy({ session: 0, replacement: 4 })).map((n) => n.seq)).toEqual([3, 2]);
  });

  it('lists replacements and nested brackets', async () => {
    const { engine } = await loadNested();
    const { total, items: reps } = await engine.replacements({ session: 0, step: 6, start: 0, count: 100 });
    expect(total).toBe(2);
    // Each with the node standing for it on the surface: 3 is inside 4.
    expect(reps.map((r) => [r.seq, r.kind, r.shadowedBy, r.visible])).toEqual([
      [3, 'other', 4, 4],
      [4, 'compaction', null, 4],
    ]);
    expect(
      (await engine.replacements({ session: 0, step: 4, start: 0, count: 100 })).items.map((r) => [r.seq, r.shadowedBy, r.visible]),
    ).toEqual([[3, null, 3]]);
    const brackets = await engine.brackets({ session: 0, step: 6, lo: 0, hi: 10 });
    expect(brackets).toEqual([
      { replacement: 3, first: 1, last: 1, depth: 1, kind: 'other' },
      { replacement: 4, first: 1, last: 3, depth: 0, kind: 'compaction' },
    ]);
    expect(await engine.brackets({ session: 0, step: 4, lo: 0, hi: 10 })).toEqual([
      { replacement: 3, first: 1, last: 1, depth: 0, kind: 'other' },
    ]);
  });

  it('details an event with provenance both ways and its replacement chain', async () => {
    const { engine } = await loadNested();
    const d = await engine.detail({ session: 0, seq: 1, step: 6 });
    expect(d).toMatchObject({ seq: 1, line: 3, state: 'shadowed', replacedBy: 3, replacementChain: [4], citedBy: [3] });
    const r = await engine.detail({ session: 0, seq: 4, step: 6 });
    expect(r).toMatchObject({ sourceEventSeqs: [3, 2], replacedEventSeqs: [3, 2], state: 'current' });
  });

  it('navigates between surface changes and replaces', async () => {
    const { engine } = await loadNested();
    expect(await engine.navigate({ session: 0, step: 0, kind: 'next-replace' })).toBe(4);
    expect(await engine.navigate({ session: 0, step: 4, kind: 'next-replace' })).toBe(5);
    expect(await engine.navigate({ session: 0, step: 5, kind: 'next-replace' })).toBeNull();
    expect(await engine.navigate({ session: 0, step: 5, kind: 'prev-replace' })).toBe(4);
    expect(await engine.navigate({ session: 0, step: 0, kind: 'next-change' })).toBe(2);
    expect(await engine.navigate({ session: 0, step: 6, kind: 'prev-change' })).toBe(5);
    expect(Array.from(await engine.replaceSteps({ session: 0 }))).toEqual([4, 5]);
  });

  it('searches rows that are not rendered, with wrap-around', async () => {
    const { engine } = await loadNested();
    const hit = await engine.search({ session: 0, text: '"SUMMARY OF"', filter: ALL, fromRow: -1, direction: 1, step: 0 });
    expect(hit).toEqual({ row: 3, seq: 3, wrapped: false, total: 2, error: null });
    const next = await engine.search({ session: 0, text: '"summary of"', filter: ALL, fromRow: 4, direction: 1, step: 0 });
    expect(next).toEqual({ row: 3, seq: 3, wrapped: true, total: 2, error: null });
    const back = await engine.search({ session: 0, text: '"summary of"', filter: ALL, fromRow: 3, direction: -1, step: 0 });
    expect(back).toEqual({ row: 4, seq: 4, wrapped: true, total: 2, error: null });
    // The label the UI shows for a compaction checkpoint is searchable.
    expect((await engine.search({ session: 0, text: '"compaction summary"', filter: ALL, fromRow: -1, direction: 1, step: 0 })).seq).toBe(
      4,
    );
    expect((await engine.search({ session: 0, text: 'zzz', filter: ALL, fromRow: -1, direction: 1, step: 0 })).row).toBeNull();
    const refused = await engine.search({ session: 0, text: 'seq:x', filter: ALL, fromRow: -1, direction: 1, step: 0 });
    expect(refused).toEqual({
      row: null,
      seq: null,
      wrapped: false,
      total: 0,
      error: { start: 4, end: 5, message: 'seq: expects a number or a range like 10..200, not "x"' },
    });
    const list = await engine.searchMatches({ session: 0, text: '"summary of"', filter: ALL, step: 0, start: 0, count: 10 });
    expect(list.total).toBe(2);
    expect(list.matches.map((m) => [m.row, m.seq, m.type])).toEqual([
      [3, 3, 'user/message'],
      [4, 4, 'user/message'],
    ]);
    const [m] = list.matches;
    expect(m && m.marks.map(([a, b]) => m.snippet.slice(a, b))).toEqual(['summary of']);
    // Cursor terms answer at the step asked: at step 3 events 1 and 2 are on the surface.
    const current = await engine.searchMatches({ session: 0, text: 'is:surface', filter: ALL, step: 3, start: 0, count: 10 });
    expect(current.matches.map((x) => x.seq)).toEqual([1, 2]);
    const atEnd = await engine.searchMatches({ session: 0, text: 'is:surface', filter: ALL, step: 6, start: 0, count: 10 });
    expect(atEnd.matches.map((x) => x.seq)).toEqual([4]);
  });

  it('seed 77: a long search pauses between slices: rows asked meanwhile are answered, and a newer search stops it', async () => {
    const engine = createEngine({ pause: () => new Promise<void>((resolve) => setTimeout(resolve, 0)) });
    const summary = await engine.open({ kind: 'text', name: 'big.jsonl', text: generateText({ seed: 77, events: 40_000 }) }, noop);
    const accepted = summary.sessions[0]!.accepted;
    const order: string[] = [];
    const miss = engine.search({ session: 0, text: 'no such text anywhere', filter: ALL, fromRow: -1, direction: 1, step: 0 });
    const missed = miss.then(
      (result) => order.push(`miss ${String(result.row)}`),
      (error: Error) => order.push(error.name),
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    await engine.rows({ session: 0, step: accepted, filter: ALL, start: 0, count: 10 }).then(() => order.push('rows'));
    // A newer search: the first one stops at its next pause.
    const hit = await engine.search({ session: 0, text: 'turn/start', filter: ALL, fromRow: -1, direction: 1, step: 0 });
    order.push('hit');
    await missed;
    // Rows were answered while the miss was still scanning; the miss stopped at its next pause.
    expect(order[0]).toBe('rows');
    expect(order.slice(1).sort()).toEqual(['AbortError', 'hit']);
    expect(hit.row).not.toBeNull();
    // Alone, the same search runs to its end and finds nothing.
    expect(
      (await engine.search({ session: 0, text: 'no such text anywhere', filter: ALL, fromRow: -1, direction: 1, step: 0 })).row,
    ).toBeNull();
  });

  it('keeps the valid prefix navigable after a surface error', async () => {
    const engine = createEngine({ pause: async () => {} });
    const text = NESTED.replace('"seq":3,', '"seq":9,');
    const summary = await engine.open({ kind: 'text', name: 'bad.jsonl', text }, noop);
    const s = summary.sessions[0]!;
    expect(s.accepted).toBe(3);
    expect(s.surfaceError).toMatchObject({ seq: 9, line: 5, message: 'session event seq 9 is not contiguous; expected 3' });
    const rows = await engine.rows({ session: 0, step: 3, filter: ALL, start: 0, count: 10 });
    expect(rows.rows.map((r) => r.state)).toEqual(['log-only', 'current', 'current', 'rejected', 'pending', 'pending']);
    const diags = await engine.diagnostics({ session: 0, start: 0, count: 10 });
    expect(diags.items[0]).toMatchObject({ rule: 'surface/contiguity', seq: 3 });
  });

  it('reports fetch failures clearly and cancels a running load', async () => {
    const failing = createEngine({
      pause: async () => {},
      fetch: () => Promise.reject(new TypeError('Failed to fetch')),
    });
    await expect(failing.open({ kind: 'url', url: 'https://example.invalid/x.jsonl' }, noop)).rejects.toThrow(
      /could not fetch https:\/\/example.invalid\/x.jsonl: Failed to fetch .*cross-origin/,
    );
    let release: () => void = () => {};
    const slow = createEngine({ pause: () => new Promise<void>((resolve) => (release = resolve)) });
    const big = NESTED.repeat(1).padEnd(10, ' ');
    const pending = slow.open({ kind: 'text', name: 'a.jsonl', text: big }, noop);
    await new Promise((r) => setTimeout(r, 0));
    await slow.cancel();
    release();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('stops a load at its memory limit with a clear message, and keeps answering', async () => {
    const engine = createEngine({ pause: async () => {} });
    const text = generateText({ seed: 5, events: 60_000 });
    const bytes = new TextEncoder().encode(text).length;
    const summary = await engine.open({ kind: 'text', name: 'big.jsonl', text, memoryLimitBytes: bytes + 4 * 2 ** 20 }, noop);
    const s = summary.sessions[0]!;
    expect(s.decodeError?.rule).toBe('decode/memory-limit');
    expect(s.decodeError?.message).toMatch(
      /^stopped reading big\.jsonl at byte \d+ \(line \d+\): reading on would need about [\d.]+ MiB, over this tab's memory limit of [\d.]+ MiB$/,
    );
    expect(s.decodeError?.message).toContain(`at byte ${s.decodeError?.byte} (line ${s.decodeError?.line})`);
    expect(s.accepted).toBeGreaterThan(1000);
    expect(s.accepted).toBe(s.events);
    // The prefix is navigable and every window answers.
    const rows = await engine.rows({ session: s.id, step: s.accepted, filter: ALL, start: s.events - 3, count: 10 });
    expect(rows.rows).toHaveLength(3);
    expect((await engine.surface({ session: s.id, step: s.accepted, start: 0, count: 5 })).step).toBe(s.accepted);
    expect((await engine.detail({ session: s.id, seq: s.events - 1, step: s.accepted })).seq).toBe(s.events - 1);
    expect((await engine.diagnostics({ session: s.id, start: 0, count: 1 })).items[0]).toMatchObject({
      rule: 'decode/memory-limit',
      line: s.decodeError?.line,
    });
    expect(await engine.navigate({ session: s.id, step: 0, kind: 'next-change' })).not.toBeNull();
    expect((await engine.search({ session: s.id, text: 'turn', filter: ALL, fromRow: -1, direction: 1, step: 0 })).row).not.toBeNull();
    // The engine goes on: the next open, without a small limit, loads the whole log.
    const again = await engine.open({ kind: 'text', name: 'big.jsonl', text }, noop);
    expect(again.sessions[0]!.decodeError).toBeNull();
    expect(again.sessions[0]!.events).toBeGreaterThan(s.events);
  });

  it('derives the memory limit from the request, the heap figures, or a default', () => {
    const text = { kind: 'text' as const, name: 'x', text: '' };
    expect(memoryLimitFor({ ...text, memoryLimitBytes: 1234 }, { jsHeapSizeLimit: 4e9, usedJSHeapSize: 1e8 })).toBe(1234);
    // On the page (in-process engine): the tab's heap limit minus what is in use.
    expect(memoryLimitFor(text, { jsHeapSizeLimit: 4e9, usedJSHeapSize: 1e8 })).toBe(3.9e9);
    // In a worker: the page's figure, sent along by the worker client.
    expect(memoryLimitFor({ ...text, hostHeapLimitBytes: 2e9 }, null)).toBe(2e9);
    expect(memoryLimitFor(text, null)).toBe(DEFAULT_MEMORY_LIMIT);
    expect(DEFAULT_MEMORY_LIMIT).toBe(2 ** 30);
  });
});
