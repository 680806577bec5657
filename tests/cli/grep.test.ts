/**
 * `surface-lens grep`: matches over files, directories and ZIPs, JSON Lines records, exit statuses.
 */
import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) } });
  return { code, out, err };
}

const store = mkdtempSync(join(tmpdir(), 'surface-lens-grep-'));
mkdirSync(join(store, 'project-a', 's1'), { recursive: true });
mkdirSync(join(store, 'project-b', 's2'), { recursive: true });
copyFileSync(join(FIXTURES, 'teaching.jsonl'), join(store, 'project-a', 's1', 'session.jsonl'));
copyFileSync(join(FIXTURES, 'small.jsonl'), join(store, 'project-b', 's2', 'session.jsonl'));
writeFileSync(join(store, 'project-b', 'notes.txt'), 'sunsets are red\n');
const teaching = join(FIXTURES, 'teaching.jsonl');

describe('surface-lens grep', () => {
  it('prints file, seq, type and snippet per match and exits 0', async () => {
    const r = await run(['grep', 'sunsets', teaching]);
    expect(r.code).toBe(0);
    expect(r.out.trim().split('\n')).toEqual([
      `${teaching}:28: user/message: And why are sunsets red?`,
      expect.stringMatching(new RegExp(`^${teaching.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}:42: compaction/summary: .*sunsets are red`)),
      expect.stringMatching(/:43: user\/message: /),
    ]);
  });

  it('writes one JSON object per match with --json', async () => {
    const r = await run(['grep', '--json', 'type:tool/result', teaching]);
    const records = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(records.map((x) => x.seq)).toEqual([11, 30]);
    expect(Object.keys(records[0] as object)).toEqual(['file', 'session', 'seq', 'type', 'snippet', 'marks']);
    expect(records[0]).toMatchObject({ file: teaching, session: 'teaching-sample', type: 'tool/result', marks: [] });
    const marked = JSON.parse((await run(['grep', '--json', 'rayleigh type:compaction/summary', teaching])).out) as {
      snippet: string;
      marks: [number, number][];
    };
    const [mark] = marked.marks;
    expect(mark && marked.snippet.slice(mark[0], mark[1])).toBe('Rayleigh');
  });

  it('walks directories of a store, opening only session files', async () => {
    const r = await run(['grep', '--json', 'is:error', store]);
    expect(r.code).toBe(0);
    const records = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; seq: number });
    expect(records.map((x) => [x.file.slice(store.length), x.seq])).toEqual([
      ['/project-b/s2/session.jsonl', 102],
      ['/project-b/s2/session.jsonl', 1448],
      ['/project-b/s2/session.jsonl', 1449],
      ['/project-b/s2/session.jsonl', 1899],
    ]);
    const both = await run(['grep', '--json', 'type:session/title', store]);
    expect(
      both.out
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { file: string }).file.slice(store.length)),
    ).toEqual(['/project-a/s1/session.jsonl', '/project-b/s2/session.jsonl']);
  });

  it('searches each session of an export ZIP', async () => {
    const r = await run(['grep', '--json', 'type:turn/start seq:..1', join(FIXTURES, 'export.zip')]);
    expect(r.code).toBe(0);
    const files = r.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { file: string }).file);
    expect(files.length).toBeGreaterThan(1);
    expect(new Set(files).size).toBe(files.length);
    for (const f of files) expect(f).toMatch(/export\.zip!/);
  });

  it('exits 1 when nothing matches, 2 for a bad query, a missing path or bad usage', async () => {
    expect((await run(['grep', 'no-such-word-anywhere', teaching])).code).toBe(1);
    const bad = await run(['grep', 'sky "open', teaching]);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('col 5–9: phrase is not closed');
    expect(bad.out).toBe('');
    const missing = await run(['grep', 'sky', join(store, 'nope')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain('ENOENT');
    expect((await run(['grep', 'sky'])).code).toBe(2);
    expect((await run(['grep', 'sky', teaching, '--bogus'])).code).toBe(2);
    const help = await run(['grep', '--help']);
    expect(help.code).toBe(0);
    expect(help.out).toContain('usage: surface-lens grep QUERY PATH...');
  });
});
