/**
 * The bundled sample store (`sample-store/`), laid out as dsh lays out `~/.dsh/sessions`:
 * `npm start` serves it when the user has no store. A few sessions in two projects, a subagent
 * tree three levels deep, an orphaned child, compactions and prunes, and one damaged entry.
 */
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { teachingSession } from '../src/core/gen/script';
import { encodeSession, sessionPath, writeStore } from '../tests/support/store-builder';
import type { StoreSessionSpec } from '../tests/support/store-builder';

const DAY = 86_400_000;
const T0 = 1785400000000;

export const SAMPLE_STORE_SESSIONS: StoreSessionSpec[] = [
  {
    id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c01',
    cwd: '/home/dev/surface-lens',
    gen: {
      seed: 5,
      events: 600,
      compaction: { thresholdTokens: 500, failureRate: 0.1 },
      pruneThreshold: 600,
      longToolResultRate: 0.4,
      startTime: T0,
    },
  },
  {
    id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c02',
    cwd: '/home/dev/surface-lens',
    gen: { seed: 31, events: 300, startTime: T0 + 600_000 },
    parent: { id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c01', depth: 1 },
  },
  {
    id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c03',
    cwd: '/home/dev/surface-lens/docs',
    gen: { seed: 32, events: 200, startTime: T0 + 900_000 },
    parent: { id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c02', depth: 2 },
  },
  {
    id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c04',
    cwd: '/home/dev/surface-lens',
    gen: { seed: 33, events: 150, startTime: T0 + 1_200_000 },
    parent: { id: '6f1d2c3a-0b7e-4c1a-9d35-2f8e5a6b7c01', depth: 1 },
  },
  {
    id: '9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c01',
    cwd: '/home/dev/notes',
    gen: {
      seed: 2,
      events: 3000,
      compaction: { thresholdTokens: 3000 },
      pruneThreshold: 2000,
      longToolResultRate: 0.2,
      startTime: T0 - 2 * DAY,
    },
  },
  {
    id: '9a8b7c6d-1e2f-4a3b-8c4d-5e6f7a8b9c02',
    cwd: '/home/dev/notes',
    gen: { seed: 34, events: 120, startTime: T0 - DAY },
    // Its parent is not in this store (deleted, or in another root): an orphan.
    parent: { id: '00000000-dead-4bee-8f00-000000000000', depth: 1 },
  },
];

/** Writes the sample store under `root` (replacing it). */
export async function writeSampleStore(root: string): Promise<void> {
  rmSync(root, { recursive: true, force: true });
  await writeStore(root, SAMPLE_STORE_SESSIONS);
  // The teaching log, as a stored session.
  const teaching = teachingSession().toJsonl().trimEnd().split('\n');
  const header = JSON.parse(teaching[0] as string) as Record<string, unknown>;
  const path = join(root, sessionPath({ id: String(header.id), cwd: '/home/dev/notes' }));
  teaching[0] = JSON.stringify({ ...header, cwd: '/home/dev/notes' });
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, await encodeSession(teaching, 'zstd', 6));
  // A damaged entry: the header frame's checksum does not match.
  const damaged = join(root, sessionPath({ id: 'damaged-0001', cwd: '/home/dev/notes' }));
  const bytes = await encodeSession(
    teaching.map((line, i) => (i === 0 ? JSON.stringify({ ...header, id: 'damaged-0001', cwd: '/home/dev/notes' }) : line)),
    'zstd',
    6,
  );
  bytes[12] = (bytes[12] ?? 0) ^ 0xff;
  mkdirSync(dirname(damaged), { recursive: true });
  writeFileSync(damaged, bytes);
}
