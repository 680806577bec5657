/**
 * Following an open session through the engine: a URL asked again with Range requests (an
 * unchanged file costs a 304, a server without ranges is read whole and said), a picked file
 * read past what is held, a rewrite read again from the start; after each look every query
 * answers on the events so far.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../src/worker/engine';
import type { FollowFetch, FollowResponse } from '../../src/worker/follow';
import { contentRangeTotal } from '../../src/worker/follow';
import { generateText } from '../../src/core/gen/generate';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);

/** A static file host in memory, with (or without) Range support and ETags. */
class FakeHost {
  bytes: Uint8Array = new Uint8Array(0);
  version = 0;
  requests: Record<string, string>[] = [];
  constructor(private readonly ranges: boolean) {}

  set(bytes: Uint8Array): void {
    this.bytes = bytes;
    this.version += 1;
  }

  fetch: FollowFetch = async (_url, init) => {
    const headers = init?.headers ?? {};
    this.requests.push(headers);
    const etag = `"v${this.version}"`;
    const reply = (status: number, body: Uint8Array, extra: Record<string, string> = {}): FollowResponse => {
      const all: Record<string, string> = { etag, ...extra };
      return {
        ok: status >= 200 && status < 300,
        status,
        statusText: String(status),
        headers: { get: (name) => all[name.toLowerCase()] ?? null },
        arrayBuffer: async () => body.slice().buffer,
      };
    };
    if (headers['If-None-Match'] === etag) return reply(304, new Uint8Array(0));
    const range = headers.Range === undefined ? null : /^bytes=(\d+)-(\d*)$/.exec(headers.Range);
    if (!this.ranges || range === null) return reply(200, this.bytes);
    const from = Number(range[1]);
    const to = range[2] === '' ? this.bytes.length - 1 : Math.min(Number(range[2]), this.bytes.length - 1);
    if (from >= this.bytes.length) return reply(416, new Uint8Array(0), { 'content-range': `bytes */${this.bytes.length}` });
    return reply(206, this.bytes.subarray(from, to + 1), { 'content-range': `bytes ${from}-${to}/${this.bytes.length}` });
  };
}

const lines = generateText({ seed: 31, events: 200 }).split(/(?<=\n)/);
const prefix = (n: number): Uint8Array => enc(lines.slice(0, n).join(''));

