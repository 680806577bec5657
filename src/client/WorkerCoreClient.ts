/**
 * The engine in a web worker, reached through Comlink. Bytes of an `open` are transferred (not
 * copied), progress comes back through a proxied callback, and every request settles: the
 * worker's `error`/`messageerror` events, a failed or silent handshake and `terminate()` all
 * reject the requests in flight (see {@link TrackedClient}).
 */
import { proxy, transfer, wrap } from 'comlink';
import type { Endpoint, Remote } from 'comlink';
import { PROTOCOL_VERSION } from '../protocol/protocol';
import type { CoreApi, OpenRequest, ProgressEvent } from '../protocol/protocol';
import { EngineDeadError, ProtocolMismatchError } from './errors';
import { TrackedClient } from './TrackedClient';
import type { CoreArgs, CoreMethod, CoreResult } from './TrackedClient';
import type { StallListener } from './CoreClient';

/** What the client needs of a `Worker`; tests inject a fake. */
export interface WorkerLike extends Endpoint {
  terminate(): void;
}

export type WorkerFactory = () => WorkerLike;

/** The real engine worker. The `new URL(…, import.meta.url)` form is what Vite bundles. */
export const createEngineWorker: WorkerFactory = () =>
  new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module', name: 'surface-lens-engine' });

export interface WorkerCoreClientOptions {
  /** Creates the worker. @default {@link createEngineWorker} */
  createWorker?: WorkerFactory;
  /** How long the worker may take to answer the handshake. @default 20000 */
  handshakeTimeoutMs?: number;
  /**
   * While requests wait, the worker is asked a cheap question every `probeMs`; with no answer for
   * `stallMs` it is reported stalled (see `onStall`). `false` turns the watchdog off.
   * @default { probeMs: 5000, stallMs: 15000 }
   */
  watchdog?: { probeMs: number; stallMs: number } | false;
}

/** A watchdog tick more than this behind its schedule says the page itself was held up. */
const LATE_TICK_MS = 1000;

const formatDuration = (ms: number): string => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

/**
 * The request with the page's heap limit, where the browser reports it: Chromium has
 * `performance.memory` on pages but not in workers, and the engine derives each load's memory
 * budget from it (see `memoryLimitFor` in the engine).
 */
function withHostHeapLimit(request: OpenRequest): OpenRequest {
  if (request.hostHeapLimitBytes !== undefined || request.memoryLimitBytes !== undefined) return request;
  const limit = (globalThis as { performance?: { memory?: { jsHeapSizeLimit?: unknown } } }).performance?.memory?.jsHeapSizeLimit;
  return typeof limit === 'number' && limit > 0 ? { ...request, hostHeapLimitBytes: limit } : request;
}

export class WorkerCoreClient extends TrackedClient {
  private readonly worker: WorkerLike;
  private readonly remote: Remote<CoreApi>;
  /** Settles when the handshake succeeded; rejects (and the client dies) when it failed. */
  readonly ready: Promise<void>;
  readonly engineHome = 'worker' as const;
  /** True once the handshake succeeded: requests are then posted synchronously. */
  private handshakeDone = false;
  private readonly stallListeners = new Set<StallListener>();
  private stalled = false;
  /** When the watchdog's unanswered probe was sent, or null. */
  private probeSentAt: number | null = null;
  private watchdogTimer: ReturnType<typeof setInterval> | null = null;

  constructor(options: WorkerCoreClientOptions = {}) {
    super();
    this.worker = (options.createWorker ?? createEngineWorker)();
    this.worker.addEventListener('error', this.handleError);
    this.worker.addEventListener('messageerror', this.handleMessageError);
    this.remote = wrap<CoreApi>(this.worker);
    this.ready = this.track(() => this.handshake(options.handshakeTimeoutMs ?? 20_000));
    const watchdog = options.watchdog ?? { probeMs: 5_000, stallMs: 15_000 };
    if (watchdog !== false)
      void this.ready.then(
        () => this.startWatchdog(watchdog.probeMs, watchdog.stallMs),
        () => {},
      );
    // Callers await `ready` through every request; this only keeps an unobserved failure quiet.
    this.ready.catch(() => {});
  }

