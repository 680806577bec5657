import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { FakeCoreClient } from '../support/fake-client';
import { FakeLocation } from '../store/helpers';
import { renderIdle, renderLoaded } from './harness';
import { loadedTestStore } from '../store/helpers';
import { renderWith } from './harness';

describe('status region and banners', () => {
  it('reads "Loaded N events" when a load finishes', async () => {
    renderIdle(<App />);
    expect(screen.getByRole('status').textContent).toBe('No log loaded.');
    fireEvent.change(screen.getByLabelText('Paste log text'), { target: { value: '{}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open pasted text' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 30 events.'));
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
    const { store } = await renderLoaded(<App />, { surfaceErrorIndex: 20 });
    const message = 'surface replace: start seq 20 not found in surface';
    expect(screen.getByRole('status').textContent).toBe(`Loaded 30 events. Surface error at seq 20, line 22: ${message}`);
    const banner = screen.getByLabelText('Surface error');
    expect(banner.textContent).toContain('Surface error at seq 20, line 22:');
    expect(banner.textContent).toContain(message);
    expect(banner.textContent).toContain('The 20 events before it stay fully navigable.');
    fireEvent.click(screen.getByRole('button', { name: 'Show event' }));
    expect(store.getState().selectedSeq).toBe(20);
    expect(store.getState().step).toBe(20);
    fireEvent.click(screen.getByRole('button', { name: 'Go to start' }));
    fireEvent.click(screen.getByRole('button', { name: 'Next step' }));
    expect(store.getState().step).toBe(1);
  });

  it('reports a dead engine and reloads the file on a new one', async () => {
    const fresh = new FakeCoreClient();
    const test = await loadedTestStore({}, { createClient: () => fresh });
    renderWith(<App />, test);
    act(() => test.client.crash('The engine worker crashed or failed to start: out of memory.'));
    expect(screen.getByRole('status').textContent).toBe(
      'The engine stopped: The engine worker crashed or failed to start: out of memory. Reload the file to continue.',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Reload file' }));
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 30 events.'));
    expect(test.store.getState().client).toBe(fresh);
  });

  it('says when the engine stops answering, clears it when it answers, and can stop it to reload', async () => {
    const fresh = new FakeCoreClient();
    const test = await loadedTestStore({}, { createClient: () => fresh });
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
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('Loaded 30 events.'));
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
    const test = await loadedTestStore({}, { location: new FakeLocation('#step=4&seq=3&fp=other') });
    renderWith(<App />, test);
    expect(screen.getByLabelText('Deep link warning').textContent).toContain('different file');
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByLabelText('Deep link warning')).toBeNull();
    expect(test.store.getState().step).toBe(4);
  });
});

describe('session picker', () => {
  it('lists the sessions of a ZIP and switches between them', async () => {
    const { store } = await renderLoaded(<App />, { sessions: 3 });
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
