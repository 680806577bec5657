/**
 * The Node store walker: root resolution, the store layout, plain folders, ZIPs, and every
 * entry it passes over named with its reason.
 */
import { copyFileSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openLogFile, readRegularFile, ReadError, resolveSessionRoot, syncWalkFs, walkSessions } from '../../../src/node/store';
import { YIELD_EVERY } from '../../../src/node/store/sync-fs';

const fixtures = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

function tree(files: Record<string, string | { copy: string }>): string {
  const root = mkdtempSync(join(tmpdir(), 'surface-lens-walk-'));
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    if (typeof content === 'string') writeFileSync(join(root, path), content);
    else copyFileSync(join(fixtures, content.copy), join(root, path));
  }
  return root;
}

describe('resolveSessionRoot', () => {
  it('takes an argument, then DSH_SESSION_ROOT, then DSH_HOME/sessions, then ~/.dsh/sessions', () => {
    const env = { DSH_SESSION_ROOT: '/srv/rpc', DSH_HOME: '/opt/dsh' };
    expect(resolveSessionRoot('/x/y', { env, home: '/home/u' })).toEqual({ path: '/x/y', source: 'argument' });
    expect(resolveSessionRoot(undefined, { env, home: '/home/u' })).toEqual({ path: '/srv/rpc', source: 'DSH_SESSION_ROOT' });
    expect(resolveSessionRoot(undefined, { env: { DSH_HOME: '/opt/dsh' }, home: '/home/u' })).toEqual({
      path: '/opt/dsh/sessions',
      source: 'DSH_HOME',
    });
    expect(resolveSessionRoot(undefined, { env: {}, home: '/home/u' })).toEqual({ path: '/home/u/.dsh/sessions', source: 'default' });
    // An empty variable is unset, as a shell's `DSH_HOME=` means.
    expect(resolveSessionRoot('', { env: { DSH_SESSION_ROOT: '', DSH_HOME: '' }, home: '/h' }).source).toBe('default');
  });
});

