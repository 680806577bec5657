/**
 * The walk's file-system calls made synchronously, for a command-line walk. Through the thread
 * pool every `stat` and `readdir` is a round trip between threads: a store of 1,000 sessions
 * took about 130 ms to walk that way on an idle 2-core machine (and several times that while
 * worker threads were checking files), against about 45 ms synchronously. Every
 * {@link YIELD_EVERY} calls the walk yields to the event loop, so the answers of threads already
 * checking files are taken in while it goes on.
 */
import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import type { WalkFs } from './walk';

/** Calls between two yields to the event loop (a few milliseconds of walking). */
export const YIELD_EVERY = 64;

/** Synchronous {@link WalkFs}; a failing call rejects, with the same error codes as the asynchronous one. */
export function syncWalkFs(): WalkFs {
  let calls = 0;
  const call = <T>(operation: () => T): Promise<T> => {
    let value: T;
    try {
      value = operation();
    } catch (error) {
      return Promise.reject(error);
    }
    calls += 1;
    if (calls % YIELD_EVERY !== 0) return Promise.resolve(value);
    return new Promise((resolve) => setImmediate(resolve, value));
  };
  return {
    readdir: (path) => call(() => readdirSync(path)),
    stat: (path) => call(() => statSync(path)),
    lstat: (path) => call(() => lstatSync(path)),
    realpath: (path) => call(() => realpathSync(path)),
  };
}
