/**
 * Store-wide search: index build throughput and warm answer times over a generated store.
 *
 *   node --import tsx bench/store-search.ts [--sessions 1000] [--events 300]
 *
 * Writes a temporary store of `--sessions` generated sessions (raw JSONL, several shapes: with
 * and without packed chunks, compactions and prunes), builds the index as the view server
 * does, then times answers with the index warm. The baseline measured in the same run is one
 * scan of every session with the same matcher (`grep`'s work), so the figures are ratios.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SessionStore } from '../src/server/listing';
import { StoreSearch } from '../src/server/search';
import { nodeFs } from '../src/server/store-fs';
import { writeStore } from '../tests/support/store-builder';

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
}

const sessions = arg('sessions', 1000);
const events = arg('events', 300);
const root = mkdtempSync(join(tmpdir(), 'sl-bench-store-'));
const cache = mkdtempSync(join(tmpdir(), 'sl-bench-cache-'));
try {
  const specs = Array.from({ length: sessions }, (_, i) => ({
    id: `s-${i}`,
    cwd: `/home/dev/project-${i % 25}`,
    gen: { seed: 1000 + i, events, packChunks: i % 2 === 0, startTime: 1785400000000 + i * 60_000 },
    encoding: 'jsonl' as const,
  }));
  await writeStore(root, specs);
  const store = new SessionStore({ fs: nodeFs, paths: [root] });
  await store.refresh();
  const bytes = store.current().sessions.reduce((n, r) => n + r.size, 0);

  const time = async (f: () => Promise<unknown>): Promise<number> => {
    const t = performance.now();
    await f();
    return performance.now() - t;
  };
  const search = new StoreSearch({ store, fs: nodeFs, cacheDir: cache, pause: async () => {} });
  const buildMs = await time(async () => {
    await search.start();
    await search.settled();
  });
  // The baseline: the same query read through every session (a scan: what answers before the index is ready).
  const scanner = new StoreSearch({ store, fs: nodeFs, cacheDir: null, pause: () => new Promise(() => {}) });
  const scanMs = await time(() => scanner.search('zanzibarite'));
  const queries = ['zanzibarite', 'parser', '"exact phrase nowhere"', 'type:session/title', 'is:error type:tool/result'];
  const rows: string[] = [];
  for (const q of queries) {
    await search.search(q);
    const samples: number[] = [];
    let answer = await search.search(q);
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      answer = await search.search(q);
      samples.push(performance.now() - t);
    }
    samples.sort((a, b) => a - b);
    const ms = samples[1]!;
    rows.push(
      `| \`${q}\` | ${ms.toFixed(0)} ms | ${(ms / scanMs).toFixed(3)}× | ${answer.candidates} | ${answer.scanned} | ${answer.sessions.length}${answer.more ? '+' : ''} |`,
    );
  }
  const eventsTotal = sessions * events;
  console.log(`store: ${sessions} sessions, ${events} events each (${(bytes / 2 ** 20).toFixed(1)} MiB)`);
  console.log(
    `index build: ${(buildMs / 1000).toFixed(2)} s = ${(bytes / 2 ** 20 / (buildMs / 1000)).toFixed(1)} MiB/s, ${Math.round(eventsTotal / (buildMs / 1000)).toLocaleString('en-US')} events/s, ${(sessions / (buildMs / 1000)).toFixed(0)} sessions/s`,
  );
  console.log(`baseline scan of every session: ${scanMs.toFixed(0)} ms`);
  console.log('| query (index warm) | answer | vs scan | candidates | read | sessions with matches |');
  console.log('|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  search.stop();
} finally {
  rmSync(root, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
}
