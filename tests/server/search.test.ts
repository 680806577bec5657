/**
 * Store-wide search of the view server: the query language over every session, the index kept
 * in the cache directory (reused on restart, rebuilt when missing), a session that grows after
 * indexing, and the scan fallback before the index is ready.
 */
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { StoreSearchAnswer } from '../../src/protocol/store-api';
import { SessionStore } from '../../src/server/listing';
import { StoreSearch } from '../../src/server/search';
import { startViewServer } from '../../src/server/server';
import { nodeFs } from '../../src/server/store-fs';
import { writeStore } from '../support/store-builder';
import { fakeApp, http, tempDir, treeSpecs, until } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function setup() {
  const store = tempDir();
  const cache = tempDir('sl-cache-');
  const app = fakeApp();
  cleanups.push(store.remove, cache.remove, app.remove);
  const paths = await writeStore(store.dir, treeSpecs('jsonl'));
  const serve = async () => {
    const server = await startViewServer({
      paths: [store.dir],
      appDir: app.dir,
      defaultPort: 0,
      pollMs: 100,
      cacheDir: cache.dir,
      noWatcher: true,
    });
    cleanups.push(() => server.close());
    const ask = async (q: string): Promise<StoreSearchAnswer> => {
      const r = await http(server.port, `/api/store/search?q=${encodeURIComponent(q)}`, { 'x-surface-lens-token': server.token });
      expect(r.status).toBe(200);
      return JSON.parse(r.body.toString('utf8')) as StoreSearchAnswer;
    };
    return { server, ask };
  };
  return { store: store.dir, cache: cache.dir, paths, serve };
}

const ids = (a: StoreSearchAnswer): (string | null)[] => a.sessions.map((s) => s.sessionId).sort();

describe('store-wide search', () => {
  it('searches every session with the query language and keeps its index outside the store', async () => {
    const { cache, serve, paths } = await setup();
    const { server, ask } = await serve();
    await server.search.settled();
    expect(server.search.progress()).toEqual({ ready: true, indexed: 4, total: 4 });
    const titles = await ask('type:session/title');
    expect(ids(titles)).toEqual(['child-1', 'grandchild-1', 'other-1', 'parent-1']);
    // Every session holds a turn/start at seq 0..; matches are listed with seq, type and snippet.
    const first = titles.sessions[0];
    expect(first?.matches[0]).toMatchObject({ type: 'session/title' });
    expect(first?.total).toBe(first?.matches.length);
    // Field terms narrow by the index too: a type, tool or flag no session has reads nothing.
    for (const q of ['type:no/such-type', 'tool:no_such_tool', 'type:session/title zanzibarite']) {
      const none = await ask(q);
      expect([none.candidates, none.scanned, none.sessions.length]).toEqual([0, 0, 0]);
    }
    expect((await ask('type:compaction/')).candidates).toBeLessThanOrEqual(4);
    // Narrowed by the index or read whole, whole words and fields give the same sessions.
    const scanner = new StoreSearch({ store: server.store, fs: nodeFs, cacheDir: null, pause: () => new Promise(() => {}) });
    void scanner.start();
    await until(() => scanner.progress().indexed >= 1 || null, 8000, 'the scanner to start');
    for (const q of ['parser', 'file_path', 'type:tool/call', 'tool:read', 'is:error', 'is:compaction -parser']) {
      const [indexed, read] = [await ask(q), await scanner.search(q)];
      expect(indexed.candidates, q).toBeLessThanOrEqual(read.candidates);
      expect(indexed.sessions.map((x) => [x.sessionId, x.total]).sort(), q).toEqual(
        read.sessions.map((x) => [x.sessionId, x.total]).sort(),
      );
    }
    // A refused query says what and where, and reads nothing.
    const bad = await ask('tool:"open');
    expect(bad.error).toMatchObject({ start: 5 });
    expect(bad.scanned).toBe(0);
    // The index lives in the cache directory, not next to the sessions.
    expect(existsSync(join(cache, 'search-index-v1.json'))).toBe(true);
    for (const p of paths) expect(existsSync(`${p}.index`)).toBe(false);
  });

  it('finds a session that grows after indexing, and narrows by the index', async () => {
    const { serve, paths } = await setup();
    const { server, ask } = await serve();
    await server.search.settled();
    expect((await ask('zanzibarite')).sessions).toEqual([]);
    const grown = paths.find((p) => p.includes('other-1')) ?? '';
    const lines = readFileSync(grown, 'utf8').trimEnd().split('\n');
    const last = JSON.parse(lines[lines.length - 1] as string) as { seq: number; time: number };
    appendFileSync(
      grown,
      `${JSON.stringify({ type: 'feedback/record', seq: last.seq + 1, time: last.time + 1, data: { text: 'a zanzibarite crystal' } })}\n`,
    );
    let answer = await ask('zanzibarite');
    for (const start = Date.now(); answer.sessions.length === 0 && Date.now() - start < 8000;) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      answer = await ask('zanzibarite');
    }
    expect(answer.sessions.map((s) => [s.sessionId, s.matches.map((m) => [m.seq, m.type])])).toEqual([
      ['other-1', [[last.seq + 1, 'feedback/record']]],
    ]);
    const [match] = answer.sessions[0]?.matches ?? [];
    expect(match && match.snippet.slice(...(match.marks[0] as [number, number]))).toBe('zanzibarite');
    await server.search.settled();
    // Indexed again: only that session is read for the word now.
    const narrowed = await ask('zanzibarite');
    expect(narrowed.candidates).toBe(1);
    expect(narrowed.scanned).toBe(1);
  });

  it('reuses the kept index on the next start, and rebuilds it when it is missing', async () => {
    const { cache, serve } = await setup();
    const one = await serve();
    await one.server.search.settled();
    await one.server.close();
    const two = await serve();
    await two.server.search.start();
    // Loaded from the cache: ready before any session is read again.
    expect(two.server.search.progress()).toMatchObject({ indexed: 4, total: 4 });
    await two.server.close();
    rmSync(join(cache, 'search-index-v1.json'));
    const three = await serve();
    await three.server.search.settled();
    expect(existsSync(join(cache, 'search-index-v1.json'))).toBe(true);
    expect(ids(await three.ask('type:turn/start'))).toEqual(['child-1', 'grandchild-1', 'other-1', 'parent-1']);
  });

  it('scans every session until the index is ready, saying how far it is', async () => {
    const t = tempDir();
    cleanups.push(t.remove);
    await writeStore(t.dir, treeSpecs('jsonl'));
    const store = new SessionStore({ fs: nodeFs, paths: [t.dir] });
    await store.refresh();
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const search = new StoreSearch({ store, fs: nodeFs, cacheDir: null, pause: () => gate });
    await search.start();
    await until(() => search.progress().indexed >= 1, 8000, 'one session indexed');
    const early = await search.search('type:session/title');
    expect(early.index).toMatchObject({ ready: false, indexed: 1, total: 4 });
    expect(early.scanned).toBe(4);
    expect(early.sessions).toHaveLength(4);
    release();
    await search.settled();
    expect(search.progress()).toEqual({ ready: true, indexed: 4, total: 4 });
  });
});