describe('walkSessions', () => {
  it('lists a store root: project and session directories, both encodings, subagents, in name order', async () => {
    const root = tree({
      '--home-u-proj--/abc/session.jsonl.zstd': { copy: 'small.jsonl.zstd' },
      '--home-u-proj--/abc/notes.txt': 'artifact',
      '--home-u-proj--/~002Edot/session.jsonl.zstd': { copy: 'small.jsonl.zstd' },
      '_no-cwd/child/session.jsonl.zstd': { copy: 'small.jsonl.zstd' },
    });
    const walk = await walkSessions([root]);
    expect(walk.sources.map((s) => [s.path.slice(root.length + 1), s.kind, s.encoding, s.project, s.sessionDir])).toEqual([
      ['--home-u-proj--/abc/session.jsonl.zstd', 'store-session', 'zstd', '--home-u-proj--', 'abc'],
      ['--home-u-proj--/~002Edot/session.jsonl.zstd', 'store-session', 'zstd', '--home-u-proj--', '~002Edot'],
      ['_no-cwd/child/session.jsonl.zstd', 'store-session', 'zstd', '_no-cwd', 'child'],
    ]);
    expect(walk.skipped).toEqual([
      {
        path: join(root, '--home-u-proj--/abc/notes.txt'),
        reason: 'session-artifact',
        message: expect.stringContaining('artifact of the session') as unknown,
      },
    ]);
    expect(walk.notes).toEqual([]);
    // A project directory and a session directory walk the same way, with the layout still known.
    const project = await walkSessions([join(root, '_no-cwd')]);
    expect(project.sources.map((s) => [s.project, s.sessionDir])).toEqual([['_no-cwd', 'child']]);
    const session = await walkSessions([join(root, '_no-cwd', 'child')]);
    expect(session.sources).toHaveLength(1);
    expect(session.sources[0]).toMatchObject({ kind: 'store-session', project: '_no-cwd', sessionDir: 'child' });
  });

  it('names the old flat layout, hidden entries and a root mixing encodings, without refusing the root', async () => {
    const root = tree({
      '--p--/old-id.jsonl': 'x',
      '--p--/old-id2.jsonl.zstd': 'x',
      '--p--/new/session.jsonl': { copy: 'small.jsonl' },
      '--q--/z/session.jsonl.zstd': { copy: 'small.jsonl.zstd' },
      '.trash/--p--/gone/session.jsonl': 'x',
    });
    const walk = await walkSessions([root]);
    expect(walk.sources.map((s) => s.path.slice(root.length + 1))).toEqual(['--p--/new/session.jsonl', '--q--/z/session.jsonl.zstd']);
    expect(walk.skipped.map((s) => [s.path.slice(root.length + 1), s.reason])).toEqual([
      ['--p--/old-id.jsonl', 'flat-layout'],
      ['--p--/old-id2.jsonl.zstd', 'flat-layout'],
      ['.trash', 'hidden'],
    ]);
    expect(walk.skipped[0]!.message).toContain('old flat layout');
    expect(walk.notes).toEqual([
      {
        path: root,
        rule: 'store/mixed-encoding',
        message: expect.stringContaining('both session.jsonl and session.jsonl.zstd') as unknown,
      },
    ]);
  });

  it('walks a plain folder by log suffix, takes ZIPs, names the rest, and keeps a named file whatever its name', async () => {
    const root = tree({
      'a.jsonl': { copy: 'small.jsonl' },
      'b.jsonl.zstd': { copy: 'small.jsonl.zstd' },
      'bundle.zip': { copy: 'export.zip' },
      'README.md': '# not a log',
      'deep/er/c.ndjson': { copy: 'small.jsonl' },
      'capture.log': { copy: 'small.jsonl' },
    });
    const walk = await walkSessions([root, join(root, 'capture.log')]);
    expect(walk.sources.map((s) => [s.path.slice(root.length + 1), s.kind])).toEqual([
      ['a.jsonl', 'file'],
      ['b.jsonl.zstd', 'file'],
      ['bundle.zip', 'export-zip'],
      ['deep/er/c.ndjson', 'file'],
      ['capture.log', 'file'],
    ]);
    expect(walk.skipped.map((s) => [s.path.slice(root.length + 1), s.reason])).toEqual([
      ['README.md', 'not-a-log'],
      ['capture.log', 'not-a-log'],
    ]);
  });

  it('reports missing inputs, special files, duplicates and symlink loops instead of throwing', async () => {
    const root = tree({ 's/session.jsonl': { copy: 'small.jsonl' } });
    symlinkSync(root, join(root, 's', 'loop'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling.jsonl'));
    const walk = await walkSessions([join(root, 'missing'), root, join(root, 's', 'session.jsonl'), '/dev/null']);
    expect(walk.sources.map((s) => s.path)).toEqual([join(root, 's', 'session.jsonl')]);
    expect(walk.skipped.map((s) => [s.path, s.reason])).toEqual([
      [join(root, 'missing'), 'unreadable'],
      [join(root, 'dangling.jsonl'), 'unreadable'],
      [join(root, 's', 'loop'), 'duplicate'],
      [join(root, 's', 'session.jsonl'), 'duplicate'],
      ['/dev/null', 'special-file'],
    ]);
    expect(walk.skipped[0]!.message).toMatch(/cannot open .*missing: ENOENT/);
  });

  it('gives every source an identity that changes when the file does', async () => {
    const root = tree({ 'x/session.jsonl': 'one\n' });
    const before = (await walkSessions([root])).sources[0]!;
    writeFileSync(join(root, 'x/session.jsonl'), 'one\ntwo\n');
    const after = (await walkSessions([root])).sources[0]!;
    expect(before.size).toBe(4);
    expect(after.size).toBe(8);
    expect(after.identity).not.toBe(before.identity);
  });
});

describe('walkSessions for a server (confined links, injected fs)', () => {
  it('names a session directory that never appended, and does not descend below it', async () => {
    const root = tree({ '--p--/a/session.jsonl': 'one\n', '--p--/empty/.keep': '', '--p--/odd/deeper/x.jsonl': '{}\n' });
    const walk = await walkSessions([root]);
    expect(walk.sources.map((s) => s.path)).toEqual([join(root, '--p--/a/session.jsonl')]);
    expect(walk.skipped.map((s) => [s.path, s.reason])).toEqual([
      [join(root, '--p--/empty'), 'no-session-file'],
      [join(root, '--p--/odd'), 'no-session-file'],
    ]);
  });

  it('with confine, follows a link inside the input and skips one out of it; without, follows both', async () => {
    const root = tree({ '--p--/a/session.jsonl': 'one\n' });
    const outside = tree({ '--q--/b/session.jsonl': 'two\n' });
    symlinkSync(join(outside, '--q--'), join(root, '--out--'));
    mkdirSync(join(root, '--p--', 'alias'));
    symlinkSync(join(root, '--p--/a/session.jsonl'), join(root, '--p--/alias/session.jsonl'));
    const confined = await walkSessions([root], { confine: true });
    expect(confined.sources.map((s) => s.path)).toEqual([join(root, '--p--/a/session.jsonl')]);
    expect(confined.skipped.map((s) => [s.path, s.reason])).toEqual([
      [join(root, '--out--'), 'outside-root'],
      [join(root, '--p--/alias/session.jsonl'), 'duplicate'],
    ]);
    expect(confined.skipped[0]?.message).toContain('symbolic link out of the root');
    const open = await walkSessions([root]);
    expect(open.sources.map((s) => s.path)).toContain(join(root, '--out--/b/session.jsonl'));
  });

  it('makes its calls through an injected fs', async () => {
    const root = tree({ '--p--/a/session.jsonl': 'one\n', '--p--/b/session.jsonl': 'two\n' });
    const fsp = await import('node:fs/promises');
    const denied = join(root, '--p--/b');
    const fs = {
      ...fsp,
      readdir: (async (path: string) => {
        if (path === denied) throw Object.assign(new Error('EACCES'), { code: 'EACCES' });
        return fsp.readdir(path);
      }) as typeof fsp.readdir,
    };
    const walk = await walkSessions([root], { fs });
    expect(walk.sources.map((s) => s.path)).toEqual([join(root, '--p--/a/session.jsonl')]);
    expect(walk.skipped).toEqual([{ path: denied, reason: 'unreadable', message: `cannot list ${denied}: EACCES` }]);
  });
});

describe('syncWalkFs', () => {
  it(`walks as the asynchronous calls do: sources, skips, notes, links, more than ${YIELD_EVERY} calls`, async () => {
    const files: Record<string, string | { copy: string }> = { 's/session.jsonl': { copy: 'small.jsonl' }, '--p--/flat.jsonl': '{}\n' };
    for (let i = 0; i < YIELD_EVERY; i++) files[`--p--/s${i}/session.jsonl`] = `${i}\n`;
    files['--p--/z/session.jsonl.zstd'] = { copy: 'small.jsonl.zstd' };
    files['--p--/empty/.keep'] = '';
    const root = tree(files);
    symlinkSync(root, join(root, 's', 'loop'));
    symlinkSync(join(root, 'nowhere'), join(root, 'dangling.jsonl'));
    const outside = tree({ '--q--/b/session.jsonl': 'two\n' });
    symlinkSync(join(outside, '--q--'), join(root, '--out--'));
    const inputs = [join(root, 'missing'), root, join(root, 's', 'session.jsonl'), '/dev/null'];
    for (const confine of [false, true]) {
      const found: string[] = [];
      const sync = await walkSessions(inputs, { fs: syncWalkFs(), confine, onSource: (s) => found.push(s.path) });
      const async = await walkSessions(inputs, { confine });
      expect(sync).toEqual(async);
      expect(found).toEqual(async.sources.map((s) => s.path));
      expect(sync.sources.length).toBeGreaterThan(YIELD_EVERY);
      expect(sync.skipped.map((s) => s.reason)).toEqual(
        expect.arrayContaining(['unreadable', 'duplicate', 'special-file', 'flat-layout', 'no-session-file']),
      );
      expect(sync.notes.map((n) => n.rule)).toEqual(['store/mixed-encoding']);
    }
  });
});

describe('openLogFile', () => {
  it('opens session.jsonl, session.jsonl.zstd and export ZIPs from a walk', async () => {
    const root = tree({
      '--p--/a/session.jsonl': { copy: 'small.jsonl' },
      '--p--/b/session.jsonl.zstd': { copy: 'small.jsonl.zstd' },
      'export.zip': { copy: 'export.zip' },
    });
    const walk = await walkSessions([root]);
    const results = await Promise.all(walk.sources.map((s) => openLogFile(s.path)));
    const plain = results[0]!.sessions[0]!;
    const zstd = results[1]!.sessions[0]!;
    expect(zstd.fold.nodes).toEqual(plain.fold.nodes);
    expect(zstd.log.length).toBe(plain.log.length);
    expect(plain.log.length).toBeGreaterThan(0);
    expect(results[2]!.sessions.length).toBeGreaterThan(0);
    expect(results[2]!.sessions[0]!.path).toBe(`${join(root, 'export.zip')}!session.jsonl`);
  });

  it('refuses directories and missing files with a ReadError naming them', () => {
    const root = tree({});
    expect(() => readRegularFile(root)).toThrow(ReadError);
    expect(() => readRegularFile(root)).toThrow(`${root} is not a regular file`);
    expect(() => readRegularFile(join(root, 'no'))).toThrow(/cannot open .*no: ENOENT/);
  });
});
