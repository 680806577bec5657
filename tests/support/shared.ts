import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** The shared conformance material (../shared beside the repo), when present. */
export const SHARED_DIR = resolve(process.env.SURFACE_LENS_SHARED ?? join(here, '..', '..', '..', 'shared'));
export const SPEC_VECTORS = join(SHARED_DIR, 'spec', 'vectors');
export const UPSTREAM_FIXTURES = join(SHARED_DIR, 'fixtures', 'dsh-upstream');
export const PACKAGED_FIXTURES = join(SHARED_DIR, 'fixtures', 'packaged');
export const HAS_SHARED = existsSync(SPEC_VECTORS);
/** Shown in test names when ../shared is absent, so the skip is visible. */
export const SHARED_NOTE = HAS_SHARED ? '' : ' [SKIPPED: ../shared not found]';

export function readJson<T>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

export function listFiles(dir: string, filter: (name: string) => boolean): string[] {
  if (!existsSync(dir)) return [];
  // Files only: a folder of fixtures (tests/fixtures/forms) has its own tests.
  return readdirSync(dir)
    .filter((name) => filter(name) && statSync(join(dir, name)).isFile())
    .sort();
}

export function readBytes(path: string): Uint8Array {
  const buffer = readFileSync(path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}
