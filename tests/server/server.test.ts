import { appendFileSync, chmodSync, mkdirSync, readFileSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { walkZstdFrames } from '../../src/core/decode/zstd';
import type { StoreChange, StoreDetails, StoreListing } from '../../src/protocol/store-api';
import { startViewServer } from '../../src/server/server';
import type { ViewServer, ViewServerOptions } from '../../src/server/server';
import { writeStore } from '../support/store-builder';
import { zstdFrames } from '../support/zstd-frames';
import { fakeApp, http, snapshotTree, tempDir, treeSpecs, until } from './helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function serve(paths: string[], options: Partial<ViewServerOptions> = {}): Promise<ViewServer & { auth: Record<string, string> }> {
  const app = fakeApp();
  cleanups.push(app.remove);
  const server = await startViewServer({ paths, appDir: app.dir, defaultPort: 0, pollMs: 200, ...options });
  cleanups.push(() => server.close());
  return Object.assign(server, { auth: { 'x-surface-lens-token': server.token } });
}

async function storeWithTree(): Promise<{ root: string; paths: string[] }> {
  const t = tempDir();
  cleanups.push(t.remove);
  const paths = await writeStore(t.dir, treeSpecs('zstd'));
  return { root: t.dir, paths };
}

const json = <T>(body: Buffer): T => JSON.parse(body.toString('utf8')) as T;

