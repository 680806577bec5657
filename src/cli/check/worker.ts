/**
 * The worker-thread side of a parallel `check`: after one {@link CheckSetup}, answer each
 * `{ id, path }` with that file's {@link FileReport} — checked and rendered here, so the calling
 * thread only writes strings (and the output is the same as a check on the calling thread).
 */
import type { MessagePort } from 'node:worker_threads';
import { checkFile } from './check-file';
import type { CheckFileOptions } from './check-file';
import { reportFile } from './report-file';
import type { FileReport, ReportContext } from './report-file';

/** `workerData` of a check worker: how the CLI's entry tells a check worker from the main thread. */
export const CHECK_WORKER_ROLE = 'surface-lens/check-worker';

/** The first message to a check worker: how to check and report every file it is sent. */
export interface CheckSetup {
  setup: { check: CheckFileOptions; report: ReportContext };
}

/** A file to check, after the setup. */
export interface CheckRequest {
  id: number;
  path: string;
}

/** A check worker's answer: the file's report, or the message of an error the check threw. */
export type CheckResponse = { id: number; report: FileReport } | { id: number; failure: string };

/** Serve check requests on `port` until it closes. */
export function serveCheckRequests(port: MessagePort): void {
  let setup: CheckSetup['setup'] | null = null;
  port.on('message', (message: CheckSetup | CheckRequest) => {
    if ('setup' in message) {
      setup = message.setup;
      return;
    }
    const { id, path } = message;
    const answer = (response: CheckResponse): void => port.postMessage(response);
    if (setup === null) {
      answer({ id, failure: 'the check worker was sent a file before its setup' });
      return;
    }
    const { check, report } = setup;
    checkFile(path, check)
      .then((file) => reportFile(file, report))
      .then(
        (result) => answer({ id, report: result }),
        (error: unknown) => answer({ id, failure: error instanceof Error ? error.message : String(error) }),
      );
  });
}
