/**
 * Live follow in Chromium, with the real worker engine: a local server with Range support
 * (tests/support/follow-server.ts) grows a raw JSONL file by lines and a Zstandard file by
 * frames while the app follows each by URL; the rows arrive, the Live indicator says when, a
 * stepped-back cursor stays; a rewrite shorter than before is read again from the start and said.
 * The scroll lock in real layout: a wheel up pauses the follow (the timeline's offset, its rows on
 * screen and the cursor stay while lines arrive), End pins it at the new end.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { userEvent } from 'vitest/browser';
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
const lastSeq = (app: MountedApp): number => {
  const session = app.store.getState().load!.sessions[0]!;
  return session.baseSeq + session.events - 1;
};

const grid = (): HTMLElement => {
  const element = document.querySelector<HTMLElement>('[role="grid"][aria-label="Events"]');
  if (!element) throw new Error('no timeline grid');
  return element;
};
/** The timeline shows its last row: scrolled to the bottom (to within device-pixel rounding). */
const atBottom = (): boolean => grid().scrollTop >= grid().scrollHeight - grid().clientHeight - 2;
/** The seqs of the loaded rows the timeline's viewport shows, top to bottom. */
const seqsOnScreen = (): number[] => {
  const box = grid().getBoundingClientRect();
  return [...grid().querySelectorAll<HTMLElement>('[role="row"][data-seq]')]
    .filter((row) => row.getAttribute('aria-busy') !== 'true')
    .filter((row) => {
      const r = row.getBoundingClientRect();
      return r.bottom > box.top + 1 && r.top < box.bottom - 1;
    })
    .map((row) => Number(row.dataset.seq))
    .sort((a, b) => a - b);
};
/** Until the offset holds still for a few frames (a wheel may scroll smoothly). */
async function settled(): Promise<number> {
  let last = -1;
  for (let i = 0; i < 100; i++) {
    const top = grid().scrollTop;
    if (top === last) return top;
    last = top;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('the timeline never stopped scrolling');
}

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

  it('a wheel up pauses the follow: lines arrive without moving the timeline or the cursor; End pins at the new end', async () => {
    const name = `pin-${Date.now()}.jsonl`;
    const third = Math.floor(lines.length / 3);
    await post(name, enc(lines.slice(0, third).join('')), true);
    app = await mountApp();
    await app.store.getState().openSource({ kind: 'url', url: `${location.origin}/__follow/${name}` });
    await userEvent.click(button('Follow'));
    // Pinned: the timeline goes to its end and stays there as lines arrive.
    await vi.waitFor(() => expect(atBottom()).toBe(true));
    const first = eventsShown(app);
    await post(name, enc(lines.slice(third, 2 * third).join('')));
    await vi.waitFor(() => expect(eventsShown(app!)).toBeGreaterThan(first), { timeout: 15_000, interval: 100 });
    await vi.waitFor(() => expect(atBottom() && seqsOnScreen().includes(lastSeq(app!))).toBe(true));
    expect(app.store.getState().step).toBe(app.store.getState().load!.sessions[0]!.accepted);

    // The user wheels up: paused, and said.
    await userEvent.wheel(grid(), { delta: { y: -800 } });
    await vi.waitFor(() => expect(document.querySelector('.live-pin')?.textContent).toBe('Paused — End to follow'));
    const top = await settled();
    expect(atBottom()).toBe(false);
    const onScreen = seqsOnScreen();
    expect(onScreen.length).toBeGreaterThan(5);
    const step = app.store.getState().step;
    const grown = eventsShown(app);

    // Lines arrive: the rows reach the grid, and nothing the user looks at moves.
    await post(name, enc(lines.slice(2 * third).join('')));
    await vi.waitFor(() => expect(eventsShown(app!)).toBeGreaterThan(grown), { timeout: 15_000, interval: 100 });
    await vi.waitFor(() => expect(grid().getAttribute('aria-rowcount')).toBe(String(eventsShown(app!))));
    await new Promise((r) => setTimeout(r, 300));
    expect(grid().scrollTop).toBe(top);
    // The same rows where they were (those still loading then have arrived since).
    expect(seqsOnScreen()[0]).toBe(onScreen[0]);
    expect(seqsOnScreen()).toEqual(expect.arrayContaining(onScreen));
    expect(app.store.getState().step).toBe(step);
    expect(document.querySelector('.follow-pill')?.textContent).toMatch(/^↓ [\d,]+ new events$/);

    // End: the cursor at the new end, the timeline at its bottom, following again.
    (document.activeElement as HTMLElement | null)?.blur();
    await userEvent.keyboard('{End}');
    await vi.waitFor(() => expect(app!.store.getState().step).toBe(app!.store.getState().load!.sessions[0]!.accepted));
    await vi.waitFor(() => expect(atBottom() && seqsOnScreen().includes(lastSeq(app!))).toBe(true));
    expect(document.querySelector('.live-pin')?.textContent).toBe('Following the end');
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
