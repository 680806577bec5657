import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import { App } from '../../src/ui/App';
import { ExportMenu } from '../../src/ui/panels/exports/ExportMenu';
import { openBytes } from '../../src/core/analyze/open';
import { SESSION_SLOT } from '../../src/core/export/standalone';
import { generateText } from '../../src/core/gen/generate';
import { engineStoreWith, makeEngineStore } from '../store/helpers';
import { seedSecrets } from '../support/seed-secrets';

const SEEDED = seedSecrets(generateText({ seed: 31, events: 200 }), 2);
import { renderIdle, renderWith } from './harness';

async function setup() {
  const download = vi.fn<(file: ExportFile) => void>();
  const test = await engineStoreWith('teaching.jsonl', {}, { download });
  renderWith(<ExportMenu />, test);
  return { ...test, download };
}

const choose = (name: string | RegExp) => {
  const button = screen.getByRole('button', { name: 'Export' });
  if (button.getAttribute('aria-expanded') !== 'true') fireEvent.click(button);
  fireEvent.click(within(screen.getByRole('list', { name: 'Exports' })).getByRole('button', { name }));
};

describe('Exports', () => {
  it('downloads the model view and the surface at the cursor as JSON', async () => {
    const { store, download } = await setup();
    act(() => store.getState().goTo(17));
    choose(/^Model view at step 17 \(JSON\)/);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const model = download.mock.calls[0]![0];
    // The teaching sample at step 17: a user message, the assistant's tool call and its result.
    expect(model).toMatchObject({ name: 'teaching-sample.model-view.step-17.json', mime: 'application/json' });
    expect((JSON.parse(model.text) as { role: string }[]).map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    choose(/^Surface nodes at step 17/);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(2));
    const surface = JSON.parse(download.mock.calls[1]![0].text) as { step: number; nodes: { seq: number }[] };
    expect(surface.step).toBe(17);
    expect(surface.nodes.map((n) => n.seq)).toEqual([2, 9, 11]);
  });

  it('downloads the diagnostics and QA report as JSON and Markdown', async () => {
    const { download } = await setup();
    choose(/^Diagnostics and QA report \(JSON\)/);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1)); // one export at a time
    choose(/^Diagnostics and QA report \(Markdown\)/);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(2));
    expect(download.mock.calls.map((c) => c[0].mime)).toEqual(['application/json', 'text/markdown']);
    expect(download.mock.calls[1]![0].text).toMatch(/^# Surface Lens report/);
  });

  it('shows why an export failed', async () => {
    const { client } = await setup();
    client.crash('worker gone');
    choose(/^Surface nodes/);
    expect((await screen.findByRole('alert')).textContent).toMatch(/^Export failed: /);
  });

  it('sends the log cut at the cursor, redacted when the box is ticked, and says what was replaced', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const test = makeEngineStore({}, { download });
    await test.store.getState().openSource({ kind: 'text', name: 'seeded.jsonl', text: SEEDED });
    renderWith(<ExportMenu />, test);
    const { store, client } = test;
    act(() => store.getState().goTo(17));
    const button = screen.getByRole('button', { name: 'Export' });
    fireEvent.click(button);
    const box = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Redact secrets, paths and e-mail addresses' });
    expect(box.checked).toBe(false);
    fireEvent.click(box);
    // Ticking the box keeps the list open.
    expect(button.getAttribute('aria-expanded')).toBe('true');
    choose(/^Log \(cut at cursor, step 17\)/);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    const session = store.getState().load!.sessions[0]!.id;
    expect(client.callsTo('exportSession').map((c) => c.args)).toEqual([
      [{ session, format: 'jsonl', step: 17, seq: store.getState().selectedSeq, redact: true, template: undefined }],
    ]);
    const file = download.mock.calls[0]![0];
    expect(file).toMatchObject({ mime: 'application/jsonl' });
    expect(file.name).toMatch(/\.step-17\.redacted\.jsonl$/);
    // The first 17 events, and the seeded home directory is gone.
    const reopened = await openBytes(new TextEncoder().encode(file.text), { name: file.name });
    expect(reopened.sessions[0]!.log.length).toBe(17);
    expect(file.text).not.toContain('/home/alicezq7');
    expect((await screen.findByRole('status')).textContent).toMatch(/^Redacted [\d,]+: .*home-path [\d,]+/);
  });

  it('fills the viewer page fetched from the app for the self-contained HTML', async () => {
    const download = vi.fn<(file: ExportFile) => void>();
    const fetched: string[] = [];
    const template = `<!doctype html><html><head></head><body>${SESSION_SLOT}</body></html>`;
    const fetch = (url: string) => {
      fetched.push(url);
      return Promise.resolve({
        ok: true,
        status: 200,
        statusText: 'OK',
        arrayBuffer: () => Promise.resolve(new TextEncoder().encode(template).buffer),
      });
    };
    const test = await engineStoreWith('teaching.jsonl', {}, { download, fetch });
    renderWith(<ExportMenu />, test);
    choose(/^Self-contained HTML at step/);
    await waitFor(() => expect(download).toHaveBeenCalledTimes(1));
    expect(fetched).toContain('standalone.html');
    const [request] = test.client.callsTo('exportSession')[0]!.args as [{ format: string; template: string; redact: boolean }];
    expect(request).toMatchObject({ format: 'html', template, redact: false });
    expect(download.mock.calls[0]![0].mime).toBe('text/html');
    expect(download.mock.calls[0]![0].text).not.toContain(SESSION_SLOT);
  });

  it('is disabled until a log is loaded', () => {
    renderIdle(<ExportMenu />);
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Export' }).disabled).toBe(true);
  });
});

describe('View switch', () => {
  it('switches between the timeline, the two views and the playground with tabs', async () => {
    const test = await engineStoreWith('teaching.jsonl');
    renderWith(<App />, test);
    const tabs = screen.getByRole('tablist', { name: 'View' });
    const timeline = within(tabs).getByRole('tab', { name: 'Timeline' });
    expect(timeline.getAttribute('aria-selected')).toBe('true');
    // The workspace's tab panel (the strip under it has its own: curve or time track).
    expect(screen.getAllByRole('tabpanel').map((p) => p.getAttribute('aria-labelledby'))).toContain(timeline.id);
    expect(screen.getByRole('region', { name: 'Context curve' })).toBeTruthy();
    fireEvent.keyDown(timeline, { key: 'ArrowRight' });
    expect(test.store.getState().view).toBe('views');
    expect(screen.getByRole('region', { name: 'Transcript and model view' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Timeline' })).toBeNull();
    fireEvent.click(within(tabs).getByRole('tab', { name: 'Playground' }));
    expect(screen.getByRole('region', { name: 'Playground' }).textContent).toContain('Build a session log by hand');
  });
});
