import { describe, expect, it } from 'vitest';
import { FallbackCoreClient } from '../../src/client/FallbackCoreClient';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import type { WorkerLike } from '../../src/client/WorkerCoreClient';
import { EngineDeadError } from '../../src/client/errors';
import { TestEngine, openFixture } from '../support/test-engine';

const filter = { families: [], surfaceOnly: false };

/** A worker whose script never runs: it reports an error as soon as it is created. */
class BrokenWorker extends EventTarget implements WorkerLike {
  terminated = false;
  constructor(message: string) {
    super();
    setTimeout(() => {
      const event = new Event('error') as Event & { message: string };
      event.message = message;
      this.dispatchEvent(event);
    }, 0);
  }
  postMessage(): void {}
  terminate(): void {
    this.terminated = true;
  }
}

describe('FallbackCoreClient', () => {
  it('uses the worker engine when it answers the handshake', async () => {
    const worker = new TestEngine();
    await openFixture(worker);
    let fallbacks = 0;
    const client = new FallbackCoreClient(
      () => new InProcessCoreClient(worker),
      () => {
        fallbacks++;
        return new InProcessCoreClient(new TestEngine());
      },
    );
    const rows = await client.rows({ session: 0, step: 54, filter, start: 0, count: 2 });
    expect(rows.rows.map((r) => r.seq)).toEqual([0, 1]);
    expect(client.mode).toBe('worker');
    expect(client.engineHome).toBe('worker');
    expect(client.fallbackReason).toBeNull();
    expect(fallbacks).toBe(0);
    expect(worker.callsTo('rows')).toHaveLength(1);
  });

  it('runs the engine on the page when the worker reports an error before its handshake', async () => {
    let broken: BrokenWorker | null = null;
    const local = new TestEngine();
    await openFixture(local);
    const client = new FallbackCoreClient(
      () => new WorkerCoreClient({ createWorker: () => (broken = new BrokenWorker('Failed to fetch worker script')) }),
      () => new InProcessCoreClient(local),
    );
    // A request made while the worker is starting goes to the engine that answers.
    const rows = await client.rows({ session: 0, step: 54, filter, start: 0, count: 3 });
    expect(rows.rows.map((r) => r.seq)).toEqual([0, 1, 2]);
    expect(client.mode).toBe('in-process');
    expect(client.engineHome).toBe('page');
    expect(client.fallbackReason?.message).toBe('The engine worker crashed or failed to start: Failed to fetch worker script.');
    expect(broken!.terminated).toBe(true);
    expect(local.callsTo('rows')).toHaveLength(1);
    expect(client.dead).toBe(false);
  });

  it('runs the engine on the page when the worker cannot even be constructed', async () => {
    const client = new FallbackCoreClient(
      () =>
        new WorkerCoreClient({
          createWorker: () => {
            throw new Error('Worker scripts are blocked by policy');
          },
        }),
      () => new InProcessCoreClient(new TestEngine()),
    );
    await client.ready;
    expect(client.mode).toBe('in-process');
    expect(client.fallbackReason?.message).toBe('Worker scripts are blocked by policy');
  });

  it('dies with both reasons when neither engine starts, and rejects what was pending', async () => {
    const client = new FallbackCoreClient(
      () => new WorkerCoreClient({ createWorker: () => new BrokenWorker('no worker') }),
      () => new InProcessCoreClient(Promise.reject(new Error('This build has no in-process engine.'))),
    );
    const pending = client.surface({ session: 0, step: 0, start: 0, count: 5 });
    const message =
      'The engine could not start: in a worker (The engine worker crashed or failed to start: no worker.) nor on the page (This build has no in-process engine.).';
    await expect(pending).rejects.toThrow(message);
    await expect(client.ready).rejects.toBeInstanceOf(EngineDeadError);
    expect(client.dead).toBe(true);
    await expect(client.hello()).rejects.toThrow(message);
  });

  it("does not fall back once the worker has answered: its later death is the client's death", async () => {
    const worker = new InProcessCoreClient(new TestEngine());
    let fallbacks = 0;
    const client = new FallbackCoreClient(
      () => worker,
      () => {
        fallbacks++;
        return new InProcessCoreClient(new TestEngine());
      },
    );
    await client.ready;
    const dead: Error[] = [];
    client.onDead((error) => dead.push(error));
    worker.terminate();
    expect(client.dead).toBe(true);
    expect(dead.map((e) => e.message)).toEqual(['The engine was stopped.']);
    await expect(client.rows({ session: 0, step: 1, filter, start: 0, count: 1 })).rejects.toThrow('The engine was stopped.');
    expect(fallbacks).toBe(0);
  });

  it('terminate() during the handshake stops the worker and starts nothing else', async () => {
    const local = new TestEngine();
    local.hold();
    let fallbacks = 0;
    const worker = new InProcessCoreClient(local);
    const client = new FallbackCoreClient(
      () => worker,
      () => {
        fallbacks++;
        return new InProcessCoreClient(new TestEngine());
      },
    );
    const pending = client.rows({ session: 0, step: 1, filter, start: 0, count: 1 });
    client.terminate();
    await expect(pending).rejects.toThrow('The engine was stopped.');
    await expect(client.ready).rejects.toThrow('The engine was stopped.');
    expect(worker.dead).toBe(true);
    local.release();
    await new Promise((r) => setTimeout(r, 5));
    expect(fallbacks).toBe(0);
  });
});
