/**
 * The Follow control and the Live indicator, on a real store and the real engine in process: a
 * followed URL shows "Live" and the time of the last change, a new replace is announced in the
 * polite live region, and a source that cannot be followed says why.
 */
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { generateText } from '../../src/core/gen/generate';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage, noLocation } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { LiveControl } from '../../src/ui/panels/follow/LiveControl';
import { createEngine } from '../../src/worker/engine';
import type { FollowFetch } from '../../src/worker/follow';

const lines = generateText({ seed: 71, events: 900, compaction: { thresholdTokens: 1200 } }).split(/(?<=\n)/);
const text = (n: number): Uint8Array => new TextEncoder().encode(lines.slice(0, n).join(''));

describe('LiveControl', () => {
  it('follows a URL: Live with the last change, and new replaces announced', async () => {
    let bytes = text(Math.floor(lines.length / 6));
    const fetcher: FollowFetch = async (_url, init) => {
      const from = Number(/^bytes=(\d+)-$/.exec(init?.headers?.Range ?? '')?.[1] ?? -1);
      const body = from < 0 ? bytes : bytes.subarray(from);
      const status = from < 0 ? 200 : from >= bytes.length ? 416 : 206;
      const headers: Record<string, string> = { 'content-range': `bytes ${Math.max(0, from)}-${bytes.length - 1}/${bytes.length}` };
      return {
        ok: status < 300,
        status,
        statusText: '',
        headers: { get: (n) => headers[n.toLowerCase()] ?? null },
        arrayBuffer: async () => body.slice().buffer,
      };
    };
    const store = createAppStore(new InProcessCoreClient(createEngine({ pause: async () => {}, fetch: fetcher })), {
      storage: memoryStorage(),
      location: noLocation,
      scheduler: {
        setTimeout: (callback) => {
          const id = setTimeout(callback, 5);
          return () => clearTimeout(id);
        },
      },
      now: () => Date.UTC(2026, 0, 1, 12, 0, 0),
    });
    render(
      <AppStoreProvider store={store}>
        <LiveControl />
      </AppStoreProvider>,
    );
    await act(() => store.getState().openSource({ kind: 'url', url: 'http://host/live.jsonl' }));
    const before = store.getState().load!.sessions[0]!.replacements;
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('true');
    bytes = text(lines.length);
    await waitFor(() => expect(document.querySelector('.live-indicator')?.textContent).toMatch(/Live · last change/));
    expect(store.getState().load!.sessions[0]!.replacements).toBeGreaterThan(before);
    expect(document.querySelector('.live-announce')?.textContent).toMatch(/new replaces? (was|were) applied/);
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(document.querySelector('.live-indicator')).toBeNull();
    store.dispose();
  });

  it('pasted text cannot be followed, and says so', async () => {
    const store = createAppStore(new InProcessCoreClient(createEngine({ pause: async () => {} })), {
      storage: memoryStorage(),
      location: noLocation,
    });
    render(
      <AppStoreProvider store={store}>
        <LiveControl />
      </AppStoreProvider>,
    );
    await act(() => store.getState().openSource({ kind: 'text', name: 'p.jsonl', text: lines.slice(0, 10).join('') }));
    fireEvent.click(screen.getByRole('button', { name: 'Follow' }));
    expect(screen.getByRole('alert').textContent).toMatch(/Only a URL or a picked file can be followed/);
    store.dispose();
  });
});
