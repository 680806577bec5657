/**
 * The one interface the store and the UI use to talk to the engine, whether it runs in a web
 * worker ({@link WorkerCoreClient}) or on the main thread ({@link InProcessCoreClient}).
 *
 * It is the engine API ({@link CoreApi}) plus the life cycle of the transport: a client can be
 * terminated, and it reports its death exactly once. After death every call rejects at once with
 * an {@link EngineDeadError}; a new client must be created to continue.
 */
import type { CoreApi } from '../protocol/protocol';

export type DeadListener = (error: Error) => void;

/** Told whether the engine has stopped answering (see {@link CoreClient.onStall}). */
export type StallListener = (stalled: boolean) => void;

/** Where an engine runs (see {@link CoreClient.engineHome}). */
export type EngineHome = 'worker' | 'page';

export interface CoreClient extends CoreApi {
  /**
   * Stops the engine. Every pending request rejects with an {@link EngineDeadError} and the
   * client reports its death to `onDead` listeners. Idempotent.
   */
  terminate(): void;
  /**
   * Registers a listener called once when the engine dies (worker error, failed handshake,
   * `terminate()`). Called at once if it is already dead.
   * @returns an unsubscribe function
   */
  onDead(listener: DeadListener): () => void;
  /** True once the client is dead; it never comes back to life. */
  readonly dead: boolean;
  /**
   * Where the engine runs, once known: in a web worker, or on the page (no `Worker`, or a worker
   * that could not start), where a large log makes the page less responsive. Optional: a client
   * that cannot tell leaves it out.
   */
  readonly engineHome?: EngineHome | null;
  /**
   * Registers a listener told when the engine stops answering while requests wait (`true`), and
   * when it answers again (`false`): a worker stuck in a loop sends no error. Optional: a client
   * whose engine cannot hang apart from the page leaves it out.
   * @returns an unsubscribe function
   */
  onStall?(listener: StallListener): () => void;
}
