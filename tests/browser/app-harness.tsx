/**
 * Mounts the real app in the test page: the App component, a real store (src/store) and a real
 * engine worker behind WorkerCoreClient, with the app's stylesheet, so layout, virtualization
 * and the worker all behave as in the product. Only the URL hash and the prefs storage are kept
 * in memory (tests must not write the runner's URL or storage).
 */
// The stylesheets index.html links.
import '../../src/ui/styles/index.css';
import { createRoot } from 'react-dom/client';
import { vi } from 'vitest';
import { commands, page } from 'vitest/browser';
import { WorkerCoreClient, createEngineWorker } from '../../src/client/WorkerCoreClient';
import type { WorkerCoreClientOptions, WorkerLike } from '../../src/client/WorkerCoreClient';
import type { LoadSummary, OpenRequest, ProgressEvent } from '../../src/protocol/protocol';
import { createAppStore } from '../../src/store/createAppStore';
import type { AppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import { AppStoreProvider } from '../../src/store/react';
import { App } from '../../src/ui/App';

export interface MountedApp {
  store: AppStore;
  /** The engine workers created so far (the first, then one per reload after a death). */
  workers: WorkerLike[];
  unmount(): void;
}

/** The worker client with a memory limit set on every open request (as a test may ask). */
class LimitedWorkerClient extends WorkerCoreClient {
  private readonly memoryLimitBytes: number;
  constructor(options: WorkerCoreClientOptions, memoryLimitBytes: number) {
    super(options);
    this.memoryLimitBytes = memoryLimitBytes;
  }
  override open(request: OpenRequest, onProgress: (progress: ProgressEvent) => void): Promise<LoadSummary> {
    return super.open({ ...request, memoryLimitBytes: this.memoryLimitBytes }, onProgress);
  }
}

export interface MountOptions {
  /** Memory limit of every load (the protocol's `memoryLimitBytes`); default: the engine's own. */
  memoryLimitBytes?: number;
}

export async function mountApp(options: MountOptions = {}): Promise<MountedApp> {
  await page.viewport(1400, 900);
  const workers: WorkerLike[] = [];
  const clientOptions: WorkerCoreClientOptions = {
    createWorker: () => {
      const worker = createEngineWorker();
      workers.push(worker);
      return worker;
    },
  };
  const createClient = () =>
    options.memoryLimitBytes === undefined
      ? new WorkerCoreClient(clientOptions)
      : new LimitedWorkerClient(clientOptions, options.memoryLimitBytes);
  let hash = '';
  const store = createAppStore(createClient(), {
    createClient,
    storage: memoryStorage(),
    location: { readHash: () => hash, writeHash: (next) => void (hash = next) },
  });
  const container = document.createElement('div');
  document.body.appendChild(container);
  const root = createRoot(container);
  root.render(
    <AppStoreProvider store={store}>
      <App />
    </AppStoreProvider>,
  );
  await vi.waitFor(() => {
    if (!container.querySelector('.app[data-status="idle"] input[type="file"]')) throw new Error('the app is not rendered yet');
  });
  return {
    store,
    workers,
    unmount() {
      root.unmount();
      store.dispose();
      container.remove();
    },
  };
}

/** Bytes of a file, read by the test runner from disk (paths relative to the repo root). */
export async function readFixture(path: string): Promise<Uint8Array> {
  const base64 = await commands.readFile(path, 'base64');
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return bytes;
}

/** True when the runner can read `path` (e.g. ../shared, absent from some checkouts). */
export async function exists(path: string): Promise<boolean> {
  return commands.readFile(path, 'base64').then(
    () => true,
    () => false,
  );
}

export const region = (name: string): HTMLElement => {
  const element = document.querySelector<HTMLElement>(`section[aria-label="${name}"]`);
  if (!element) throw new Error(`no region "${name}"`);
  return element;
};

export const statusText = (): string => document.querySelector('[role="status"]')?.textContent ?? '';

export const button = (name: string): HTMLButtonElement => {
  const found = [...document.querySelectorAll<HTMLButtonElement>('button')].filter(
    (b) => b.getAttribute('aria-label') === name || b.textContent?.trim() === name,
  );
  if (found.length !== 1) throw new Error(`${found.length} buttons named "${name}"`);
  return found[0] as HTMLButtonElement;
};

/** The step the transport shows ("step 1,234 / 5,678"). */
export const transportStep = (): number =>
  Number((region('Transport').querySelector('.tp-readout b')?.textContent ?? '').replace(/,/g, ''));

/** The step the surface panel shows (its list carries it; the empty state says it). */
export const surfaceStep = (): number | null => {
  const list = region('Surface').querySelector('[data-surface-step]');
  return list ? Number(list.getAttribute('data-surface-step')) : null;
};

/** Seqs of the top-level surface nodes (list items with data, in order). */
export const surfaceSeqs = (): number[] =>
  [...region('Surface').querySelectorAll<HTMLElement>('.sf-items > li[data-seq]')].map((li) => Number(li.dataset.seq));

export const timelineRows = (): HTMLElement[] => [...region('Timeline').querySelectorAll<HTMLElement>('[role="row"]')];
