import { describe, expect, it } from 'vitest';
import { selectStatusText } from '../../src/store/selectors';
import { FakeCoreClient } from '../support/fake-client';
import { makeTestStore } from './helpers';

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

describe('loading', () => {
  it('reports progress while loading, then the summary', async () => {
    const { store, client } = makeTestStore();
    client.hold();
    const done = store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: 'x'.repeat(100) });
    await Promise.resolve();
    expect(store.getState().status).toBe('loading');
    expect(store.getState().progress?.events).toBe(10);
    expect(selectStatusText(store.getState())).toBe('Loading a.jsonl…');
    client.release();
    await done;
    expect(store.getState().status).toBe('ready');
    expect(store.getState().progress).toBeNull();
    expect(store.getState().load?.file).toBe('a.jsonl');
  });

  it('hands a file to the engine unread (the engine streams it)', async () => {
    const { store, client } = makeTestStore();
    const file = new Blob(['{"type":"turn/start"}\n']);
    await store.getState().openSource({ kind: 'file', file, name: 'f.jsonl' });
    const request = client.callsTo('open')[0]?.args[0] as { kind: string; name: string; file: Blob };
    expect(request).toMatchObject({ kind: 'file', name: 'f.jsonl' });
    expect(request.file).toBe(file);
  });

  it('cancels the running load when a second file is opened; only the second one counts', async () => {
    const { store, client } = makeTestStore();
    client.hold();
    const first = store.getState().openSource({ kind: 'text', name: 'first.jsonl', text: '1' });
    await Promise.resolve();
    client.release();
    const second = store.getState().openSource({ kind: 'text', name: 'second.jsonl', text: '2' });
    await Promise.all([first, second]);
    expect(client.callsTo('cancel')).toHaveLength(1);
    expect(store.getState().status).toBe('ready');
    expect(store.getState().load?.file).toBe('second.jsonl');
  });

  it('cancel stops the load and says so', async () => {
    const { store, client } = makeTestStore();
    client.hold();
    const done = store.getState().openSource({ kind: 'text', name: 'big.jsonl', text: '1' });
    await Promise.resolve();
    await store.getState().cancelLoad();
    client.release();
    await done;
    expect(store.getState().status).toBe('cancelled');
    expect(selectStatusText(store.getState())).toBe('Load cancelled.');
  });

  it('loads a bundled sample through the injected fetch, resolving its file from the manifest', async () => {
    const urls: string[] = [];
    const manifest = JSON.stringify([{ name: 'large', file: 'large.jsonl.zstd', title: 'Large', description: 'big' }]);
    const { store, client } = makeTestStore(
      {},
      {
        fetch: async (url) => {
          urls.push(url);
          return { ok: true, status: 200, statusText: 'OK', arrayBuffer: async () => bytes(url.endsWith('index.json') ? manifest : '{}\n') };
        },
      },
    );
    await store.getState().loadSampleIndex();
    expect(store.getState().samples.map((s) => s.file)).toEqual(['large.jsonl.zstd']);
    await store.getState().openSource({ kind: 'sample', name: 'large' });
    expect(urls).toEqual(['samples/index.json', 'samples/large.jsonl.zstd']);
    expect((client.callsTo('open')[0]?.args[0] as { name: string }).name).toBe('large.jsonl.zstd');
    expect(store.getState().status).toBe('ready');
  });

  it('falls back to the built-in sample list without a manifest', async () => {
    const urls: string[] = [];
    const { store } = makeTestStore(
      {},
      {
        fetch: async (url) => {
          urls.push(url);
          const ok = !url.endsWith('index.json');
          return { ok, status: ok ? 200 : 404, statusText: '', arrayBuffer: async () => bytes('{}\n') };
        },
      },
    );
    await store.getState().openSource({ kind: 'sample', name: 'teaching' });
    expect(urls).toEqual(['samples/index.json', 'samples/teaching.jsonl']);
    expect(store.getState().samples.map((s) => s.name)).toEqual(['teaching', 'nested', 'large']);
  });

  it('shows a clear message when a sample is missing, and refuses odd sample names', async () => {
    const { store } = makeTestStore(
      {},
      { fetch: async () => ({ ok: false, status: 404, statusText: 'Not Found', arrayBuffer: async () => bytes('') }) },
    );
    await store.getState().openSource({ kind: 'sample', name: 'nope' });
    expect(store.getState().status).toBe('error');
    expect(selectStatusText(store.getState())).toBe(
      'Could not open sample "nope": The sample "nope" is not available (HTTP 404 Not Found).',
    );
    await store.getState().openSource({ kind: 'sample', name: '../secret' });
    expect(store.getState().loadError).toBe('"../secret" is not a sample name.');
  });

  it('reports the death of the engine and reloads the file on a fresh client', async () => {
    const fresh = new FakeCoreClient();
    const { store, client } = makeTestStore({}, { createClient: () => fresh });
    await store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: '1' });
    client.crash();
    expect(store.getState().engineError).toMatch(/^The engine stopped: The engine worker crashed/);
    expect(selectStatusText(store.getState())).toMatch(/Reload the file to continue\.$/);
    await store.getState().reload();
    expect(store.getState().client).toBe(fresh);
    expect(store.getState().engineError).toBeNull();
    expect(store.getState().status).toBe('ready');
    expect(selectStatusText(store.getState())).toBe('Loaded 30 events.');
  });

  it('fails a load in progress when the engine dies', async () => {
    const { store, client } = makeTestStore();
    client.hold();
    const done = store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: '1' });
    await Promise.resolve();
    client.crash('boom');
    await done;
    expect(store.getState().status).toBe('error');
    expect(store.getState().engineError).toBe('The engine stopped: boom');
  });

  it('picks a session of a ZIP and resets the cursor to its end', async () => {
    const { store } = makeTestStore({ sessions: 3 });
    await store.getState().openSource({ kind: 'text', name: 'export.zip', text: '1' });
    expect(store.getState().load?.sessions).toHaveLength(3);
    store.getState().goTo(4);
    store.getState().selectSession(2);
    expect(store.getState().session).toBe(2);
    expect(store.getState().step).toBe(30);
    expect(store.getState().selectedSeq).toBeNull();
  });

  it('never keeps the log: no rows or events in the state', async () => {
    const { store } = makeTestStore();
    await store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: '1' });
    const json = JSON.stringify(store.getState(), (key, value: unknown) => (key === 'client' ? undefined : value));
    expect(json).not.toMatch(/list the files/);
    expect(json.length).toBeLessThan(4000);
  });
});