describe('view server safety', () => {
  it('binds to the loopback address only by default', async () => {
    const { root } = await storeWithTree();
    const server = await serve([root]);
    expect(server.host).toBe('127.0.0.1');
    expect(server.url).toMatch(new RegExp(`^http://127\\.0\\.0\\.1:${server.port}/\\?token=[A-Za-z0-9_-]{32}$`));
    const external = Object.values(networkInterfaces())
      .flat()
      .find((info) => info && info.family === 'IPv4' && !info.internal);
    if (external) {
      // The same port on another interface of this machine is closed.
      const refused = await new Promise<boolean>((resolve) => {
        const socket = connect({ host: external.address, port: server.port });
        socket.on('connect', () => (socket.destroy(), resolve(false)));
        socket.on('error', () => resolve(true));
      });
      expect(refused).toBe(true);
    }
    const ok = await http(server.port, '/api/store', server.auth);
    expect(ok.status).toBe(200);
  });

  it('requires the token on every data request; the printed URL turns it into a SameSite=Strict cookie', async () => {
    const { root } = await storeWithTree();
    const server = await serve([root]);
    const listing = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body);
    const id = listing.sessions[0]?.id as string;
    const dataPaths = [
      '/api/store',
      `/api/store/details?ids=${id}`,
      `/api/store/session/${id}/file`,
      `/api/store/session/${id}/bytes?from=0`,
      '/api/store/events',
    ];
    for (const path of dataPaths) {
      expect((await http(server.port, path)).status, path).toBe(401);
      expect((await http(server.port, path, { 'x-surface-lens-token': 'wrong' })).status, path).toBe(401);
      expect((await http(server.port, path, { cookie: `surface_lens_token_${server.port}=${server.token.slice(1)}x` })).status, path).toBe(
        401,
      );
      // The token in a query string is not a credential for data.
      expect((await http(server.port, `${path}${path.includes('?') ? '&' : '?'}token=${server.token}`)).status, path).toBe(401);
    }
    const first = await http(server.port, `/?token=${server.token}`);
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain('SameSite=Strict');
    expect(cookie).toContain('HttpOnly');
    const pair = cookie.split(';')[0] as string;
    for (const path of dataPaths.slice(0, 4)) expect((await http(server.port, path, { cookie: pair })).status, path).toBe(200);
    expect((await http(server.port, `/?token=nope`)).status).toBe(401);
    // Static assets are public.
    expect((await http(server.port, '/')).status).toBe(200);
  });

  it('checks Host against DNS rebinding', async () => {
    const { root } = await storeWithTree();
    const server = await serve([root]);
    for (const host of [`evil.example:${server.port}`, `127.0.0.1.nip.io:${server.port}`, `127.0.0.1:${server.port + 1}`, 'localhost']) {
      expect((await http(server.port, '/api/store', { ...server.auth, host })).status, host).toBe(421);
      expect((await http(server.port, '/', { host })).status, host).toBe(421);
    }
    for (const host of [`127.0.0.1:${server.port}`, `localhost:${server.port}`, `LOCALHOST:${server.port}`]) {
      expect((await http(server.port, '/api/store', { ...server.auth, host })).status, host).toBe(200);
    }
  });

  it('checks Origin and Sec-Fetch-Site on the events stream and the API', async () => {
    const { root } = await storeWithTree();
    const server = await serve([root]);
    for (const path of ['/api/store/events', '/api/store']) {
      expect((await http(server.port, path, { ...server.auth, origin: 'http://evil.example' })).status, path).toBe(403);
      expect((await http(server.port, path, { ...server.auth, origin: `http://localhost:${server.port + 1}` })).status, path).toBe(403);
      expect((await http(server.port, path, { ...server.auth, origin: 'null' })).status, path).toBe(403);
      expect((await http(server.port, path, { ...server.auth, 'sec-fetch-site': 'cross-site' })).status, path).toBe(403);
      expect((await http(server.port, path, { ...server.auth, 'sec-fetch-site': 'same-site' })).status, path).toBe(403);
    }
    expect(
      (
        await http(server.port, '/api/store', {
          ...server.auth,
          origin: `http://127.0.0.1:${server.port}`,
          'sec-fetch-site': 'same-origin',
        })
      ).status,
    ).toBe(200);
  });

  it('writes nothing under the roots (tree snapshot before and after reading, following and refusing)', async () => {
    const { root } = await storeWithTree();
    mkdirSync(join(root, '--home-dev-alpha--', 'never-appended'));
    writeFileSync(join(root, '--home-dev-alpha--', 'old.jsonl'), '{"type":"session","version":0,"id":"old","createdAt":1}\n');
    const before = snapshotTree(root);
    const server = await serve([root]);
    const listing = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body);
    await http(server.port, `/api/store/details?ids=${listing.sessions.map((r) => r.id).join(',')}`, server.auth);
    for (const row of listing.sessions) {
      await http(server.port, `/api/store/session/${row.id}/file`, server.auth);
      await http(server.port, `/api/store/session/${row.id}/bytes?from=0`, server.auth);
      for (const method of ['POST', 'PUT', 'DELETE'])
        expect((await http(server.port, `/api/store/session/${row.id}/file`, server.auth, method)).status).toBe(405);
    }
    await new Promise((resolve) => setTimeout(resolve, 600)); // a few polls of the watch
    await server.close();
    expect(snapshotTree(root)).toEqual(before);
  });

  it('refuses a session file replaced by a symbolic link out of the root after it was listed', async () => {
    const { root, paths } = await storeWithTree();
    const outside = tempDir();
    cleanups.push(outside.remove);
    writeFileSync(join(outside.dir, 'secret.jsonl.zstd'), 'secret');
    const server = await serve([root], { pollMs: 60_000, noWatcher: true });
    const listing = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body);
    const row = listing.sessions.find((r) => r.sessionId === 'other-1');
    rmSync(paths[3] as string);
    symlinkSync(join(outside.dir, 'secret.jsonl.zstd'), paths[3] as string);
    const response = await http(server.port, `/api/store/session/${row?.id}/file`, server.auth);
    expect(response.status).toBe(404);
    expect(response.body.toString()).not.toContain('secret');
    // Ids are opaque: a path in their place is not a session.
    expect((await http(server.port, `/api/store/session/${encodeURIComponent(paths[0] as string)}/file`, server.auth)).status).toBe(404);
  });

  it('keeps serving with a deleted-while-listed session, an unreadable file, a 10,000-entry directory, an old-layout file and both encodings', async () => {
    const { root, paths } = await storeWithTree();
    const project = join(root, '--home-dev-beta--');
    for (let i = 0; i < 10_000; i++) writeFileSync(join(project, `x${i}`), '');
    writeFileSync(join(project, 'old.jsonl'), '{"type":"session","version":0,"id":"old","createdAt":1}\n');
    await writeStore(root, [{ id: 'raw', cwd: '/home/dev/beta', gen: { seed: 5, events: 20 }, encoding: 'jsonl' }]);
    chmodSync(paths[1] as string, 0o000);
    cleanups.push(() => chmodSync(paths[1] as string, 0o644));
    const server = await serve([root], { pollMs: 60_000, noWatcher: true });
    const listing = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body);
    expect(listing.sessions.find((r) => r.fileName === 'old.jsonl')?.reason).toContain('old flat layout');
    expect(listing.sessions.find((r) => r.sessionId === 'raw')?.reason).toContain('different encoding');
    // As root every file is readable; the listing tests cover EACCES with an injected failure.
    if (process.getuid?.() !== 0) expect(listing.sessions.some((r) => r.reason === 'permission denied (EACCES)')).toBe(true);
    const gone = listing.sessions.find((r) => r.sessionId === 'grandchild-1');
    rmSync(paths[2] as string);
    const deleted = await http(server.port, `/api/store/session/${gone?.id}/file`, server.auth);
    expect(deleted.status).toBe(404);
    expect(json<{ error: string }>(deleted.body).error).toContain('no longer exists');
    const details = json<StoreDetails[]>((await http(server.port, `/api/store/details?ids=${gone?.id}`, server.auth)).body);
    expect(details).toHaveLength(1);
    // Still serving.
    expect((await http(server.port, '/api/store', server.auth)).status).toBe(200);
    const parent = listing.sessions.find((r) => r.sessionId === 'parent-1');
    expect(
      (await http(server.port, `/api/store/session/${parent?.id}/file`, server.auth)).body.equals(readFileSync(paths[0] as string)),
    ).toBe(true);
  });
});

