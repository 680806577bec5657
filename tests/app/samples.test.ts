/** The bundled samples say what they hold: the counts in each description are the file's. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const dir = join(import.meta.dirname, '..', '..', 'public', 'samples');
const manifest = JSON.parse(readFileSync(join(dir, 'index.json'), 'utf8')) as { name: string; file: string; description: string }[];

describe('sample descriptions', () => {
  it('the nested sample: its compaction summaries, failed compactions, prunes and events', () => {
    const nested = manifest.find((s) => s.name === 'nested')!;
    const lines = readFileSync(join(dir, nested.file), 'utf8')
      .trim()
      .split('\n')
      .slice(1)
      .map((l) => JSON.parse(l) as { type: string; data?: { outcome?: unknown; error?: unknown } });
    const count = (type: string) => lines.filter((e) => e.type === type).length;
    const events = lines.reduce(
      (n, e) =>
        n +
        (e.type.endsWith('-chunks')
          ? ((e.data as { texts?: unknown[]; args?: unknown[] }).texts ?? (e.data as { args?: unknown[] }).args ?? []).length
          : 1),
      0,
    );
    const number = (pattern: RegExp) => Number(pattern.exec(nested.description)?.[1]);
    expect(number(/(\d+) compaction summaries/)).toBe(count('compaction/summary'));
    expect(number(/(\d+) failed compaction/)).toBe(count('compaction/start') - count('compaction/summary'));
    expect(number(/(\d+) tool-result prunes/)).toBe(count('compaction/prune'));
    expect(number(/\(([\d,]+) events\)/)).toBe(events);
  });
});
