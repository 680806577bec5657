/**
 * Latest-wins scheduling for requests driven by typing, scrolling or dragging: per key at most
 * one request is in flight and one is pending. A newer call replaces the pending one, whose
 * caller gets a {@link SupersededError} (an `AbortError`, which callers ignore), so dragging the
 * scrubber across 10,000 steps sends a handful of requests, not 10,000.
 *
 * The in-flight request is not aborted (the engine cannot stop mid-call). By default its answer
 * is still delivered, because during a scroll or a scrub a slightly old window is better than an
 * empty one; callers that only want the newest answer (search, navigation) pass
 * `dropSuperseded: true`, and then an answer overtaken by a newer call rejects as superseded.
 */
import { SupersededError } from './errors';

export interface LatestWinsOptions {
  /** Reject the in-flight call's answer when a newer call arrived meanwhile. @default false */
  dropSuperseded?: boolean;
}

export interface LatestWins {
  /** Runs `task` under `key` (latest wins); resolves with its result or rejects as superseded. */
  run<T>(key: string, task: () => Promise<T>, options?: LatestWinsOptions): Promise<T>;
  /** Rejects every pending call (not in-flight ones) as superseded; e.g. on a new load. */
  cancelPending(): void;
}

interface Waiting {
  task: () => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  dropSuperseded: boolean;
}

interface Lane {
  /** Bumped by every call; an in-flight call compares its own number to know if it is stale. */
  generation: number;
  busy: boolean;
  pending: Waiting | null;
}

export function createLatestWins(): LatestWins {
  const lanes = new Map<string, Lane>();

  const start = (key: string, lane: Lane, job: Waiting): void => {
    lane.busy = true;
    const generation = lane.generation;
    let inner: Promise<unknown>;
    try {
      inner = job.task();
    } catch (error) {
      inner = Promise.reject(error);
    }
    inner
      .then(
        (value) => {
          if (job.dropSuperseded && lane.generation !== generation) job.reject(new SupersededError());
          else job.resolve(value);
        },
        (error: unknown) => {
          if (job.dropSuperseded && lane.generation !== generation) job.reject(new SupersededError());
          else job.reject(error);
        },
      )
      .finally(() => {
        lane.busy = false;
        const next = lane.pending;
        lane.pending = null;
        if (next) start(key, lane, next);
        else lanes.delete(key);
      });
  };

  return {
    run<T>(key: string, task: () => Promise<T>, options: LatestWinsOptions = {}): Promise<T> {
      let lane = lanes.get(key);
      if (!lane) {
        lane = { generation: 0, busy: false, pending: null };
        lanes.set(key, lane);
      }
      lane.generation += 1;
      return new Promise<T>((resolve, reject) => {
        const job: Waiting = {
          task,
          resolve: resolve as (value: unknown) => void,
          reject,
          dropSuperseded: options.dropSuperseded ?? false,
        };
        const current = lane;
        if (!current.busy) {
          start(key, current, job);
          return;
        }
        current.pending?.reject(new SupersededError());
        current.pending = job;
      });
    },
    cancelPending(): void {
      for (const lane of lanes.values()) {
        lane.generation += 1;
        lane.pending?.reject(new SupersededError());
        lane.pending = null;
      }
    },
  };
}
