/**
 * `check` over many sessions: parallel results equal serial ones, each report format, --fail-on,
 * rule selection and the config file.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { strToU8, zipSync } from 'fflate';
import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { CheckPool, PARALLEL_FROM, autoParallelBytes } from '../../src/cli/check/pool';
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

/** `store(n)` plus what a walk passes over, an empty session and a ZIP without a session (a container finding). */
function mixedStore(n: number): string {
  const root = store(n);
  writeFileSync(join(root, 'README.md'), 'not a log');
  writeFileSync(join(root, '--proj-1--', 'flat.jsonl'), `${header('flat')}\n`);
  mkdirSync(join(root, '--proj-2--', 's-empty'));
  writeFileSync(join(root, '--proj-2--', 's-empty', 'session.jsonl'), '');
  writeFileSync(join(root, 'notes.zip'), zipSync({ 'notes.txt': strToU8('no log here') }));
  return root;
}

/** A worker factory that counts the workers it started. */
function countingSpawn(): { spawn: () => Worker; count: () => number } {
  let started = 0;
  return {
    spawn: () => {
      started += 1;
      return spawnBundleWorker();
    },
    count: () => started,
  };
}

describe.skipIf(!HAS_CLI_BUNDLE)(`check --jobs${CLI_BUNDLE_NOTE}`, () => {
  const mixed = mixedStore(60);
  const prices = join(mixed, '..', `${basename(mixed)}-prices.json`);
  writeFileSync(prices, JSON.stringify({ '*': { input: 2, output: 10 } }));

  it('gives the same output, stderr and status on worker threads as on one thread, in every format', async () => {
    const runs: [string, string[]][] = [
      ...['human', 'json', 'md', 'html', 'junit'].map((format): [string, string[]] => [format, ['--format', format]]),
      ['json --prices --rule', ['--json', '--prices', prices, '--rule', 'surface/']],
      ['md --ignore-rule --fail-on warning', ['--format', 'md', '--ignore-rule', 'qa/', '--fail-on', 'warning']],
    ];
    for (const [name, args] of runs) {
      const one = countingSpawn();
      const serial = await run(['check', ...args, '--jobs', '1', mixed], { spawnWorker: one.spawn });
      const three = countingSpawn();
      const parallel = await run(['check', ...args, '--jobs', '3', mixed], { spawnWorker: three.spawn });
      expect(one.count(), name).toBe(0);
      // The parallel path really ran: three workers, none on the calling thread.
      expect(three.count(), name).toBe(3);
      expect(parallel.out, name).toBe(serial.out);
      expect(parallel.err, name).toBe(serial.err);
      expect(parallel.code, name).toBe(serial.code);
      expect(serial.code, name).toBe(1);
      expect(serial.err, name).toContain('skipped flat-layout');
      expect(serial.err, name).toContain('skipped not-a-log');
    }
    const records = (await run(['check', '--json', '--jobs', '2', root], { spawnWorker: spawnBundleWorker })).out.trim().split('\n');
    expect(records).toHaveLength(40);
    expect(records.filter((r) => (JSON.parse(r) as { surfaceError: unknown }).surfaceError !== null)).toHaveLength(6);
  });

  it(`checks a run below ${PARALLEL_FROM.files} small files on the calling thread, with the same output`, async () => {
    const small = store(PARALLEL_FROM.files - 1);
    const spawned = countingSpawn();
    const parallel = await run(['check', '--json', '--jobs', '2', small], { spawnWorker: spawned.spawn });
    expect(spawned.count()).toBe(0);
    expect(parallel.out).toBe((await run(['check', '--json', '--jobs', '1', small])).out);
    const enough = countingSpawn();
    await run(['check', '--json', '--jobs', '2', store(PARALLEL_FROM.files)], { spawnWorker: enough.spawn });
    expect(enough.count()).toBe(2);
  });

  it('by default starts threads only once the run holds enough bytes to repay them', async () => {
    // 40 small files: threads when --jobs asks for them, the calling thread by default.
    const spawned = countingSpawn();
    const auto = await run(['check', '--json', root], { spawnWorker: spawned.spawn });
    expect(spawned.count()).toBe(0);
    expect(auto.out).toBe((await run(['check', '--json', '--jobs', '2', root], { spawnWorker: spawnBundleWorker })).out);
    // A config file's jobs is a choice too.
    const configured = mkdtempSync(join(tmpdir(), 'surface-lens-jobs-config-'));
    writeFileSync(join(configured, 'jobs.json'), JSON.stringify({ jobs: 2 }));
    const chosen = countingSpawn();
    await run(['check', '--json', '--config', join(configured, 'jobs.json'), root], { spawnWorker: chosen.spawn });
    expect(chosen.count()).toBe(2);

    expect(autoParallelBytes(1)).toBe(Infinity);
    expect(autoParallelBytes(2)).toBe(40 * 2 ** 20);
    expect(autoParallelBytes(8)).toBeLessThan(autoParallelBytes(4));
    // The pool counts the sizes the walk reports: threads start when their sum reaches the bar.
    const files = store(3);
    const paths = (await run(['check', '--json', '--jobs', '1', files])).out
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as { file: string }).file);
    const counted = countingSpawn();
    const pool = new CheckPool({
      jobs: 2,
      auto: true,
      spawn: counted.spawn,
      check: { record: true },
      report: { format: 'json', selection: { rules: [], ignore: [] }, failOn: 'error', prices: null },
    });
    const half = autoParallelBytes(2) / 2;
    pool.add(paths[0] as string, half);
    expect(pool.parallel).toBe(false);
    pool.add(paths[1] as string, half - 1);
    expect(pool.parallel).toBe(false);
    pool.add(paths[2] as string, 1);
    expect(pool.parallel).toBe(true);
    const reports: string[] = [];
    await pool.finish((report) => reports.push(report.stdout));
    expect(counted.count()).toBe(2);
    expect(reports.join('')).toBe((await run(['check', '--json', '--jobs', '1', files])).out);
  });

  it('checks one large file on the calling thread, and starts no more workers than there are files', async () => {
    const big = mkdtempSync(join(tmpdir(), 'surface-lens-big-'));
    const lines = [header('big'), ...Array.from({ length: 12_000 }, (_, seq) => user(seq)), ''].join('\n');
    expect(lines.length).toBeGreaterThan(PARALLEL_FROM.bytes);
    writeFileSync(join(big, 'one.jsonl'), lines);
    const one = countingSpawn();
    const alone = await run(['check', '--json', '--jobs', '4', join(big, 'one.jsonl')], { spawnWorker: one.spawn });
    expect(one.count()).toBe(0);
    expect(alone.out).toBe((await run(['check', '--json', '--jobs', '1', join(big, 'one.jsonl')])).out);
    writeFileSync(join(big, 'two.jsonl'), lines);
    const two = countingSpawn();
    const pair = await run(['check', '--json', '--jobs', '4', big], { spawnWorker: two.spawn });
    expect(two.count()).toBe(2);
    expect(pair.out).toBe((await run(['check', '--json', '--jobs', '1', big])).out);
  });

  it('stops with a clear error, and stops its workers, when a worker crashes, exits or fails a file', async () => {
    // A worker that dies on its third file, one that exits at once, one that answers with a failure.
    const crashing = (): Worker =>
      new Worker(
        `const { parentPort } = require('node:worker_threads');
         let n = 0;
         parentPort.on('message', (m) => { if ('id' in m && ++n === 3) throw new Error('boom in a worker'); });`,
        { eval: true },
      );
    const exiting = (): Worker => new Worker('process.exit(3)', { eval: true });
    const failing = (): Worker =>
      new Worker(
        `const { parentPort } = require('node:worker_threads');
         parentPort.on('message', (m) => { if ('id' in m) parentPort.postMessage({ id: m.id, failure: 'cannot check this' }); });`,
        { eval: true },
      );
    const started: Worker[] = [];
    const track = (spawn: () => Worker) => (): Worker => {
      const worker = spawn();
      started.push(worker);
      return worker;
    };
    await expect(run(['check', '--jobs', '2', root], { spawnWorker: track(crashing) })).rejects.toThrow(
      'a check worker failed: boom in a worker',
    );
    await expect(run(['check', '--jobs', '2', root], { spawnWorker: track(exiting) })).rejects.toThrow(
      'a check worker stopped (exit code 3)',
    );
    await expect(run(['check', '--jobs', '2', root], { spawnWorker: track(failing) })).rejects.toThrow(
      /^checking .*session\.jsonl: cannot check this$/,
    );
    expect(started).toHaveLength(6);
    // Every worker was stopped: none is left to keep the process alive.
    expect(started.every((w) => w.threadId === -1)).toBe(true);
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