describe('following an open session', () => {
  it('Content-Range totals', () => {
    expect(contentRangeTotal('bytes 10-19/20')).toBe(20);
    expect(contentRangeTotal('bytes */7')).toBe(7);
    expect(contentRangeTotal(null)).toBeNull();
  });

  it('a URL grows by range requests; nothing new is a 304; every query answers on the events so far', async () => {
    const host = new FakeHost(true);
    host.set(prefix(40));
    const engine = createEngine({ pause: async () => {}, fetch: host.fetch });
    const opened = await engine.open({ kind: 'url', url: 'http://host/live.jsonl' }, () => {});
    const first = opened.sessions[0]!.events;
    expect((await engine.grow({ kind: 'url' })).kind).toBe('unchanged');
    expect(host.requests.at(-1)).toMatchObject({ 'If-None-Match': '"v1"', Range: `bytes=${prefix(40).length}-` });
    host.set(prefix(60));
    const grown = await engine.grow({ kind: 'url' });
    expect(grown.kind).toBe('appended');
    expect(grown.summary?.sessions[0]?.events).toBe(grown.newEvents + first);
    expect(grown.summary!.loadId).not.toBe(opened.loadId);
    const whole = createEngine({ pause: async () => {} });
    const reference = await whole.open({ kind: 'bytes', name: 'live.jsonl', buffer: prefix(60).slice().buffer }, () => {});
    const { loadId: _a, elapsedMs: _b, sessions: s1, ...rest1 } = grown.summary!;
    const { loadId: _c, elapsedMs: _d, sessions: s2, ...rest2 } = reference;
    expect(rest1).toEqual(rest2);
    expect(s1.map(({ fingerprint: _, id: _id, ...s }) => s)).toEqual(s2.map(({ fingerprint: _, id: _id, ...s }) => s));
    const steps = s1[0]!.accepted;
    const [mine, theirs] = [s1[0]!.id, s2[0]!.id];
    expect(await engine.rows({ session: mine, step: steps, filter: { families: [], surfaceOnly: false }, start: 0, count: 500 })).toEqual(
      await whole.rows({ session: theirs, step: steps, filter: { families: [], surfaceOnly: false }, start: 0, count: 500 }),
    );
    expect(await engine.surface({ session: mine, step: steps, start: 0, count: 500 })).toEqual(
      await whole.surface({ session: theirs, step: steps, start: 0, count: 500 }),
    );
  });

  it('a half-written last line is not yet; a shorter rewrite is read again and said', async () => {
    const host = new FakeHost(true);
    host.set(prefix(50));
    const engine = createEngine({ pause: async () => {}, fetch: host.fetch });
    await engine.open({ kind: 'url', url: 'http://host/live.jsonl' }, () => {});
    host.set(new Uint8Array([...prefix(50), ...enc('{"seq":')]));
    const pending = await engine.grow({ kind: 'url' });
    expect([pending.kind, pending.summary]).toEqual(['pending', null]);
    host.set(prefix(20));
    const reread = await engine.grow({ kind: 'url' });
    expect(reread.kind).toBe('reread');
    expect(reread.note).toMatch(/shrank .* read again from the start/);
    expect(reread.summary?.bytes).toBe(prefix(20).length);
    const fresh = await createEngine({ pause: async () => {} }).open(
      { kind: 'bytes', name: 'live.jsonl', buffer: prefix(20).slice().buffer },
      () => {},
    );
    expect(reread.summary?.sessions[0]?.events).toBe(fresh.sessions[0]!.events);
  });

  it('a server without range support is read whole, and said once', async () => {
    const host = new FakeHost(false);
    host.set(prefix(30));
    const engine = createEngine({ pause: async () => {}, fetch: host.fetch });
    await engine.open({ kind: 'url', url: 'http://host/live.jsonl' }, () => {});
    host.set(prefix(45));
    const grown = await engine.grow({ kind: 'url' });
    expect(grown.kind).toBe('appended');
    expect(grown.note).toMatch(/does not answer range requests/);
    host.set(prefix(50));
    const again = await engine.grow({ kind: 'url' });
    expect([again.kind, again.note]).toEqual(['appended', null]);
  });

  it('appends grow the session under the same handle, answering as the prefix opened whole; a re-read gives new handles', async () => {
    const engine = createEngine({ pause: async () => {} });
    const opened = await engine.open({ kind: 'bytes', name: 'g.jsonl', buffer: prefix(25).slice().buffer }, () => {});
    const handle = opened.sessions[0]!.id;
    const ALL = { families: [], surfaceOnly: false };
    // The page asks before the appends: a row list and a search are cached, and must not go stale.
    await engine.rows({ session: handle, step: opened.sessions[0]!.accepted, filter: ALL, start: 0, count: 10 });
    let held = 25;
    for (const n of [30, 31, 42, lines.length]) {
      const grown = await engine.grow({ kind: 'bytes', buffer: enc(lines.slice(held, n).join('')).slice().buffer, whole: false });
      held = n;
      expect(grown.kind).toBe('appended');
      expect(grown.summary!.sessions[0]!.id).toBe(handle);
      const whole = createEngine({ pause: async () => {} });
      const reference = (await whole.open({ kind: 'bytes', name: 'g.jsonl', buffer: prefix(n).slice().buffer }, () => {})).sessions[0]!;
      const mine = grown.summary!.sessions[0]!;
      expect({ ...mine, id: 0, fingerprint: '' }).toEqual({ ...reference, id: 0, fingerprint: '' });
      const step = mine.accepted;
      for (const k of [0, Math.floor(step / 2), step]) {
        expect(await engine.rows({ session: handle, step: k, filter: ALL, start: 0, count: 400 })).toEqual(
          await whole.rows({ session: reference.id, step: k, filter: ALL, start: 0, count: 400 }),
        );
        expect(await engine.surface({ session: handle, step: k, start: 0, count: 400 })).toEqual(
          await whole.surface({ session: reference.id, step: k, start: 0, count: 400 }),
        );
      }
      // The same findings; while growing, those that depend on the end say they are provisional.
      const found = await engine.diagnostics({ session: handle, start: 0, count: 100 });
      expect(found.items.find((d) => d.rule === 'loader/result')?.provisional).toBe(true);
      expect({ ...found, items: found.items.map(({ provisional: _p, ...d }) => d) }).toEqual(
        await whole.diagnostics({ session: reference.id, start: 0, count: 100 }),
      );
    }
    const reread = await engine.grow({ kind: 'bytes', buffer: prefix(10).slice().buffer, whole: true });
    expect(reread.kind).toBe('reread');
    expect(reread.summary!.sessions[0]!.id).not.toBe(handle);
  });

  it('a picked file is read past what is held', async () => {
    const engine = createEngine({ pause: async () => {} });
    await engine.open({ kind: 'bytes', name: 'f.jsonl', buffer: prefix(30).slice().buffer }, () => {});
    const grown = await engine.grow({ kind: 'file', file: new Blob([prefix(70).slice()]) });
    expect(grown.kind).toBe('appended');
    expect(await engine.grow({ kind: 'file', file: new Blob([prefix(70).slice()]) })).toMatchObject({ kind: 'unchanged', summary: null });
  });
});
