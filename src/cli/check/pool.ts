/**
 * Check files on worker threads as the walk finds them, and deliver their reports in input order,
 * so the output is byte for byte what a check on the calling thread writes.
 *
 * The workers start with the first files, while the walk goes on, and each one checks and renders
 * its files itself: the calling thread walks, hands out paths and writes the strings it gets back.
 * A run too small to repay starting threads is checked on the calling thread.
 */
import type { Worker } from 'node:worker_threads';
import { checkFile } from './check-file';
import type { CheckFileOptions } from './check-file';
import { reportFile } from './report-file';
import type { FileReport, ReportContext } from './report-file';
import type { CheckRequest, CheckResponse, CheckSetup } from './worker';

/** Starts one worker thread running the check worker entry (`serveCheckRequests`). */
export type WorkerFactory = () => Worker;

/** Options of {@link CheckPool}. */
export interface PoolOptions {
  /** Worker threads to use; 1 checks on the calling thread. */
  jobs: number;
  /**
   * `jobs` is the default (no `--jobs` given): start threads only for a run large enough to repay
   * them ({@link autoParallelBytes}); a `--jobs` the user gave is used from {@link PARALLEL_FROM}.
   */
  auto?: boolean;
  /** How to start a worker; without one every file is checked on the calling thread. */
  spawn?: WorkerFactory | undefined;
  check: CheckFileOptions;
  report: ReportContext;
}

/**
 * Files kept in flight per worker, so a worker always has its next file while the calling thread
 * is busy walking directories or writing output.
 */
const IN_FLIGHT = 4;

/**
 * Below both of these, the calling thread checks the files itself: a worker takes about 0.1 s of a
 * core to be ready, a small session about 2 ms to check (some 20 MB of log a second).
 */
export const PARALLEL_FROM = { files: 16, bytes: 2 * 2 ** 20 } as const;

/**
 * How many bytes of logs a run needs before the default `--jobs` starts threads on `cores` cores.
 *
 * Each isolate compiles the check's code for itself: a worker costs about 0.45 s of a core before
 * it checks at full speed (its start, and some 0.35 s of optimizing compilation that a single
 * thread gets for free on an idle second core), and a warm thread checks about 40 MB of small
 * sessions a second. Threads gain once a run's serial time W exceeds that cost times
 * cores / (cores − 1): about 40 MiB on 2 cores (measured: 1,000 sessions of 42 MB 0.98×,
 * 60 MB 1.10×, 104 MB 1.24×), falling towards 20 MiB with more cores. Below it the default checks
 * on the calling thread, so it is never slower than `--jobs 1`.
 */
export function autoParallelBytes(cores: number): number {
  return cores < 2 ? Infinity : Math.round((20 * 2 ** 20 * cores) / (cores - 1));
}

interface Slot {
  worker: Worker;
  /** Files sent and not answered. */
  busy: number;
}

/**
 * The files of one `check` run: {@link add} each as it is found, then {@link finish} once the last
 * one was added, which delivers every report in order. Every file added is reported, or `finish`
 * rejects (a worker that crashed or stopped, a check that threw); the workers are stopped either way.
 */
export class CheckPool {
  private readonly paths: string[] = [];
  private bytes = 0;
  /** Started once the run is worth threads; null while it is checked on the calling thread. */
  private slots: Slot[] | null = null;
  /** The next file to hand to a worker. */
  private next = 0;
  /** Reports received and not yet delivered, by index. */
  private readonly reports = new Map<number, FileReport>();
  private received = 0;
  private failure: Error | null = null;
  private stopping = false;
  /** Wakes {@link finish} when a report or a failure arrives. */
  private wake: (() => void) | null = null;
  private progress: ((done: number, total: number) => void) | undefined;

  constructor(private readonly options: PoolOptions) {}

  /** Queue one file (in output order); a worker may start on it at once. */
  add(path: string, size: number): void {
    this.paths.push(path);
    this.bytes += size;
    if (this.slots === null && this.worthThreads()) this.slots = [];
    this.grow();
    this.dispatch();
  }

  /** Whether any file went to a worker thread (tests: the parallel path really ran). */
  get parallel(): boolean {
    return this.slots !== null;
  }

