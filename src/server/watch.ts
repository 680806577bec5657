/**
 * Watches the store: Node's recursive `fs.watch` triggers a fresh listing soon after a change,
 * and a slower poll catches what the watcher misses (file systems without events, directories
 * created after the watch started, platforms without recursive watching). Only reads.
 */
import { watch } from 'node:fs';
import type { FSWatcher } from 'node:fs';
import type { StoreChange } from '../protocol/store-api';
import type { SessionStore } from './listing';

/** Options of {@link watchStore}. */
export interface WatchOptions {
  /** Milliseconds between polls (default 1000). */
  pollMs?: number;
  /** Milliseconds to gather watcher events before listing again (default 50). */
  settleMs?: number;
  /** Directories to watch with `fs.watch` (the store's roots). */
  roots: readonly string[];
  /** Disable `fs.watch` (tests of the polling fallback). */
  noWatcher?: boolean;
}

/** Starts watching; the returned function stops it. */
export function watchStore(store: SessionStore, options: WatchOptions, onChanges: (changes: StoreChange[]) => void): () => void {
  const watchers: FSWatcher[] = [];
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const run = (): void => {
    timer = null;
    if (stopped) return;
    store.refresh().then(
      (changes) => {
        if (!stopped && changes.length > 0) onChanges(changes);
      },
      () => {},
    );
  };
  const soon = (): void => {
    if (timer === null && !stopped) timer = setTimeout(run, options.settleMs ?? 50);
  };
  if (!options.noWatcher) {
    for (const root of options.roots) {
      try {
        const watcher = watch(root, { recursive: true, persistent: false }, soon);
        // A watcher that fails (a directory removed, too many watches) leaves the poll in charge.
        watcher.on('error', () => watcher.close());
        watchers.push(watcher);
      } catch {
        // No recursive watching here: the poll does it all.
      }
    }
  }
  const poll = setInterval(soon, options.pollMs ?? 1000);
  poll.unref();
  return () => {
    stopped = true;
    clearInterval(poll);
    if (timer !== null) clearTimeout(timer);
    for (const watcher of watchers) watcher.close();
  };
}
