/**
 * `check` over many sessions: parallel results equal serial ones, each report format, --fail-on,
 * rule selection and the config file.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import type { CliIo } from '../../src/cli/run';
import { CLI_BUNDLE_NOTE, HAS_CLI_BUNDLE, spawnBundleWorker } from '../support/check-workers';

/** Parse XML strictly (well-formedness, XML 1.0 characters): the elements with their attributes and text, or a throw. */
function parseXml(xml: string): { name: string; attributes: Record<string, string>; parent: string | null }[] {
  const parser = new SaxesParser();
  const elements: { name: string; attributes: Record<string, string>; parent: string | null }[] = [];
  const stack: string[] = [];
  parser.on('error', (error) => {
    throw error;
  });
  parser.on('opentag', (tag) => {
    elements.push({ name: tag.name, attributes: tag.attributes, parent: stack.at(-1) ?? null });
    stack.push(tag.attributes['name'] as string);
  });
  parser.on('closetag', () => void stack.pop());
  parser.write(xml).close();
  return elements;
}

async function run(args: string[], extra: Partial<CliIo> = {}): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: (t: string) => (err += t) }, ...extra });
  return { code, out, err };
}

const header = (id: string): string => `{"type":"session","version":0,"id":"${id}","createdAt":0,"delegationDepth":0}`;
const user = (seq: number): string =>
  `{"type":"user/message","seq":${seq},"time":0,"data":{"id":"u${seq}","role":"user","content":[{"type":"text","text":"hi <b>&amp; \\u0001"}],"source":{"kind":"user"}},"surfaceOp":"append"}`;

/** A store of `n` sessions; every seventh has a seq gap (a surface error). */
function store(n: number): string {
  const root = mkdtempSync(join(tmpdir(), 'surface-lens-fleet-'));
  for (let i = 0; i < n; i++) {
    const dir = join(root, `--proj-${i % 3}--`, `s${String(i).padStart(3, '0')}`);
    mkdirSync(dir, { recursive: true });
    const seqs = i % 7 === 3 ? [0, 1, 3] : [0, 1, 2];
    writeFileSync(join(dir, 'session.jsonl'), [header(`id-${i}`), ...seqs.map(user), ''].join('\n'));
  }
  return root;
}

const root = store(40);

describe.skipIf(!HAS_CLI_BUNDLE)(`check --jobs${CLI_BUNDLE_NOTE}`, () => {
  it('gives the same output and status on worker threads as on one thread, in every format', async () => {
    for (const format of ['human', 'json', 'md', 'html', 'junit']) {
      const serial = await run(['check', '--format', format, '--jobs', '1', root], { spawnWorker: spawnBundleWorker });
      const parallel = await run(['check', '--format', format, '--jobs', '3', root], { spawnWorker: spawnBundleWorker });
      expect(parallel.out, format).toBe(serial.out);
      expect(parallel.code, format).toBe(serial.code);
      expect(serial.code).toBe(1);
    }
    const records = (await run(['check', '--json', '--jobs', '2', root], { spawnWorker: spawnBundleWorker })).out.trim().split('\n');
    expect(records).toHaveLength(40);
    expect(records.filter((r) => (JSON.parse(r) as { surfaceError: unknown }).surfaceError !== null)).toHaveLength(6);
  });

  it('shows progress on stderr only when it is a terminal', async () => {
    const quiet = await run(['check', '--jobs', '2', root], { spawnWorker: spawnBundleWorker });
    expect(quiet.err).not.toContain('checked ');
    const tty = await run(['check', '--jobs', '2', root], { spawnWorker: spawnBundleWorker, stderr: { write: () => true, isTTY: true } });
    expect(tty.code).toBe(1);
    let err = '';
    await run(['check', '--jobs', '2', root], {
      spawnWorker: spawnBundleWorker,
      stderr: { write: (t: string) => (err += t), isTTY: true },
    });
    expect(err).toContain('checked 40 of 40 files');
  });

  it('refuses a --jobs that is not a whole number ≥ 1', async () => {
    for (const bad of ['0', 'two', '1.5']) {
      const r = await run(['check', '--jobs', bad, root]);
      expect(r.code).toBe(2);
      expect(r.err).toContain(`--jobs needs a whole number from 1`);
    }
  });
});

