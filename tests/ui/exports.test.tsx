import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { ExportFile } from '../../src/protocol/protocol';
import { App } from '../../src/ui/App';
import { ExportMenu } from '../../src/ui/panels/exports/ExportMenu';
import { engineStoreWith } from '../store/helpers';
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

  it('is disabled until a log is loaded', () => {
    renderIdle(<ExportMenu />);
    expect((screen.getByRole('button', { name: 'Export' }) as HTMLButtonElement).disabled).toBe(true);
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
