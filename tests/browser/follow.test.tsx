/**
 * Live follow in Chromium, with the real worker engine: a local server with Range support
 * (tests/support/follow-server.ts) grows a raw JSONL file by lines and a Zstandard file by
 * frames while the app follows each by URL; the rows arrive, the Live indicator says when, a
 * stepped-back cursor stays; a rewrite shorter than before is read again from the start and said.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { concatBytes, zstdFrame } from '../support/zstd-frames';
import { button, mountApp, statusText } from './app-harness';
import type { MountedApp } from './app-harness';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

async function post(name: string, body: Uint8Array, reset = false): Promise<void> {
  const response = await fetch(`/__follow/${name}${reset ? '?reset' : ''}`, { method: 'POST', body: body.slice() });
  expect(response.status).toBe(204);
}

const eventsShown = (app: MountedApp): number => app.store.getState().load?.sessions[0]?.events ?? 0;

let app: MountedApp | null = null;
afterEach(() => {
  app?.unmount();
  app = null;
});

const lines = generateText({ seed: 61, events: 1500 }).split(/(?<=\n)/);

describe('live follow by URL', () => {
  it('raw JSONL grows by lines; a stepped-back cursor stays; a shorter rewrite is re-read and said', async () => {
    const name = `live-${Date.now()}.jsonl`;
    const quarter = Math.floor(lines.length / 4);
    await post(name, enc(lines.slice(0, quarter).join('')), true);
    app = await mountApp();
    await app.store.getState().openSource({ kind: 'url', url: `${location.origin}/__follow/${name}` });
    expect(statusText()).toMatch(/^Loaded/);
    const first = eventsShown(app);
    button('Follow').click();
    await vi.waitFor(() => expect(document.querySelector('.live-indicator')?.textContent).toMatch(/Live/));
    expect(document.querySelector('.diagnostics-provisional')?.textContent).toMatch(/provisional until it stops growing/);

    // A half-written line, then the rest of the half: only complete lines count.
    await post(name, enc(lines.slice(quarter, 2 * quarter).join('') + lines[2 * quarter]!.slice(0, 10)));
    await vi.waitFor(() => expect(eventsShown(app!)).toBeGreaterThan(first), { timeout: 15_000, interval: 100 });
    const half = app.store.getState().load!.sessions[0]!;
    expect(app.store.getState().step).toBe(half.accepted);
    await vi.waitFor(() => expect(document.querySelector('.live-indicator')?.textContent).toMatch(/last change/));

    app.store.getState().goTo(5);
    await post(name, enc(lines[2 * quarter]!.slice(10) + lines.slice(2 * quarter + 1).join('')));
    await vi.waitFor(() => expect(eventsShown(app!)).toBeGreaterThan(half.events), { timeout: 15_000, interval: 100 });
    expect(app.store.getState().step).toBe(5);

    await post(name, enc(lines.slice(0, quarter).join('')), true);
    await vi.waitFor(() => expect(document.querySelector('.live-note')?.textContent).toMatch(/shrank .*read again from the start/), {
      timeout: 15_000,
      interval: 100,
    });
    expect(eventsShown(app)).toBe(first);
  });

  it('Zstandard grows by frames; a torn frame is not yet', async () => {
    const name = `live-${Date.now()}.jsonl.zstd`;
    const frames: Uint8Array[] = [await zstdFrame(lines[0]!, { mode: 'raw' })];
    for (let i = 1; i < lines.length; i += 20) frames.push(await zstdFrame(lines.slice(i, i + 20).join(''), { mode: 'raw' }));
    const third = Math.floor(frames.length / 3);
    await post(name, concatBytes(frames.slice(0, third)), true);
    app = await mountApp();
    await app.store.getState().openSource({ kind: 'url', url: `${location.origin}/__follow/${name}` });
    expect(app.store.getState().load?.sessions[0]?.format).toBe('jsonl-zstd');
    const first = eventsShown(app);
    app.store.getState().startFollow();
    const next = frames[third]!;
    await post(name, next.subarray(0, Math.floor(next.length / 2)));
    await post(name, concatBytes([next.subarray(Math.floor(next.length / 2)), ...frames.slice(third + 1)]));
    await vi.waitFor(() => expect(eventsShown(app!)).toBeGreaterThan(first), { timeout: 15_000, interval: 100 });
    // Every frame arrived: as many events as the same lines in plain text.
    const whole = (await openBytes(enc(lines.join('')), { name: 'same.jsonl' })).sessions[0]!.log.length;
    await vi.waitFor(() => expect(eventsShown(app!)).toBe(whole), { timeout: 20_000, interval: 100 });
    expect(app.store.getState().load!.sessions[0]!.decodeError).toBeNull();
  });
});
