/** Preferences that persist across visits (see `partializePrefs`): theme, pane sizes, speed, prices. */
import { parsePriceList } from '../../protocol/protocol';
import type { AppSlice, AppState, PrefsSlice, Theme } from '../types';

export const SPEEDS: readonly number[] = [1, 2, 5, 10, 30, 100, 1000];
export const DEFAULT_SPEED = 5;

export const createPrefsSlice =
  (defaultTheme: Theme): AppSlice<PrefsSlice> =>
  (set, get) => ({
    theme: defaultTheme,
    paneSizes: {},
    speed: DEFAULT_SPEED,
    timeMode: 'elapsed',
    prices: {},
    setPrices(prices) {
      const parsed = parsePriceList(prices);
      if ('prices' in parsed) set({ prices: parsed.prices });
    },
    setTimeMode(timeMode) {
      set({ timeMode });
    },
    setTheme(theme) {
      set({ theme });
    },
    toggleTheme() {
      set({ theme: get().theme === 'dark' ? 'light' : 'dark' });
    },
    setPaneSizes(id, sizes) {
      if (sizes.some((size) => !Number.isFinite(size) || size < 0)) return;
      set({ paneSizes: { ...get().paneSizes, [id]: sizes } });
    },
    setSpeed(speed) {
      if (!Number.isFinite(speed) || speed <= 0) return;
      set({ speed });
    },
  });

/** The persisted part of the state. */
export type PersistedPrefs = Pick<AppState, 'theme' | 'paneSizes' | 'speed' | 'timeMode' | 'prices'>;

export function partializePrefs(state: AppState): PersistedPrefs {
  return { theme: state.theme, paneSizes: state.paneSizes, speed: state.speed, timeMode: state.timeMode, prices: state.prices };
}

/** Accepts only well-formed persisted values (storage is user-editable). */
export function mergePrefs(persisted: unknown, current: AppState): AppState {
  if (typeof persisted !== 'object' || persisted === null) return current;
  const p = persisted as Partial<Record<keyof PersistedPrefs, unknown>>;
  const next = { ...current };
  if (p.theme === 'light' || p.theme === 'dark') next.theme = p.theme;
  if (typeof p.speed === 'number' && Number.isFinite(p.speed) && p.speed > 0) next.speed = p.speed;
  if (p.timeMode === 'elapsed' || p.timeMode === 'clock') next.timeMode = p.timeMode;
  if (p.prices !== undefined) {
    const parsed = parsePriceList(p.prices);
    if ('prices' in parsed) next.prices = parsed.prices;
  }
  if (typeof p.paneSizes === 'object' && p.paneSizes !== null) {
    const sizes: Record<string, number[]> = {};
    for (const [id, value] of Object.entries(p.paneSizes)) {
      if (Array.isArray(value) && value.every((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0)) {
        sizes[id] = value as number[];
      }
    }
    next.paneSizes = sizes;
  }
  return next;
}
