/**
 * The app store: one zustand vanilla store, made by a factory (no module singleton) from slices.
 * Only the cursor, selection, filter, summaries and prefs live here; components fetch the rows
 * and windows they show from the client themselves.
 */
import { createStore } from 'zustand/vanilla';
import type { StoreApi } from 'zustand/vanilla';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { CoreClient } from '../client/CoreClient';
import { createLatestWins } from '../client/latestWins';
import { resolveDeps } from './deps';
import type { AppStoreDeps } from './deps';
import { createCursorSlice } from './slices/cursor';
import { applyDeepLink, createDeepLinkSlice, syncDeepLinkToLocation } from './slices/deepLink';
import { createFilterSlice } from './slices/filter';
import { createLoadSlice } from './slices/load';
import { createPrefsSlice, mergePrefs, partializePrefs } from './slices/prefs';
import type { PersistedPrefs } from './slices/prefs';
import type { AppState, StoreContext } from './types';

export const PREFS_KEY = 'surface-lens:prefs';

export type AppStore = StoreApi<AppState> & {
  /** Stops timers and subscriptions and terminates the client (tests, hot reload). */
  dispose(): void;
};

export function createAppStore(client: CoreClient, deps?: AppStoreDeps): AppStore {
  const resolved = resolveDeps(deps);
  const ctx: StoreContext = {
    deps: resolved,
    requests: createLatestWins(),
    loadToken: 0,
    lastSource: null,
    cancelPlayback: null,
    applyDeepLink: () => {},
    writtenHash: null,
    sampleIndex: null,
  };

  const store = createStore<AppState>()(
    persist<AppState, [], [], PersistedPrefs>(
      (...a) => ({
        ...createLoadSlice(ctx, client)(...a),
        ...createCursorSlice(ctx)(...a),
        ...createFilterSlice(ctx)(...a),
        ...createPrefsSlice(resolved.defaultTheme)(...a),
        ...createDeepLinkSlice()(...a),
      }),
      {
        name: PREFS_KEY,
        version: 1,
        storage: createJSONStorage<PersistedPrefs>(() => resolved.storage),
        partialize: partializePrefs,
        merge: mergePrefs,
      },
    ),
  );

  ctx.applyDeepLink = () => applyDeepLink(store, ctx);
  const stopSync = syncDeepLinkToLocation(store, ctx);

  return Object.assign(store, {
    dispose() {
      stopSync();
      ctx.cancelPlayback?.();
      ctx.requests.cancelPending();
      store.getState().client.terminate();
    },
  });
}
