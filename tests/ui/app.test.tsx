import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { FakeLocation, engineStoreWith, makeEngineStore } from '../store/helpers';
import { TestEngine, fixtureBytes, fixtureText } from '../support/test-engine';
import { renderFixture, renderWith } from './harness';

// The app on the real engine and the project's fixtures (the teaching sample: 54 events).
const renderIdle = (ui: Parameters<typeof renderWith>[0]) => renderWith(ui, makeEngineStore());
const renderLoaded = (ui: Parameters<typeof renderFixture>[0], options: Parameters<typeof renderFixture>[2] = {}) =>
  renderFixture(ui, 'teaching.jsonl', options);

describe('status region and banners', () => {
  it('reads "Loaded N events" when a load finishes', async () => {
    renderIdle(<App />);
    expect(screen.getByRole('status').textContent).toBe('No log loaded.');
    fireEvent.change(screen.getByLabelText('Paste log text'), { target: { value: fixtureText('teaching.jsonl') } });
    fireEvent.click(screen.getByRole('button', { name: 'Open pasted text' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
    expect(document.querySelector('.app')?.getAttribute('data-status')).toBe('ready');
  });

  it('says when the engine runs on the page rather than in a worker', async () => {
    await renderLoaded(<App />, { engineHome: 'page' });
    expect(document.querySelector('.status-details')?.textContent).toContain('engine on this page');
  });

  it('says nothing of the engine when it runs in a worker', async () => {
    await renderLoaded(<App />);
    expect(document.querySelector('.status-details')?.textContent).not.toContain('engine on this page');
  });

  it('shows a surface error with seq, line and the exact message; the valid prefix stays navigable', async () => {
    const { store } = await renderFixture(<App />, 'violation-replace.jsonl');
    const message = 'surface replace: sourceEventSeqs must include every shadowed surface node; missing 908';
    const events = store.getState().load!.sessions[0]!.events;
    expect(screen.getByRole('status').textContent).toBe(
      `Loaded ${events.toLocaleString('en-US')} events. Surface error at seq 1177, line 228: ${message}`,
    );
    const banner = screen.getByLabelText('Surface error');
    expect(banner.textContent).toContain('Surface error at seq 1177, line 228:');
    expect(banner.textContent).toContain(message);
    expect(banner.textContent).toContain('The 1,177 events before it stay fully navigable.');
    fireEvent.click(screen.getByRole('button', { name: 'Show event' }));
    expect(store.getState().selectedSeq).toBe(1177);
    expect(store.getState().step).toBe(1177);
    fireEvent.click(screen.getByRole('button', { name: 'Go to start' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));
    expect(store.getState().step).toBe(1);
  });

  it('reports a dead engine and reloads the file on a new one', async () => {
    const fresh = new TestEngine();
    const test = await engineStoreWith('teaching.jsonl', {}, { createClient: () => fresh });
    renderWith(<App />, test);
    act(() => test.client.crash('The engine worker crashed or failed to start: out of memory.'));
    expect(screen.getByRole('status').textContent).toBe(
      'The engine stopped: The engine worker crashed or failed to start: out of memory. Reload the file to continue.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reload file' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
    expect(test.store.getState().client).toBe(fresh);
  });

  it('says when the engine stops answering, clears it when it answers, and can stop it to reload', async () => {
    const fresh = new TestEngine();
    const test = await engineStoreWith('teaching.jsonl', {}, { createClient: () => fresh });
    renderWith(<App />, test);
    expect(screen.queryByLabelText('Engine not answering')).toBeNull();
    act(() => test.client.stall(true));
    expect(screen.getByLabelText('Engine not answering').textContent).toContain('The engine has not answered for a while');
    act(() => test.client.stall(false));
    expect(screen.queryByLabelText('Engine not answering')).toBeNull();
    act(() => test.client.stall(true));
    fireEvent.click(screen.getByRole('button', { name: 'Stop engine' }));
    expect(screen.queryByLabelText('Engine not answering')).toBeNull();
    expect(screen.getByRole('status').textContent).toBe('The engine stopped: The engine was stopped. Reload the file to continue.');
    fireEvent.click(screen.getByRole('button', { name: 'Reload file' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.'));
    // The old client's word no longer counts.
    act(() => test.client.stall(true));
    expect(screen.queryByLabelText('Engine not answering')).toBeNull();
  });

  it('shows why an open failed', async () => {
    const { store } = renderIdle(<App />);
    await act(() => store.getState().openSource({ kind: 'sample', name: '../etc' }));
    expect(screen.getByLabelText('Load error').textContent).toContain('Could not open sample "../etc": "../etc" is not a sample name.');
    expect(screen.getByRole('status').textContent).toContain('Could not open');
  });

  it('warns when a deep link was made for another file', async () => {
    const test = await engineStoreWith('teaching.jsonl', {}, { location: new FakeLocation('#step=4&seq=3&fp=other') });
    renderWith(<App />, test);
    expect(screen.getByLabelText('Deep link warning').textContent).toContain('different file');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByLabelText('Deep link warning')).toBeNull();
    expect(test.store.getState().step).toBe(4);
  });
});

describe('session picker', () => {
  it('lists the sessions of a ZIP and switches between them', async () => {
    // The project's export: the root session and two subagents.
    const test = makeEngineStore();
    const zip = fixtureBytes('export.zip');
    await test.store.getState().openSource({ kind: 'file', name: 'export.zip', file: new Blob([zip]) });
    const { store } = renderWith(<App />, test);
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    const buttons = nav.querySelectorAll('button');
    expect(buttons).toHaveLength(3);
    expect(buttons[0]?.getAttribute('aria-current')).toBe('true');
    expect(buttons[1]?.textContent).toContain('subagent');
    fireEvent.click(buttons[1] as HTMLButtonElement);
    expect(store.getState().session).toBe(1);
  });

  it('is absent for a single session', async () => {
    await renderLoaded(<App />);
    expect(screen.queryByRole('navigation', { name: 'Sessions' })).toBeNull();
  });
});

describe('theme', () => {
  it('toggles light/dark on the document and persists it', async () => {
    const { store } = await renderLoaded(<App />);
    const toggle = screen.getByRole('button', { name: 'Dark theme' });
    expect(document.documentElement.dataset.theme).toBe('light');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(store.getState().theme).toBe('dark');
  });
});
