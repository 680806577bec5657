/**
 * Check many files on several worker threads, delivering results in input order (so output
 * is byte-for-byte what a check on one thread writes) as soon as each prefix is complete.
 */
import type { Worker } from 'node:worker_threads';
import { checkFile } from './check-file';
import type { CheckFileOptions, FileCheck } from './check-file';
import type { CheckRequest, CheckResponse } from './worker';

/** Starts one worker thread running the check worker entry (`serveCheckRequests`). */
export type WorkerFactory = () => Worker;

/** Options of {@link checkFiles}. */
export interface PoolOptions {
  /** Threads to use, the calling one included; 1 checks on the calling thread only. */
  jobs: number;
  /** How to start a worker; without one every file is checked on the calling thread. */
  spawn?: WorkerFactory | undefined;
  check: CheckFileOptions;
  /** Each file's result, in input order. */
  onResult: (result: FileCheck, index: number) => void;
  /** Files finished so far (any order), after each one. */
  onProgress?: (done: number, total: number) => void;
}

/** Requests kept in flight per worker, so a worker never waits for the main thread between files. */
const IN_FLIGHT = 2;

/** Check `paths`; resolves once every result was delivered and the workers have exited. */
export async function checkFiles(paths: readonly string[], options: PoolOptions): Promise<void> {
  const total = paths.length;
  const workers = Math.min(options.jobs, total);
  if (workers <= 1 || options.spawn === undefined) {
    for (let i = 0; i < total; i++) {
      options.onResult(await checkFile(paths[i] as string, options.check), i);
      options.onProgress?.(i + 1, total);
    }
    return;
  }
  const results = new Map<number, FileCheck>();
  let next = 0;
  let delivered = 0;
  let done = 0;
  const spawn = options.spawn;
  // The calling thread is one of the `jobs`: it checks files too, between the workers' answers,
  // instead of idling while they work (on a small machine an idle thread is a lost core).
  const threads = Array.from({ length: workers - 1 }, () => spawn());
  try {
    await new Promise<void>((resolve, reject) => {
      let failed = false;
      const accept = (id: number, result: FileCheck): void => {
        results.set(id, result);
        done += 1;
        options.onProgress?.(done, total);
        // Deliver in order: everything up to the first file still being checked.
        for (let r = results.get(delivered); r !== undefined; r = results.get(delivered)) {
          results.delete(delivered);
          options.onResult(r, delivered);
          delivered += 1;
        }
        if (delivered === total) resolve();
      };
      const fail = (error: Error): void => {
        failed = true;
        reject(error);
      };
      const send = (worker: Worker): void => {
        if (next >= total || failed) return;
        const id = next++;
        worker.postMessage({ id, path: paths[id] as string, options: options.check } satisfies CheckRequest);
      };
      for (const worker of threads) {
        worker.on('message', (response: CheckResponse) => {
          if ('failure' in response) {
            fail(new Error(`checking ${paths[response.id] ?? '?'}: ${response.failure}`));
            return;
          }
          accept(response.id, response.result);
          send(worker);
        });
        worker.on('error', fail);
        worker.on('exit', (code) => {
          if (delivered < total) fail(new Error(`a check worker stopped (exit code ${code})`));
        });
        for (let k = 0; k < IN_FLIGHT; k++) send(worker);
      }
      void (async () => {
        while (next < total && !failed) {
          // Let the workers' answers in first: a check reads its file synchronously, so without
          // this the loop would never yield, and the workers would wait for work.
          await new Promise<void>((resolve) => setImmediate(resolve));
          if (next >= total || failed) break;
          const id = next++;
          try {
            accept(id, await checkFile(paths[id] as string, options.check));
          } catch (error) {
            fail(error instanceof Error ? error : new Error(String(error)));
          }
        }
      })();
    });
  } finally {
    await Promise.all(threads.map((t) => t.terminate()));
  }
}
