import { describe, expect, it } from 'vitest';
import { PREFS_KEY, createAppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import { TestEngine } from '../support/test-engine';
import { FakeLocation, FakeScheduler } from './helpers';

const make = (storage = memoryStorage()) =>
  createAppStore(new TestEngine(), { storage, location: new FakeLocation(), scheduler: new FakeScheduler() });

describe('prefs', () => {
  it('persists theme, pane sizes, speed, time mode and prices to the injected storage, and nothing else', () => {
    const storage = memoryStorage();
    const store = make(storage);
    store.getState().toggleTheme();
    store.getState().setPaneSizes('main', [0.4, 0.6]);
    store.getState().setSpeed(30);
    store.getState().setTimeMode('clock');
    store.getState().setPrices({ m: { input: 3, output: 15 } });
    store.getState().goTo(3);
    const saved = JSON.parse(storage.getItem(PREFS_KEY) ?? '{}') as { state: Record<string, unknown> };
    expect(saved.state).toEqual({
      theme: 'dark',
      paneSizes: { main: [0.4, 0.6] },
      speed: 30,
      timeMode: 'clock',
      prices: { m: { input: 3, output: 15 } },
    });
    const again = make(storage);
    expect(again.getState().theme).toBe('dark');
    expect(again.getState().paneSizes).toEqual({ main: [0.4, 0.6] });
    expect(again.getState().speed).toBe(30);
    expect(again.getState().timeMode).toBe('clock');
    expect(again.getState().prices).toEqual({ m: { input: 3, output: 15 } });
  });

  it('ignores malformed stored prefs', () => {
    const storage = memoryStorage();
    storage.setItem(
      PREFS_KEY,
      JSON.stringify({
        state: { theme: 'neon', speed: -3, paneSizes: { a: ['x'], b: [0.5, 0.5] }, prices: { m: { input: 'x' } } },
        version: 1,
      }),
    );
    const store = make(storage);
    expect(store.getState().theme).toBe('light');
    expect(store.getState().speed).toBe(5);
    expect(store.getState().paneSizes).toEqual({ b: [0.5, 0.5] });
    expect(store.getState().prices).toEqual({});
  });

  it('uses the default theme given by the host', () => {
    const store = createAppStore(new TestEngine(), { storage: memoryStorage(), defaultTheme: 'dark' });
    expect(store.getState().theme).toBe('dark');
  });
});
