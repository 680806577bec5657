/**
 * Check workers for tests: the built CLI bundle (`npm run build:cli`, which `npm ci` runs) is the
 * worker entry, as it is for the installed CLI. Running the entry from source through a
 * TypeScript loader would compile the whole tree again in every thread.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';

const bundle = new URL('../../dist-cli/surface-lens.mjs', import.meta.url);

/** Whether the bundle exists; tests that need workers skip visibly without it. */
export const HAS_CLI_BUNDLE = existsSync(fileURLToPath(bundle));
export const CLI_BUNDLE_NOTE = HAS_CLI_BUNDLE ? '' : ' [SKIPPED: run npm run build:cli]';

/** A worker factory for `CliIo.spawnWorker`. */
export function spawnBundleWorker(): Worker {
  return new Worker(bundle, { workerData: { role: 'surface-lens/check-worker' } });
}
