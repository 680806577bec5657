import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { formatBytes } from '../../src/ui/format';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderIdle, renderWith } from './harness';

// The app on the real engine. A URL is held before the engine would fetch it; a load is held
// after its first progress report.
const teaching = fixtureText('teaching.jsonl');

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

describe('Start screen', () => {
  it('has exactly one file input, labelled "Open log", before and after a load', async () => {
    const { client } = renderIdle(<App />);
    const input = screen.getByLabelText<HTMLInputElement>('Open log');
    expect(input.type).toBe('file');
    const file = new File([teaching], 'session.jsonl');
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
    const request = client.callsTo('open')[0]?.args[0] as { kind: string; name: string; file: Blob };
    // The file itself goes to the engine, which reads it.
    expect(request).toMatchObject({ kind: 'file', name: 'session.jsonl' });
    expect(request.file).toBe(file);
    expect(screen.getAllByLabelText('Open log')).toHaveLength(1);
    for (const name of ['Timeline', 'Surface', 'Shadowed ranges', 'Inspector', 'Diagnostics', 'Transport']) {
      expect(screen.getByRole('region', { name })).toBeTruthy();
    }
  });

  it('opens pasted text', async () => {
    const { client } = renderIdle(<App />);
    fireEvent.change(screen.getByLabelText('Paste log text'), { target: { value: teaching } });
    fireEvent.click(screen.getByRole('button', { name: 'Open pasted text' }));
    await waitFor(() => expect(client.callsTo('open')).toHaveLength(1));
    expect(client.callsTo('open')[0]?.args[0]).toEqual({ kind: 'text', name: 'pasted text', text: teaching });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
  });

  it('opens a URL only when asked, through the engine', async () => {
    const { client } = renderIdle(<App />);
    // Held: the request is recorded, and the engine never fetches (no network in tests).
    client.hold();
    const field = screen.getByLabelText('Open from a URL');
    fireEvent.change(field, { target: { value: 'https://example.com/s.jsonl' } });
    expect(client.callsTo('open')).toHaveLength(0);
    fireEvent.click(screen.getByRole('button', { name: 'Fetch' }));
    await waitFor(() => expect(client.callsTo('open')[0]?.args[0]).toEqual({ kind: 'url', url: 'https://example.com/s.jsonl' }));
  });

  it('offers the bundled samples from the manifest and opens them', async () => {
    const manifest = JSON.stringify([{ name: 'teaching', file: 'teaching.jsonl', title: 'Teaching log', description: 'short' }]);
    const test = makeEngineStore(
      {},
      {
        fetch: async (url) => ({
          ok: true,
          status: 200,
          statusText: 'OK',
          arrayBuffer: async () => bytes(url.endsWith('index.json') ? manifest : fixtureText('teaching.jsonl')),
        }),
      },
    );
    renderWith(<App />, test);
    await waitFor(() => expect(screen.getAllByRole('button', { name: /log$/ }).map((b) => b.textContent)).toEqual(['Teaching log']));
    fireEvent.click(screen.getByRole('button', { name: 'Teaching log' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
  });

  it('shows progress with bytes and events, and cancels', async () => {
    const { client, store } = renderIdle(<App />);
    client.holdLoad();
    // The load waits after its first progress report: the bar shows what the engine said.
    const text = teaching;
    fireEvent.change(screen.getByLabelText('Paste log text'), { target: { value: text } });
    fireEvent.click(screen.getByRole('button', { name: 'Open pasted text' }));
    const bar = await screen.findByRole('progressbar', { name: 'Loading' });
    const progress = store.getState().progress!;
    expect(progress.totalBytes).toBe(text.length);
    expect(bar.getAttribute('aria-valuenow')).toBe(String(Math.round((100 * progress.bytes) / text.length)));
    expect(screen.getByText(`${formatBytes(progress.bytes)} of ${formatBytes(text.length)}`)).toBeTruthy();
    expect(screen.getByText(`${progress.events} events`)).toBeTruthy();
    expect(progress.events).toBeGreaterThan(0);
    expect(screen.getByRole('status').textContent).toBe('Loading pasted text…');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(store.getState().status).toBe('cancelled'));
    act(() => client.releaseLoad());
    await waitFor(() => expect(client.callsTo('cancel')).toHaveLength(1));
    expect(screen.getByRole('status').textContent).toBe('Load cancelled.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('opens a file dropped anywhere on the page', async () => {
    const { client } = renderIdle(<App />);
    const file = new File([teaching], 'dropped.jsonl');
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };
    fireEvent.dragEnter(window, { dataTransfer });
    expect(screen.getByText('Drop to open')).toBeTruthy();
    fireEvent.drop(window, { dataTransfer });
    await waitFor(() => expect(client.callsTo('open')).toHaveLength(1));
    expect(screen.queryByText('Drop to open')).toBeNull();
    expect((client.callsTo('open')[0]?.args[0] as { name: string }).name).toBe('dropped.jsonl');
    expect(within(document.body).queryByText('Drop to open')).toBeNull();
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
  });
});
