/**
 * Platform services the store needs, injected so that tests run without touching globals
 * (storage, URL, timers, network). Every one has a browser default.
 */
import type { CoreClient } from '../client/CoreClient';
import type { ExportFile } from '../protocol/protocol';

/** The part of `Storage` the prefs use. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** Reads and writes the URL hash (deep links). */
export interface LocationLike {
  readHash(): string;
  /** Replaces the hash without adding a history entry. */
  writeHash(hash: string): void;
  /**
   * Calls `listener` when the hash changes other than through {@link writeHash} (the user edits
   * the address bar, goes back or forward, follows an in-page link). Optional.
   * @returns an unsubscribe function
   */
  onHashChange?(listener: () => void): () => void;
  /**
   * Names the open source in the query (`?url=…`, `?sample=…`, `?demo=…`; null drops them), so a
   * reload or a shared link reopens it; other parameters (the view server's token) are kept.
   * Optional.
   */
  writeSource?(source: { param: 'url' | 'sample' | 'demo'; value: string } | null): void;
}

/** Timers: `setTimeout` returning a cancel function. */
export interface Scheduler {
  setTimeout(callback: () => void, ms: number): () => void;
}

/** The part of a fetch `Response` the sample loader reads. */
export interface FetchedBody {
  ok: boolean;
  status: number;
  statusText: string;
  arrayBuffer(): Promise<ArrayBuffer>;
}
export type FetchLike = (url: string) => Promise<FetchedBody>;

export interface AppStoreDeps {
  /** Where prefs persist. @default `localStorage`, or memory when it is unavailable */
  storage?: StorageLike;
  /** @default the window's location, written with `history.replaceState` */
  location?: LocationLike;
  /** @default `setTimeout` */
  scheduler?: Scheduler;
  /** The clock of the Live indicator. @default `Date.now` */
  now?: () => number;
  /** Used for bundled samples only (user URLs are fetched by the engine). @default `fetch` */
  fetch?: FetchLike;
  /** URL of a file of the bundled samples. @default `samples/<file>`, relative to the page */
  sampleUrl?: (file: string) => string;
  /** URL of the built single-file viewer the self-contained export fills. @default `standalone.html`, relative to the page */
  viewerUrl?: string;
  /** Makes a fresh client after the engine died, to reload the file. */
  createClient?: () => CoreClient;
  /** Theme before the user picks one. @default 'light' */
  defaultTheme?: 'light' | 'dark';
  /** Saves an export on the user's machine. @default a download through a Blob URL */
  download?: (file: ExportFile) => void;
  /**
   * Follows a server-sent-events stream, calling `onMessage` with each message's data.
   * @default `EventSource` (nothing where it is missing)
   * @returns the function that closes the stream
   */
  subscribe?: (url: string, onMessage: (data: string) => void) => () => void;
}

export type ResolvedDeps = Required<Omit<AppStoreDeps, 'createClient'>> & {
  createClient: (() => CoreClient) | undefined;
};

export function memoryStorage(): StorageLike {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

function browserStorage(): StorageLike {
  try {
    // Accessing localStorage throws in some sandboxed iframes and with cookies disabled.
    const storage = globalThis.localStorage;
    const probe = '__surface-lens-probe__';
    storage.setItem(probe, '1');
    storage.removeItem(probe);
    return storage;
  } catch {
    return memoryStorage();
  }
}

/** The query parameters that name what `main.tsx` opens at start. */
const SOURCE_PARAMS = ['url', 'sample', 'demo', 'follow'] as const;

function browserLocation(): LocationLike {
  return {
    readHash: () => (typeof location === 'undefined' ? '' : location.hash),
    writeHash: (hash) => {
      if (typeof location === 'undefined' || typeof history === 'undefined') return;
      if (location.hash === hash || (hash === '' && location.hash === '')) return;
      const url = `${location.pathname}${location.search}${hash}`;
      history.replaceState(history.state, '', url);
    },
    writeSource: (source) => {
      if (typeof location === 'undefined' || typeof history === 'undefined') return;
      const params = new URLSearchParams(location.search);
      for (const name of SOURCE_PARAMS) if (name !== 'follow' || source?.param !== 'url') params.delete(name);
      if (source) params.set(source.param, source.value);
      const query = params.toString();
      const url = `${location.pathname}${query === '' ? '' : `?${query}`}${location.hash}`;
      if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, '', url);
    },
    // `replaceState` fires no `hashchange`, so only changes made by someone else arrive here.
    onHashChange: (listener) => {
      if (typeof window === 'undefined') return () => {};
      window.addEventListener('hashchange', listener);
      return () => window.removeEventListener('hashchange', listener);
    },
  };
}

export const browserScheduler: Scheduler = {
  setTimeout(callback, ms) {
    const handle = setTimeout(callback, ms);
    return () => clearTimeout(handle);
  },
};

/** Downloads a file through a temporary Blob URL (the CSP allows `blob:`). */
export function browserDownload(file: ExportFile): void {
  const url = URL.createObjectURL(new Blob([file.text], { type: file.mime }));
  const link = document.createElement('a');
  link.href = url;
  link.download = file.name;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoke after the click was handled; the download keeps its own reference.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** One `EventSource` per tab, for the store's `change` messages (it reconnects by itself). */
function browserSubscribe(url: string, onMessage: (data: string) => void): () => void {
  if (typeof EventSource !== 'function') return () => {};
  const source = new EventSource(url);
  const listener = (event: MessageEvent<string>): void => onMessage(event.data);
  source.addEventListener('change', listener);
  return () => source.close();
}

/** A location that neither reads nor writes (stores without deep links: the playground). */
export const noLocation: LocationLike = { readHash: () => '', writeHash: () => {} };

export function resolveDeps(deps: AppStoreDeps = {}): ResolvedDeps {
  return {
    storage: deps.storage ?? browserStorage(),
    location: deps.location ?? browserLocation(),
    scheduler: deps.scheduler ?? browserScheduler,
    now: deps.now ?? (() => Date.now()),
    fetch: deps.fetch ?? ((url) => globalThis.fetch(url)),
    sampleUrl: deps.sampleUrl ?? ((file) => `samples/${encodeURIComponent(file)}`),
    viewerUrl: deps.viewerUrl ?? 'standalone.html',
    createClient: deps.createClient,
    defaultTheme: deps.defaultTheme ?? 'light',
    download: deps.download ?? browserDownload,
    subscribe: deps.subscribe ?? browserSubscribe,
  };
}