  /**
   * Threads pay when there are two or more files (one file is checked by one thread whatever its
   * size, and that is the calling thread: a worker would only add its start and the copy of the
   * report) and, by default, enough bytes of them to repay each worker's start and compilation;
   * a `--jobs` the user gave starts them for a handful of files already.
   */
  private worthThreads(): boolean {
    const { jobs, spawn, auto } = this.options;
    if (jobs < 2 || spawn === undefined || this.paths.length < 2) return false;
    if (auto === true) return this.bytes >= autoParallelBytes(jobs);
    return this.paths.length >= PARALLEL_FROM.files || this.bytes >= PARALLEL_FROM.bytes;
  }

  /** Start workers up to `--jobs`, but no more than there are files so far (the walk may find more). */
  private grow(): void {
    const slots = this.slots;
    if (slots === null || this.failure !== null) return;
    const spawn = this.options.spawn as WorkerFactory;
    const setup: CheckSetup = { setup: { check: this.options.check, report: this.options.report } };
    while (slots.length < Math.min(this.options.jobs, this.paths.length)) {
      let worker: Worker;
      try {
        worker = spawn();
      } catch (error) {
        this.fail(new Error(`cannot start a check worker: ${error instanceof Error ? error.message : String(error)}`));
        return;
      }
      const slot: Slot = { worker, busy: 0 };
      slots.push(slot);
      worker.on('message', (response: CheckResponse) => this.answer(slot, response));
      worker.on('error', (error: Error) => this.fail(new Error(`a check worker failed: ${error.message}`)));
      worker.on('exit', (code: number) => {
        if (!this.stopping) this.fail(new Error(`a check worker stopped (exit code ${code})`));
      });
      worker.postMessage(setup);
    }
  }

  /** Hand queued files to the least busy workers, up to {@link IN_FLIGHT} each. */
  private dispatch(): void {
    if (this.slots === null || this.failure !== null) return;
    while (this.next < this.paths.length) {
      let slot: Slot | undefined;
      for (const s of this.slots) if (slot === undefined || s.busy < slot.busy) slot = s;
      if (slot === undefined || slot.busy >= IN_FLIGHT) return;
      const id = this.next++;
      slot.busy += 1;
      slot.worker.postMessage({ id, path: this.paths[id] as string } satisfies CheckRequest);
    }
  }

  private answer(slot: Slot, response: CheckResponse): void {
    slot.busy -= 1;
    if ('failure' in response) {
      this.fail(new Error(`checking ${this.paths[response.id] ?? '?'}: ${response.failure}`));
      return;
    }
    this.reports.set(response.id, response.report);
    this.received += 1;
    this.progress?.(this.received, this.paths.length);
    this.dispatch();
    this.notify();
  }

  private fail(error: Error): void {
    this.failure ??= error;
    this.notify();
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }

  /**
   * Deliver every file's report in order, once the last file was added; resolves when all were
   * delivered and the workers stopped.
   * @param onProgress files checked so far (any order), as they are
   */
  async finish(onReport: (report: FileReport, index: number) => void, onProgress?: (done: number, total: number) => void): Promise<void> {
    const total = this.paths.length;
    const { check, report } = this.options;
    if (this.slots === null) {
      for (let i = 0; i < total; i++) {
        onReport(reportFile(await checkFile(this.paths[i] as string, check), report), i);
        onProgress?.(i + 1, total);
      }
      return;
    }
    try {
      this.progress = onProgress;
      if (this.received > 0) onProgress?.(this.received, total);
      for (let delivered = 0; delivered < total;) {
        if (this.failure !== null) throw this.failure;
        const next = this.reports.get(delivered);
        if (next === undefined) {
          await new Promise<void>((resolve) => (this.wake = resolve));
          continue;
        }
        this.reports.delete(delivered);
        onReport(next, delivered);
        delivered += 1;
      }
    } finally {
      await this.stop();
    }
  }

  /** Stop the workers (also when the run ends early: they would keep the process alive). */
  async stop(): Promise<void> {
    this.stopping = true;
    const slots = this.slots ?? [];
    await Promise.all(slots.map((s) => s.worker.terminate()));
  }
}
