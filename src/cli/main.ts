/**
 * `surface-lens`: the Node command line over the same core the app runs in its worker.
 *
 *   surface-lens check FILE... [--json]
 *
 * Exit status: 0 when nothing is wrong, 1 when any session has a surface error, a decode error
 * or an error diagnostic, 2 for usage errors and unreadable files.
 */
import { runCli } from './run';

// `surface-lens check … | head` closes stdout early: stop quietly instead of crashing.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

runCli(process.argv.slice(2), { stdout: process.stdout, stderr: process.stderr }).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`surface-lens: internal error: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 2;
  },
);
