/**
 * `surface-lens`: the Node command line over the same core the app runs in its worker.
 * This file is process wiring only; the commands are in `commands.ts`, the dispatcher in `run.ts`.
 *
 * Exit status: 0 when nothing is wrong, 1 when problems were found, 2 for usage errors and
 * unreadable inputs (and internal errors).
 */
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { CHECK_WORKER_ROLE, serveCheckRequests } from './check/worker';
import { runCli } from './run';

// The same file is the entry of `check`'s worker threads (the bundle is one file).
const entry = new URL(import.meta.url);

if (!isMainThread && parentPort && (workerData as { role?: unknown } | null)?.role === CHECK_WORKER_ROLE) {
  serveCheckRequests(parentPort);
} else if (isMainThread) {
  // `surface-lens check … | head` closes stdout early: stop quietly instead of crashing.
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw error;
  });

  const spawnWorker = (): Worker => new Worker(entry, { workerData: { role: CHECK_WORKER_ROLE } });
  runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr, spawnWorker }).then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`surface-lens: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
      process.exitCode = 2;
    },
  );
}
