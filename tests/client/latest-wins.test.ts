import { describe, expect, it } from 'vitest';
import { createLatestWins } from '../../src/client/latestWins';
import { SupersededError, isAbortError } from '../../src/client/errors';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const settle = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );

describe('latest-wins', () => {
  it('keeps one in flight and one pending per key; replaced pending calls are superseded', async () => {
    const lw = createLatestWins();
    const started: string[] = [];
    const gates = new Map<string, ReturnType<typeof deferred<string>>>();
    const task = (name: string) => () => {
      started.push(name);
      const gate = deferred<string>();
      gates.set(name, gate);
      return gate.promise;
    };
    const a = settle(lw.run('rows', task('a')));
    const b = settle(lw.run('rows', task('b')));
    const c = settle(lw.run('rows', task('c')));
    const other = settle(lw.run('search', task('x')));
    expect(started).toEqual(['a', 'x']);
    expect(await b).toMatchObject({ error: expect.any(SupersededError) });
    gates.get('a')?.resolve('A');
    expect(await a).toEqual({ value: 'A' }); // delivered: a slightly old window beats none
    await Promise.resolve();
    expect(started).toEqual(['a', 'x', 'c']);
    gates.get('c')?.resolve('C');
    gates.get('x')?.resolve('X');
    expect(await c).toEqual({ value: 'C' });
    expect(await other).toEqual({ value: 'X' });
  });

  it('drops an overtaken in-flight answer when asked to', async () => {
    const lw = createLatestWins();
    const gate = deferred<number>();
    const first = settle(lw.run('search', () => gate.promise, { dropSuperseded: true }));
    const second = settle(lw.run('search', async () => 2, { dropSuperseded: true }));
    gate.resolve(1);
    const result = await first;
    expect('error' in result && isAbortError(result.error)).toBe(true);
    expect(await second).toEqual({ value: 2 });
  });

  it('passes errors through and keeps going', async () => {
    const lw = createLatestWins();
    await expect(lw.run('k', async () => Promise.reject(new Error('nope')))).rejects.toThrow('nope');
    await expect(lw.run('k', async () => 5)).resolves.toBe(5);
  });

  it('cancelPending rejects waiting calls as AbortError', async () => {
    const lw = createLatestWins();
    const gate = deferred<number>();
    void lw.run('k', () => gate.promise);
    const waiting = settle(lw.run('k', async () => 2));
    lw.cancelPending();
    const result = await waiting;
    expect('error' in result && isAbortError(result.error)).toBe(true);
    gate.resolve(1);
  });
});
