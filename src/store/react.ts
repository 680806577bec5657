/**
 * The only bridge between the store and React: a provider and `useAppStore(selector)`.
 * Selectors return stored values or primitives, so the default equality is enough.
 */
import { createContext, createElement, useContext } from 'react';
import type { ReactNode } from 'react';
import { useStore } from 'zustand';
import type { AppStore } from './createAppStore';
import type { AppState } from './types';

const StoreContext = createContext<AppStore | null>(null);

export function AppStoreProvider({ store, children }: { store: AppStore; children?: ReactNode }) {
  return createElement(StoreContext.Provider, { value: store }, children);
}

/** The store itself, for event handlers that read state without subscribing. */
export function useAppStoreApi(): AppStore {
  const store = useContext(StoreContext);
  if (!store) throw new Error('useAppStore must be used inside <AppStoreProvider>.');
  return store;
}

export function useAppStore<T>(selector: (state: AppState) => T): T {
  return useStore(useAppStoreApi(), selector);
}
