import { describe, expect, it } from 'vitest';
import { selectStatusText } from '../../src/store/selectors';
import type { ProgressEvent } from '../../src/protocol/protocol';
import { TestEngine, fixtureBytes, fixtureText } from '../support/test-engine';
import { makeEngineStore } from './helpers';

const bytes = (text: string) => new TextEncoder().encode(text).buffer;
/** The teaching sample: 54 events, opened as pasted text. */
const teaching = fixtureText('teaching.jsonl');

describe('loading', () => {
  it('reports progress while loading, then the summary', async () => {
    const { store, client } = makeEngineStore();
    const seen: ProgressEvent[] = [];
    store.subscribe((state) => {
      if (state.progress && state.progress !== seen.at(-1)) seen.push(state.progress);
    });
    client.hold();
    const done = store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: teaching });
    await Promise.resolve();
    expect(store.getState().status).toBe('loading');
    expect(selectStatusText(store.getState())).toBe('Loading a.jsonl…');
    client.release();
    await done;
    // The engine reported how far it got while the load ran: every byte, all 54 events.
    expect(seen.at(-1)).toMatchObject({ bytes: teaching.length, totalBytes: teaching.length, events: 54 });
    expect(store.getState().status).toBe('ready');
    expect(store.getState().progress).toBeNull();
    expect(store.getState().load?.file).toBe('a.jsonl');
  });

  it('hands a file to the engine unread (the engine streams it)', async () => {
    const { store, client } = makeEngineStore();
    const file = new Blob([teaching]);
    await store.getState().openSource({ kind: 'file', file, name: 'f.jsonl' });
    const request = client.callsTo('open')[0]?.args[0] as { kind: string; name: string; file: Blob };
    expect(request).toMatchObject({ kind: 'file', name: 'f.jsonl' });
    expect(request.file).toBe(file);
  });

  it('cancels the running load when a second file is opened; only the second one counts', async () => {
    const { store, client } = makeEngineStore();
    client.hold();
    const first = store.getState().openSource({ kind: 'text', name: 'first.jsonl', text: teaching });
    await Promise.resolve();
    client.release();
    const second = store.getState().openSource({ kind: 'text', name: 'second.jsonl', text: fixtureText('nested.jsonl') });
    await Promise.all([first, second]);
    expect(client.callsTo('cancel')).toHaveLength(1);
    expect(store.getState().status).toBe('ready');
    expect(store.getState().load?.file).toBe('second.jsonl');
    expect(store.getState().load?.sessions[0]?.events).toBe(729);
  });

  it('cancel stops the load and says so', async () => {
    const { store, client } = makeEngineStore();
    client.hold();
    const done = store.getState().openSource({ kind: 'text', name: 'big.jsonl', text: teaching });
    await Promise.resolve();
    const cancelled = store.getState().cancelLoad();
    client.release();
    await Promise.all([cancelled, done]);
    expect(client.callsTo('cancel')).toHaveLength(1);
    expect(store.getState().status).toBe('cancelled');
    expect(selectStatusText(store.getState())).toBe('Load cancelled.');
  });

  it('loads a bundled sample through the injected fetch, resolving its file from the manifest', async () => {
    const urls: string[] = [];
    const manifest = JSON.stringify([{ name: 'large', file: 'large.jsonl.zstd', title: 'Large', description: 'big' }]);
    const { store, client } = makeEngineStore(
      {},
      {
        fetch: async (url) => {
          urls.push(url);
          return {
            ok: true,
            status: 200,
            statusText: 'OK',
            arrayBuffer: async () => bytes(url.endsWith('index.json') ? manifest : teaching),
          };
        },
      },
    );
    await store.getState().loadSampleIndex();
    expect(store.getState().samples.map((s) => s.file)).toEqual(['large.jsonl.zstd']);
    await store.getState().openSource({ kind: 'sample', name: 'large' });
    expect(urls).toEqual(['samples/index.json', 'samples/large.jsonl.zstd']);
    expect((client.callsTo('open')[0]?.args[0] as { name: string }).name).toBe('large.jsonl.zstd');
    expect(store.getState().status).toBe('ready');
    expect(store.getState().load?.sessions[0]?.events).toBe(54);
  });

  it('falls back to the built-in sample list without a manifest', async () => {
    const urls: string[] = [];
    const { store } = makeEngineStore(
      {},
      {
        fetch: async (url) => {
          urls.push(url);
          const ok = !url.endsWith('index.json');
          return { ok, status: ok ? 200 : 404, statusText: '', arrayBuffer: async () => bytes(teaching) };
        },
      },
    );
    await store.getState().openSource({ kind: 'sample', name: 'teaching' });
    expect(urls).toEqual(['samples/index.json', 'samples/teaching.jsonl']);
    expect(store.getState().samples.map((s) => s.name)).toEqual(['teaching', 'nested', 'large']);
  });

  it('shows a clear message when a sample is missing, and refuses odd sample names', async () => {
    const { store } = makeEngineStore(
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
    const fresh = new TestEngine();
    const { store, client } = makeEngineStore({}, { createClient: () => fresh });
    await store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: teaching });
    client.crash();
    expect(store.getState().engineError).toMatch(/^The engine stopped: The engine worker crashed/);
    expect(selectStatusText(store.getState())).toMatch(/Reload the file to continue\.$/);
    await store.getState().reload();
    expect(store.getState().client).toBe(fresh);
    expect(store.getState().engineError).toBeNull();
    expect(store.getState().status).toBe('ready');
    expect(selectStatusText(store.getState())).toBe('Loaded 54 events.');
    expect(fresh.callsTo('open')).toHaveLength(1);
  });

  it('fails a load in progress when the engine dies', async () => {
    const { store, client } = makeEngineStore();
    client.hold();
    const done = store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: teaching });
    await Promise.resolve();
    client.crash('boom');
    await done;
    expect(store.getState().status).toBe('error');
    expect(store.getState().engineError).toBe('The engine stopped: boom');
  });

  it('picks a session of a ZIP and resets the cursor to its end', async () => {
    // The export holds the root session and two subagents (905, 916 and 450 events).
    const zip = fixtureBytes('export.zip');
    const { store } = makeEngineStore();
    await store.getState().openSource({ kind: 'file', name: 'export.zip', file: new Blob([zip]) });
    expect(store.getState().load?.sessions).toHaveLength(3);
    expect(store.getState().step).toBe(905);
    store.getState().goTo(4);
    store.getState().selectSession(2);
    expect(store.getState().session).toBe(2);
    expect(store.getState().step).toBe(450);
    expect(store.getState().selectedSeq).toBeNull();
  });

  it('never keeps the log: no rows or events in the state', async () => {
    const { store } = makeEngineStore();
    await store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: teaching });
    const json = JSON.stringify(store.getState(), (key, value: unknown) => (key === 'client' ? undefined : value));
    expect(teaching).toContain('Why is the sky blue?');
    expect(json).not.toMatch(/sky/);
    expect(json.length).toBeLessThan(4000);
  });
});
