/** The store slices of the views and replace inspector, demos, exports and the playground. */
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import {
  selectDemoNoteIndex,
  selectHasNextNote,
  selectHasPreviousNote,
  selectSessionId,
  selectSessionKey,
} from '../../src/store/selectors';
import { fixtureText } from '../support/test-engine';
import { engineStoreWith, makeEngineStore } from './helpers';

describe('view slice', () => {
  it('switches the workspace view and opens/closes the replace inspector on a replacement', async () => {
    const { store } = await engineStoreWith();
    const s = () => store.getState();
    expect(s().view).toBe('timeline');
    s().setView('views');
    expect(s().view).toBe('views');
    s().openReplace(43); // the teaching sample's checkpoint
    expect(s()).toMatchObject({ replaceTarget: 43, selectedSeq: 43 });
    s().openReplace(-1);
    expect(s().replaceTarget).toBe(43);
    s().closeReplace();
    expect(s().replaceTarget).toBeNull();
  });

  it('forgets the inspector target and leaves the playground when another log opens', async () => {
    const { store } = await engineStoreWith();
    store.getState().openReplace(30); // the prune
    await store.getState().startPlayground('empty');
    expect(store.getState().view).toBe('playground');
    await store.getState().openSource({ kind: 'text', name: 'nested.jsonl', text: fixtureText('nested.jsonl') });
    expect(store.getState()).toMatchObject({ status: 'ready', view: 'timeline', replaceTarget: null });
  });
});

describe('demo slice', () => {
  it('lists demos once, opens one at step 0 and follows the narration with the cursor', async () => {
    const { store, client } = makeEngineStore();
    const s = () => store.getState();
    await Promise.all([s().loadDemos(), s().loadDemos()]);
    expect(client.callsTo('demos')).toHaveLength(1);
    expect(s().demos?.map((d) => d.id)).toEqual(['three-types', 'append-flow', 'compaction', 'nested', 'prune', 'rejected', 'two-views']);
    await s().openDemo('compaction');
    expect(client.callsTo('open').at(-1)?.args[0]).toEqual({ kind: 'demo', id: 'compaction' });
    expect(s()).toMatchObject({ status: 'ready', step: 0, sourceName: 'demo "compaction"' });
    expect(s().activeDemo?.id).toBe('compaction');
    // The compaction demo's notes are at steps 0, 26, 27, 28, 29 and 36.
    expect(s().activeDemo?.notes.map((n) => n.step)).toEqual([0, 26, 27, 28, 29, 36]);
    expect(selectDemoNoteIndex(s())).toBe(0);
    expect(selectHasPreviousNote(s())).toBe(false);
    s().goTo(30);
    expect(selectDemoNoteIndex(s())).toBe(4); // note at step 29
    s().nextNote();
    expect(s().step).toBe(36);
    expect(selectHasNextNote(s())).toBe(false);
    s().nextNote();
    expect(s().step).toBe(36);
    s().goTo(32);
    s().previousNote(); // from the note at 29 to the one before it
    expect(s().step).toBe(28);
  });

  it('clears the demo when another log opens', async () => {
    const { store } = makeEngineStore();
    await store.getState().openDemo('compaction');
    await store.getState().openSource({ kind: 'text', name: 'teaching.jsonl', text: fixtureText('teaching.jsonl') });
    expect(store.getState().status).toBe('ready');
    expect(store.getState().activeDemo).toBeNull();
  });
});

describe('export slice', () => {
  it('exports at the cursor and hands the file to the download dependency', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const { store, client } = await engineStoreWith('teaching.jsonl', {}, { download });
    store.getState().goTo(20);
    await store.getState().exportFile('model-view');
    expect(client.callsTo('exportText').at(-1)?.args).toEqual([
      { session: selectSessionId(store.getState()), kind: 'model-view', step: 20 },
    ]);
    expect(download).toHaveBeenCalledTimes(1);
    const file = download.mock.calls[0]![0];
    expect(file.name).toBe('teaching-sample.model-view.step-20.json');
    // At step 20 the surface is the question, the answer calling read_file and its result.
    expect(JSON.parse(file.text)).toHaveLength(3);
    expect(store.getState().exporting).toBeNull();
  });

  it('reports a failed export', async () => {
    const download = vi.fn();
    const { store, client } = await engineStoreWith('teaching.jsonl', {}, { download });
    client.crash('gone');
    await store.getState().exportFile('surface');
    expect(store.getState().exportError).toMatch(/^Export failed: /);
    expect(download).not.toHaveBeenCalled();
  });
});

