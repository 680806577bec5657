/**
 * The real engine, in process, behind a few test controls: the store and component tests run
 * against what ships, not a second engine. Every request of the method table goes to
 * `createEngine()`; the test can record calls, hold requests and let them through, crash the
 * engine, say it stalls, and (only where a million rows are the point) answer the timeline with
 * synthetic rows.
 */
import type { CoreClient, DeadListener, EngineHome, StallListener } from '../../src/client/CoreClient';
import { EngineDeadError } from '../../src/client/errors';
import { CORE_METHODS } from '../../src/protocol/protocol';
import type { CoreApi, CoreMethod, LoadSummary, RowOfParams, RowsParams, RowWindow, TimelineRow } from '../../src/protocol/protocol';
import { createEngine } from '../../src/worker/engine';
import type { FollowFetch } from '../../src/worker/follow';

/** The project's text fixtures, bundled by Vite (the tests run in Node and in jsdom alike). */
const FIXTURES = import.meta.glob<string>('../fixtures/*.jsonl', { query: '?raw', import: 'default', eager: true });

/** The binary fixtures (an export ZIP, Zstandard files) as data URLs, bundled by Vite. */
const BINARY_FIXTURES = import.meta.glob<string>(['../fixtures/*.zip', '../fixtures/*.zstd'], {
  query: '?inline',
  import: 'default',
  eager: true,
});

