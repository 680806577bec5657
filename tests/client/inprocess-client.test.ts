import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { EngineDeadError } from '../../src/client/errors';
import { PROTOCOL_VERSION } from '../../src/protocol/protocol';
import { TestEngine, openFixture } from '../support/test-engine';

const filter = { families: [], surfaceOnly: false };

describe('InProcessCoreClient', () => {
  it('calls the engine directly, after the handshake', async () => {
    const engine = new TestEngine();
    const { sessions } = await openFixture(engine);
    const client = new InProcessCoreClient(engine);
    const window = await client.rows({ session: sessions[0]!.id, step: 54, filter, start: 0, count: 3 });
    // The teaching sample has 54 events, seqs from 0.
    expect(window.total).toBe(54);
    expect(window.rows.map((r) => r.seq)).toEqual([0, 1, 2]);
    expect(engine.calls.map((c) => c.method)).toEqual(['open', 'hello', 'rows']);
  });

  it('accepts a promise of the engine (lazy import)', async () => {
    const client = new InProcessCoreClient(Promise.resolve(new TestEngine()));
    expect(await client.hello()).toEqual({ protocolVersion: PROTOCOL_VERSION });
  });

  it('rejects pending requests on terminate() and cancels a running load', async () => {
    const engine = new TestEngine();
    await openFixture(engine);
    engine.hold();
    const client = new InProcessCoreClient(engine);
    const rows = client.rows({ session: 0, step: 0, filter, start: 0, count: 1 });
    engine.release();
    engine.hold();
    await new Promise((r) => setTimeout(r, 0));
    client.terminate();
    await expect(rows).rejects.toBeInstanceOf(EngineDeadError);
    expect(engine.callsTo('cancel')).toHaveLength(1);
    await expect(client.hello()).rejects.toThrow('The engine was stopped.');
  });

  it('dies with a clear error when the engine cannot be loaded or speaks another version', async () => {
    const missing = new InProcessCoreClient(Promise.reject(new Error('This build has no in-process engine.')));
    await expect(missing.replaceSteps({ session: 0 })).rejects.toThrow('This build has no in-process engine.');
    expect(missing.dead).toBe(true);
    const old = new InProcessCoreClient(new TestEngine({ protocolVersion: 0 }));
    await expect(old.ready).rejects.toThrow(/protocol version 0/);
  });
});
