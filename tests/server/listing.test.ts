import { mkdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { generateLog } from '../../src/core/gen/generate';
import { SessionStore } from '../../src/server/listing';
import { nodeFs } from '../../src/server/store-fs';
import type { StoreFs } from '../../src/server/store-fs';
import { encodeSession, sessionLines, sessionPath, writeStore } from '../support/store-builder';
import { tempDir, treeSpecs } from './helpers';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function temp(): string {
  const t = tempDir();
  cleanups.push(t.remove);
  return t.dir;
}

async function listed(paths: string[], fs: StoreFs = nodeFs) {
  const store = new SessionStore({ fs, paths });
  await store.refresh();
  return { store, listing: store.current() };
}

/** The expected title: the latest session/title, else the first user message's text. */
function expectedTitle(lines: string[]): string | null {
  let title: string | null = null;
  let first: string | null = null;
  for (const line of lines.slice(1)) {
    const event = JSON.parse(line) as { type: string; data?: { title?: string; content?: { type: string; text?: string }[] } };
    if (event.type === 'session/title') title = event.data?.title ?? null;
    if (event.type === 'user/message' && first === null) first = event.data?.content?.find((c) => c.type === 'text')?.text ?? null;
  }
  const pick = title ?? first;
  return pick === null ? null : pick.replace(/\s+/g, ' ').trim().slice(0, 200);
}

describe('store listing', () => {
  it.each(['zstd', 'jsonl'] as const)(
    'lists a %s root: projects by cwd, the subagent tree, header fields, opaque ids',
    async (encoding) => {
      const root = temp();
      const specs = treeSpecs(encoding);
      await writeStore(root, specs);
      const { listing } = await listed([root]);
      expect(listing.skipped).toEqual([]);
      expect(listing.sessions).toHaveLength(4);
      const byId = new Map(listing.sessions.map((row) => [row.sessionId, row]));
      expect(byId.get('child-1')).toMatchObject({
        parentSession: 'parent-1',
        origin: 'subagent',
        delegationDepth: 1,
        cwd: '/home/dev/alpha',
        format: encoding,
        state: 'live',
      });
      expect(byId.get('grandchild-1')).toMatchObject({
        parentSession: 'child-1',
        delegationDepth: 2,
        cwd: '/home/dev/alpha/sub',
        projectDir: '--home-dev-alpha-sub--',
      });
      expect(byId.get('other-1')?.createdAt).toBe(1785400300000);
      for (const row of listing.sessions) {
        expect(row.id).toMatch(/^[A-Za-z0-9_-]{22}$/);
        expect(row.id).not.toContain(row.sessionId);
        expect(row.reason).toBeNull();
      }
    },
  );

  it('reads titles lazily: the latest session/title, else the first user message, and the event count', async () => {
    const root = temp();
    const specs = treeSpecs('zstd');
    await writeStore(root, specs);
    const { store, listing } = await listed([root]);
    const details = await store.detailsOf(listing.sessions.map((row) => row.id));
    expect(details).toHaveLength(4);
    for (const spec of specs) {
      const row = listing.sessions.find((r) => r.sessionId === spec.id);
      const detail = details.find((d) => d.id === row?.id);
      const lines = sessionLines(spec);
      expect(detail?.title).toBe(expectedTitle(lines));
      const meta = generateLog({ ...spec.gen, sessionId: spec.id });
      Array.from(meta.lines);
      expect(detail?.events).toBe(meta.meta.events);
    }
  });

  it('falls back to the first user message when there is no session/title', async () => {
    const root = temp();
    const spec = { id: 'untitled', cwd: '/w', gen: { seed: 3, events: 60 }, encoding: 'jsonl' as const };
    const lines = sessionLines(spec).filter((line) => !line.includes('"session/title"'));
    const path = join(root, sessionPath(spec));
    mkdirSync(join(path, '..'), { recursive: true });
    writeFileSync(path, await encodeSession(lines, 'jsonl'));
    const { store, listing } = await listed([root]);
    const [detail] = await store.detailsOf([listing.sessions[0]?.id ?? '']);
    expect(detail?.titleFrom).toBe('first-message');
    expect(detail?.title).toBe(expectedTitle(lines));
  });

  it('lists bad entries with the reason: old flat layout, the other encoding, a damaged header, an empty session directory', async () => {
    const root = temp();
    await writeStore(root, treeSpecs('zstd'));
    const project = join(root, '--home-dev-alpha--');
    writeFileSync(
      join(project, 'old-id.jsonl'),
      `${sessionLines({ id: 'old-id', cwd: '/home/dev/alpha', gen: { seed: 1, events: 20 } }).join('\n')}\n`,
    );
    await writeStore(root, [{ id: 'raw-1', cwd: '/home/dev/alpha', gen: { seed: 2, events: 30 }, encoding: 'jsonl' }]);
    mkdirSync(join(project, 'damaged'));
    writeFileSync(join(project, 'damaged', 'session.jsonl.zstd'), Buffer.from('not a zstandard frame at all\n'));
    mkdirSync(join(project, 'never-appended'));
    const { listing } = await listed([root]);
    const byFile = (pred: (r: (typeof listing.sessions)[number]) => boolean) => listing.sessions.find(pred);
    expect(byFile((r) => r.fileName === 'old-id.jsonl')).toMatchObject({
      state: 'refused',
      reason: expect.stringContaining('old flat layout'),
    });
    expect(byFile((r) => r.sessionId === 'raw-1')).toMatchObject({
      state: 'refused',
      format: 'jsonl',
      reason: expect.stringContaining('a different encoding in this root'),
    });
    expect(
      byFile((r) => r.projectDir === '--home-dev-alpha--' && r.sessionId === null && r.fileName === 'session.jsonl.zstd'),
    ).toMatchObject({ state: 'damaged', reason: expect.stringMatching(/Zstandard|magic|frame/i) });
    expect(listing.skipped).toContainEqual({
      where: join('--home-dev-alpha--', 'never-appended'),
      reason: expect.stringContaining('no session.jsonl.zstd'),
    });
    // The good sessions are still there.
    expect(listing.sessions.filter((r) => r.state === 'live' || r.state === 'ok')).toHaveLength(4);
  });

  it('refuses symbolic links out of the root, follows those inside it', async () => {
    const root = temp();
    const outside = temp();
    await writeStore(root, treeSpecs('zstd').slice(0, 1));
    const [outsidePath] = await writeStore(outside, [{ id: 'secret', cwd: '/elsewhere', gen: { seed: 9, events: 20 } }]);
    mkdirSync(join(root, '--linked--', 'escape'), { recursive: true });
    symlinkSync(outsidePath as string, join(root, '--linked--', 'escape', 'session.jsonl.zstd'));
    symlinkSync(outside, join(root, '--linked-project--'));
    const { listing } = await listed([root]);
    expect(listing.sessions.map((r) => r.sessionId)).toEqual(['parent-1']);
    expect(listing.skipped).toEqual(
      expect.arrayContaining([
        { where: join('--linked--', 'escape', 'session.jsonl.zstd'), reason: expect.stringContaining('symbolic link out of the root') },
        { where: '--linked-project--', reason: expect.stringContaining('symbolic link out of the root') },
      ]),
    );
  });

  it('an unreadable file (EACCES) and a file deleted while read are listed with the reason; the rest stays listed', async () => {
    const root = temp();
    const paths = await writeStore(root, treeSpecs('zstd'));
    const denied = paths[1] as string;
    const vanishing = paths[2] as string;
    const fs: StoreFs = {
      ...nodeFs,
      open: (async (path: string, flags?: string) => {
        if (path === denied) throw Object.assign(new Error(`EACCES: permission denied, open '${path}'`), { code: 'EACCES' });
        if (path === vanishing) rmSync(vanishing);
        return nodeFs.open(path, flags);
      }) as StoreFs['open'],
    };
    const { store, listing } = await listed([root], fs);
    expect(
      listing.sessions.find((r) => r.projectDir === '--home-dev-alpha--' && r.parentSession === null && r.sessionId === null),
    ).toMatchObject({
      state: 'refused',
      reason: 'permission denied (EACCES)',
    });
    expect(listing.sessions.some((r) => r.reason === 'no longer exists (ENOENT)')).toBe(true);
    expect(
      listing.sessions
        .filter((r) => r.state === 'live')
        .map((r) => r.sessionId)
        .sort(),
    ).toEqual(['other-1', 'parent-1']);
    // Next walk: the deleted file is gone, reported as removed.
    const changes = await store.refresh();
    expect(changes.filter((c) => c.kind === 'removed')).toHaveLength(1);
  });

  it('a 10,000-entry directory is listed', async () => {
    const root = temp();
    await writeStore(root, treeSpecs('zstd').slice(0, 1));
    const project = join(root, '--home-dev-alpha--');
    for (let i = 0; i < 10_000; i++) writeFileSync(join(project, `note-${i}.txt`), '');
    const started = performance.now();
    const { listing } = await listed([root]);
    const elapsed = performance.now() - started;
    expect(listing.sessions.map((r) => r.sessionId)).toEqual(['parent-1']);
    expect(listing.skipped.filter((s) => s.reason === 'not a session directory')).toHaveLength(10_000);
    expect(elapsed).toBeLessThan(30_000);
  });

  it('caches by device/inode/size/mtime: an unchanged store is not read again', async () => {
    const root = temp();
    await writeStore(root, treeSpecs('zstd'));
    let opens = 0;
    const fs: StoreFs = { ...nodeFs, open: (...args: Parameters<StoreFs['open']>) => (opens++, nodeFs.open(...args)) };
    const { store } = await listed([root], fs);
    expect(opens).toBeGreaterThan(0);
    opens = 0;
    expect(await store.refresh()).toEqual([]);
    expect(opens).toBe(0);
  });

  it('takes a project directory, a session directory, a single file or a ZIP as the path', async () => {
    const root = temp();
    const paths = await writeStore(root, treeSpecs('jsonl'));
    expect((await listed([join(root, '--home-dev-alpha--')])).listing.sessions).toHaveLength(2);
    expect((await listed([join(paths[3] as string, '..')])).listing.sessions.map((r) => r.sessionId)).toEqual(['other-1']);
    expect((await listed([paths[0] as string])).listing.sessions.map((r) => r.sessionId)).toEqual(['parent-1']);
    const zip = join(root, 'export.zip');
    writeFileSync(zip, Buffer.from([0x50, 0x4b, 0x05, 0x06, ...new Array(18).fill(0)]));
    expect((await listed([zip])).listing.sessions).toMatchObject([{ format: 'zip', fileName: 'export.zip', state: 'ok' }]);
  });
});
