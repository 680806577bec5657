/**
 * The worker client, with the in-process engine as a second chance: a browser may have `Worker`
 * and still fail to start one (a module worker it does not support, a policy that blocks worker
 * scripts, a missing chunk). When the worker's handshake fails, the engine is started on the
 * main thread instead and the requests made meanwhile go there. Once either engine has answered
 * the handshake it is the engine for good: a worker that dies later is reported as dead, not
 * replaced, because its loaded log died with it.
 */
import type { CoreClient, EngineHome, StallListener } from './CoreClient';
import { EngineDeadError } from './errors';
import { TrackedClient } from './TrackedClient';
import type { CoreArgs, CoreMethod, CoreResult } from './TrackedClient';

/** A client with a handshake (both engine clients have one). */
export interface StartingClient extends CoreClient {
  /** Settles when the handshake succeeded; rejects when it failed (the client is then dead). */
  readonly ready: Promise<void>;
}

/** Which engine answered. */
export type EngineMode = 'worker' | 'in-process';

export class FallbackCoreClient extends TrackedClient {
  private current: StartingClient | null = null;
  private chosen: EngineMode | null = null;
  /** Why the worker could not be used, once the fallback is running (logged by the app). */
  private workerFailure: Error | null = null;
  readonly ready: Promise<void>;
  private readonly stallListeners = new Set<StallListener>();

  /**
   * @param createWorkerClient starts the worker engine (may throw, as `new Worker` can)
   * @param createInProcessClient starts the main-thread engine, used only if the worker fails
   */
  constructor(
    createWorkerClient: () => StartingClient,
    private readonly createInProcessClient: () => StartingClient,
  ) {
    super();
    this.ready = this.track(() => this.start(createWorkerClient));
    this.ready.catch(() => {});
  }

  /** The engine in use once the handshake is done, else `null`. */
  get mode(): EngineMode | null {
    return this.chosen;
  }

  get engineHome(): EngineHome | null {
    return this.chosen === null ? null : this.chosen === 'worker' ? 'worker' : 'page';
  }

  /** The worker's failure when the engine runs in-process instead (the app logs it to the console). */
  get fallbackReason(): Error | null {
    return this.workerFailure;
  }

  private async start(createWorkerClient: () => StartingClient): Promise<void> {
    try {
      const worker = createWorkerClient();
      this.current = worker;
      await worker.ready;
      this.adopt(worker, 'worker');
      return;
    } catch (error) {
      this.workerFailure = error instanceof Error ? error : new EngineDeadError(String(error));
    }
    if (this.dead) throw this.workerFailure;
    try {
      const local = this.createInProcessClient();
      this.current = local;
      await local.ready;
      this.adopt(local, 'in-process');
    } catch (error) {
      const reason = new EngineDeadError(
        `The engine could not start: in a worker (${this.workerFailure.message}) nor on the page (${
          error instanceof Error ? error.message : String(error)
        }).`,
      );
      this.die(reason);
      throw reason;
    }
  }

  private adopt(client: StartingClient, mode: EngineMode): void {
    this.chosen = mode;
    // From here the engine's death is this client's death, and its stalls are this client's.
    client.onDead((error) => this.die(error));
    client.onStall?.((stalled) => {
      for (const listener of [...this.stallListeners]) listener(stalled);
    });
  }

  onStall(listener: StallListener): () => void {
    this.stallListeners.add(listener);
    return () => {
      this.stallListeners.delete(listener);
    };
  }

  protected async invoke<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>> {
    if (this.chosen === null) await this.ready;
    const client = this.current as StartingClient;
    const fn = client[method] as unknown as (...a: unknown[]) => Promise<CoreResult<K>>;
    return fn.apply(client, args as unknown[]);
  }

  terminate(): void {
    if (this.dead) return;
    this.current?.terminate();
    this.die(new EngineDeadError('The engine was stopped.'));
  }
}
