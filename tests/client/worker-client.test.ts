import { afterEach, describe, expect, it, vi } from 'vitest';
import { expose } from 'comlink';
import { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import type { WorkerLike } from '../../src/client/WorkerCoreClient';
import { EngineDeadError, ProtocolMismatchError } from '../../src/client/errors';
import { PROTOCOL_VERSION } from '../../src/protocol/protocol';
import type { ProgressEvent } from '../../src/protocol/protocol';

/**
 * A Worker-like object: messages go through a real MessageChannel to an engine exposed with
 * Comlink on the other port (as in the real worker); `error`/`messageerror` are dispatched by hand.
 */
class FakeWorker extends EventTarget implements WorkerLike {
  readonly channel = new MessageChannel();
  terminated = false;
  constructor(engine: object) {
    super();
    expose(engine, this.channel.port2);
  }
  postMessage(message: unknown, transfer?: Transferable[]): void {
    if (this.terminated) return;
    this.channel.port1.postMessage(message, transfer ?? []);
  }
  override addEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (type === 'message') this.channel.port1.addEventListener('message', listener as EventListener);
    else super.addEventListener(type, listener);
    this.channel.port1.start();
  }
  override removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null): void {
    if (type === 'message') this.channel.port1.removeEventListener('message', listener as EventListener);
    else super.removeEventListener(type, listener);
  }
  terminate(): void {
    this.terminated = true;
    this.channel.port1.close();
    this.channel.port2.close();
  }
}

const never = () => new Promise<never>(() => {});

function engine(overrides: Record<string, unknown> = {}) {
  return {
    hello: async () => ({ protocolVersion: PROTOCOL_VERSION }),
    cancel: async () => {},
    rows: never,
    surface: never,
    replaceSteps: async () => Int32Array.of(3, 9),
    open: async (request: { kind: string; buffer?: ArrayBuffer }, onProgress: (p: ProgressEvent) => Promise<void>) => {
      await onProgress({ loadId: 1, bytes: request.buffer?.byteLength ?? 0, totalBytes: null, events: 2, elapsedMs: 1 });
      return { loadId: 1, file: 'x', bytes: request.buffer?.byteLength ?? 0, sessions: [], findings: [], elapsedMs: 1 };
    },
    ...overrides,
  };
}

const workers: FakeWorker[] = [];
function client(overrides: Record<string, unknown> = {}, handshakeTimeoutMs?: number) {
  const worker = new FakeWorker(engine(overrides));
  workers.push(worker);
  const options = handshakeTimeoutMs === undefined ? {} : { handshakeTimeoutMs };
  return { worker, client: new WorkerCoreClient({ createWorker: () => worker, ...options }) };
}

afterEach(() => {
  for (const worker of workers.splice(0)) worker.terminate();
});

const filter = { families: [], surfaceOnly: false };

describe('WorkerCoreClient', () => {
  it('shakes hands, then answers calls', async () => {
    const { client: c } = client();
    await c.ready;
    expect(await c.hello()).toEqual({ protocolVersion: PROTOCOL_VERSION });
    expect(Array.from(await c.replaceSteps({ session: 0 }))).toEqual([3, 9]);
    expect(c.dead).toBe(false);
  });

  it('transfers the bytes of an open and relays progress', async () => {
    const { client: c } = client();
    const buffer = new Uint8Array([1, 2, 3, 4]).buffer;
    const progress: ProgressEvent[] = [];
    const summary = await c.open({ kind: 'bytes', name: 'a.jsonl', buffer }, (p) => progress.push(p));
    expect(summary.bytes).toBe(4);
    expect(buffer.byteLength).toBe(0); // detached: moved, not copied
    expect(progress).toEqual([{ loadId: 1, bytes: 4, totalBytes: null, events: 2, elapsedMs: 1 }]);
  });

  it('refuses an engine that speaks another protocol version, with a clear message', async () => {
    const { client: c, worker } = client({ hello: async () => ({ protocolVersion: 99 }) });
    const pending = c.rows({ session: 0, step: 0, filter, start: 0, count: 10 });
    await expect(c.ready).rejects.toBeInstanceOf(ProtocolMismatchError);
    await expect(pending).rejects.toThrow(new RegExp(`protocol version 99 but this page expects version ${PROTOCOL_VERSION}`));
    expect(c.dead).toBe(true);
    expect(worker.terminated).toBe(true);
  });

  it('rejects every pending request on terminate(), and every later one at once', async () => {
    const { client: c, worker } = client();
    await c.ready;
    const dead: Error[] = [];
    c.onDead((error) => dead.push(error));
    const a = c.rows({ session: 0, step: 0, filter, start: 0, count: 10 });
    const b = c.surface({ session: 0, step: 3, start: 0, count: 10 });
    await new Promise((r) => setTimeout(r, 5));
    expect(c.pendingCount).toBe(2);
    c.terminate();
    await expect(a).rejects.toBeInstanceOf(EngineDeadError);
    await expect(b).rejects.toThrow('The engine was stopped.');
    await expect(c.replaceSteps({ session: 0 })).rejects.toThrow('The engine was stopped.');
    expect(c.pendingCount).toBe(0);
    expect(worker.terminated).toBe(true);
    expect(dead).toHaveLength(1);
    c.terminate();
    expect(dead).toHaveLength(1);
  });

  it('rejects every pending request when the worker reports an error', async () => {
    const { client: c, worker } = client();
    await c.ready;
    const a = c.rows({ session: 0, step: 0, filter, start: 0, count: 10 });
    const dead: Error[] = [];
    c.onDead((error) => dead.push(error));
    const crash = new Event('error') as Event & { message: string };
    crash.message = 'Uncaught RangeError: out of memory';
    worker.dispatchEvent(crash);
    await expect(a).rejects.toThrow('The engine worker crashed or failed to start: Uncaught RangeError: out of memory.');
    expect(dead[0]).toBeInstanceOf(EngineDeadError);
    expect(worker.terminated).toBe(true);
    // A listener added after death hears about it at once.
    let late: Error | null = null;
    c.onDead((error) => (late = error));
    expect(late).toBe(dead[0]);
  });

  it('rejects every pending request on messageerror', async () => {
    const { client: c, worker } = client();
    const a = c.surface({ session: 0, step: 0, start: 0, count: 5 });
    worker.dispatchEvent(new Event('messageerror'));
    await expect(a).rejects.toThrow('The engine worker sent a message that could not be read.');
  });

  it('gives up on a worker that never answers the handshake', async () => {
    const { client: c } = client({ hello: never }, 30);
    const a = c.replaceSteps({ session: 0 });
    await expect(a).rejects.toThrow('The engine worker did not answer within 30 ms.');
    expect(c.dead).toBe(true);
  });

  it('passes engine errors through with their message and name', async () => {
    const { client: c } = client({
      rows: async () => {
        const error = new Error('The load was cancelled.');
        error.name = 'AbortError';
        throw error;
      },
    });
    await expect(c.rows({ session: 0, step: 0, filter, start: 0, count: 1 })).rejects.toMatchObject({
      name: 'AbortError',
      message: 'The load was cancelled.',
    });
    expect(c.dead).toBe(false);
  });
});

