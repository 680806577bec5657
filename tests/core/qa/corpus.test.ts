/**
 * The compaction QA check over everything the project already uses: generated logs (the option
 * sets of the other test suites, with and without injected violations), the project's fixtures
 * and ../shared's upstream recordings, packaged fixtures and spec vectors (when present). A
 * clean generated log must give no qa finding at all; the recorded findings on the fixtures are
 * pinned below.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import type { GenOptions } from '../../../src/core/gen/generate';
import { VIOLATION_KINDS, generateText } from '../../../src/core/gen/generate';
import { naiveDecode } from '../../support/naive-decode';
import { HAS_SHARED, PACKAGED_FIXTURES, SHARED_NOTE, SPEC_VECTORS, UPSTREAM_FIXTURES, listFiles, readBytes } from '../../support/shared';
import { runQa } from './adapter';

const OWN = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

const CLEAN: GenOptions[] = [
  { seed: 1, events: 2000, packChunks: false },
  { seed: 2, events: 2000, packChunks: true },
  { seed: 2, events: 3000 },
  { seed: 3, events: 400 },
  { seed: 3, events: 3000, compaction: { thresholdTokens: 3000 } },
  { seed: 4, events: 3000, compaction: { thresholdTokens: 4000 } },
  { seed: 7, events: 3000 },
  { seed: 8, events: 3000 },
  { seed: 9, events: 800 },
  { seed: 5, events: 20_000, compaction: { thresholdTokens: 2000, keepRatio: 0.6 } },
  { seed: 6, events: 20_000, pruneThreshold: 500, longToolResultRate: 0.3, compaction: { thresholdTokens: 1500, manualRate: 0.3 } },
  { seed: 13, events: 5000, openTail: true, compaction: { thresholdTokens: 2500 } },
  { seed: 1, events: 100_000 },
];

function label(options: GenOptions): string {
  return JSON.stringify(options);
}

describe('generated logs', () => {
  for (const options of CLEAN) {
    it(`${label(options)}: no qa findings`, () => {
      const { events } = naiveDecode(generateText(options));
      const run = runQa(events);
      expect(run.foldError).toBeNull();
      expect(run.diagnostics).toEqual([]);
      // Same verdict when the context answers null for log-only events.
      expect(runQa(events, { logOnlyAsNull: true }).diagnostics).toEqual([]);
    });
  }

  it('exercise every replacement form the rules look at', () => {
    const { events } = naiveDecode(
      generateText({
        seed: 6,
        events: 20_000,
        pruneThreshold: 500,
        longToolResultRate: 0.3,
        compaction: { thresholdTokens: 1500, manualRate: 0.3 },
      }),
    );
    const run = runQa(events);
    const types = new Set(run.replaceIndices.map((i) => (events[i] as { type: string }).type));
    expect(types).toEqual(new Set(['user/message', 'tool/result']));
    expect(run.replaceIndices.length).toBeGreaterThan(100);
  });

  for (const [n, kind] of VIOLATION_KINDS.entries()) {
    it(`violation ${kind}: no qa errors (the check stops where the fold refuses)`, () => {
      const text = generateText({ seed: 20 + n, events: 1200, violation: kind });
      const { events } = naiveDecode(text);
      const run = runQa(events);
      expect(run.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    });
  }
});

/** `rule@seq` of every qa finding of every session in a file. */
async function findings(dir: string, name: string): Promise<Record<string, string[]>> {
  const { sessions } = await openBytes(readBytes(join(dir, name)), { name });
  const out: Record<string, string[]> = {};
  for (const session of sessions) {
    const log = session.log;
    const events = Array.from({ length: log.length }, (_, i) => log.event(i));
    const run = runQa(events, { baseSeq: session.baseSeq, lineOf: (i) => log.origin(i).line || null });
    out[session.path] = run.diagnostics.map((d) => `${d.severity} ${d.rule}@${String(d.seq)}`);
  }
  return out;
}

/** Findings on the shared material (real upstream logs and hand-written vectors). */
const EXPECTED: Record<string, string[]> = {
  // A hand-made replace in an upstream test snapshot: a compact-sourced checkpoint with no
  // compaction bracket at all (events.md §6.1 is not followed).
  'examples__acp-agent__tests__snapshots__agent-instructions__session.jsonl': ['error qa/checkpoint-sources@17'],
  // Spec vector for the relational "checkpoint has no matching compaction/start" case; its
  // checkpoint is also bigger than the one short message it replaces.
  'rel-checkpoint-no-bracket.jsonl': ['error qa/checkpoint-sources@2', 'error qa/summary-larger@2'],
};

describe('project fixtures', () => {
  const files = listFiles(OWN, (n) => !n.startsWith('.'));
  it('are present', () => expect(files.length).toBeGreaterThanOrEqual(8));
  for (const name of files) {
    it(`${name}: no qa findings`, async () => {
      for (const [path, found] of Object.entries(await findings(OWN, name))) expect([path, found]).toEqual([path, []]);
    });
  }
});

describe.skipIf(!HAS_SHARED)(`shared fixtures and vectors${SHARED_NOTE}`, () => {
  const dirs = HAS_SHARED ? [UPSTREAM_FIXTURES, PACKAGED_FIXTURES, SPEC_VECTORS] : [];
  // A suite without tests is an error: the skip is said as a skipped test.
  if (!HAS_SHARED) it.skip('upstream recordings, packaged fixtures and spec vectors', () => {});
  for (const dir of dirs) {
    for (const name of listFiles(dir, (n) => /\.(jsonl|zstd|zip)$/.test(n))) {
      it(`${name}: qa findings as recorded`, async () => {
        for (const [path, found] of Object.entries(await findings(dir, name))) {
          expect([path, found]).toEqual([path, EXPECTED[path] ?? []]);
        }
      });
    }
  }
});
