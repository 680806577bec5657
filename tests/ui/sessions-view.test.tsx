import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { teachingSession } from '../../src/core/gen/script';
import type { StoreChange, StoreDetails, StoreListing, StoreSessionRow } from '../../src/protocol/store-api';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import type { FetchedBody } from '../../src/store/deps';
import { createEngine } from '../../src/worker/engine';
import { App } from '../../src/ui/App';
import { FakeLocation, FakeScheduler } from '../store/helpers';
import { renderWith } from './harness';
import { storeRow } from '../support/store-rows';

const NOW = Date.now();

function row(id: string, over: Partial<StoreSessionRow> = {}): StoreSessionRow {
  return storeRow(id, { createdAt: NOW - 3_600_000, modifiedAt: NOW - 60_000, ...over });
}

const LISTING: StoreListing = {
  roots: ['/home/dev/.dsh/sessions'],
  skipped: [{ where: '--home-dev-alpha--/never', reason: 'no session.jsonl.zstd or session.jsonl' }],
  sessions: [
    row('p1', { modifiedAt: NOW - 10_000 }),
    row('c1', { parentSession: 'session-p1', origin: 'subagent', delegationDepth: 1, seedLength: 12 }),
    row('g1', { parentSession: 'session-c1', origin: 'subagent', delegationDepth: 2, cwd: '/home/dev/alpha/sub' }),
    row('o1', { parentSession: 'session-gone', origin: 'subagent', delegationDepth: 1, modifiedAt: NOW - 5 * 86_400_000 }),
    row('b1', { cwd: '/home/dev/beta', projectDir: '--home-dev-beta--', modifiedAt: NOW - 7_200_000 }),
    row('d1', {
      sessionId: null,
      cwd: null,
      projectDir: '--home-dev-beta--',
      state: 'damaged',
      reason: 'corrupt session log: first line is not a session header',
    }),
  ],
};

const TITLES: Record<string, string> = {
  p1: 'Fix the parser',
  c1: 'Read the tests',
  g1: 'Grep the logs',
  o1: 'Left alone',
  b1: 'Beta work',
};

/**
 * The local server's API, in memory: listing, details, files (with `Range`, as the server
 * answers them); changes pushed by the test. A session file can grow (`grow`).
 */
function fakeServer() {
  const lines = teachingSession().toJsonl().trimEnd().split('\n');
  /** The file as it is now: the first 40 lines until the test grows it. */
  let file = new TextEncoder().encode(`${lines.slice(0, 40).join('\n')}\n`);
  const requests: string[] = [];
  /** Range headers of the file requests, in order (`-` for none). */
  const ranges: string[] = [];
  let push: ((data: string) => void) | null = null;
  const body = (
    status: number,
    value: string | Uint8Array,
    headers: Record<string, string> = {},
  ): FetchedBody & { headers: { get(name: string): string | null } } => ({
    ok: status >= 200 && status < 300,
    status,
    statusText: '',
    headers: { get: (name: string) => headers[name.toLowerCase()] ?? null },
    arrayBuffer: async () => {
      const bytes = typeof value === 'string' ? new TextEncoder().encode(value) : value;
      return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
    },
  });
  const fetch = async (url: string, init?: { headers?: Record<string, string> }): Promise<FetchedBody> => {
    requests.push(url);
    const parsed = new URL(url, 'http://127.0.0.1:7380');
    if (parsed.pathname === '/api/store') return body(200, JSON.stringify(LISTING));
    if (parsed.pathname === '/api/store/details') {
      const ids = (parsed.searchParams.get('ids') ?? '').split(',');
      const details: StoreDetails[] = ids.map((id) => ({
        id,
        title: TITLES[id] ?? null,
        titleFrom: TITLES[id] ? 'title' : null,
        events: 54,
      }));
      return body(200, JSON.stringify(details));
    }
    if (/^\/api\/store\/session\/[^/]+\/file\//.test(parsed.pathname)) {
      const range = init?.headers?.Range ?? null;
      ranges.push(range ?? '-');
      const match = range === null ? null : /^bytes=(\d+)-(\d*)$/.exec(range);
      if (!match) return body(200, file);
      const from = Number(match[1]);
      const to = match[2] === '' ? file.length - 1 : Math.min(file.length - 1, Number(match[2]));
      if (from >= file.length) return body(416, '', { 'content-range': `bytes */${file.length}` });
      return body(206, file.subarray(from, to + 1), { 'content-range': `bytes ${from}-${to}/${file.length}` });
    }
    return body(404, '{"error":"No such API."}');
  };
  return {
    fetch,
    requests,
    ranges,
    /** dsh appends the rest of the session's lines. */
    grow: () => {
      file = new TextEncoder().encode(`${lines.join('\n')}\n`);
    },
    initialBytes: () => new TextEncoder().encode(`${lines.slice(0, 40).join('\n')}\n`).length,
    subscribe: (_url: string, onMessage: (data: string) => void) => {
      push = onMessage;
      return () => {
        push = null;
      };
    },
    push: (change: StoreChange) => act(() => push?.(JSON.stringify(change))),
  };
}

