/**
 * One list of diagnostics per session: the app (the engine's counts, its diagnostics pages, the
 * report exports), `check` and `check --json` show the same counts for the same file, and the
 * decode and surface errors are in the list once each.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { runCli } from '../../src/cli/run';
import type { Diagnostic, Severity } from '../../src/core/model';
import { generateText } from '../../src/core/gen/generate';
import { createEngine } from '../../src/worker/engine';
import { HAS_SHARED, SHARED_NOTE, UPSTREAM_FIXTURES, listFiles } from '../support/shared';

const OWN = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');
type Counts = Record<Severity, number>;

const count = (list: readonly Pick<Diagnostic, 'severity'>[]): Counts => {
  const out: Counts = { error: 0, warning: 0, info: 0 };
  for (const d of list) out[d.severity] += 1;
  return out;
};

async function cli(args: string[]): Promise<string> {
  let out = '';
  await runCli(args, { stdout: { write: (t: string) => (out += t) }, stderr: { write: () => {} } });
  return out;
}

/** Every place that shows a session's diagnostics, for each session of the file. */
async function everywhere(
  path: string,
): Promise<{ app: Counts; pages: Counts; reportJson: Counts; markdown: string; check: string[]; json: Counts[]; list: Diagnostic[] }[]> {
  const engine = createEngine({ pause: async () => {} });
  const bytes = readFileSync(path);
  const load = await engine.open(
    { kind: 'bytes', name: path, buffer: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
    () => {},
  );
  const human = (await cli(['check', path])).split('\n').filter((l) => l.startsWith('  diagnostics: '));
  const records = (await cli(['check', '--json', path]))
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { diagnostics: Diagnostic[] });
  return Promise.all(
    load.sessions.map(async (s, i) => {
      const page = await engine.diagnostics({ session: s.id, start: 0, count: 2000 });
      const report = JSON.parse((await engine.exportText({ session: s.id, kind: 'report-json', step: s.accepted })).text) as {
        diagnostics: Diagnostic[];
      };
      const markdown = (await engine.exportText({ session: s.id, kind: 'report-markdown', step: s.accepted })).text;
      return {
        app: s.diagnosticCounts,
        pages: count(page.items),
        reportJson: count(report.diagnostics),
        markdown: /\| diagnostics \| ([^|]*) \|/.exec(markdown)?.[1]?.trim() ?? '',
        check: human.slice(i, i + 1),
        json: records.slice(i, i + 1).map((r) => count(r.diagnostics)),
        list: page.items,
      };
    }),
  );
}

function expectAgree(views: Awaited<ReturnType<typeof everywhere>>): void {
  expect(views.length).toBeGreaterThan(0);
  for (const v of views) {
    const text = `${v.app.error} errors, ${v.app.warning} warnings, ${v.app.info} info`;
    expect(v.pages).toEqual(v.app);
    expect(v.reportJson).toEqual(v.app);
    expect(v.json).toEqual([v.app]);
    expect(v.check).toEqual([`  diagnostics: ${text}`]);
    expect(v.markdown).toBe(text);
  }
}

const own = readdirSync(OWN)
  .filter((n) => /\.(jsonl|zstd|zip)$/.test(n))
  .sort();

describe('the same diagnostics everywhere', () => {
  it('has the project fixtures to compare', () => expect(own.length).toBeGreaterThanOrEqual(8));
  for (const name of own) {
    it(`${name}: app, pages, reports, check and check --json agree`, async () => expectAgree(await everywhere(join(OWN, name))));
  }

  it('violation-replace.jsonl: the surface error is in the list once, with the refused event’s seq', async () => {
    const [view] = await everywhere(join(OWN, 'violation-replace.jsonl'));
    const surface = view!.list.filter((d) => d.rule === 'surface/missing-shadowed-source');
    expect(surface).toEqual([expect.objectContaining({ seq: 1177, line: 228 })]);
    expect(view!.app.error).toBe(3);
  });

  it('violation-unparsable.jsonl: the decode error is in the list once', async () => {
    const [view] = await everywhere(join(OWN, 'violation-unparsable.jsonl'));
    expect(view!.list.filter((d) => d.rule === 'decode/error' || /is not valid JSON/.test(d.message))).toHaveLength(1);
    expect(view!.app.error).toBe(2);
  });

  it('a stream-json window names events by seq, not by index (seed 5)', async () => {
    const lines = generateText({ seed: 5, events: 3000, compaction: { thresholdTokens: 3000 } }).split('\n');
    const window = lines.slice(Math.floor(lines.length / 3)).filter((l) => l.startsWith('{"type"'));
    const text = window.map((l) => `{"type":"session_event","sessionId":"a","event":${l}}`).join('\n');
    const engine = createEngine({ pause: async () => {} });
    const [s] = (await engine.open({ kind: 'text', name: 'window.jsonl', text }, () => {})).sessions;
    expect(s!.baseSeq).toBeGreaterThan(0);
    const { items } = await engine.diagnostics({ session: s!.id, start: 0, count: 2000 });
    const located = items.filter((d) => d.seq !== null);
    expect(located.length).toBeGreaterThan(1);
    for (const d of located) {
      expect(d.seq).toBeGreaterThanOrEqual(s!.baseSeq);
      // The event the diagnostic names is on the line it gives.
      const detail = await engine.detail({ session: s!.id, seq: d.seq!, step: s!.accepted });
      expect([d.rule, detail.line]).toEqual([d.rule, d.line ?? detail.line]);
    }
  });
});

describe(`the same diagnostics everywhere: upstream fixtures${SHARED_NOTE}`, () => {
  const files = HAS_SHARED ? listFiles(UPSTREAM_FIXTURES, (n) => /\.(jsonl|zstd|zip)$/.test(n)) : [];
  it.skipIf(!HAS_SHARED)('has ../shared fixtures to compare', () => expect(files.length).toBeGreaterThan(0));
  for (const name of files) {
    it(`${name}: app, pages, reports, check and check --json agree`, async () =>
      expectAgree(await everywhere(join(UPSTREAM_FIXTURES, name))));
  }
});
