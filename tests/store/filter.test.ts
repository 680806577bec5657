import { describe, expect, it } from 'vitest';
import { loadedTestStore } from './helpers';

describe('filter and search', () => {
  it('toggles families: from "all" to one, add, remove back to all', async () => {
    const { store } = await loadedTestStore();
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
    const { store } = await loadedTestStore();
    const s = () => store.getState();
    s().setSearchText('summary');
    await s().findNext(1);
    expect(s().search).toMatchObject({ status: 'found', seq: 17, row: 17 });
    expect(s().selectedSeq).toBe(17);
    await s().findNext(1);
    expect(s().search.seq).toBe(18);
    await s().findNext(-1);
    expect(s().search.seq).toBe(17);
    await s().findNext(-1);
    expect(s().search).toMatchObject({ seq: 28, wrapped: true });
  });

  it('says when nothing matches', async () => {
    const { store } = await loadedTestStore();
    store.getState().setSearchText('zebra');
    await store.getState().findNext(1);
    expect(store.getState().search.status).toBe('not-found');
  });

  it('is latest-wins: typing fast sends at most one request in flight and one pending', async () => {
    const { store, client } = await loadedTestStore();
    client.hold();
    const results: Promise<void>[] = [];
    for (const text of ['s', 'su', 'sum', 'summ', 'summa']) {
      store.getState().setSearchText(text);
      results.push(store.getState().findNext(1));
    }
    await Promise.resolve();
    expect(client.callsTo('search')).toHaveLength(1);
    client.release();
    await new Promise((r) => setTimeout(r, 0));
    client.release();
    await Promise.all(results);
    const texts = client.callsTo('search').map((c) => (c.args[0] as { text: string }).text);
    expect(texts).toEqual(['s', 'summa']);
    expect(store.getState().search).toMatchObject({ text: 'summa', seq: 15, status: 'found' });
  });

  it('forgets the hit row when the filter changes (row numbers change)', async () => {
    const { store } = await loadedTestStore();
    store.getState().setSearchText('summary');
    await store.getState().findNext(1);
    store.getState().setSurfaceOnly(true);
    expect(store.getState().search.row).toBeNull();
    await store.getState().findNext(1);
    expect(store.getState().search).toMatchObject({ seq: 18, row: 5 });
  });
});
