/** The clients and the engine are derived from one method table: every request, nothing else. */
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { createSharedClient } from '../../src/client/SharedClient';
import { CORE_METHODS } from '../../src/protocol/protocol';
import type { CoreApi } from '../../src/protocol/protocol';
import { createEngine } from '../../src/worker/engine';

const methods = Object.keys(CORE_METHODS).sort();
const TEXT = [
  '{"type":"session","version":0,"id":"t","createdAt":0,"delegationDepth":0}',
  '{"type":"user/message","seq":0,"time":0,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}',
  '',
].join('\n');

/** An engine that records which method each call reached, and with what. */
function recording(): { engine: CoreApi; calls: [string, unknown[]][] } {
  const calls: [string, unknown[]][] = [];
  const engine = Object.fromEntries(
    methods.map((method) => [
      method,
      (...args: unknown[]) => {
        calls.push([method, args]);
        return Promise.resolve(method === 'hello' ? { protocolVersion: 2 } : method);
      },
    ]),
  ) as unknown as CoreApi;
  return { engine, calls };
}

describe('the method table', () => {
  it('lists exactly the methods the engine has', () => {
    expect(Object.keys(createEngine()).sort()).toEqual(methods);
  });

  it('gives a client one forwarder per request, each reaching the engine method of its name with its arguments', async () => {
    const { engine, calls } = recording();
    const client = new InProcessCoreClient(engine);
    await client.ready;
    for (const method of methods) {
      if (method === 'hello') continue;
      const call = (client as unknown as Record<string, (...a: unknown[]) => Promise<unknown>>)[method];
      expect(typeof call).toBe('function');
      expect(await call!.call(client, { session: 7, marker: method })).toBe(method);
      expect(calls.at(-1)).toEqual([method, [{ session: 7, marker: method }]]);
    }
  });

  it('gives the shared view every request but the load ones, and no way to stop the engine', async () => {
    const { engine, calls } = recording();
    const client = new InProcessCoreClient(engine);
    const shared = createSharedClient(client);
    await expect(shared.open({ kind: 'text', name: 'x.jsonl', text: '' }, () => {})).rejects.toThrow('does not open files');
    await shared.cancel();
    expect(calls.map(([method]) => method)).not.toContain('open');
    expect(calls.map(([method]) => method)).not.toContain('cancel');
    expect(await shared.surface({ session: 3, step: 1, start: 0, count: 5 })).toBe('surface');
    expect(calls.at(-1)).toEqual(['surface', [{ session: 3, step: 1, start: 0, count: 5 }]]);
    shared.terminate();
    expect(client.dead).toBe(false);
    client.terminate();
    expect(shared.dead).toBe(true);
  });
});

describe('session handles', () => {
  it('name a session for the engine’s life: a request about one that is gone is refused, the playground is one more', async () => {
    const engine = createEngine({ pause: async () => {} });
    const first = (await engine.open({ kind: 'text', name: 'a.jsonl', text: TEXT }, () => {})).sessions[0]!;
    const pg = await engine.playgroundStart({ session: first.id, step: 1 });
    expect(pg.session).not.toBe(first.id);
    const second = (await engine.open({ kind: 'text', name: 'b.jsonl', text: TEXT }, () => {})).sessions[0]!;
    expect(second.id).not.toBe(first.id);
    await expect(engine.surface({ session: first.id, step: 1, start: 0, count: 5 })).rejects.toThrow(`no session ${first.id} is open`);
    expect((await engine.surface({ session: second.id, step: 1, start: 0, count: 5 })).total).toBe(1);
    // A file load leaves the playground alone; a new playground replaces it.
    expect((await engine.surface({ session: pg.session, step: 1, start: 0, count: 5 })).total).toBe(1);
    const again = await engine.playgroundStart(null);
    await expect(
      engine.rows({ session: pg.session, step: 0, filter: { families: [], surfaceOnly: false }, start: 0, count: 1 }),
    ).rejects.toThrow('is open');
    expect((await engine.surface({ session: again.session, step: 0, start: 0, count: 5 })).total).toBe(0);
  });
});
