/**
 * The worker-thread side of a parallel `check`: answer each `{ id, path }` with that file's
 * {@link FileCheck}. The result is plain data, so what the main thread renders is the same as a
 * check on the main thread.
 */
import type { MessagePort } from 'node:worker_threads';
import { checkFile } from './check-file';
import type { CheckFileOptions, FileCheck } from './check-file';

/** `workerData` of a check worker: how the CLI's entry tells a check worker from the main thread. */
export const CHECK_WORKER_ROLE = 'surface-lens/check-worker';

/** A request to a check worker. */
export interface CheckRequest {
  id: number;
  path: string;
  options: CheckFileOptions;
}

/** A check worker's answer: the file's result, or the message of an error the check threw. */
export type CheckResponse = { id: number; result: FileCheck } | { id: number; failure: string };

/** Serve check requests on `port` until it closes. */
export function serveCheckRequests(port: MessagePort): void {
  port.on('message', (request: CheckRequest) => {
    checkFile(request.path, request.options).then(
      (result) => port.postMessage({ id: request.id, result } satisfies CheckResponse),
      (error: unknown) =>
        port.postMessage({ id: request.id, failure: error instanceof Error ? error.message : String(error) } satisfies CheckResponse),
    );
  });
}
