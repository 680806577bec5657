/**
 * The real engine in a real web worker (Chromium): loading through the typed protocol with a
 * transferred buffer, querying windows, a corrupt file, and worker death settling every request.
 */
import { describe, expect, it } from 'vitest';
import { commands } from 'vitest/browser';
import { FallbackCoreClient } from '../../src/client/FallbackCoreClient';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { WorkerCoreClient } from '../../src/client/WorkerCoreClient';
import { loadInProcessEngine } from '../../src/client/engineFallback';
import { generateText } from '../../src/core/gen/generate';
import type { RowFilter, SessionSummary } from '../../src/protocol/protocol';

const ALL: RowFilter = { families: [], surfaceOnly: false };

async function fixture(path: string): Promise<ArrayBuffer> {
  const base64 = await commands.readFile(path, 'base64');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes.buffer;
}

describe('engine worker', () => {
  it('loads a transferred file and answers windows, surfaces and brackets', async () => {
    const client = new WorkerCoreClient();
    const buffer = await fixture('tests/fixtures/teaching.jsonl');
    const progress: number[] = [];
    const summary = await client.open({ kind: 'bytes', name: 'teaching.jsonl', buffer }, (p) => progress.push(p.bytes));
    expect(buffer.byteLength).toBe(0); // transferred, not copied
    expect(progress.length).toBeGreaterThan(0);
    const s = summary.sessions[0]!;
    expect(s).toMatchObject({ events: 54, accepted: 54, replacements: 2, surfaceError: null });
    const firstReplace = await client.navigate({ session: 0, step: 0, kind: 'next-replace' });
    expect(firstReplace).not.toBeNull();
    const surface = await client.surface({ session: 0, step: firstReplace!, start: 0, count: 50 });
    expect(surface.change.kind).toBe('replace');
    expect(surface.nodes.some((n) => n.replacement)).toBe(true);
    const rows = await client.rows({ session: 0, step: firstReplace!, filter: ALL, start: 0, count: 20 });
    expect(rows.total).toBe(54);
    expect(rows.rows.some((r) => r.state === 'shadowed')).toBe(true);
    const brackets = await client.brackets({ session: 0, step: s.accepted, lo: 0, hi: 100 });
    expect(brackets.map((b) => b.depth).sort()).toEqual([0, 1]);
    client.terminate();
  });

  it('runs the engine on the page when the worker script cannot be loaded', async () => {
    const client = new FallbackCoreClient(
      () => new WorkerCoreClient({ createWorker: () => new Worker('/no-such-engine-worker.js', { type: 'module' }) }),
      () => new InProcessCoreClient(loadInProcessEngine()),
    );
    const buffer = await fixture('tests/fixtures/teaching.jsonl');
    const summary = await client.open({ kind: 'bytes', name: 'teaching.jsonl', buffer }, () => {});
    expect(client.mode).toBe('in-process');
    expect(client.fallbackReason?.message).toMatch(/^The engine worker crashed or failed to start/);
    expect(summary.sessions[0]).toMatchObject({ events: 54, accepted: 54, replacements: 2, surfaceError: null });
    const step = await client.navigate({ session: 0, step: 0, kind: 'next-replace' });
    expect((await client.surface({ session: 0, step: step!, start: 0, count: 50 })).change.kind).toBe('replace');
    client.terminate();
  });

  it('cancels a running load between chunks, and answers the next open', async () => {
    const client = new WorkerCoreClient();
    const text = generateText({ seed: 8, events: 150_000 });
    const buffer = new TextEncoder().encode(text).buffer;
    expect(buffer.byteLength).toBeGreaterThan(3 * 4 * 2 ** 20); // several chunks
    let cancelled = false;
    const pending = client.open({ kind: 'bytes', name: 'big.jsonl', buffer }, () => {
      if (cancelled) return;
      cancelled = true;
      void client.cancel();
    });
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(cancelled).toBe(true);
    const summary = await client.open(
      { kind: 'bytes', name: 'teaching.jsonl', buffer: await fixture('tests/fixtures/teaching.jsonl') },
      () => {},
    );
    expect(summary.sessions[0]).toMatchObject({ events: 54 });
    client.terminate();
  });

  it('reads a picked file as a stream: the same summary and fingerprint as its bytes, also when a limit stops it', async () => {
    const client = new WorkerCoreClient();
    const bytes = new Uint8Array(await fixture('tests/fixtures/teaching.jsonl'));
    const file = new File([bytes], 'teaching.jsonl');
    const streamed = await client.open({ kind: 'file', name: 'teaching.jsonl', file }, () => {});
    const whole = await client.open({ kind: 'bytes', name: 'teaching.jsonl', buffer: bytes.slice().buffer }, () => {});
    // The same summary but for the handle: each load's sessions get new ones.
    const content = (sessions: SessionSummary[]) => sessions.map(({ id: _id, ...rest }) => rest);
    expect(content(streamed.sessions)).toEqual(content(whole.sessions));
    expect(streamed.sessions[0]!.id).not.toBe(whole.sessions[0]!.id);
    expect(streamed.bytes).toBe(whole.bytes);
    const big = new TextEncoder().encode(generateText({ seed: 9, events: 40_000 }));
    const limited = await client.open(
      { kind: 'file', name: 'big.jsonl', file: new File([big], 'big.jsonl'), memoryLimitBytes: 6 * 2 ** 20 },
      () => {},
    );
    const full = await client.open({ kind: 'bytes', name: 'big.jsonl', buffer: big.slice().buffer }, () => {});
    expect(limited.sessions[0]!.decodeError?.rule).toBe('decode/memory-limit');
    expect(limited.bytes).toBe(big.length);
    expect(limited.sessions[0]!.fingerprint).toBe(full.sessions[0]!.fingerprint);
    client.terminate();
  });

  it('keeps the valid prefix of a corrupt file usable', async () => {
    const client = new WorkerCoreClient();
    const good = generateText({ seed: 3, events: 400 });
    const lines = good.split('\n');
    const text = [...lines.slice(0, 40), '{"type": broken', ...lines.slice(40)].join('\n');
    const summary = await client.open({ kind: 'text', name: 'broken.jsonl', text }, () => {});
    const s = summary.sessions[0]!;
    expect(s.decodeError).toMatchObject({ line: 41 });
    expect(s.accepted).toBeGreaterThan(0);
    const rows = await client.rows({ session: 0, step: s.accepted, filter: ALL, start: 0, count: 10 });
    expect(rows.rows).toHaveLength(10);
    client.terminate();
  });

  it('rejects every pending request when the worker is terminated, and reports its death', async () => {
    const client = new WorkerCoreClient();
    let died: Error | null = null;
    client.onDead((error) => (died = error));
    const text = generateText({ seed: 4, events: 200_000 });
    const pending = client.open({ kind: 'text', name: 'big.jsonl', text }, () => {});
    const other = client.hello();
    client.terminate();
    await expect(pending).rejects.toThrow(/stopped/);
    await expect(other).rejects.toThrow();
    expect(died).not.toBeNull();
    expect(client.dead).toBe(true);
    await expect(client.hello()).rejects.toThrow();
  });
});