describe('WorkerCoreClient watchdog', () => {
  const wait = (ms: number) => new Promise((r) => setTimeout(r, ms));
  const fast = { probeMs: 10, stallMs: 40 };

  it('reports a worker that stops answering while a request waits, and when it answers again', async () => {
    let hellos = 0;
    let answer: (() => void) | null = null;
    let answering = false;
    const worker = new FakeWorker(
      engine({
        // The handshake is answered; the probes wait until the test lets the worker answer, and
        // from then on are answered at once (the rows request still waits: a later probe left
        // unanswered would be a second stall, reported whenever the timers ran late).
        hello: () => {
          hellos += 1;
          if (hellos === 1 || answering) return Promise.resolve({ protocolVersion: PROTOCOL_VERSION });
          return new Promise((resolve) => (answer = () => resolve({ protocolVersion: PROTOCOL_VERSION })));
        },
      }),
    );
    workers.push(worker);
    const c = new WorkerCoreClient({ createWorker: () => worker, watchdog: fast });
    await c.ready;
    const states: boolean[] = [];
    c.onStall((stalled) => states.push(stalled));
    void c.rows({ session: 0, step: 0, filter, start: 0, count: 10 }).catch(() => {}); // never answered
    // Waited for, not timed: a tick that comes late (a loaded machine) does not count the wait.
    await vi.waitFor(() => expect(states).toEqual([true]), { timeout: 5000, interval: 10 });
    expect(hellos).toBe(2); // one probe at a time
    answering = true;
    answer!();
    await vi.waitFor(() => expect(states).toEqual([true, false]), { timeout: 5000, interval: 10 });
    c.terminate();
  });

  it('does not blame the worker for a time the page itself was held up', async () => {
    let hellos = 0;
    const worker = new FakeWorker(
      engine({
        hello: () => {
          hellos += 1;
          if (hellos === 2) {
            // The page is busy for 100 ms (this fake worker runs on the page's thread) while the
            // probe is out; the answer comes right after.
            const until = performance.now() + 100;
            while (performance.now() < until) {
              // held up
            }
            return new Promise((resolve) => setTimeout(() => resolve({ protocolVersion: PROTOCOL_VERSION }), 0));
          }
          return Promise.resolve({ protocolVersion: PROTOCOL_VERSION });
        },
      }),
    );
    workers.push(worker);
    const c = new WorkerCoreClient({ createWorker: () => worker, watchdog: fast });
    await c.ready;
    const states: boolean[] = [];
    c.onStall((stalled) => states.push(stalled));
    void c.rows({ session: 0, step: 0, filter, start: 0, count: 10 }).catch(() => {}); // waits; probes are answered
    await vi.waitFor(() => expect(hellos).toBeGreaterThanOrEqual(3), { timeout: 5000, interval: 10 });
    expect(states).toEqual([]);
    c.terminate();
  });

  it('is quiet while the worker answers, and while nothing waits', async () => {
    const { client: c } = client();
    const quiet = new WorkerCoreClient({ createWorker: () => new FakeWorker(engine()), watchdog: fast });
    for (const x of [c, quiet]) await x.ready;
    const states: boolean[] = [];
    quiet.onStall((stalled) => states.push(stalled));
    void quiet.rows({ session: 0, step: 0, filter, start: 0, count: 10 }).catch(() => {}); // waits, but the worker answers probes
    await wait(120);
    expect(states).toEqual([]);
    quiet.terminate();
    c.terminate();
  });
});
