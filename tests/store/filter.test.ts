import { describe, expect, it } from 'vitest';
import { selectSessionId } from '../../src/store/selectors';
import { engineStoreWith } from './helpers';

// In the teaching sample "summar" is in the compaction summary (seq 42, log-only) and in the
// checkpoint that replaces the conversation with it (seq 43, the 8th of its 9 surface events).

describe('filter and search', () => {
  it('toggles families: from "all" to one, add, remove back to all', async () => {
    const { store } = await engineStoreWith();
    const s = () => store.getState();
    s().toggleFamily('user');
    expect(s().filter.families).toEqual(['user']);
    s().toggleFamily('tool');
    expect(s().filter.families).toEqual(['user', 'tool']);
    s().toggleFamily('user');
    s().toggleFamily('tool');
    expect(s().filter.families).toEqual([]);
    s().setSurfaceOnly(true);
    expect(s().filter).toEqual({ families: [], surfaceOnly: true });
  });

  it('finds next and previous in the engine, wraps, and selects the hit', async () => {
    const { store } = await engineStoreWith();
    const s = () => store.getState();
    s().setSearchText('summar');
    await s().findNext(1);
    expect(s().search).toMatchObject({ status: 'found', seq: 42, row: 42, total: 2, wrapped: false });
    expect(s().selectedSeq).toBe(42);
    await s().findNext(1);
    expect(s().search.seq).toBe(43);
    await s().findNext(-1);
    expect(s().search.seq).toBe(42);
    await s().findNext(-1);
    expect(s().search).toMatchObject({ seq: 43, wrapped: true });
  });

  it('says when nothing matches', async () => {
    const { store } = await engineStoreWith();
    store.getState().setSearchText('zebra');
    await store.getState().findNext(1);
    expect(store.getState().search.status).toBe('not-found');
  });

  it('is latest-wins: each search is sent at once (the engine stops older ones), only the newest answer counts', async () => {
    const { store, client } = await engineStoreWith();
    client.hold();
    const results: Promise<void>[] = [];
    for (const text of ['s', 'su', 'sum', 'summ', 'summa']) {
      store.getState().setSearchText(text);
      results.push(store.getState().findNext(1));
    }
    await Promise.resolve();
    const texts = client.callsTo('search').map((c) => (c.args[0] as { text: string }).text);
    expect(texts).toEqual(['s', 'su', 'sum', 'summ', 'summa']);
    client.release();
    await Promise.all(results);
    expect(store.getState().search).toMatchObject({ text: 'summa', seq: 42, status: 'found' });
  });

  it('ignores an older search that answers after the newest one', async () => {
    const { store, client } = await engineStoreWith();
    store.getState().setSearchText('summar');
    client.hold();
    const older = store.getState().findNext(1);
    const letOlderAnswer = client.detachHeld();
    await store.getState().findNext(-1);
    letOlderAnswer();
    await older;
    expect(store.getState().search.status).toBe('found');
    // The state is the newer (backward) search's answer, whatever order the answers came in.
    const backward = await client.search({
      session: selectSessionId(store.getState()),
      text: 'summar',
      filter: store.getState().filter,
      fromRow: -1,
      direction: -1,
      step: 0,
    });
    expect(store.getState().search.seq).toBe(backward.seq);
  });

  it('forgets the hit row when the filter changes (row numbers change)', async () => {
    const { store } = await engineStoreWith();
    store.getState().setSearchText('summar');
    await store.getState().findNext(1);
    store.getState().setSurfaceOnly(true);
    expect(store.getState().search.row).toBeNull();
    await store.getState().findNext(1);
    expect(store.getState().search).toMatchObject({ seq: 43, row: 7 });
  });
});
