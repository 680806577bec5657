/**
 * The engine's compaction-QA and teaching queries: aligned views, the replace inspector, the
 * context curve, exports, demos and the playground.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PLAYGROUND_SESSION } from '../../src/protocol/protocol';
import { createEngine } from '../../src/worker/engine';

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
    const end = await engine.views(0, summary.accepted, 0, 50);
    expect(end.total).toBe(2);
    const [checkpoint, last] = end.rows;
    expect(checkpoint!.model).toMatchObject({ origin: 'replacement', replacementKind: 'compaction', state: 'current' });
    // The checkpoint stands for every prompt, answer and tool result before it, pruned one included.
    expect(checkpoint!.transcript.map((m) => m.type)).toEqual([
      'user/message',
      'assistant/message',
      'tool/result',
      'assistant/message',
      'user/message',
      'assistant/message',
    ]);
    expect(checkpoint!.transcript.every((m) => m.state === 'shadowed')).toBe(true);
    expect(checkpoint!.nested).toHaveLength(1);
    expect(last!.transcript.map((m) => m.seq)).toEqual([last!.model.seq]);
    const toolCall = checkpoint!.transcript[1]!.blocks.find((b) => b.kind === 'tool-call');
    expect(toolCall).toMatchObject({ name: 'read_file' });
  });
});

describe('replace inspector', () => {
  it('diffs a prune and links a compaction to its bracket', async () => {
    const { engine, summary } = await teaching();
    const reps = await engine.replacements(0, summary.accepted);
    const prune = await engine.replaceDetail(0, reps.find((r) => r.kind === 'prune')!.seq);
    expect(prune.prune!.diff.some((p) => p.op === 'remove')).toBe(true);
    expect(prune.prune!.after).toContain('[... tool result middle pruned ...]');
    expect(prune.bytesAfter).toBeLessThan(prune.bytesBefore);
    expect(prune.tokensBefore).toBe(Math.ceil(prune.bytesBefore / 4));
    expect(prune.tokenMethod).toMatch(/÷ 4/);
    const compaction = await engine.replaceDetail(0, reps.find((r) => r.kind === 'compaction')!.seq);
    expect(compaction.compaction).toMatchObject({ declaredMatches: true, error: null });
    expect(compaction.compaction!.startSeq).toBeLessThan(compaction.compaction!.summarySeq!);
    expect(compaction.compaction!.endSeq).toBe(compaction.seq + 1);
    expect(compaction.shadowed.map((m) => m.seq)).toEqual(compaction.shadowedSeqs);
    await expect(engine.replaceDetail(0, 0)).rejects.toThrow('seq 0 is not a replacement');
  });
});

describe('context curve', () => {
  it('drops at each replace and covers every step', async () => {
    const { engine, summary } = await teaching();
    const curve = await engine.curve(0, 1000);
    expect(curve.steps).toBe(summary.accepted);
    expect(curve.buckets).toHaveLength(summary.accepted + 1);
    for (const step of curve.replaces) {
      expect(curve.buckets[step]!.bytesMax).toBeLessThan(curve.buckets[step - 1]!.bytesMax);
    }
    const coarse = await engine.curve(0, 10);
    expect(coarse.buckets).toHaveLength(10);
    expect(coarse.buckets[0]!.from).toBe(0);
    expect(coarse.buckets[9]!.to).toBe(summary.accepted);
  });
});

describe('exports', () => {
  it('write the model view, the surface and the report', async () => {
    const { engine, summary } = await teaching();
    const model = await engine.exportText(0, 'model-view', summary.accepted);
    const messages = JSON.parse(model.text) as { role: string }[];
    expect(messages).toHaveLength(summary.messages);
    const surface = JSON.parse((await engine.exportText(0, 'surface', 3)).text) as { step: number; nodes: unknown[] };
    expect(surface.step).toBe(3);
    const report = JSON.parse((await engine.exportText(0, 'report-json', 0)).text) as { sessionId: string };
    expect(report.sessionId).toBe('teaching-sample');
    const md = await engine.exportText(0, 'report-markdown', 0);
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
    expect(state).toMatchObject({ session: PLAYGROUND_SESSION, nextSeq: 10, canUndo: true });
    expect(state.pendingCalls.map((p) => p.name)).toEqual(['read_file']);
    const ok = await engine.playgroundOffer({ kind: 'tool-result', callId: state.pendingCalls[0]!.callId, text: 'notes', isError: false });
    expect(ok.ok).toBe(true);
    state = ok.state;
    expect(state.pendingCalls).toEqual([]);
    const surfaceBefore = await engine.surface(PLAYGROUND_SESSION, state.summary.accepted, 0, 50);
    const refused = await engine.playgroundOffer({ kind: 'raw', json: '{"type":"user/message","time":0,"data":{},"surfaceOp":{"op":"replace","start":99,"end":99}}' });
    expect(refused).toMatchObject({ ok: false, message: 'surface replace: start seq 99 not found in surface', rule: 'surface/replace-range' });
    expect(refused.state.nextSeq).toBe(state.nextSeq);
    expect(await engine.surface(PLAYGROUND_SESSION, state.summary.accepted, 0, 50)).toEqual(surfaceBefore);
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
