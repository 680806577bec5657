/**
 * The app store: one zustand vanilla store, made by a factory (no module singleton) from slices.
 * Only the cursor, selection, filter, summaries and prefs live here; components fetch the rows
 * and windows they show from the client themselves.
 */
import { createStore } from 'zustand/vanilla';
import { createJSONStorage, persist } from 'zustand/middleware';
import type { CoreClient } from '../client/CoreClient';
import { createLatestWins } from '../client/latestWins';
import { createSharedClient } from '../client/SharedClient';
import { memoryStorage, noLocation, resolveDeps } from './deps';
import type { AppStoreDeps, ResolvedDeps, StorageLike } from './deps';
import { createCompareSlice } from './slices/compare';
import { createCursorSlice } from './slices/cursor';
import { applyDeepLink, createDeepLinkSlice, followLocationHash, syncDeepLinkToLocation } from './slices/deepLink';
import { createDemoSlice } from './slices/demo';
import { createExportSlice } from './slices/exports';
import { createFilterSlice } from './slices/filter';
import { createFollowSlice } from './slices/follow';
import { createLoadSlice } from './slices/load';
import { createPlaygroundSlice } from './slices/playground';
import { createSessionsSlice } from './slices/sessions';
import { createStoreSearchSlice } from './slices/storeSearch';
import { createPrefsSlice, mergePrefs, partializePrefs } from './slices/prefs';
import type { PersistedPrefs } from './slices/prefs';
import { createViewSlice } from './slices/view';
import type { AppState, AppStoreApi, StoreContext } from './types';

export const PREFS_KEY = 'surface-lens:prefs';

/**
 * The persist middleware writes the prefs after every state change, a seek included; the prefs
 * rarely change, so identical writes are skipped (`localStorage.setItem` is synchronous).
 */
function unchangedSkipped(storage: StorageLike): StorageLike {
  const written = new Map<string, string>();
  return {
    getItem: (key) => storage.getItem(key),
    setItem: (key, value) => {
      if (written.get(key) === value) return;
      written.set(key, value);
      storage.setItem(key, value);
    },
    removeItem: (key) => {
      written.delete(key);
      storage.removeItem(key);
    },
  };
}

export type AppStore = AppStoreApi;

/**
 * The store of a playground: the same factory on a view of the engine that does not own its load
 * (the playground's one-session load names the playground's session), with prefs in memory and no deep links (the main store owns the URL and storage).
 */
function createSandboxStore(client: CoreClient, deps: ResolvedDeps): AppStore {
  return createAppStore(createSharedClient(client), {
    storage: memoryStorage(),
    location: noLocation,
    scheduler: deps.scheduler,
    fetch: deps.fetch,
    sampleUrl: deps.sampleUrl,
    defaultTheme: deps.defaultTheme,
    download: deps.download,
  });
}

export function createAppStore(client: CoreClient, deps?: AppStoreDeps): AppStore {
  const resolved = resolveDeps(deps);
  const ctx: StoreContext = {
    deps: resolved,
    requests: createLatestWins(),
    loadToken: 0,
    lastSource: null,
    kept: null,
    sessionCursors: new Map(),
    cancelPlayback: null,
    applyDeepLink: () => {},
    writtenHash: null,
    sampleIndex: null,
    createSandbox: (client) => createSandboxStore(client, resolved),
  };

  const store = createStore<AppState>()(
    persist<AppState, [], [], PersistedPrefs>(
      (...a) => ({
        ...createLoadSlice(ctx, client)(...a),
        ...createFollowSlice(ctx)(...a),
        ...createCursorSlice(ctx)(...a),
        ...createFilterSlice(ctx)(...a),
        ...createPrefsSlice(resolved.defaultTheme)(...a),
        ...createDeepLinkSlice()(...a),
        ...createViewSlice()(...a),
        ...createDemoSlice(ctx)(...a),
        ...createExportSlice(ctx)(...a),
        ...createPlaygroundSlice(ctx)(...a),
        ...createSessionsSlice(ctx)(...a),
        ...createStoreSearchSlice(ctx)(...a),
        ...createCompareSlice(ctx)(...a),
      }),
      {
        name: PREFS_KEY,
        version: 1,
        storage: createJSONStorage<PersistedPrefs>(() => unchangedSkipped(resolved.storage)),
        partialize: partializePrefs,
        merge: mergePrefs,
      },
    ),
  );

  ctx.applyDeepLink = () => applyDeepLink(store, ctx);
  const stopSync = syncDeepLinkToLocation(store, ctx);
  const stopFollow = followLocationHash(store, ctx);

  return Object.assign(store, {
    dispose() {
      stopSync();
      stopFollow();
      store.getState().disposeStore();
      ctx.cancelPlayback?.();
      ctx.requests.cancelPending();
      store.getState().sandbox?.dispose();
      store.getState().client.terminate();
    },
  });
}
