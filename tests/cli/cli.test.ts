/**
 * `surface-lens check`: JSON Lines records, human output, exit statuses, refusals.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import { HAS_SHARED, PACKAGED_FIXTURES, SHARED_NOTE, SPEC_VECTORS, readJson } from '../support/shared';

async function run(args: string[]): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    stdout: { write: (t: string) => (out += t) },
    stderr: { write: (t: string) => (err += t) },
  });
  return { code, out, err };
}

const here = dirname(fileURLToPath(import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'surface-lens-cli-'));
const header = '{"type":"session","version":0,"id":"cli","createdAt":0,"delegationDepth":0}';
const user = (seq: number, extra = ''): string =>
  `{"type":"user/message","seq":${seq},"time":0,"data":{"id":"u${seq}","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"${extra}}`;
const good = join(dir, 'good.jsonl');
writeFileSync(good, [header, user(0), user(1), ''].join('\n'));
const bad = join(dir, 'bad.jsonl');
writeFileSync(bad, [header, user(0), user(2), ''].join('\n'));

describe('surface-lens check', () => {
  it('exits 0 and prints a summary for a valid log', async () => {
    const r = await run(['check', good]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('good.jsonl (session cli): jsonl, 2 events');
    expect(r.out).toContain('surface: 2 nodes, 0 replacements, 2 derived messages');
  });

  it('exits 1 and names file, line, seq and rule of the first surface error', async () => {
    const r = await run(['check', bad]);
    expect(r.code).toBe(1);
    expect(r.out).toMatch(
      /SURFACE ERROR at .*bad\.jsonl, line 3, seq 2 \[surface\/contiguity\]: session event seq 2 is not contiguous; expected 1/,
    );
    expect(r.out).toContain('event: {"type":"user/message","seq":2');
  });

  it('writes exactly one JSON object per session per line', async () => {
    const r = await run(['check', '--json', good, bad]);
    const lines = r.out.trim().split('\n');
    expect(lines).toHaveLength(2);
    const records = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(Object.keys(records[0]!)).toEqual([
      'file',
      'format',
      'sessionId',
      'events',
      'surface',
      'surfaceError',
      'decodeError',
      'requests',
      'usage',
      'compactions',
      'diagnostics',
    ]);
    expect(records[0]).toMatchObject({
      format: 'jsonl',
      sessionId: 'cli',
      events: 2,
      surface: { accepted: 2, nodes: [0, 1], replacements: [], replaceGeneration: 0, messages: 2 },
      surfaceError: null,
      decodeError: null,
    });
    expect(records[1]).toMatchObject({
      surface: { accepted: 1, nodes: [0] },
      surfaceError: { seq: 2, line: 3, message: 'session event seq 2 is not contiguous; expected 1' },
    });
    expect(r.code).toBe(1);
  });

  it('reports a decode error with line and byte and keeps the valid prefix', async () => {
    const path = join(dir, 'torn.jsonl');
    writeFileSync(path, [header, user(0), '{"type":', user(2), ''].join('\n'));
    const r = await run(['check', '--json', path]);
    const record = JSON.parse(r.out) as { decodeError: { line: number; byte: number; message: string }; surface: { nodes: number[] } };
    expect(record.decodeError.line).toBe(3);
    expect(record.decodeError.byte).toBe(header.length + user(0).length + 2);
    expect(record.surface.nodes).toEqual([0]);
    expect(r.code).toBe(1);
  });

  it('exits 2 for usage errors, missing files and special files, with clear messages', async () => {
    expect((await run([])).code).toBe(2);
    expect((await run(['frobnicate'])).err).toContain('unknown command "frobnicate"');
    expect((await run(['--frobnicate'])).err).toContain('unknown option --frobnicate');
    const none = await run(['check']);
    expect(none.code).toBe(2);
    expect(none.err).toContain('check needs at least one PATH');
    const yaml = await run(['check', '--yaml', good]);
    expect(yaml.code).toBe(2);
    expect(yaml.err).toContain('surface-lens check: unknown option --yaml');
    expect(yaml.err).toContain('usage: surface-lens check PATH...');
    const noValue = await run(['check', good, '--memory-limit']);
    expect(noValue.code).toBe(2);
    expect(noValue.err).toContain('--memory-limit needs a value');
    const missing = await run(['check', join(dir, 'nope.jsonl')]);
    expect(missing.code).toBe(2);
    expect(missing.err).toMatch(/cannot open .*nope\.jsonl: ENOENT/);
    const device = await run(['check', '/dev/null']);
    expect(device.code).toBe(2);
    expect(device.err).toContain('/dev/null is not a regular file');
    expect(device.err).not.toMatch(/\n\s+at /);
  });

  it('has --version, top-level --help listing the commands, and per-command --help', async () => {
    const version = await run(['--version']);
    expect(version.code).toBe(0);
    expect(version.out).toBe(
      `${(JSON.parse(readFileSync(join(here, '..', '..', 'package.json'), 'utf8')) as { version: string }).version}\n`,
    );
    const help = await run(['--help']);
    expect(help.code).toBe(0);
    expect(help.out).toMatch(/Commands:\n {2}check +validate/);
    const checkHelp = await run(['check', '--help']);
    expect(checkHelp.code).toBe(0);
    expect(checkHelp.out).toContain('usage: surface-lens check PATH...');
    expect(checkHelp.out).toContain('--memory-limit SIZE');
    expect((await run(['help', 'check'])).out).toBe(checkHelp.out);
    // After `--`, `--help` is a path, not a request for help.
    expect((await run(['check', '--', '--help'])).err).toMatch(/cannot open --help: ENOENT/);
  });

  it('checks directories: one record per session, skips named on stderr with the reason', async () => {
    const store = mkdtempSync(join(tmpdir(), 'surface-lens-store-'));
    const put = (path: string, text: string): void => {
      mkdirSync(dirname(join(store, path)), { recursive: true });
      writeFileSync(join(store, path), text);
    };
    put('--home-u-p--/s1/session.jsonl', readFileSync(good, 'utf8'));
    put('--home-u-p--/s2/session.jsonl', readFileSync(bad, 'utf8'));
    put('--home-u-p--/flat.jsonl', readFileSync(good, 'utf8'));
    const r = await run(['check', '--json', store]);
    const records = r.out
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; surfaceError: unknown });
    expect(records.map((x) => x.file)).toEqual([
      join(store, '--home-u-p--/s1/session.jsonl'),
      join(store, '--home-u-p--/s2/session.jsonl'),
    ]);
    expect(records[0]!.surfaceError).toBeNull();
    expect(records[1]!.surfaceError).not.toBeNull();
    expect(r.err).toContain(`skipped flat-layout: ${join(store, '--home-u-p--/flat.jsonl')} is in the old flat layout`);
    expect(r.code).toBe(1);
    const clean = await run(['check', join(store, '--home-u-p--/s1')]);
    expect(clean.code).toBe(0);
    expect(clean.out).toContain('s1/session.jsonl (session cli): jsonl, 2 events');
    const empty = await run(['check', mkdtempSync(join(tmpdir(), 'surface-lens-empty-'))]);
    expect(empty.code).toBe(1);
    expect(empty.err).toMatch(/no session log found in /);
  });
});

describe.skipIf(!HAS_SHARED)(`check on shared vectors and packaged fixtures${SHARED_NOTE}`, () => {
  it('reproduces expected.json through --json for every vector', async () => {
    const expected = readJson<Record<string, { nodes: number[]; error: { seq: unknown; message: string } | null }>>(
      join(SPEC_VECTORS, 'expected.json'),
    );
    for (const [name, want] of Object.entries(expected)) {
      const r = await run(['check', '--json', join(SPEC_VECTORS, name)]);
      const record = JSON.parse(r.out) as { surface: { nodes: number[] }; surfaceError: { seq: unknown; message: string } | null };
      expect(record.surface.nodes, name).toEqual(want.nodes);
      expect(record.surfaceError && { seq: record.surfaceError.seq, message: record.surfaceError.message }, name).toEqual(want.error);
    }
  });

  it('names ZIP members as archive.zip!path', async () => {
    const zip = join(PACKAGED_FIXTURES, 'advanced-toolchain.export.zip');
    const r = await run(['check', '--json', zip]);
    const files = r.out
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { file: string }).file);
    expect(files[0]).toBe(`${zip}!session.jsonl`);
    expect(files.slice(1).every((f) => f.startsWith(`${zip}!subagents/`) && f.endsWith('/session.jsonl'))).toBe(true);
    expect(files.length).toBeGreaterThan(1);
  });

  it('--memory-limit stops a file cleanly, with the rule, where its load would exceed the limit', async () => {
    const big = join(dir, 'big.jsonl');
    writeFileSync(big, [header, ...Array.from({ length: 40_000 }, (_, i) => user(i)), ''].join('\n'));
    const r = await run(['check', big, '--memory-limit', '8M']);
    expect(r.code).toBe(1);
    const stop =
      /DECODE ERROR at .*big\.jsonl, line (\d+), byte (\d+) \[decode\/memory-limit\]: stopped reading .*big\.jsonl at byte \2 \(line \1\): reading on would need about (\d+)\.(\d+) MiB, over the --memory-limit of 8\.(0+) MiB/.exec(
        r.out,
      );
    expect(stop).not.toBeNull();
    // The need and the limit are said at one precision, as many decimals as tell them apart
    // (8.1 MiB over 8.0 MiB, or 8.02 MiB over 8.00 MiB): the need is over the limit as said.
    const [, , , whole, decimals, zeros] = stop!;
    expect(decimals!.length).toBe(zeros!.length);
    expect(Number(`${whole}.${decimals}`)).toBeGreaterThan(8);
    const json = await run(['check', '--json', `--memory-limit=8M`, big]);
    expect((JSON.parse(json.out) as { decodeError: { rule: string } }).decodeError.rule).toBe('decode/memory-limit');
    // No limit by default.
    expect((await run(['check', big])).code).toBe(0);
    const wrong = await run(['check', big, '--memory-limit', 'lots']);
    expect(wrong.code).toBe(2);
    expect(wrong.err).toContain('--memory-limit needs a size such as 512M or 2G, got "lots"');
  });
});

// The published entry point, as `npx surface-lens check` runs it (built by `npm run build:cli`,
// which `npm ci` runs through `prepare`).
const bin = join(here, '..', '..', 'bin', 'surface-lens.mjs');
const built = existsSync(join(here, '..', '..', 'dist-cli', 'surface-lens.mjs'));
describe.skipIf(!built)(`bin/surface-lens.mjs${built ? '' : ' [SKIPPED: run npm run build:cli]'}`, () => {
  it('runs check from the built bundle', () => {
    const out = execFileSync(process.execPath, [bin, 'check', '--json', good], { encoding: 'utf8' });
    expect(JSON.parse(out)).toMatchObject({ sessionId: 'cli', surfaceError: null });
    const failing = spawnSync(process.execPath, [bin, 'check', bad], { encoding: 'utf8' });
    expect(failing.status).toBe(1);
  });
});
