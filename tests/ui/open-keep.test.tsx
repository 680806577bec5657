/**
 * Opening another log while one is open (issue 9): the open log stays until the new one has
 * loaded, a failed or cancelled open leaves it usable and says why, the Open menu offers what
 * the start screen does, a URL is kept in the address bar, and each session of an export ZIP
 * keeps its own cursor. On the real engine.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { zipSync } from 'fflate';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { resolveDeps } from '../../src/store/deps';
import { App } from '../../src/ui/App';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderWith } from './harness';

const encoder = new TextEncoder();
const bytes = (text: string): ArrayBuffer => encoder.encode(text).buffer;

/** Samples served from the fixtures; `missing` answers 404. */
function sampleFetch() {
  return async (url: string) => {
    const name = url.slice(url.lastIndexOf('/') + 1);
    if (name === 'index.json') return { ok: false, status: 404, statusText: 'Not Found', arrayBuffer: async () => bytes('') };
    if (name.startsWith('missing')) return { ok: false, status: 404, statusText: 'Not Found', arrayBuffer: async () => bytes('') };
    return { ok: true, status: 200, statusText: 'OK', arrayBuffer: async () => bytes(fixtureText(name)) };
  };
}

/** A picked file as the engine reads it (jsdom's Blob has no `arrayBuffer`). */
function blobOf(data: Uint8Array): Blob {
  const buffer = data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength);
  return { size: data.byteLength, arrayBuffer: async () => buffer } as unknown as Blob;
}

