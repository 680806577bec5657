/**
 * In-session search against the real engine in process, on the teaching session: the match
 * count and list (snippets marked as text), jumping on click, next/previous, the quick filters,
 * "N of M events" in the header when filtered, and a refused query shown where it is wrong.
 */
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { ShortcutSheet } from '../../src/ui/panels/ShortcutSheet';
import { Timeline } from '../../src/ui/panels/timeline/Timeline';
import { VirtualViewportProvider } from '../../src/ui/widgets/VirtualList';
import { teachingSession } from '../../src/core/gen/script';
import { createEngine } from '../../src/worker/engine';
import { FakeLocation, FakeScheduler } from '../store/helpers';

/** The teaching session (the same text as tests/fixtures/teaching.jsonl). */
const TEACHING = teachingSession().toJsonl();

async function renderTimeline(text = TEACHING) {
  const client = new InProcessCoreClient(createEngine({ pause: () => new Promise<void>((resolve) => setTimeout(resolve, 0)) }));
  const store = createAppStore(client, { storage: memoryStorage(), scheduler: new FakeScheduler(), location: new FakeLocation() });
  await store.getState().openSource({ kind: 'text', name: 'teaching.jsonl', text });
  render(
    <AppStoreProvider store={store}>
      <VirtualViewportProvider value={{ width: 900, height: 440 }}>
        <Timeline />
      </VirtualViewportProvider>
    </AppStoreProvider>,
  );
  return { store };
}

/** Generous: the full suite runs with other work on a shared machine. */
const SOON = { timeout: 5000 };

const searchBox = () => screen.getByRole('searchbox', { name: 'Search events' });
const matchList = () => screen.getByRole('region', { name: 'Search matches' });
const matchButtons = () => within(matchList()).queryAllByRole('button');

describe('Search in a session', () => {
  it('documents the search language in the shortcut sheet', () => {
    render(<ShortcutSheet open onClose={() => {}} />);
    const table = screen.getByRole('table', { name: 'Search language' });
    for (const term of ['"exact phrase"', 'tool:read_file', '-term']) {
      expect(within(table).getByText(term)).toBeTruthy();
    }
  });

  it('counts and lists the matches, marks them as text, and jumps on click', async () => {
    const { store } = await renderTimeline();
    fireEvent.change(searchBox(), { target: { value: 'sunsets' } });
    await waitFor(() => expect(within(matchList()).getByText('3 matches of 54 events')).toBeTruthy(), SOON);
    await waitFor(() => expect(matchButtons()).toHaveLength(3), SOON);
    expect(matchButtons().map((b) => b.querySelector('.match-seq')?.textContent)).toEqual(['28', '42', '43']);
    const first = matchButtons()[0] as HTMLElement;
    expect(first.querySelector('.match-type')?.textContent).toBe('user/message');
    expect(first.querySelector('.match-snippet')?.textContent).toBe('And why are sunsets red?');
    expect([...first.querySelectorAll('mark')].map((m) => m.textContent)).toEqual(['sunsets']);
    // Typing selected the first match; a click on the third jumps there.
    await waitFor(() => expect(store.getState().selectedSeq).toBe(28), SOON);
    fireEvent.click(matchButtons()[2] as HTMLElement);
    expect(store.getState().selectedSeq).toBe(43);
    expect(store.getState().search.row).toBe(43);
    // Next wraps to the first; previous goes back to the last.
    fireEvent.click(screen.getByRole('button', { name: 'Next match' }));
    await waitFor(() => expect(store.getState().selectedSeq).toBe(28), SOON);
    expect(store.getState().search.wrapped).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Previous match' }));
    await waitFor(() => expect(store.getState().selectedSeq).toBe(43), SOON);
  });

  it('renders log content in snippets as text, never as HTML', async () => {
    const hostile = TEACHING.replace('And why are sunsets red?', 'And why are <img src=x onerror=alert(1)> sunsets red?');
    await renderTimeline(hostile);
    fireEvent.change(searchBox(), { target: { value: '"why are"' } });
    await waitFor(() => expect(matchButtons().length).toBeGreaterThan(0), SOON);
    const snippet = (matchButtons()[0] as HTMLElement).querySelector('.match-snippet') as HTMLElement;
    expect(snippet.querySelector('img')).toBeNull();
    expect(snippet.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('quick filters narrow the search: replaces only, errors only', async () => {
    const { store } = await renderTimeline();
    fireEvent.click(screen.getByRole('button', { name: 'replaces only' }));
    await waitFor(() => expect(within(matchList()).getByText('2 matches of 54 events')).toBeTruthy(), SOON);
    await waitFor(() => expect(matchButtons().map((b) => b.querySelector('.match-seq')?.textContent)).toEqual(['30', '43']), SOON);
    fireEvent.change(searchBox(), { target: { value: 'rayleigh' } });
    await waitFor(() => expect(within(matchList()).getByText('1 match of 54 events')).toBeTruthy(), SOON);
    expect(store.getState().search.replacesOnly).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'errors only' }));
    await waitFor(() => expect(within(matchList()).getByText('0 matches of 54 events')).toBeTruthy(), SOON);
    expect(screen.getByText('no match')).toBeTruthy();
  });

  it('says what is wrong with a query, and where', async () => {
    const { store } = await renderTimeline();
    fireEvent.change(searchBox(), { target: { value: 'sky is:broken' } });
    const alert = await screen.findByRole('alert', {}, SOON);
    expect(alert.textContent).toContain('columns 8–13: is: does not know "broken"');
    expect(alert.querySelector('mark')?.textContent).toBe('broken');
    expect(searchBox().getAttribute('aria-invalid')).toBe('true');
    expect(store.getState().search.queryError).toMatchObject({ start: 7, end: 13 });
    fireEvent.change(searchBox(), { target: { value: 'sky' } });
    await waitFor(() => expect(screen.queryByRole('alert')).toBeNull(), SOON);
  });

  it('shows "N of M events" in the header when the timeline is filtered', async () => {
    const { store } = await renderTimeline();
    const header = () => screen.getByRole('region', { name: 'Timeline' }).querySelector('.panel-meta')?.textContent;
    expect(header()).toBe('54 events');
    act(() => store.getState().setSurfaceOnly(true));
    await waitFor(() => expect(header()).toBe('9 of 54 events'), SOON);
    act(() => store.getState().toggleFamily('compaction'));
    await waitFor(() => expect(header()).toBe('0 of 54 events'), SOON);
  });
});
