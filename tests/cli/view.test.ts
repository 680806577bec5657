import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultCacheDir, defaultRoot, runView } from '../../src/cli/view';
import type { ViewDeps } from '../../src/cli/view';
import type { ViewServer } from '../../src/server/server';
import { writeStore } from '../support/store-builder';
import { fakeApp, http, tempDir, treeSpecs } from '../server/helpers';

const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function io() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { stdout: { write: (t: string) => out.push(t) }, stderr: { write: (t: string) => err.push(t) } }, out, err };
}

async function run(argv: string[], deps: Partial<ViewDeps> = {}) {
  const app = fakeApp();
  cleanups.push(app.remove);
  const streams = io();
  let server: ViewServer | null = null;
  const opened: string[] = [];
  // The search index's default folder is under the home folder: a test's own, never the runner's.
  const home = tempDir();
  cleanups.push(home.remove);
  const code = await runView(argv, streams.io, {
    env: {},
    home: home.dir,
    appDir: app.dir,
    defaultPort: 0,
    open: async (url) => (opened.push(url), null),
    onServer: (s) => {
      server = s;
      cleanups.push(() => s.close());
    },
    ...deps,
  });
  return { code, ...streams, server: server as ViewServer | null, opened };
}

describe('surface-lens view', () => {
  it('serves the given store on loopback, prints one line with the URL and opens it', async () => {
    const store = tempDir();
    cleanups.push(store.remove);
    await writeStore(store.dir, treeSpecs('zstd'));
    const { code, out, err, server, opened } = await run([store.dir]);
    expect(code).toBe(0);
    expect(err).toEqual([]);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatch(/^Surface Lens: 4 sessions from .* at http:\/\/127\.0\.0\.1:\d+\/\?token=[A-Za-z0-9_-]{32}\n$/);
    expect(opened).toEqual([server?.url]);
    expect(server?.host).toBe('127.0.0.1');
    expect((await http(server?.port as number, '/api/store', { 'x-surface-lens-token': server?.token as string })).status).toBe(200);
  });

  it('--no-open does not open; a failed opener is said, not fatal', async () => {
    const store = tempDir();
    cleanups.push(store.remove);
    const quiet = await run([store.dir, '--no-open']);
    expect(quiet.opened).toEqual([]);
    const failing = await run([store.dir], { open: async () => 'there is no display (DISPLAY and WAYLAND_DISPLAY are unset)' });
    expect(failing.code).toBe(0);
    expect(failing.err.join('')).toContain('not opening a browser: there is no display');
  });

  it('warns for another host, refuses bad ports and unknown options (exit 2)', async () => {
    const store = tempDir();
    cleanups.push(store.remove);
    expect((await run([store.dir, '--port', 'x'])).code).toBe(2);
    expect((await run([store.dir, '--port', '70000'])).code).toBe(2);
    expect((await run([store.dir, '--bogus'])).code).toBe(2);
    const other = await run([store.dir, '--no-open', '--host', '0.0.0.0']);
    expect(other.code).toBe(0);
    expect(other.err.join('')).toContain('warning: listening on 0.0.0.0');
    expect(other.out[0]).toContain('http://127.0.0.1:');
  });

  it('takes the given port, and says when it is taken', async () => {
    const store = tempDir();
    cleanups.push(store.remove);
    const first = await run([store.dir, '--no-open']);
    const port = String(first.server?.port);
    const second = await run([store.dir, '--no-open', '--port', port]);
    expect(second.code).toBe(2);
    expect(second.err.join('')).toContain('the port is in use');
  });

  it('resolves the root as the spec says, and falls back to the sample store with --or-sample', async () => {
    expect(defaultRoot({ DSH_SESSION_ROOT: '/a' }, '/home/u')).toBe('/a');
    expect(defaultRoot({ DSH_HOME: '/h' }, '/home/u')).toBe('/h/sessions');
    expect(defaultRoot({}, '/home/u')).toBe(join('/home/u', '.dsh', 'sessions'));
    expect(defaultCacheDir({ XDG_CACHE_HOME: '/x' }, '/home/u')).toBe(join('/x', 'surface-lens'));
    expect(defaultCacheDir({ XDG_CACHE_HOME: 'relative' }, '/home/u')).toBe(join('/home/u', '.cache', 'surface-lens'));
    expect(defaultCacheDir({}, '/home/u')).toBe(join('/home/u', '.cache', 'surface-lens'));
    const home = tempDir();
    cleanups.push(home.remove);
    const sample = await run(['--no-open', '--or-sample'], { env: {}, home: home.dir });
    expect(sample.code).toBe(0);
    expect(sample.out[0]).toContain('the bundled sample store');
    expect(sample.server?.store.current().sessions.length).toBeGreaterThanOrEqual(6);
    const missing = await run(['--no-open'], { env: {}, home: home.dir });
    expect(missing.err.join('')).toContain('no session store at');
  });
});
