/**
 * The engine's views and analysis queries: aligned views, the replace inspector, the context
 * curve, exports, demos and the playground.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { TRANSCRIPT_PAGE_LIMIT, VIEW_TRANSCRIPT_PREVIEW } from '../../src/protocol/protocol';
import type { ViewMessage } from '../../src/protocol/protocol';
import { createEngine } from '../../src/worker/engine';
import { QuerySession } from '../../src/worker/query';
import { viewMessage } from '../../src/worker/query/messages';

const here = dirname(fileURLToPath(import.meta.url));
const teachingText = readFileSync(join(here, '..', 'fixtures', 'teaching.jsonl'), 'utf8');
const noop = (): void => {};

async function teaching() {
  const engine = createEngine({ pause: async () => {} });
  const summary = await engine.open({ kind: 'text', name: 'teaching.jsonl', text: teachingText }, noop);
  return { engine, summary: summary.sessions[0]! };
}

describe('aligned views', () => {
  it('show the transcript span a replacement stands for, nested chain included', async () => {
    const { engine, summary } = await teaching();
    const end = await engine.views({ session: 0, step: summary.accepted, start: 0, count: 50 });
    expect(end.total).toBe(2);
    const [checkpoint, last] = end.rows;
    expect(checkpoint!.model).toMatchObject({ origin: 'replacement', replacementKind: 'compaction', state: 'current' });
    // The checkpoint stands for every prompt, answer and tool result before it, pruned one included.
    // The row carries the first three and the count; the page has them all.
    expect(checkpoint!.transcriptTotal).toBe(6);
    expect(checkpoint!.transcript.map((m) => m.type)).toEqual(['user/message', 'assistant/message', 'tool/result']);
    const page = await engine.transcript({ session: 0, step: summary.accepted, seq: checkpoint!.model.seq, start: 0, count: 50 });
    expect(page).toMatchObject({ total: 6, start: 0 });
    expect(page.messages.slice(0, 3)).toEqual(checkpoint!.transcript);
    expect(page.messages.map((m) => m.type)).toEqual([
      'user/message',
      'assistant/message',
      'tool/result',
      'assistant/message',
      'user/message',
      'assistant/message',
    ]);
    expect(page.messages.every((m) => m.state === 'shadowed')).toBe(true);
    expect(checkpoint!.nested).toHaveLength(1);
    expect(last!.transcript.map((m) => m.seq)).toEqual([last!.model.seq]);
    expect(last!.transcriptTotal).toBe(1);
    const toolCall = checkpoint!.transcript[1]!.blocks.find((b) => b.kind === 'tool-call');
    expect(toolCall).toMatchObject({ name: 'read_file' });
  });

  it("place an event in the views: its row and its index in the row's transcript", async () => {
    const { engine, summary } = await teaching();
    const k = summary.accepted;
    const [checkpoint, last] = (await engine.views({ session: 0, step: k, start: 0, count: 50 })).rows;
    const all = (await engine.transcript({ session: 0, step: k, seq: checkpoint!.model.seq, start: 0, count: 50 })).messages;
    expect(await engine.viewPlace({ session: 0, step: k, seq: all[4]!.seq })).toEqual({ row: 0, rowSeq: checkpoint!.model.seq, index: 4 });
    expect(await engine.viewPlace({ session: 0, step: k, seq: checkpoint!.model.seq })).toEqual({
      row: 0,
      rowSeq: checkpoint!.model.seq,
      index: -1,
    });
    expect(await engine.viewPlace({ session: 0, step: k, seq: checkpoint!.nested[0]! })).toEqual({
      row: 0,
      rowSeq: checkpoint!.model.seq,
      index: -1,
    });
    expect(await engine.viewPlace({ session: 0, step: k, seq: last!.model.seq })).toEqual({ row: 1, rowSeq: last!.model.seq, index: 0 });
    // Before it was applied, and a log-only event: nowhere.
    expect(await engine.viewPlace({ session: 0, step: 0, seq: all[0]!.seq })).toBeNull();
    expect(await engine.viewPlace({ session: 0, step: k, seq: 0 })).toBeNull();
  });

  it('give the whole text of a block the views clipped', async () => {
    const engine = createEngine({ pause: async () => {} });
    const long = `${'word '.repeat(2000)}END`;
    const lines = [
      '{"type":"session","version":0,"id":"b","createdAt":0,"delegationDepth":0}',
      JSON.stringify({
        type: 'user/message',
        seq: 0,
        time: 0,
        surfaceOp: 'append',
        data: {
          id: 'u0',
          role: 'user',
          content: [
            { type: 'text', text: 'hi' },
            { type: 'text', text: long },
          ],
          source: { kind: 'user' },
        },
      }),
    ];
    await engine.open({ kind: 'text', name: 'b.jsonl', text: `${lines.join('\n')}\n` }, () => {});
    const [row] = (await engine.views({ session: 0, step: 1, start: 0, count: 10 })).rows;
    const block = row!.model.blocks[1]!;
    expect(block.truncated).toBe(true);
    expect(block.text.length).toBeLessThan(long.length);
    expect(await engine.blockText({ session: 0, seq: 0, block: 1 })).toBe(long);
    expect(await engine.blockText({ session: 0, seq: 0, block: 0 })).toBe('hi');
    await expect(engine.blockText({ session: 0, seq: 0, block: 2 })).rejects.toThrow('seq 0 has no block 2');
    await expect(engine.blockText({ session: 0, seq: 7, block: 0 })).rejects.toThrow('no event with seq 7');
  });

  it('page the transcript of a row: windows, clamping, and a row not on the surface', async () => {
    const { engine, summary } = await teaching();
    const [checkpoint] = (await engine.views({ session: 0, step: summary.accepted, start: 0, count: 50 })).rows;
    const seq = checkpoint!.model.seq;
    const all = (await engine.transcript({ session: 0, step: summary.accepted, seq, start: 0, count: 50 })).messages;
    expect(await engine.transcript({ session: 0, step: summary.accepted, seq, start: 2, count: 3 })).toEqual({
      total: 6,
      start: 2,
      messages: all.slice(2, 5),
    });
    expect(await engine.transcript({ session: 0, step: summary.accepted, seq, start: -4, count: 1 })).toEqual({
      total: 6,
      start: 0,
      messages: all.slice(0, 1),
    });
    expect(await engine.transcript({ session: 0, step: summary.accepted, seq, start: 9, count: 5 })).toEqual({
      total: 6,
      start: 6,
      messages: [],
    });
    // A step past the end reads the end, as views does.
    expect(await engine.transcript({ session: 0, step: summary.accepted + 99, seq, start: 0, count: 50 })).toEqual({
      total: 6,
      start: 0,
      messages: all,
    });
    // Before the checkpoint was applied, and for a shadowed message, there is no such row.
    await expect(engine.transcript({ session: 0, step: 3, seq, start: 0, count: 10 })).rejects.toThrow(
      `seq ${seq} is not on the surface at step 3`,
    );
    await expect(engine.transcript({ session: 0, step: summary.accepted, seq: all[0]!.seq, start: 0, count: 10 })).rejects.toThrow(
      'is not on the surface',
    );
  });

  it('equal, row by row and page by page, the aligned views of a generated log with compactions', async () => {
    const text = generateText({ seed: 11, events: 3000, compaction: { thresholdTokens: 3000 } });
    const session = (await openBytes(new TextEncoder().encode(text), { name: 'gen.jsonl' })).sessions[0]!;
    const query = new QuerySession(session);
    // What views() sent before paging: every transcript message of a row, derived at the step.
    const message = (seq: number, k: number): ViewMessage => {
      const index = seq - session.baseSeq;
      const type = session.columns.types[session.columns.typeId[index]!]!;
      return viewMessage(session.log.event(index), seq, type, query.stateAt(index, k));
    };
    const engine = createEngine({ pause: async () => {} });
    await engine.open({ kind: 'text', name: 'gen.jsonl', text }, noop);
    const tt = session.index;
    expect(tt.replacementCount).toBeGreaterThan(3);
    const steps = [...Array.from(tt.replaceSteps()), session.fold.accepted, Math.floor(session.fold.accepted / 2)];
    let longSpans = 0;
    for (const k of steps) {
      const aligned = tt.alignedViews(k);
      const window = await engine.views({ session: 0, step: k, start: 0, count: 500 });
      expect(window.total).toBe(aligned.length);
      expect(window.rows.map((r) => r.model.seq)).toEqual(aligned.map((r) => r.model));
      for (const [i, row] of window.rows.entries()) {
        const full = aligned[i]!.transcript.map((seq) => message(seq, k));
        expect(row.transcriptTotal).toBe(full.length);
        expect(row.transcript).toEqual(full.slice(0, VIEW_TRANSCRIPT_PREVIEW));
        if (full.length <= VIEW_TRANSCRIPT_PREVIEW) continue;
        longSpans += 1;
        // Pages of 7 (a size that never divides evenly) put together give the old full list.
        const pages: ViewMessage[] = [];
        for (let start = 0; start < full.length; start += 7) {
          const page = await engine.transcript({ session: 0, step: k, seq: row.model.seq, start, count: 7 });
          expect(page).toMatchObject({ total: full.length, start });
          pages.push(...page.messages);
        }
        expect(pages).toEqual(full);
      }
      // A window further down gives the same rows as the whole.
      const tail = await engine.views({ session: 0, step: k, start: 2, count: 3 });
      expect(tail.rows).toEqual(window.rows.slice(2, 5));
    }
    expect(longSpans).toBeGreaterThan(3);
  });

  it(`cut a page to ${TRANSCRIPT_PAGE_LIMIT} messages`, async () => {
    const n = TRANSCRIPT_PAGE_LIMIT + 100;
    const lines = [JSON.stringify({ type: 'session', version: 0, id: 'long-span', createdAt: 0, delegationDepth: 0 })];
    for (let seq = 0; seq < n; seq++) {
      lines.push(
        JSON.stringify({
          type: 'user/message',
          seq,
          time: seq,
          data: { role: 'user', content: [{ type: 'text', text: `m${seq}` }], source: { kind: 'user' } },
          surfaceOp: 'append',
        }),
      );
    }
    const sources = Array.from({ length: n }, (_, seq) => seq);
    lines.push(
      JSON.stringify({
        type: 'user/message',
        seq: n,
        time: n,
        data: { role: 'user', content: [{ type: 'text', text: 'summary' }], source: { kind: 'plugin', plugin: 'compact' } },
        surfaceOp: { op: 'replace', start: 0, end: n - 1 },
        sourceEventSeqs: sources,
      }),
    );
    const engine = createEngine({ pause: async () => {} });
    const summary = (await engine.open({ kind: 'text', name: 'long.jsonl', text: `${lines.join('\n')}\n` }, noop)).sessions[0]!;
    expect(summary.surfaceError).toBeNull();
    const [row] = (await engine.views({ session: 0, step: summary.accepted, start: 0, count: 10 })).rows;
    expect(row!.transcript.map((m) => m.seq)).toEqual([0, 1, 2]);
    expect(row!.transcriptTotal).toBe(n);
    const page = await engine.transcript({ session: 0, step: summary.accepted, seq: n, start: 50, count: 10_000 });
    expect(page.total).toBe(n);
    expect(page.messages.map((m) => m.seq)).toEqual(sources.slice(50, 50 + TRANSCRIPT_PAGE_LIMIT));
  });
});

describe('replace inspector', () => {
  it('diffs a prune and links a compaction to its bracket', async () => {
    const { engine, summary } = await teaching();
    const reps = (await engine.replacements({ session: 0, step: summary.accepted, start: 0, count: 100 })).items;
    const prune = await engine.replaceDetail({ session: 0, replacement: reps.find((r) => r.kind === 'prune')!.seq });
    expect(prune.prune!.diff.some((p) => p.op === 'remove')).toBe(true);
    expect(prune.prune!.after).toContain('[... tool result middle pruned ...]');
    expect(prune.bytesAfter).toBeLessThan(prune.bytesBefore);
    expect(prune.tokensBefore).toBe(Math.ceil(prune.bytesBefore / 4));
    expect(prune.tokenMethod).toMatch(/÷ 4/);
    const compaction = await engine.replaceDetail({ session: 0, replacement: reps.find((r) => r.kind === 'compaction')!.seq });
    expect(compaction.compaction).toMatchObject({ declaredMatches: true, error: null });
    expect(compaction.compaction!.startSeq).toBeLessThan(compaction.compaction!.summarySeq!);
    expect(compaction.compaction!.endSeq).toBe(compaction.seq + 1);
    expect(compaction.shadowed.map((m) => m.seq)).toEqual(compaction.shadowedSeqs);
    await expect(engine.replaceDetail({ session: 0, replacement: 0 })).rejects.toThrow('seq 0 is not a replacement');
  });
});

describe('context curve', () => {
  it('drops at each replace and covers every step', async () => {
    const { engine, summary } = await teaching();
    const curve = await engine.curve({ session: 0, buckets: 1000 });
    expect(curve.steps).toBe(summary.accepted);
    expect(curve.buckets).toHaveLength(summary.accepted + 1);
    for (const step of curve.replaces) {
      expect(curve.buckets[step]!.bytesMax).toBeLessThan(curve.buckets[step - 1]!.bytesMax);
    }
    const coarse = await engine.curve({ session: 0, buckets: 10 });
    expect(coarse.buckets).toHaveLength(10);
    expect(coarse.buckets[0]!.from).toBe(0);
    expect(coarse.buckets[9]!.to).toBe(summary.accepted);
  });

  it('seed 75: sizing the nodes yields, so rows asked meanwhile are answered first; both curves agree', async () => {
    const text = generateText({ seed: 75, events: 100_000 });
    const yielding = createEngine({ pause: () => new Promise<void>((resolve) => setTimeout(resolve, 0)) });
    const summary = await yielding.open({ kind: 'text', name: 'big.jsonl', text }, () => {});
    const id = summary.sessions[0]!.id;
    // Nodes that ever lived, each sized once: several slices of 512.
    const analysed = await openBytes(new TextEncoder().encode(text), { name: 'big.jsonl' });
    expect(analysed.sessions[0]!.index.nodeCount).toBeGreaterThan(1500);
    const order: string[] = [];
    const curve = yielding.curve({ session: id, buckets: 200 }).then((c) => {
      order.push('curve');
      return c;
    });
    // A request that arrives while the curve is being computed (a task later).
    await new Promise((resolve) => setTimeout(resolve, 0));
    const rows = yielding
      .rows({ session: id, step: summary.sessions[0]!.accepted, filter: { families: [], surfaceOnly: false }, start: 0, count: 50 })
      .then(() => order.push('rows'));
    await Promise.all([curve, rows]);
    expect(order).toEqual(['rows', 'curve']);
    // The same curve as an engine that never yields, and a second request answers from the sizes.
    const plain = createEngine({ pause: async () => {} });
    const plainId = (await plain.open({ kind: 'text', name: 'big.jsonl', text }, () => {})).sessions[0]!.id;
    expect(await curve).toEqual(await plain.curve({ session: plainId, buckets: 200 }));
    expect(await yielding.curve({ session: id, buckets: 200 })).toEqual(await curve);
  });

  it('seed 76: a curve still being sized stops when another file is opened', async () => {
    const engine = createEngine({ pause: () => new Promise<void>((resolve) => setTimeout(resolve, 0)) });
    const big = await engine.open({ kind: 'text', name: 'big.jsonl', text: generateText({ seed: 76, events: 100_000 }) }, () => {});
    // Settled into a value at once: the rejection may come before the open below returns.
    const curve = engine.curve({ session: big.sessions[0]!.id, buckets: 100 }).then(
      () => 'finished',
      (error: Error) => error.name,
    );
    await new Promise((resolve) => setTimeout(resolve, 0));
    const next = await engine.open({ kind: 'text', name: 'small.jsonl', text: generateText({ seed: 76, events: 300 }) }, () => {});
    expect(await curve).toBe('AbortError');
    // The new session's curve is whole.
    expect((await engine.curve({ session: next.sessions[0]!.id, buckets: 1000 })).steps).toBe(next.sessions[0]!.accepted);
  });
});

describe('exports', () => {
  it('write the model view, the surface and the report', async () => {
    const { engine, summary } = await teaching();
    const model = await engine.exportText({ session: 0, kind: 'model-view', step: summary.accepted });
    const messages = JSON.parse(model.text) as { role: string }[];
    expect(messages).toHaveLength(summary.messages);
    const surface = JSON.parse((await engine.exportText({ session: 0, kind: 'surface', step: 3 })).text) as {
      step: number;
      nodes: unknown[];
    };
    expect(surface.step).toBe(3);
    const report = JSON.parse((await engine.exportText({ session: 0, kind: 'report-json', step: 0 })).text) as { sessionId: string };
    expect(report.sessionId).toBe('teaching-sample');
    const md = await engine.exportText({ session: 0, kind: 'report-markdown', step: 0 });
    expect(md.text).toMatch(/^# Surface Lens report: teaching\.jsonl/);
    expect(md.mime).toBe('text/markdown');
  });
});

describe('demos', () => {
  it('are listed and open as ordinary logs', async () => {
    const engine = createEngine({ pause: async () => {} });
    const list = await engine.demos();
    expect(list.length).toBeGreaterThanOrEqual(7);
    const rejected = await engine.open({ kind: 'demo', id: 'rejected' }, noop);
    expect(rejected.sessions[0]!.surfaceError?.message).toMatch(/must include every shadowed surface node/);
    await expect(engine.open({ kind: 'demo', id: 'nope' }, noop)).rejects.toThrow('no demo named "nope"');
  });
});

describe('playground', () => {
  it('grows a log from templates, refuses bad candidates unchanged, undoes and exports', async () => {
    const { engine, summary } = await teaching();
    let state = await engine.playgroundStart({ session: 0, step: 10 });
    // The playground is one more session of the engine, under a handle of its own.
    expect(state).toMatchObject({ nextSeq: 10, canUndo: true });
    expect(state.session).not.toBe(summary.id);
    expect(state.summary.id).toBe(state.session);
    const pg = state.session;
    expect(state.pendingCalls.map((p) => p.name)).toEqual(['read_file']);
    const ok = await engine.playgroundOffer({ kind: 'tool-result', callId: state.pendingCalls[0]!.callId, text: 'notes', isError: false });
    expect(ok.ok).toBe(true);
    state = ok.state;
    expect(state.pendingCalls).toEqual([]);
    const surfaceBefore = await engine.surface({ session: pg, step: state.summary.accepted, start: 0, count: 50 });
    const refused = await engine.playgroundOffer({
      kind: 'raw',
      json: '{"type":"user/message","time":0,"data":{},"surfaceOp":{"op":"replace","start":99,"end":99}}',
    });
    expect(refused).toMatchObject({
      ok: false,
      message: 'surface replace: start seq 99 not found in surface',
      rule: 'surface/replace-range',
    });
    expect(refused.state.nextSeq).toBe(state.nextSeq);
    expect(await engine.surface({ session: pg, step: state.summary.accepted, start: 0, count: 50 })).toEqual(surfaceBefore);
    const nodes = surfaceBefore.nodes.map((n) => n.seq);
    const summaryOk = await engine.playgroundOffer({ kind: 'summary', start: nodes[0]!, end: nodes[nodes.length - 1]!, text: 'all of it' });
    expect(summaryOk.ok && summaryOk.state.summary.nodes).toBe(1);
    const undone = await engine.playgroundUndo();
    expect(undone.summary.nodes).toBe(nodes.length);
    expect(undone.canRedo).toBe(true);
    const exported = await engine.playgroundExport();
    expect(exported.text.split('\n')).toHaveLength(undone.nextSeq + 2);
    expect(summary.events).toBe(54);
    const bad = await engine.playgroundOffer({ kind: 'raw', json: '{nope' });
    expect(bad).toMatchObject({ ok: false, rule: 'playground/json' });
  });
});
