/**
 * Regenerate the bundled app samples (public/samples) and the project's own test fixtures
 * (tests/fixtures) from the deterministic generators. Run after changing a generator:
 *
 *   npm run samples
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { zipSync } from 'fflate';
import { generateLog, generateText } from '../src/core/gen/generate';
import type { GenOptions } from '../src/core/gen/generate';
import { teachingSession } from '../src/core/gen/script';
import { projectSnapshot, toJsonArrayWithHeader, toJsonRpcNotifications, withByteOrderMark } from '../src/core/gen/forms';
import { zstdFrames } from '../tests/support/zstd-frames';
import { writeSampleStore } from './sample-store';

const samples = join('public', 'samples');
const fixtures = join('tests', 'fixtures');
mkdirSync(samples, { recursive: true });
mkdirSync(fixtures, { recursive: true });

/** Lines of a generated log, grouped as dsh writes them: the header alone, then batches. */
function batches(opts: GenOptions, size: number): string[] {
  const lines = Array.from(generateLog(opts).lines);
  const out = [`${lines[0] as string}\n`];
  for (let i = 1; i < lines.length; i += size) out.push(`${lines.slice(i, i + size).join('\n')}\n`);
  return out;
}

const NESTED: GenOptions = {
  seed: 5,
  events: 600,
  compaction: { thresholdTokens: 500, failureRate: 0.1 },
  pruneThreshold: 600,
  longToolResultRate: 0.4,
};
const SMALL: GenOptions = { seed: 2, events: 3000, compaction: { thresholdTokens: 3000 }, pruneThreshold: 2000, longToolResultRate: 0.2 };

async function main(): Promise<void> {
  const teaching = teachingSession().toJsonl();
  writeFileSync(join(samples, 'teaching.jsonl'), teaching);
  writeFileSync(join(samples, 'nested.jsonl'), generateText(NESTED));
  writeFileSync(join(samples, 'large.jsonl.zstd'), await zstdFrames(batches({ seed: 1, events: 200_000 }, 400)));
  writeFileSync(
    join(samples, 'index.json'),
    `${JSON.stringify(
      [
        {
          name: 'teaching',
          file: 'teaching.jsonl',
          title: 'Teaching log',
          description: 'Two short turns: a tool call, a tool-result prune, then a compaction that shadows the prune (about 50 events).',
        },
        {
          name: 'nested',
          file: 'nested.jsonl',
          title: 'Nested compactions and prunes',
          description:
            'A busy turn with 4 compaction summaries (later ones shadowing earlier ones), 1 failed compaction and 4 tool-result prunes (729 events).',
        },
        {
          name: 'large',
          file: 'large.jsonl.zstd',
          title: 'Large log (Zstandard)',
          description: '200,000 events in a multi-frame session.jsonl.zstd.',
        },
      ],
      null,
      2,
    )}\n`,
  );

  // Project fixtures: small, varied, and independent of ../shared.
  writeFileSync(join(fixtures, 'teaching.jsonl'), teaching);
  writeFileSync(join(fixtures, 'nested.jsonl'), generateText(NESTED));
  writeFileSync(join(fixtures, 'small.jsonl'), generateText(SMALL));
  const frames = batches(SMALL, 64);
  const zstd = await zstdFrames(frames);
  writeFileSync(join(fixtures, 'small.jsonl.zstd'), zstd);
  // A crash mid-write: the last frame cut in half.
  const last = await zstdFrames(frames.slice(-1));
  writeFileSync(join(fixtures, 'small.torn.jsonl.zstd'), zstd.subarray(0, zstd.length - Math.ceil(last.length / 2)));
  writeFileSync(join(fixtures, 'violation-replace.jsonl'), generateText({ ...SMALL, violation: 'replace-missing-shadowed-source' }));
  writeFileSync(join(fixtures, 'violation-unparsable.jsonl'), generateText({ ...SMALL, violation: 'unparsable-line' }));
  // An export ZIP: the root session and two subagent children.
  const child = (n: number): string => {
    const text = generateText({ seed: 40 + n, events: 300, sessionId: `child-${n}` });
    const [header, ...rest] = text.split('\n');
    const h = {
      ...(JSON.parse(header as string) as Record<string, unknown>),
      parentSession: 'root',
      origin: 'subagent',
      delegationDepth: 1,
    };
    return [JSON.stringify(h), ...rest].join('\n');
  };
  const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
  writeFileSync(
    join(fixtures, 'export.zip'),
    zipSync(
      {
        'session.jsonl': enc(generateText({ seed: 40, events: 500, sessionId: 'root' })),
        'subagents/child-1/session.jsonl': enc(child(1)),
        'subagents/child-2/session.jsonl': enc(child(2)),
      },
      // A fixed timestamp keeps the archive byte-identical from run to run.
      { mtime: new Date(Date.UTC(2026, 0, 1)) },
    ),
  );
  await writeSampleStore('sample-store');
  // The other text forms of one log (packed rows included): each must fold like the original.
  const forms = join(fixtures, 'forms');
  mkdirSync(forms, { recursive: true });
  const nested = generateText(NESTED);
  writeFileSync(join(forms, 'nested.jsonl'), nested);
  writeFileSync(join(forms, 'nested.projected.jsonl'), projectSnapshot(nested));
  writeFileSync(join(forms, 'nested.notifications.jsonl'), toJsonRpcNotifications(nested));
  writeFileSync(join(forms, 'nested.bom.jsonl'), withByteOrderMark(nested));
  writeFileSync(join(forms, 'nested.array.json'), toJsonArrayWithHeader(nested));
  writeFileSync(join(forms, 'teaching.bom.array.json'), withByteOrderMark(toJsonArrayWithHeader(teaching)));
}

void main();
