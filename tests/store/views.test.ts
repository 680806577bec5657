/** The store slices of the views and replace inspector, demos, exports and the playground. */
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import { selectDemoNoteIndex, selectHasNextNote, selectHasPreviousNote, selectSessionId, selectSessionKey } from '../../src/store/selectors';
import { FAKE_PLAYGROUND } from '../support/fake-client';
import { loadedTestStore, makeTestStore } from './helpers';

describe('view slice', () => {
  it('switches the workspace view and opens/closes the replace inspector on a replacement', async () => {
    const { store } = await loadedTestStore();
    const s = () => store.getState();
    expect(s().view).toBe('timeline');
    s().setView('views');
    expect(s().view).toBe('views');
    s().openReplace(18);
    expect(s()).toMatchObject({ replaceTarget: 18, selectedSeq: 18 });
    s().openReplace(-1);
    expect(s().replaceTarget).toBe(18);
    s().closeReplace();
    expect(s().replaceTarget).toBeNull();
  });

  it('forgets the inspector target and leaves the playground when another log opens', async () => {
    const { store } = await loadedTestStore();
    store.getState().openReplace(24);
    await store.getState().startPlayground('empty');
    expect(store.getState().view).toBe('playground');
    await store.getState().openSource({ kind: 'text', name: 'other.jsonl', text: '{}' });
    expect(store.getState()).toMatchObject({ view: 'timeline', replaceTarget: null });
  });
});

describe('demo slice', () => {
  it('lists demos once, opens one at step 0 and follows the narration with the cursor', async () => {
    const { store, client } = makeTestStore();
    const s = () => store.getState();
    await Promise.all([s().loadDemos(), s().loadDemos()]);
    expect(client.callsTo('demos')).toHaveLength(1);
    expect(s().demos?.map((d) => d.id)).toEqual(['compaction', 'append-flow']);
    await s().openDemo('compaction');
    expect(client.callsTo('open').at(-1)?.args[0]).toEqual({ kind: 'demo', id: 'compaction' });
    expect(s()).toMatchObject({ status: 'ready', step: 0, sourceName: 'demo "compaction"' });
    expect(s().activeDemo?.id).toBe('compaction');
    expect(selectDemoNoteIndex(s())).toBe(0);
    expect(selectHasPreviousNote(s())).toBe(false);
    s().goTo(20);
    expect(selectDemoNoteIndex(s())).toBe(2); // note at step 19
    s().nextNote();
    expect(s().step).toBe(25);
    s().nextNote();
    expect(s().step).toBe(29);
    expect(selectHasNextNote(s())).toBe(false);
    s().nextNote();
    expect(s().step).toBe(29);
    s().goTo(27);
    s().previousNote(); // from the note at 25 to the one before it
    expect(s().step).toBe(19);
  });

  it('clears the demo when another log opens', async () => {
    const { store } = makeTestStore();
    await store.getState().openDemo('compaction');
    await store.getState().openSource({ kind: 'text', name: 'x.jsonl', text: '{}' });
    expect(store.getState().activeDemo).toBeNull();
  });
});

describe('export slice', () => {
  it('exports at the cursor and hands the file to the download dependency', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const { store, client } = await loadedTestStore({}, { download });
    store.getState().goTo(19);
    await store.getState().exportFile('model-view');
    expect(client.callsTo('exportText').at(-1)?.args).toEqual([0, 'model-view', 19]);
    expect(download).toHaveBeenCalledTimes(1);
    const file = download.mock.calls[0]![0];
    expect(file.name).toBe('fake-0.model-view.step-19.json');
    expect(JSON.parse(file.text)).toHaveLength(2);
    expect(store.getState().exporting).toBeNull();
  });

  it('reports a failed export', async () => {
    const download = vi.fn();
    const { store, client } = await loadedTestStore({}, { download });
    client.crash('gone');
    await store.getState().exportFile('surface');
    expect(store.getState().exportError).toMatch(/^Export failed: /);
    expect(download).not.toHaveBeenCalled();
  });
});

describe('playground slice', () => {
  it('starts a sandbox whose only session is the playground, from the cursor of the log', async () => {
    const { store, client } = await loadedTestStore();
    store.getState().goTo(10);
    await store.getState().startPlayground('cursor');
    expect(client.callsTo('playgroundStart').at(-1)?.args).toEqual([{ session: 0, step: 10 }]);
    const sandbox = store.getState().sandbox!;
    expect(store.getState().view).toBe('playground');
    const sb = sandbox.getState();
    expect(sb.status).toBe('ready');
    expect(sb.load?.sessions[0]).toMatchObject({ index: 0, events: 10, path: 'playground' });
    expect(sb.step).toBe(10);
    expect(sb.playground?.session).toBe(FAKE_PLAYGROUND);
    // Its one session is the playground's, by the handle the engine gave it: nothing is remapped.
    expect(sb.load?.sessions[0]?.id).toBe(FAKE_PLAYGROUND);
    await sb.client.surface({ session: selectSessionId(sb), step: 10, start: 0, count: 50 });
    expect(client.callsTo('surface').at(-1)?.args[0]).toBe(FAKE_PLAYGROUND);
    // The main store keeps its log and cursor.
    expect(store.getState()).toMatchObject({ step: 10, session: 0 });
  });

  it('appends accepted candidates, keeps everything on a refusal, undoes, redoes and exports', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const { store, client } = makeTestStore({}, { download });
    await store.getState().startPlayground('empty');
    const sandbox = store.getState().sandbox!;
    const sb = () => sandbox.getState();
    const ok = await sb().offer({ kind: 'user', text: 'hello' });
    expect(ok).toMatchObject({ ok: true, seq: 0 });
    expect(sb()).toMatchObject({ step: 1, selectedSeq: 0, lastAccepted: 0, refusal: null });
    const before = { load: sb().load, step: sb().step, selectedSeq: sb().selectedSeq, key: selectSessionKey(sb()) };
    const refused = await sb().offer({ kind: 'raw', json: '{"type":"user/message","data":{},"surfaceOp":{"op":"replace","start":99,"end":99}}' });
    expect(refused).toMatchObject({ ok: false });
    expect(sb().refusal).toEqual({ message: 'surface replace: start seq 99 not found in surface', rule: 'surface/replace-range' });
    expect({ load: sb().load, step: sb().step, selectedSeq: sb().selectedSeq, key: selectSessionKey(sb()) }).toEqual(before);
    expect(sb().load).toBe(before.load);
    expect(client.playgroundLog).toHaveLength(1);
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
    const { store, client } = makeTestStore();
    client.crash('down');
    await store.getState().startPlayground('empty');
    expect(store.getState().playgroundError).toMatch(/^Could not start the playground: /);
    expect(store.getState().sandbox).toBeNull();
  });
});
