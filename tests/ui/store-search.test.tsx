/**
 * "Search all sessions" in the Sessions view of `surface-lens view`: the query goes to the
 * server, results are grouped by session in the region "Search results" (title, seq, type,
 * snippet with the match marked as text), a click opens that session at that event, a refused
 * query is shown where it is wrong, and the index's progress is said. The server's answers are
 * given here (its real index and matching are tested in tests/server/search.test.ts); the
 * session opened is the real teaching session in the real engine.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { teachingSession } from '../../src/core/gen/script';
import type { StoreListing, StoreSearchAnswer, StoreSessionRow } from '../../src/protocol/store-api';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import type { FetchedBody } from '../../src/store/deps';
import { App } from '../../src/ui/App';
import { createEngine } from '../../src/worker/engine';
import { FakeLocation, FakeScheduler } from '../store/helpers';
import { renderWith } from './harness';
import { storeRow } from '../support/store-rows';

const NOW = Date.now();
const SOON = { timeout: 5000 };

const row = (id: string, modifiedAt: number): StoreSessionRow => storeRow(id, { createdAt: NOW - 3_600_000, modifiedAt });

const LISTING: StoreListing = { roots: ['/home/dev/.dsh/sessions'], skipped: [], sessions: [row('a1', NOW - 1000), row('b1', NOW - 9000)] };
const TITLES: Record<string, string> = { a1: 'Why the sky is blue', b1: 'Other work' };

function answerFor(q: string): StoreSearchAnswer {
  const index = { ready: q !== 'slow', indexed: q === 'slow' ? 1 : 2, total: 2 };
  if (q.includes('is:broken'))
    return {
      error: { message: 'is: does not know "broken"', start: 7, end: 13 },
      sessions: [],
      scanned: 0,
      candidates: 0,
      more: false,
      index,
    };
  return {
    error: null,
    scanned: 2,
    candidates: 2,
    more: false,
    index,
    sessions: [
      {
        id: 'a1',
        path: 'session.jsonl',
        sessionId: 'session-a1',
        total: 3,
        matches: [
          { seq: 28, type: 'user/message', snippet: 'And why are <b>sunsets</b> red?', marks: [[15, 22]] },
          { seq: 42, type: 'compaction/summary', snippet: 'why sunsets are red', marks: [[4, 11]] },
        ],
      },
      {
        id: 'b1',
        path: 'session.jsonl',
        sessionId: 'session-b1',
        total: 1,
        matches: [{ seq: 3, type: 'user/message', snippet: 'sunsets', marks: [[0, 7]] }],
      },
    ],
  };
}

function fakeServer() {
  const text = teachingSession().toJsonl();
  const requests: string[] = [];
  const body = (status: number, value: string): FetchedBody => ({
    ok: status === 200,
    status,
    statusText: '',
    arrayBuffer: async () => {
      const bytes = new TextEncoder().encode(value);
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    },
  });
  const fetch = async (url: string): Promise<FetchedBody> => {
    requests.push(url);
    const parsed = new URL(url, 'http://127.0.0.1:7380');
    if (parsed.pathname === '/api/store') return body(200, JSON.stringify(LISTING));
    if (parsed.pathname === '/api/store/details') {
      const ids = (parsed.searchParams.get('ids') ?? '').split(',');
      return body(200, JSON.stringify(ids.map((id) => ({ id, title: TITLES[id] ?? null, titleFrom: 'title', events: 54 }))));
    }
    if (parsed.pathname === '/api/store/search') return body(200, JSON.stringify(answerFor(parsed.searchParams.get('q') ?? '')));
    if (/^\/api\/store\/session\/[^/]+\/file\//.test(parsed.pathname)) return body(200, text);
    return body(404, '{"error":"No such API."}');
  };
  return { fetch, requests, subscribe: () => () => {} };
}

async function renderStore() {
  const server = fakeServer();
  const scheduler = new FakeScheduler();
  const location = new FakeLocation('');
  const client = new InProcessCoreClient(createEngine({ fetch: server.fetch }));
  const store = createAppStore(client, { storage: memoryStorage(), scheduler, location, fetch: server.fetch, subscribe: server.subscribe });
  const view = renderWith(<App />, { store, client: null as never, scheduler, location });
  await act(async () => {
    await store.getState().initStore();
  });
  await waitFor(() => expect(screen.getByText('Why the sky is blue')).toBeTruthy(), SOON);
  return { ...view, server, store };
}

const box = () => screen.getByRole('searchbox', { name: 'Search all sessions' });
const submit = (text: string) => {
  fireEvent.change(box(), { target: { value: text } });
  fireEvent.submit(box().closest('form') as HTMLFormElement);
};

describe('Search all sessions', () => {
  it('groups results by session and opens a session at the event clicked', async () => {
    const { store, server } = await renderStore();
    submit('sunsets');
    const results = await screen.findByRole('region', { name: 'Search results' }, SOON);
    expect(server.requests).toContain('/api/store/search?q=sunsets');
    const groups = within(results).getAllByRole('heading');
    expect(groups.map((h) => h.textContent)).toEqual(['Why the sky is blue · 3 matches', 'Other work · 1 match']);
    const first = within(results).getAllByRole('button')[0] as HTMLElement;
    expect(first.textContent).toBe('28user/messageAnd why are <b>sunsets</b> red?');
    // Text, not HTML: the snippet's markup is shown, and only the match is marked.
    expect(first.querySelector('b')).toBeNull();
    expect([...first.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['sunsets']);
    expect(within(results).getByText('… 1 more in this session')).toBeTruthy();
    expect(screen.getByText('2 sessions with matches · index ready (2 sessions)')).toBeTruthy();
    fireEvent.click(within(results).getAllByRole('button')[1] as HTMLElement);
    await waitFor(() => expect(store.getState().storeOpenId).toBe('a1'), SOON);
    await waitFor(() => expect(store.getState().selectedSeq).toBe(42), SOON);
    expect(store.getState().step).toBe(43);
  });

  it('says what is wrong with a query, and how far the index is', async () => {
    await renderStore();
    submit('sunset is:broken');
    const alert = await screen.findByRole('alert', {}, SOON);
    expect(alert.textContent).toContain('column 8: is: does not know "broken"');
    expect(alert.querySelector('mark')?.textContent).toBe('is:bro');
    expect(screen.queryByRole('region', { name: 'Search results' })).toBeNull();
    submit('slow');
    await waitFor(
      () => expect(screen.getByText('2 sessions with matches · indexing 1 of 2 sessions — the others were read whole')).toBeTruthy(),
      SOON,
    );
  });
});