  private async handshake(timeoutMs: number): Promise<void> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new EngineDeadError(`The engine worker did not answer within ${formatDuration(timeoutMs)}.`)),
        timeoutMs,
      );
    });
    try {
      const hello = await Promise.race([this.remote.hello(), timeout]);
      const version = (hello as { protocolVersion?: unknown } | null)?.protocolVersion;
      if (version !== PROTOCOL_VERSION) throw new ProtocolMismatchError(PROTOCOL_VERSION, version);
      this.handshakeDone = true;
    } catch (error) {
      const reason = error instanceof Error ? error : new EngineDeadError(String(error));
      this.die(reason);
      throw reason;
    } finally {
      clearTimeout(timer);
    }
  }

  protected async invoke<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>> {
    // After the handshake, post at once rather than a microtask later: a seek's surface request
    // is sent from inside the store update, and must leave before React renders that update.
    if (!this.handshakeDone) await this.ready;
    if (method === 'open') {
      const [asked, onProgress] = args as CoreArgs<'open'>;
      const request = withHostHeapLimit(asked);
      // Transfer the bytes: a 500 MB log must not be copied. The caller's buffer is detached.
      const sent: OpenRequest = request.kind === 'bytes' ? transfer(request, [request.buffer]) : request;
      const progress = proxy((event: ProgressEvent) => onProgress(event));
      return (await this.remote.open(sent, progress)) as CoreResult<K>;
    }
    const fn = this.remote[method] as unknown as (...a: unknown[]) => Promise<CoreResult<K>>;
    return fn(...(args as unknown[]));
  }

  terminate(): void {
    if (this.dead) return;
    this.die(new EngineDeadError('The engine was stopped.'));
  }

  onStall(listener: StallListener): () => void {
    this.stallListeners.add(listener);
    return () => {
      this.stallListeners.delete(listener);
    };
  }

  /**
   * Every `probeMs` while requests wait, ask the worker `hello()` (one probe at a time, outside
   * the tracked requests). A probe unanswered for `stallMs` means the worker is stuck: its
   * answers, when they come, are in order behind the requests it is working on.
   */
  private startWatchdog(probeMs: number, stallMs: number): void {
    if (this.dead) return;
    let lastTick = performance.now();
    // How long the unanswered probe has waited while the page itself was running on time.
    let waited = 0;
    // A tick this far behind its schedule says the page was held up (at most LATE_TICK_MS, so a
    // watchdog with a short period judges a short hold-up as one too).
    const lateBy = Math.min(LATE_TICK_MS, probeMs);
    const timer = setInterval(() => {
      if (this.dead) return;
      const now = performance.now();
      const interval = now - lastTick;
      lastTick = now;
      if (this.probeSentAt !== null) {
        // Time the page was held up (a long render, a busy or suspended machine) does not count
        // against the worker: the probe's answer may be waiting behind it.
        if (interval <= probeMs + lateBy) waited += interval;
        if (!this.stalled && waited >= stallMs) this.setStalled(true);
        return;
      }
      if (this.pendingCount === 0) return;
      const at = now;
      this.probeSentAt = at;
      waited = 0;
      this.remote.hello().then(
        () => {
          if (this.probeSentAt === at) this.probeSentAt = null;
          this.setStalled(false);
        },
        () => {},
      );
    }, probeMs);
    // Node (tests): the watchdog must not keep the process alive.
    (timer as { unref?: () => void }).unref?.();
    this.watchdogTimer = timer;
  }

  private setStalled(stalled: boolean): void {
    if (this.stalled === stalled) return;
    this.stalled = stalled;
    for (const listener of [...this.stallListeners]) listener(stalled);
  }

  protected override die(error: Error): void {
    if (this.dead) return;
    if (this.watchdogTimer !== null) clearInterval(this.watchdogTimer);
    this.stallListeners.clear();
    this.worker.removeEventListener('error', this.handleError);
    this.worker.removeEventListener('messageerror', this.handleMessageError);
    this.worker.terminate();
    super.die(error);
  }

  private readonly handleError = (event: unknown): void => {
    // Handled here (reported as the engine's death): not an uncaught error of the page.
    (event as { preventDefault?: () => void } | null)?.preventDefault?.();
    const detail = (event as { message?: unknown } | null)?.message;
    const suffix = typeof detail === 'string' && detail !== '' ? `: ${detail}` : '';
    this.die(new EngineDeadError(`The engine worker crashed or failed to start${suffix}.`));
  };

  private readonly handleMessageError = (): void => {
    this.die(new EngineDeadError('The engine worker sent a message that could not be read.'));
  };
}
