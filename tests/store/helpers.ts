/** Test doubles for the store's injected platform services, and test stores on the real engine. */
import { createAppStore } from '../../src/store/createAppStore';
import type { AppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import type { AppStoreDeps, LocationLike, Scheduler } from '../../src/store/deps';
import { TestEngine, fixtureText, logText } from '../support/test-engine';
import type { LogEvent, TestEngineOptions } from '../support/test-engine';

/** A manual clock: timers fire only when the test advances time. */
export class FakeScheduler implements Scheduler {
  now = 0;
  private timers: { at: number; callback: () => void; id: number }[] = [];
  private nextId = 0;
  setTimeout(callback: () => void, ms: number): () => void {
    const id = this.nextId++;
    this.timers.push({ at: this.now + ms, callback, id });
    return () => {
      this.timers = this.timers.filter((t) => t.id !== id);
    };
  }
  get size(): number {
    return this.timers.length;
  }
  advance(ms: number): void {
    const end = this.now + ms;
    for (;;) {
      this.timers.sort((a, b) => a.at - b.at || a.id - b.id);
      const next = this.timers[0];
      if (!next || next.at > end) break;
      this.timers.shift();
      this.now = next.at;
      next.callback();
    }
    this.now = end;
  }
}

export class FakeLocation implements LocationLike {
  writes: string[] = [];
  constructor(public hash = '') {}
  readHash(): string {
    return this.hash;
  }
  writeHash(hash: string): void {
    this.hash = hash;
    this.writes.push(hash);
  }
  /** What the store wrote to the query (`?url=`, `?sample=`, …), in order. */
  sources: ({ param: string; value: string } | null)[] = [];
  writeSource(source: { param: 'url' | 'sample' | 'demo'; value: string } | null): void {
    this.sources.push(source);
  }
  private readonly listeners = new Set<() => void>();
  onHashChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
  /** The user changes the hash (the address bar, back/forward). */
  userSets(hash: string): void {
    this.hash = hash;
    for (const listener of this.listeners) listener();
  }
  get listenerCount(): number {
    return this.listeners.size;
  }
}

/** A test store on the real engine (see `tests/support/test-engine.ts`). */
export interface EngineTestStore {
  store: AppStore;
  client: TestEngine;
  scheduler: FakeScheduler;
  location: FakeLocation;
}

export function makeEngineStore(options: TestEngineOptions = {}, deps: AppStoreDeps = {}): EngineTestStore {
  const client = new TestEngine(options);
  const scheduler = new FakeScheduler();
  const location = deps.location instanceof FakeLocation ? deps.location : new FakeLocation();
  const store = createAppStore(client, { storage: memoryStorage(), scheduler, location, ...deps });
  return { store, client, scheduler, location };
}

/** A store on the real engine with a project fixture opened, as the user would open it. */
export async function engineStoreWith(
  fixture = 'teaching.jsonl',
  options: TestEngineOptions = {},
  deps: AppStoreDeps = {},
): Promise<EngineTestStore> {
  const test = makeEngineStore(options, deps);
  await test.store.getState().openSource({ kind: 'text', name: fixture, text: fixtureText(fixture) });
  return test;
}

/** A store on the real engine with a log's text opened as pasted text named `name`. */
export async function engineStoreWithText(
  text: string,
  name: string,
  options: TestEngineOptions = {},
  deps: AppStoreDeps = {},
): Promise<EngineTestStore> {
  const test = makeEngineStore(options, deps);
  await test.store.getState().openSource({ kind: 'text', name, text });
  return test;
}

/** A store on the real engine with a log written by the test opened (`name` is its file name). */
export function engineStoreWithLog(
  events: readonly LogEvent[],
  name = 'test.jsonl',
  options: TestEngineOptions = {},
  deps: AppStoreDeps = {},
): Promise<EngineTestStore> {
  return engineStoreWithText(logText(events), name, options, deps);
}