describe('byte ranges', () => {
  it('sends whole frames from an offset, and a partial last frame later', async () => {
    const { root, paths } = await storeWithTree();
    const server = await serve([root], { pollMs: 60_000, noWatcher: true });
    const row = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body).sessions.find(
      (r) => r.sessionId === 'other-1',
    );
    const file = readFileSync(paths[3] as string);
    const frames = walkZstdFrames(file).frames;
    const whole = await http(server.port, `/api/store/session/${row?.id}/bytes?from=0`, server.auth);
    expect(whole.body.equals(file)).toBe(true);
    expect(whole.headers['x-store-end']).toBe(String(file.length));
    const second = frames[1]?.start as number;
    const tail = await http(server.port, `/api/store/session/${row?.id}/bytes?from=${second}`, server.auth);
    expect(tail.body.equals(file.subarray(second))).toBe(true);
    expect((await http(server.port, `/api/store/session/${row?.id}/bytes?from=${second + 1}`, server.auth)).status).toBe(416);
    // A batch written halfway: not sent until complete.
    const batch = await zstdFrames(['{"type":"turn/start","seq":999,"time":1,"data":{}}\n']);
    appendFileSync(paths[3] as string, batch.subarray(0, 7));
    const partial = await http(server.port, `/api/store/session/${row?.id}/bytes?from=${file.length}`, server.auth);
    expect(partial.body.length).toBe(0);
    expect(partial.headers['x-store-end']).toBe(String(file.length));
    appendFileSync(paths[3] as string, batch.subarray(7));
    const done = await http(server.port, `/api/store/session/${row?.id}/bytes?from=${file.length}`, server.auth);
    expect(done.body.equals(Buffer.from(batch))).toBe(true);
    expect(done.headers['x-store-head']).toBe(whole.headers['x-store-head']);
  });

  it('sends whole lines of a raw log from an offset', async () => {
    const t = tempDir();
    cleanups.push(t.remove);
    const [path] = await writeStore(t.dir, [{ id: 'raw', cwd: '/w', gen: { seed: 4, events: 50 }, encoding: 'jsonl' }]);
    const server = await serve([t.dir], { pollMs: 60_000, noWatcher: true });
    const row = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body).sessions[0];
    const file = readFileSync(path as string);
    appendFileSync(path as string, '{"type":"turn/start","seq":77');
    const response = await http(server.port, `/api/store/session/${row?.id}/bytes?from=0`, server.auth);
    expect(response.body.equals(file)).toBe(true);
    const mid = file.indexOf(0x0a) + 5;
    expect((await http(server.port, `/api/store/session/${row?.id}/bytes?from=${mid}`, server.auth)).status).toBe(416);
    truncateSync(path as string, 10);
    const shrunk = await http(server.port, `/api/store/session/${row?.id}/bytes?from=${file.length}`, server.auth);
    expect(shrunk.status).toBe(416);
  });
});