async function openTeaching() {
  const test = makeEngineStore({}, { fetch: sampleFetch() });
  const rendered = renderWith(<App />, test);
  await act(() => test.store.getState().openSource({ kind: 'text', name: 'teaching.jsonl', text: fixtureText('teaching.jsonl') }));
  return rendered;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('opening another log while one is open', () => {
  it('keeps the open log on screen while the next one loads, then shows the next one', async () => {
    const { store, client } = await openTeaching();
    act(() => store.getState().goTo(10));
    const handle = store.getState().load?.sessions[0]?.id;
    client.hold();
    let opened!: Promise<void>;
    act(() => {
      opened = store.getState().openSource({ kind: 'text', name: 'nested.jsonl', text: fixtureText('nested.jsonl') });
    });
    // Still the teaching log, at its step, answering the engine under its own handle.
    expect(store.getState().status).toBe('loading');
    expect(store.getState().load?.file).toBe('teaching.jsonl');
    expect(store.getState().step).toBe(10);
    expect(document.querySelector('.appbar-file')?.textContent).toContain('teaching.jsonl');
    expect(screen.getByRole('progressbar', { name: 'Loading' })).toBeTruthy();
    client.release();
    await act(() => opened);
    expect(store.getState().load?.file).toBe('nested.jsonl');
    expect(store.getState().step).toBe(store.getState().load?.sessions[0]?.accepted);
    // The teaching log's handle is gone with it.
    await expect(
      client.engine.rows({ session: handle as number, step: 0, filter: { families: [], surfaceOnly: false }, start: 0, count: 1 }),
    ).rejects.toThrow(/no session/);
  });

  it('a failed open leaves the open log usable and says why', async () => {
    const { store } = await openTeaching();
    act(() => store.getState().goTo(7));
    await act(() => store.getState().openSource({ kind: 'sample', name: 'missing' }));
    const state = store.getState();
    expect(state.status).toBe('ready');
    expect(state.load?.file).toBe('teaching.jsonl');
    expect(state.step).toBe(7);
    const banner = screen.getByLabelText('Open failed');
    expect(banner.textContent).toContain(
      'Could not open sample "missing": The sample "missing" is not available (HTTP 404 Not Found). The log shown stays open.',
    );
    expect(screen.getByRole('status').textContent).toMatch(/^Could not open sample "missing": .*Loaded 54 events\.$/);
    // Still navigable: the engine answers about the teaching log.
    act(() => store.getState().goTo(3));
    const rows = await state.client.rows({
      session: state.load?.sessions[0]?.id as number,
      step: 3,
      filter: { families: [], surfaceOnly: false },
      start: 0,
      count: 5,
    });
    expect(rows.total).toBe(54);
    fireEvent.click(within(banner).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByLabelText('Open failed')).toBeNull();
  });

  it('a cancelled open leaves the open log shown, and Reload still means that log', async () => {
    const { store, client } = await openTeaching();
    client.hold();
    act(() => void store.getState().openSource({ kind: 'text', name: 'nested.jsonl', text: fixtureText('nested.jsonl') }));
    fireEvent.click(await screen.findByRole('button', { name: 'Cancel' }));
    client.release();
    await waitFor(() => expect(store.getState().status).toBe('ready'));
    expect(store.getState().load?.file).toBe('teaching.jsonl');
    expect(screen.getByLabelText('Open failed').textContent).toContain('nested.jsonl');
    expect(screen.getByLabelText('Open failed').textContent).toContain('the open was cancelled');
    await act(() => store.getState().reload());
    expect(store.getState().load?.file).toBe('teaching.jsonl');
  });
});

describe('the Open menu', () => {
  it('offers paste, a URL and the samples while a log is open', async () => {
    const { store } = await openTeaching();
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    const list = screen.getByRole('list', { name: 'Open another log' });
    const labels = within(list)
      .getAllByRole('button')
      .map((b) => b.querySelector('.menu-item-label')?.textContent);
    expect(labels).toEqual([
      'Paste log text…',
      'Open from a URL…',
      'Sample: Teaching log',
      'Sample: Nested compactions and prunes',
      'Sample: Large log (Zstandard)',
    ]);
    fireEvent.click(within(list).getByRole('button', { name: /Nested compactions/ }));
    await waitFor(() => expect(store.getState().load?.file).toBe('nested.jsonl'));
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: 'Paste log text…' }));
    const dialog = screen.getByRole('dialog', { name: 'Paste log text' });
    fireEvent.change(within(dialog).getByLabelText('Paste log text'), { target: { value: fixtureText('small.jsonl') } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Open pasted text' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    await waitFor(() => expect(store.getState().sourceName).toBe('pasted text'));
    await waitFor(() => expect(store.getState().status).toBe('ready'));
    expect(store.getState().load?.file).toBe('pasted text');
  });

  it('opens a URL and names it in the address bar; other sources drop it', async () => {
    const served = fixtureText('small.jsonl');
    vi.stubGlobal('fetch', async () => new Response(served, { status: 200, headers: { 'content-type': 'application/x-ndjson' } }));
    const { store, location } = await openTeaching();
    expect(location.sources).toEqual([null]);
    fireEvent.click(screen.getByRole('button', { name: 'Open' }));
    fireEvent.click(screen.getByRole('button', { name: /Open from a URL/ }));
    const dialog = screen.getByRole('dialog', { name: 'Open from a URL' });
    fireEvent.change(within(dialog).getByLabelText('Open from a URL'), { target: { value: 'https://example.com/small.jsonl' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Fetch' }));
    await waitFor(() => expect(store.getState().sourceName).toBe('https://example.com/small.jsonl'));
    await waitFor(() => expect(store.getState().status).toBe('ready'));
    expect(location.sources.at(-1)).toEqual({ param: 'url', value: 'https://example.com/small.jsonl' });
    await act(() => store.getState().openSource({ kind: 'sample', name: 'teaching' }));
    expect(location.sources.at(-1)).toEqual({ param: 'sample', value: 'teaching' });
    await act(() => store.getState().openSource({ kind: 'text', name: 'x.jsonl', text: served }));
    expect(location.sources.at(-1)).toBeNull();
  });

  it("the browser's location writes ?url= with replaceState and keeps other parameters", () => {
    history.replaceState(null, '', '/app/?token=abc&sample=teaching#step=3');
    const length = history.length;
    const { location } = resolveDeps({});
    location.writeSource?.({ param: 'url', value: 'https://example.com/a b.jsonl' });
    expect(window.location.search).toBe('?token=abc&url=https%3A%2F%2Fexample.com%2Fa+b.jsonl');
    expect(new URLSearchParams(window.location.search).get('url')).toBe('https://example.com/a b.jsonl');
    expect(window.location.hash).toBe('#step=3');
    location.writeSource?.(null);
    expect(window.location.search).toBe('?token=abc');
    expect(history.length).toBe(length);
  });
});

describe('the sessions of an export ZIP', () => {
  it('each session keeps its own step and selection when switching away and back', async () => {
    const test = makeEngineStore();
    renderWith(<App />, test);
    // An export ZIP as the web client writes it: the parent and two subagent children.
    const zip = zipSync({
      'session.jsonl': encoder.encode(fixtureText('teaching.jsonl')),
      'subagents/child-1/session.jsonl': encoder.encode(fixtureText('nested.jsonl')),
      'subagents/child-2/session.jsonl': encoder.encode(fixtureText('small.jsonl')),
    });
    await act(() => test.store.getState().openSource({ kind: 'file', name: 'export.zip', file: blobOf(zip) }));
    const { store } = test;
    expect(store.getState().loadError).toBeNull();
    expect(store.getState().load?.sessions.length).toBe(3);
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    act(() => store.getState().goTo(5));
    act(() => store.getState().select(store.getState().load?.sessions[0]?.baseSeq ?? 0));
    const parent = { step: store.getState().step, selected: store.getState().selectedSeq };
    fireEvent.click(nav.querySelectorAll('button')[1] as HTMLButtonElement);
    const child = store.getState().load?.sessions[1];
    expect(store.getState().session).toBe(1);
    // A session not visited yet opens at its end, nothing selected.
    expect(store.getState().step).toBe(child?.accepted);
    expect(store.getState().selectedSeq).toBeNull();
    act(() => store.getState().goTo(2));
    fireEvent.click(nav.querySelectorAll('button')[0] as HTMLButtonElement);
    expect({ step: store.getState().step, selected: store.getState().selectedSeq }).toEqual(parent);
    fireEvent.click(nav.querySelectorAll('button')[1] as HTMLButtonElement);
    expect(store.getState().step).toBe(2);
    expect(store.getState().selectedSeq).toBe((child?.baseSeq ?? 0) + 1);
  });
});
