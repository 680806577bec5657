/**
 * The engine on the main thread, behind the same interface as the worker client. Used by tests;
 * by the app where `Worker` is unavailable (jsdom, locked-down embeds); and as
 * `FallbackCoreClient`'s second chance when a worker fails to start (before its handshake). It keeps the same guarantees: a
 * handshake, and every pending request rejects on `terminate()`.
 */
import { PROTOCOL_VERSION } from '../protocol/protocol';
import type { CoreApi } from '../protocol/protocol';
import { EngineDeadError, ProtocolMismatchError } from './errors';
import { TrackedClient } from './TrackedClient';
import type { CoreArgs, CoreMethod, CoreResult } from './TrackedClient';

export class InProcessCoreClient extends TrackedClient {
  private readonly engine: Promise<CoreApi>;
  private loaded: CoreApi | null = null;
  readonly ready: Promise<void>;
  readonly engineHome = 'page' as const;

  /** @param engine the engine, or a promise of it (a lazily imported module). */
  constructor(engine: CoreApi | Promise<CoreApi>) {
    super();
    this.engine = Promise.resolve(engine);
    this.ready = this.track(async () => {
      try {
        const api = await this.engine;
        this.loaded = api;
        const hello = await api.hello();
        if (hello.protocolVersion !== PROTOCOL_VERSION) {
          throw new ProtocolMismatchError(PROTOCOL_VERSION, hello.protocolVersion);
        }
      } catch (error) {
        const reason = error instanceof Error ? error : new EngineDeadError(String(error));
        this.die(reason);
        throw reason;
      }
    });
    this.ready.catch(() => {});
  }

  protected async invoke<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>> {
    await this.ready;
    const api = await this.engine;
    const fn = api[method] as unknown as (...a: unknown[]) => Promise<CoreResult<K>>;
    return fn.apply(api, args as unknown[]);
  }

  terminate(): void {
    if (this.dead) return;
    // Stop a running load; results of calls already running are ignored from now on.
    this.loaded?.cancel().catch(() => {});
    this.die(new EngineDeadError('The engine was stopped.'));
  }
}
