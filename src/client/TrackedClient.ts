/**
 * Shared machinery of both clients: every request is tracked until it settles, so that the death
 * of the engine (worker crash, failed handshake, `terminate()`) rejects *every* pending promise
 * instead of leaving callers waiting forever (the classic Comlink pitfall).
 */
import { CORE_METHODS } from '../protocol/protocol';
import type { CoreApi, CoreMethod, CoreResult } from '../protocol/protocol';
import type { CoreClient, DeadListener } from './CoreClient';

export type { CoreMethod, CoreResult };
/** The arguments of a request. */
export type CoreArgs<K extends CoreMethod> = Parameters<CoreApi[K]>;

/** What a forwarder calls: {@link TrackedClient}'s tracked request. */
interface Forwarding {
  forward(method: CoreMethod, args: unknown[]): Promise<unknown>;
}

/**
 * A base class with one method per entry of the method table ({@link CORE_METHODS}), each a
 * tracked request of that name: the clients have no forwarder written out per request.
 */
function forwarders(): abstract new () => CoreApi {
  abstract class Forwarders {}
  for (const method of Object.keys(CORE_METHODS) as CoreMethod[]) {
    Object.defineProperty(Forwarders.prototype, method, {
      configurable: true,
      writable: true,
      value: function (this: Forwarding, ...args: unknown[]) {
        return this.forward(method, args);
      },
    });
  }
  return Forwarders as unknown as abstract new () => CoreApi;
}

export abstract class TrackedClient extends forwarders() implements CoreClient {
  /** One reject function per request still in flight. */
  private readonly pending = new Set<(error: Error) => void>();
  private readonly deadListeners = new Set<DeadListener>();
  private deathError: Error | null = null;

  get dead(): boolean {
    return this.deathError !== null;
  }

  /** Number of requests in flight (for tests and diagnostics). */
  get pendingCount(): number {
    return this.pending.size;
  }

  /** Performs one engine call; subclasses add the transport (worker, direct call). */
  protected abstract invoke<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>>;

  abstract terminate(): void;

  onDead(listener: DeadListener): () => void {
    if (this.deathError) {
      listener(this.deathError);
      return () => {};
    }
    this.deadListeners.add(listener);
    return () => {
      this.deadListeners.delete(listener);
    };
  }

  /**
   * Runs `start` and returns a promise that settles with it, or rejects with the death error if
   * the engine dies first. Rejects at once when the engine is already dead.
   */
  protected track<T>(start: () => Promise<T>): Promise<T> {
    const death = this.deathError;
    if (death) return Promise.reject(death);
    return new Promise<T>((resolve, reject) => {
      let settled = false;
      const finish = (): boolean => {
        if (settled) return false;
        settled = true;
        this.pending.delete(fail);
        return true;
      };
      const fail = (error: Error): void => {
        if (finish()) reject(error);
      };
      this.pending.add(fail);
      let inner: Promise<T>;
      try {
        inner = start();
      } catch (error) {
        if (finish()) reject(error);
        return;
      }
      inner.then(
        (value) => {
          if (finish()) resolve(value);
        },
        (error: unknown) => {
          if (finish()) reject(error);
        },
      );
    });
  }

  /** Performs a request, tracked (what every method of the engine API does). */
  protected forward<K extends CoreMethod>(method: K, args: CoreArgs<K>): Promise<CoreResult<K>> {
    return this.track(() => this.invoke(method, args));
  }

  /** Marks the client dead (once), rejects every pending request and notifies listeners. */
  protected die(error: Error): void {
    if (this.deathError) return;
    this.deathError = error;
    for (const fail of [...this.pending]) fail(error);
    const listeners = [...this.deadListeners];
    this.deadListeners.clear();
    for (const listener of listeners) listener(error);
  }
}