describe('check --format', () => {
  it('junit: valid XML, one test case per session, failures carrying the first error', async () => {
    const r = await run(['check', '--format', 'junit', root]);
    const elements = parseXml(r.out);
    expect(elements.filter((e) => e.name === 'testcase')).toHaveLength(40);
    const failures = elements.filter((e) => e.name === 'failure');
    expect(failures).toHaveLength(6);
    expect(failures[0]!.attributes['type']).toBe('surface/contiguity');
    expect(failures[0]!.attributes['message']).toBe('session event seq 3 is not contiguous; expected 2');
    expect(failures[0]!.parent).toBe(join(root, '--proj-0--', 's003', 'session.jsonl'));
    expect(elements[0]!.attributes['failures']).toBe('6');
  });

  it('junit escapes markup and characters XML forbids', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'surface-lens-xml-'));
    const path = join(dir, 'a<&>"b.jsonl');
    writeFileSync(path, [header('x'), user(0), '{"type":"user/message","seq":1,\u0001', ''].join('\n'));
    const r = await run(['check', '--format', 'junit', path]);
    const elements = parseXml(r.out);
    expect(elements.find((e) => e.name === 'testcase')!.attributes['name']).toBe(path);
    expect(elements.filter((e) => e.name === 'failure')).toHaveLength(1);
    // The validator itself refuses what XML forbids, so the test above can fail.
    expect(() => parseXml('<a b="\u0001"/>')).toThrow();
    expect(() => parseXml('<a>&</a>')).toThrow();
  });

  it('md: a summary line and one table row per session', async () => {
    const r = await run(['check', '--format', 'md', root]);
    const lines = r.out.split('\n');
    expect(lines[0]).toBe('## Surface Lens check: 40 sessions, 6 failing');
    expect(lines.filter((l) => l.startsWith('| ✅ '))).toHaveLength(34);
    expect(lines.filter((l) => l.startsWith('| ❌ '))).toHaveLength(6);
    expect(r.out).toContain('`surface/contiguity` session event seq 3 is not contiguous; expected 2');
  });

  it('refuses an unknown format', async () => {
    const r = await run(['check', '--format', 'yaml', root]);
    expect(r.code).toBe(2);
    expect(r.err).toContain('--format must be one of human, json, md, html, junit, got "yaml"');
  });
});

describe('check --fail-on, --rule, --ignore-rule and the config file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'surface-lens-rules-'));
  const gap = join(dir, 'gap.jsonl');
  writeFileSync(gap, [header('g'), user(0), user(2), ''].join('\n'));

  it('--fail-on never exits 0 on a failing session; error is the default', async () => {
    expect((await run(['check', gap])).code).toBe(1);
    expect((await run(['check', '--fail-on', 'never', gap])).code).toBe(0);
    expect((await run(['check', '--fail-on', 'sometimes', gap])).code).toBe(2);
  });

  it('--ignore-rule silences a rule or a prefix; --rule selects', async () => {
    const all = JSON.parse((await run(['check', '--json', gap])).out) as { diagnostics: { rule: string }[] };
    const rules = new Set(all.diagnostics.map((d) => d.rule));
    expect(rules.size).toBeGreaterThan(0);
    const ignored = await run(['check', '--json', '--ignore-rule', 'surface', '--ignore-rule', 'qa/', gap]);
    const kept = JSON.parse(ignored.out) as { diagnostics: { rule: string }[]; surfaceError: unknown };
    expect(kept.diagnostics.every((d) => !d.rule.startsWith('surface/') && !d.rule.startsWith('qa/'))).toBe(true);
    // The surface error stays a fact of the record; it no longer fails the check.
    expect(kept.surfaceError).not.toBeNull();
    const anyOtherError = kept.diagnostics.some((d) => (d as unknown as { severity: string }).severity === 'error');
    expect(ignored.code).toBe(anyOtherError ? 1 : 0);
    const only = JSON.parse((await run(['check', '--json', '--rule', 'surface/', gap])).out) as { diagnostics: { rule: string }[] };
    expect(only.diagnostics.every((d) => d.rule.startsWith('surface/'))).toBe(true);
  });

  it('reads surface-lens.config.json, or a surfaceLens key in package.json; options win; bad settings exit 2', async () => {
    const cwd = process.cwd();
    const project = mkdtempSync(join(tmpdir(), 'surface-lens-config-'));
    try {
      process.chdir(project);
      writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'x', surfaceLens: { failOn: 'never', format: 'json' } }));
      const fromPackage = await run(['check', gap]);
      expect(fromPackage.code).toBe(0);
      expect(JSON.parse(fromPackage.out)).toMatchObject({ sessionId: 'g' });
      expect((await run(['check', '--fail-on', 'error', gap])).code).toBe(1);
      writeFileSync(join(project, 'surface-lens.config.json'), JSON.stringify({ format: 'md' }));
      const own = await run(['check', gap]);
      expect(own.out).toMatch(/^## Surface Lens check: 1 sessions, 1 failing/);
      writeFileSync(join(project, 'surface-lens.config.json'), JSON.stringify({ fromat: 'md' }));
      const bad = await run(['check', gap]);
      expect(bad.code).toBe(2);
      expect(bad.err).toContain('unknown setting "fromat"');
    } finally {
      process.chdir(cwd);
    }
  });
});