describe('playground slice', () => {
  it('starts a sandbox whose only session is the playground, from the cursor of the log', async () => {
    const { store, client } = await engineStoreWith();
    const logSession = selectSessionId(store.getState());
    store.getState().goTo(10);
    await store.getState().startPlayground('cursor');
    expect(client.callsTo('playgroundStart').at(-1)?.args).toEqual([{ session: logSession, step: 10 }]);
    const sandbox = store.getState().sandbox!;
    expect(store.getState().view).toBe('playground');
    const sb = sandbox.getState();
    expect(sb.status).toBe('ready');
    expect(sb.load?.sessions).toHaveLength(1);
    expect(sb.load?.sessions[0]).toMatchObject({ index: 0, events: 10, path: 'playground' });
    expect(sb.step).toBe(10);
    const handle = sb.playground!.session;
    expect(handle).not.toBe(logSession);
    // Its one session is the playground's, by the handle the engine gave it: nothing is remapped.
    expect(sb.load?.sessions[0]?.id).toBe(handle);
    const window = await sb.client.surface({ session: selectSessionId(sb), step: 10, start: 0, count: 50 });
    expect(client.callsTo('surface').at(-1)?.args[0]).toMatchObject({ session: handle });
    expect(window.nodes.map((n) => n.seq)).toEqual([2, 9]);
    // The main store keeps its log and cursor.
    expect(store.getState()).toMatchObject({ step: 10, session: 0 });
    expect(selectSessionId(store.getState())).toBe(logSession);
  });

  it('appends accepted candidates, keeps everything on a refusal, undoes, redoes and exports', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const { store } = makeEngineStore({}, { download });
    await store.getState().startPlayground('empty');
    const sandbox = store.getState().sandbox!;
    const sb = () => sandbox.getState();
    const ok = await sb().offer({ kind: 'user', text: 'hello' });
    expect(ok).toMatchObject({ ok: true, seq: 0 });
    expect(sb()).toMatchObject({ step: 1, selectedSeq: 0, lastAccepted: 0, refusal: null });
    const before = { load: sb().load, step: sb().step, selectedSeq: sb().selectedSeq, key: selectSessionKey(sb()) };
    const refused = await sb().offer({
      kind: 'raw',
      json: '{"type":"user/message","data":{},"surfaceOp":{"op":"replace","start":99,"end":99}}',
    });
    expect(refused).toMatchObject({ ok: false });
    expect(sb().refusal).toEqual({ message: 'surface replace: start seq 99 not found in surface', rule: 'surface/replace-range' });
    expect({ load: sb().load, step: sb().step, selectedSeq: sb().selectedSeq, key: selectSessionKey(sb()) }).toEqual(before);
    expect(sb().load).toBe(before.load);
    expect(sb().playground).toMatchObject({ nextSeq: 1, canUndo: true, canRedo: false });
    await sb().undo();
    expect(sb()).toMatchObject({ step: 0, refusal: null });
    expect(sb().playground?.canRedo).toBe(true);
    await sb().redo();
    expect(sb().step).toBe(1);
    await sb().exportPlayground();
    expect(download.mock.calls[0]![0].name).toBe('playground.session.jsonl');
    expect(download.mock.calls[0]![0].text.trim().split('\n')).toHaveLength(2);
  });

  it('reports a failure to start', async () => {
    const { store, client } = makeEngineStore();
    client.crash('down');
    await store.getState().startPlayground('empty');
    expect(store.getState().playgroundError).toMatch(/^Could not start the playground: /);
    expect(store.getState().sandbox).toBeNull();
  });
});
