import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { initZstd } from '../../src/core/decode/zstd';
import { decodeZstdLog } from '../support/zstd-log';
import { SessionStore } from '../../src/server/listing';
import { nodeFs } from '../../src/server/store-fs';
import { writeSampleStore } from '../../scripts/sample-store';
import { tempDir } from './helpers';

const SAMPLE = join(process.cwd(), 'sample-store');
const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
}

describe('the bundled sample store', () => {
  it('is what the generators write (npm run samples)', async () => {
    const fresh = tempDir();
    cleanups.push(fresh.remove);
    await writeSampleStore(fresh.dir);
    expect(files(fresh.dir)).toEqual(files(SAMPLE));
    for (const file of files(SAMPLE)) expect(readFileSync(join(fresh.dir, file)).equals(readFileSync(join(SAMPLE, file))), file).toBe(true);
  });

  it('holds a few sessions, a subagent tree three levels deep, an orphan, a compaction and one damaged entry', async () => {
    const store = new SessionStore({ fs: nodeFs, paths: [SAMPLE] });
    await store.refresh();
    const rows = store.current().sessions;
    expect(rows.length).toBeGreaterThanOrEqual(6);
    expect(rows.filter((row) => row.state === 'damaged')).toHaveLength(1);
    const byId = new Map(rows.map((row) => [row.sessionId, row]));
    const depth = (id: string | null): number => (id === null || !byId.has(id) ? 0 : 1 + depth(byId.get(id)?.parentSession ?? null));
    expect(Math.max(...rows.map((row) => depth(row.sessionId)))).toBe(3);
    expect(rows.some((row) => row.parentSession !== null && !byId.has(row.parentSession))).toBe(true);
    await initZstd();
    const all = files(SAMPLE).filter((file) => !file.includes('damaged'));
    let compactions = 0;
    for (const file of all) {
      const result = await decodeZstdLog(readFileSync(join(SAMPLE, file)));
      const text = result.frames.map((frame) => new TextDecoder().decode(frame)).join('');
      if (text.includes('"type":"compaction/end"')) compactions++;
    }
    expect(compactions).toBeGreaterThan(0);
  });
});
