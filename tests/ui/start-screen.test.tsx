import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderIdle as renderOnFake, renderWith } from './harness';

// The app on the real engine; the file, URL and progress cases keep the fake engine (jsdom's File
// cannot be read, the real engine would fetch the URL, and it reports progress too fast to watch).
const renderIdle = (ui: Parameters<typeof renderWith>[0]) => renderWith(ui, makeEngineStore());

const bytes = (text: string) => new TextEncoder().encode(text).buffer;

describe('Start screen', () => {
  it('has exactly one file input, labelled "Open log", before and after a load', async () => {
    // The fake engine: jsdom's File cannot be read (the browser tests open a picked file for real).
    const { client } = renderOnFake(<App />);
    const input = screen.getByLabelText<HTMLInputElement>('Open log');
    expect(input.type).toBe('file');
    const file = new File(['{"type":"session"}\n'], 'session.jsonl');
    fireEvent.change(input, { target: { files: [file] } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 30 events.'));
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
    fireEvent.change(screen.getByLabelText('Paste log text'), { target: { value: '{"type":"turn/start"}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open pasted text' }));
    await waitFor(() => expect(client.callsTo('open')).toHaveLength(1));
    expect(client.callsTo('open')[0]?.args[0]).toEqual({ kind: 'text', name: 'pasted text', text: '{"type":"turn/start"}' });
  });

  it('opens a URL only when asked, through the engine', async () => {
    const { client } = renderOnFake(<App />);
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
    const { client, store } = renderOnFake(<App />);
    client.hold();
    fireEvent.change(screen.getByLabelText('Paste log text'), { target: { value: 'x'.repeat(2048) } });
    fireEvent.click(screen.getByRole('button', { name: 'Open pasted text' }));
    const bar = await screen.findByRole('progressbar', { name: 'Loading' });
    expect(bar.getAttribute('aria-valuenow')).toBe('50');
    expect(screen.getByText('1.0 KiB of 2.0 KiB')).toBeTruthy();
    expect(screen.getByText('10 events')).toBeTruthy();
    expect(screen.getByRole('status').textContent).toBe('Loading pasted text…');
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(store.getState().status).toBe('cancelled'));
    act(() => client.release());
    expect(screen.getByRole('status').textContent).toBe('Load cancelled.');
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  it('opens a file dropped anywhere on the page', async () => {
    const { client } = renderIdle(<App />);
    const file = new File(['{}'], 'dropped.jsonl');
    const dataTransfer = { types: ['Files'], files: [file], dropEffect: 'none' };
    fireEvent.dragEnter(window, { dataTransfer });
    expect(screen.getByText('Drop to open')).toBeTruthy();
    fireEvent.drop(window, { dataTransfer });
    await waitFor(() => expect(client.callsTo('open')).toHaveLength(1));
    expect(screen.queryByText('Drop to open')).toBeNull();
    expect((client.callsTo('open')[0]?.args[0] as { name: string }).name).toBe('dropped.jsonl');
    expect(within(document.body).queryByText('Drop to open')).toBeNull();
  });
});