/** Reads change events from an SSE response. */
function subscribe(port: number, auth: Record<string, string>): { changes: StoreChange[]; close: () => void } {
  const changes: StoreChange[] = [];
  const controller = new AbortController();
  void fetch(`http://127.0.0.1:${port}/api/store/events`, { headers: auth, signal: controller.signal })
    .then(async (response) => {
      const reader = (response.body as ReadableStream<Uint8Array>).getReader();
      const decoder = new TextDecoder();
      let text = '';
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += decoder.decode(value, { stream: true });
        let end;
        while ((end = text.indexOf('\n\n')) >= 0) {
          const block = text.slice(0, end);
          text = text.slice(end + 2);
          const data = block.split('\n').find((line) => line.startsWith('data: '));
          if (data) changes.push(JSON.parse(data.slice(6)) as StoreChange);
        }
      }
    })
    .catch(() => {});
  return { changes, close: () => controller.abort() };
}

describe.each([
  ['fs.watch', false],
  ['polling fallback', true],
] as const)('watch (%s)', (_name, noWatcher) => {
  it('pushes appeared, grew, rewritten and removed over one stream', async () => {
    const { root, paths } = await storeWithTree();
    const server = await serve([root], { noWatcher, pollMs: noWatcher ? 150 : 2000 });
    const stream = subscribe(server.port, server.auth);
    cleanups.push(stream.close);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [added] = await writeStore(root, [{ id: 'new-1', cwd: '/home/dev/gamma', gen: { seed: 21, events: 40 } }]);
    const appeared = await until(() => stream.changes.find((c) => c.kind === 'appeared'), 8000, 'appeared');
    expect(appeared.row?.sessionId).toBe('new-1');
    appendFileSync(added as string, await zstdFrames(['{"type":"turn/start","seq":999,"time":1,"data":{}}\n']));
    const grew = await until(() => stream.changes.find((c) => c.kind === 'grew'), 8000, 'grew');
    expect(grew.id).toBe(appeared.id);
    truncateSync(paths[0] as string, 100);
    const rewritten = await until(() => stream.changes.find((c) => c.kind === 'rewritten'), 8000, 'rewritten');
    expect(rewritten.row?.size).toBe(100);
    rmSync(join(paths[3] as string, '..'), { recursive: true });
    await until(() => stream.changes.find((c) => c.kind === 'removed'), 8000, 'removed');
  });
});

describe('session file by range (a follower reading past its size)', () => {
  it('answers Range with 206 and the bytes, past the end with 416 and the size, an unchanged ETag with 304', async () => {
    const { root, paths } = await storeWithTree();
    const server = await serve([root], { pollMs: 60_000, noWatcher: true });
    const row = json<StoreListing>((await http(server.port, '/api/store', server.auth)).body).sessions.find(
      (r) => r.sessionId === 'other-1',
    );
    const path = `/api/store/session/${row?.id}/file/session.jsonl.zstd`;
    const file = readFileSync(paths[3] as string);
    const whole = await http(server.port, path, server.auth);
    expect(whole.status).toBe(200);
    expect(whole.body.equals(file)).toBe(true);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    const head = await http(server.port, path, { ...server.auth, range: 'bytes=0-63' });
    expect(head.status).toBe(206);
    expect(head.body.equals(file.subarray(0, 64))).toBe(true);
    expect(head.headers['content-range']).toBe(`bytes 0-63/${file.length}`);
    expect((await http(server.port, path, { ...server.auth, range: `bytes=${file.length}-` })).headers['content-range']).toBe(
      `bytes */${file.length}`,
    );
    expect((await http(server.port, path, { ...server.auth, 'if-none-match': String(whole.headers.etag) })).status).toBe(304);
    const batch = await zstdFrames(['{"type":"turn/start","seq":999,"time":1,"data":{}}\n']);
    appendFileSync(paths[3] as string, batch);
    const tail = await http(server.port, path, {
      ...server.auth,
      range: `bytes=${file.length}-`,
      'if-none-match': String(whole.headers.etag),
    });
    expect(tail.status).toBe(206);
    expect(tail.body.equals(Buffer.from(batch))).toBe(true);
    // Without the token, no range either.
    expect((await http(server.port, path, { range: 'bytes=0-63' })).status).toBe(401);
  });
});