/** The bytes of a binary project fixture (`tests/fixtures/<name>`). */
export function fixtureBytes(name: string): Uint8Array<ArrayBuffer> {
  const url = BINARY_FIXTURES[`../fixtures/${name}`];
  if (url === undefined) throw new Error(`no binary fixture tests/fixtures/${name}`);
  const binary = atob(url.slice(url.indexOf(',') + 1));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/** The text of a project fixture (`tests/fixtures/<name>`). */
export function fixtureText(name: string): string {
  const text = FIXTURES[`../fixtures/${name}`];
  if (text === undefined) throw new Error(`no text fixture tests/fixtures/${name}`);
  return text;
}

export interface TestEngineOptions {
  /** Answer `rows`/`rowOf` as if the session had this many rows (generated on the fly). */
  syntheticRows?: number;
  /** Where the engine says it runs. @default 'worker' */
  engineHome?: EngineHome;
  /** The protocol version `hello` answers (an engine of another build). @default the engine's own */
  protocolVersion?: number;
  /** How the engine fetches a followed URL (e.g. `tests/support/range-host.ts`). @default none: following a URL fails */
  fetch?: FollowFetch;
}

export interface RecordedCall {
  method: CoreMethod;
  args: unknown[];
}

/** A base class with one method per request of the method table, each calling `request`. */
function requests(): abstract new () => CoreApi {
  abstract class Requests {}
  for (const method of Object.keys(CORE_METHODS) as CoreMethod[]) {
    Object.defineProperty(Requests.prototype, method, {
      value: function (this: { request(m: CoreMethod, a: unknown[]): Promise<unknown> }, ...args: unknown[]) {
        return this.request(method, args);
      },
    });
  }
  return Requests as unknown as abstract new () => CoreApi;
}

/** A {@link CoreClient} over the real in-process engine, with test controls. */
export class TestEngine extends requests() implements CoreClient {
  readonly calls: RecordedCall[] = [];
  readonly engine: CoreApi;
  private held: (() => void)[] | null = null;
  /** While set, every yield of a running load (after each progress report) waits for it. */
  private loadGate: { wait: Promise<void>; open: () => void } | null = null;
  private readonly pending = new Set<(error: Error) => void>();
  private readonly deadListeners = new Set<DeadListener>();
  private readonly stallListeners = new Set<StallListener>();
  private deathError: Error | null = null;

  constructor(private readonly options: TestEngineOptions = {}) {
    super();
    const fetch = options.fetch;
    this.engine = createEngine({ pause: () => this.loadGate?.wait ?? Promise.resolve(), ...(fetch ? { fetch } : {}) });
  }

  get engineHome(): EngineHome {
    return this.options.engineHome ?? 'worker';
  }

  get dead(): boolean {
    return this.deathError !== null;
  }

  // ---- test controls -------------------------------------------------------------------------

  /** Requests wait until {@link release} (to observe loading states and latest-wins). */
  hold(): void {
    this.held ??= [];
  }

  /** Lets every held request through, in call order, and stops holding. */
  release(): void {
    const queue = this.held ?? [];
    this.held = null;
    for (const go of queue) go();
  }

  /**
   * A running load stops after its next progress report until {@link releaseLoad}, as a large
   * file's would while it decodes (the real engine reports a small fixture too fast to watch).
   */
  holdLoad(): void {
    if (this.loadGate) return;
    let open = (): void => {};
    const wait = new Promise<void>((resolve) => (open = resolve));
    this.loadGate = { wait, open };
  }

  /** Lets a load held by {@link holdLoad} go on. */
  releaseLoad(): void {
    this.loadGate?.open();
    this.loadGate = null;
  }

  /** Stops holding new requests but keeps those held so far; the returned function lets them through. */
  detachHeld(): () => void {
    const queue = this.held ?? [];
    this.held = null;
    return () => {
      for (const go of queue) go();
    };
  }

  get heldCount(): number {
    return this.held?.length ?? 0;
  }

  callsTo(method: CoreMethod): RecordedCall[] {
    return this.calls.filter((call) => call.method === method);
  }

  /** The engine dies as a crashed worker does: every pending request rejects. */
  crash(message = 'The engine worker crashed or failed to start.'): void {
    this.die(new EngineDeadError(message));
  }

  /** The engine stops answering (`true`), or answers again (`false`), as the watchdog says. */
  stall(stalled: boolean): void {
    for (const listener of [...this.stallListeners]) listener(stalled);
  }

  // ---- CoreClient ----------------------------------------------------------------------------

  terminate(): void {
    this.engine.cancel().catch(() => {});
    this.die(new EngineDeadError('The engine was stopped.'));
  }

  onDead(listener: DeadListener): () => void {
    if (this.deathError) {
      listener(this.deathError);
      return () => {};
    }
    this.deadListeners.add(listener);
    return () => void this.deadListeners.delete(listener);
  }

  onStall(listener: StallListener): () => void {
    this.stallListeners.add(listener);
    return () => void this.stallListeners.delete(listener);
  }

  private die(error: Error): void {
    if (this.deathError) return;
    this.deathError = error;
    for (const fail of [...this.pending]) fail(error);
    for (const listener of [...this.deadListeners]) listener(error);
    this.deadListeners.clear();
  }

  /** One request: recorded, held when asked, answered by the engine (or the synthetic rows). */
  protected request(method: CoreMethod, args: unknown[]): Promise<unknown> {
    this.calls.push({ method, args });
    if (this.deathError) return Promise.reject(this.deathError);
    return new Promise((resolve, reject) => {
      const fail = (error: Error): void => {
        if (this.pending.delete(fail)) reject(error);
      };
      this.pending.add(fail);
      const go = (): void => {
        if (!this.pending.has(fail)) return;
        this.answer(method, args).then(
          (value) => {
            if (this.pending.delete(fail)) resolve(value);
          },
          (error: unknown) => {
            if (this.pending.delete(fail)) reject(error);
          },
        );
      };
      if (this.held) this.held.push(go);
      else go();
    });
  }

  private answer(method: CoreMethod, args: unknown[]): Promise<unknown> {
    const version = this.options.protocolVersion;
    if (version !== undefined && method === 'hello') return Promise.resolve({ protocolVersion: version });
    const synthetic = this.options.syntheticRows;
    if (synthetic !== undefined && method === 'rows') return Promise.resolve(syntheticRows(synthetic, args[0] as RowsParams));
    if (synthetic !== undefined && method === 'rowOf') return Promise.resolve(Math.min((args[0] as RowOfParams).seq, synthetic - 1));
    return (this.engine[method] as (...a: unknown[]) => Promise<unknown>)(...args);
  }
}

/** An event of a log written by a test (the wire form of a session log line). */
export interface LogEvent {
  seq: number;
  type: string;
  time: number;
  data?: unknown;
  surfaceOp?: 'append' | { op: 'replace'; start: number; end: number };
  sourceEventSeqs?: number[];
}

/**
 * The text of a session log holding `events` after a session header: a case no fixture has
 * (a span of hundreds of messages, a block over the engine's clip), opened by the real engine.
 */
export function logText(events: readonly LogEvent[], id = 'test-log'): string {
  const header = { type: 'session', version: 0, id, createdAt: 0, delegationDepth: 0 };
  return [header, ...events].map((line) => JSON.stringify(line)).join('\n') + '\n';
}

/** Opens a project fixture on `client` as the user would (pasted text named after the file). */
export function openFixture(client: CoreApi, fixture = 'teaching.jsonl'): Promise<LoadSummary> {
  return client.open({ kind: 'text', name: fixture, text: fixtureText(fixture) }, () => {});
}

/** A window of `total` made-up rows: a million-row timeline without a million-event log. */
function syntheticRows(total: number, { step, start, count }: RowsParams): RowWindow {
  const rows: TimelineRow[] = [];
  for (let i = Math.max(0, start); i < Math.min(total, start + count); i++) {
    rows.push({
      index: i,
      seq: i,
      seqLabel: String(i),
      time: i * 1000,
      timeBack: false,
      type: i % 2 === 0 ? 'user/message' : 'turn/start',
      family: i % 2 === 0 ? 'user' : 'turn',
      turn: null,
      step: null,
      op: i % 2 === 0 ? 'append' : null,
      summary: `synthetic event ${i}`,
      state: i < step ? (i % 2 === 0 ? 'current' : 'log-only') : 'future',
    });
  }
  return { total, start, rows };
}