async function renderStore(hash = '') {
  const server = fakeServer();
  const scheduler = new FakeScheduler();
  const location = new FakeLocation(hash);
  const client = new InProcessCoreClient(createEngine({ fetch: server.fetch }));
  const store = createAppStore(client, { storage: memoryStorage(), scheduler, location, fetch: server.fetch, subscribe: server.subscribe });
  const view = renderWith(<App />, { store, client: null as never, scheduler, location });
  await act(async () => {
    await store.getState().initStore();
  });
  if (hash === '') await waitFor(() => expect(screen.getByText('Fix the parser')).toBeTruthy());
  return { ...view, server, store, location, scheduler };
}

const levels = () =>
  screen
    .getAllByRole('treeitem')
    .map((item) => `${item.getAttribute('aria-level')} ${item.querySelector('.sv-title, .sv-project')?.textContent}`);

describe('Sessions view', () => {
  it('shows the store as a tree: project, session, subagents at any depth; orphans and damage with the reason', async () => {
    await renderStore();
    expect(screen.getByRole('tree', { name: 'Sessions by project' })).toBeTruthy();
    expect(levels()).toEqual([
      '1 /home/dev/alpha',
      '2 Fix the parser',
      '3 Read the tests',
      '4 Grep the logs',
      '2 Left alone',
      '1 /home/dev/beta',
      '2 session.jsonl',
      '2 Beta work',
    ]);
    expect(screen.getByText('6 sessions · most recent first')).toBeTruthy();
    expect(screen.getByText('parent session-gone is not in this store')).toBeTruthy();
    expect(screen.getByText("first 12 events are the parent's (seed)")).toBeTruthy();
    const damaged = screen.getAllByRole('treeitem').find((item) => item.getAttribute('data-state') === 'damaged') as HTMLElement;
    expect(within(damaged).getByText('corrupt session log: first line is not a session header')).toBeTruthy();
    expect(screen.getByText('1 entry skipped')).toBeTruthy();
    // Relative times, absolute on hover.
    // Modified 10 s before this file loaded; a loaded machine may take a few seconds to get here.
    const modified = within(screen.getAllByRole('treeitem')[1] as HTMLElement).getByText(/^\d+ s ago$/);
    const seconds = Number(/^(\d+)/.exec(modified.textContent ?? '')?.[1]);
    expect(seconds).toBeGreaterThanOrEqual(10);
    expect(seconds).toBeLessThanOrEqual(10 + Math.ceil((Date.now() - NOW) / 1000));
    expect(modified.getAttribute('title')).toMatch(/^modified /);
  });

  it('filters by title, keeping the ancestors, and counts the sessions in view', async () => {
    await renderStore();
    fireEvent.change(screen.getByLabelText('Filter sessions'), { target: { value: 'grep' } });
    expect(levels()).toEqual(['1 /home/dev/alpha', '2 Fix the parser', '3 Read the tests', '4 Grep the logs']);
    expect(screen.getByText('1 of 6 sessions · most recent first')).toBeTruthy();
    fireEvent.change(screen.getByLabelText('Filter sessions'), { target: { value: 'damaged' } });
    expect(levels()).toEqual(['1 /home/dev/beta', '2 session.jsonl']);
  });

  it('moves with the keyboard, collapses and expands, and opens with Enter; the URL carries the session', async () => {
    const { store, location, scheduler } = await renderStore();
    const tree = screen.getByRole('tree');
    const selected = () => screen.getAllByRole('treeitem').findIndex((item) => item.getAttribute('aria-selected') === 'true');
    expect(selected()).toBe(0);
    fireEvent.keyDown(tree, { key: 'ArrowLeft' });
    expect(screen.getAllByRole('treeitem')[0]?.getAttribute('aria-expanded')).toBe('false');
    expect(levels()).toEqual(['1 /home/dev/alpha', '1 /home/dev/beta', '2 session.jsonl', '2 Beta work']);
    fireEvent.keyDown(tree, { key: 'ArrowRight' });
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    expect(selected()).toBe(2);
    fireEvent.keyDown(tree, { key: 'ArrowLeft' }); // expanded: collapses
    expect(screen.getAllByRole('treeitem')[2]?.getAttribute('aria-expanded')).toBe('false');
    expect(levels()).not.toContain('4 Grep the logs');
    fireEvent.keyDown(tree, { key: 'ArrowLeft' }); // collapsed: to its parent
    expect(selected()).toBe(1);
    fireEvent.keyDown(tree, { key: 'End' });
    expect(selected()).toBe(6);
    fireEvent.keyDown(tree, { key: 'Home' });
    fireEvent.keyDown(tree, { key: 'ArrowDown' });
    fireEvent.keyDown(tree, { key: 'Enter' });
    await waitFor(() => expect(store.getState().status).toBe('ready'), { timeout: 10_000 });
    expect(store.getState().storeOpenId).toBe('p1');
    expect(screen.queryByRole('tree')).toBeNull();
    act(() => store.getState().goTo(7));
    act(() => scheduler.advance(300));
    expect(location.hash).toMatch(/^#session=p1&step=7&/);
  });

  it('going back to the list keeps the open session and its step', async () => {
    const { store } = await renderStore();
    fireEvent.click(screen.getByText('Read the tests'));
    await waitFor(() => expect(store.getState().status).toBe('ready'), { timeout: 10_000 });
    act(() => store.getState().goTo(9));
    fireEvent.click(screen.getByRole('button', { name: '← Sessions' }));
    expect(screen.getByRole('tree')).toBeTruthy();
    const openRow = screen.getAllByRole('treeitem').find((item) => item.getAttribute('aria-current') === 'true');
    expect(openRow?.textContent).toContain('Read the tests');
    fireEvent.click(screen.getByRole('button', { name: 'Back to the session' }));
    expect(store.getState().step).toBe(9);
    expect(store.getState().storeOpenId).toBe('c1');
    // The child links back to its parent.
    expect(within(screen.getByRole('navigation', { name: 'Store session' })).getByRole('button', { name: 'Fix the parser' })).toBeTruthy();
  });

  it('a reload with #session=…&step=…&seq=… reopens the session at that place', async () => {
    const { store } = await renderStore('#session=b1&step=12&seq=10');
    await waitFor(() => expect(store.getState().status).toBe('ready'), { timeout: 10_000 });
    expect(store.getState().storeOpenId).toBe('b1');
    expect(store.getState().step).toBe(12);
    expect(store.getState().selectedSeq).toBe(10);
  });

  it('live: a new session appears, a removed one goes, the open one follows its growth by the new bytes only', async () => {
    const { store, server, scheduler } = await renderStore();
    TITLES.n1 = 'Brand new';
    server.push({ kind: 'appeared', id: 'n1', row: row('n1', { modifiedAt: NOW, state: 'live' }) });
    await waitFor(() => expect(levels()).toContain('2 Brand new'));
    // Its title was asked once, not again by the view.
    expect(server.requests.filter((url) => url.includes('/api/store/details') && url.includes('n1'))).toHaveLength(1);
    expect(
      screen
        .getAllByRole('treeitem')
        .find((item) => item.textContent?.includes('Brand new'))
        ?.getAttribute('data-state'),
    ).toBe('live');
    server.push({ kind: 'removed', id: 'o1' });
    expect(levels()).not.toContain('2 Left alone');
    fireEvent.click(screen.getByText('Beta work'));
    await waitFor(() => expect(store.getState().status).toBe('ready'), { timeout: 10_000 });
    // Followed from the start, through the engine's grow.
    await waitFor(() => expect(store.getState().live?.active).toBe(true));
    const handle = store.getState().load?.sessions[0]?.id;
    expect(store.getState().load?.sessions[0]?.events).toBe(39);
    act(() => store.getState().goTo(5));
    await waitFor(() => expect(server.ranges.length).toBeGreaterThan(1));
    const looked = server.ranges.length;
    server.grow();
    // The server's word that it grew: the next look comes at once, not at its time.
    server.push({ kind: 'grew', id: 'b1', row: row('b1', { cwd: '/home/dev/beta', size: 5000 }) });
    await waitFor(() => expect(store.getState().load?.sessions[0]?.events).toBe(54));
    expect(scheduler.now).toBe(0);
    // Only the bytes past what was held were asked (and the first bytes, to tell a rewrite); the
    // file was fetched whole once, by the open.
    expect(server.ranges.slice(looked)).toContain(`bytes=${server.initialBytes()}-`);
    expect(server.ranges.filter((range) => range === '-')).toHaveLength(1);
    expect(store.getState().step).toBe(5);
    expect(store.getState().storeFollowNote).toBe('The open session grew: 15 new events, only the new bytes read.');
    expect(screen.getByRole('navigation', { name: 'Store session' }).textContent).toContain('15 new events');
    // Still the same session of the store, at the same place (the engine may keep or renew its handle).
    expect(store.getState().storeOpenId).toBe('b1');
    expect(typeof handle).toBe('number');
  });
});
