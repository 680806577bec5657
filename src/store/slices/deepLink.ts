/**
 * Deep links: after a load, the URL hash picks the step and the selected seq, with a warning
 * when it was made for another file; afterwards the hash follows the cursor (debounced, with
 * `replaceState`, so playback neither floods history nor trips the browser's rate limit), and
 * the cursor follows a hash someone else changes.
 */
import type { StoreApi } from 'zustand/vanilla';
import { formatDeepLink, parseDeepLink } from '../deepLink';
import type { AppSlice, AppState, DeepLinkSlice, StoreContext } from '../types';

const WRITE_DELAY_MS = 250;

export const createDeepLinkSlice = (): AppSlice<DeepLinkSlice> => (set) => ({
  deepLinkWarning: null,
  dismissDeepLinkWarning() {
    set({ deepLinkWarning: null });
  },
});

/** Applies the hash to a freshly loaded state. */
export function applyDeepLink(store: StoreApi<AppState>, ctx: StoreContext): void {
  const hash = ctx.deps.location.readHash();
  // Our own hash describes the previous file: opening another one must not inherit its cursor.
  if (hash === ctx.writtenHash) return;
  const link = parseDeepLink(hash);
  const state = store.getState();
  if (!link) return;
  if (link.storeSession !== null && link.storeSession !== state.storeOpenId) {
    // A link to another session of the store: open it (the step applies once it is loaded).
    if (state.storeListing?.sessions.some((row) => row.id === link.storeSession)) void state.openStoreSession(link.storeSession);
    return;
  }
  if (!state.load) return;
  if (link.session !== null && link.session !== state.session && state.load.sessions[link.session]) {
    state.selectSession(link.session);
  }
  const session = store.getState().load?.sessions[store.getState().session];
  if (!session) return;
  const warning =
    link.fingerprint !== null && link.fingerprint !== session.fingerprint
      ? `This link was made for a different file (fingerprint ${link.fingerprint}, this one is ${session.fingerprint}). Its step and selection may not point at the same events.`
      : null;
  const current = store.getState();
  if (link.step !== null) current.goTo(link.step, { select: link.seq === null });
  if (link.seq !== null) current.select(link.seq);
  store.setState({ deepLinkWarning: warning });
}

/**
 * Follows the hash when someone else changes it (an edited address bar, back and forward) while
 * a file is loaded. Returns the unsubscribe function.
 */
export function followLocationHash(store: StoreApi<AppState>, ctx: StoreContext): () => void {
  const listen = ctx.deps.location.onHashChange;
  if (!listen) return () => {};
  return listen.call(ctx.deps.location, () => {
    if (store.getState().status === 'ready') applyDeepLink(store, ctx);
  });
}

/** Keeps the hash in step with the cursor. Returns the unsubscribe function. */
export function syncDeepLinkToLocation(store: StoreApi<AppState>, ctx: StoreContext): () => void {
  let cancel: (() => void) | null = null;
  const write = (): void => {
    cancel = null;
    const state = store.getState();
    const session = state.load?.sessions[state.session];
    if (state.status !== 'ready' || !session) return;
    const hash = formatDeepLink({
      step: state.step,
      seq: state.selectedSeq,
      fingerprint: session.fingerprint,
      session: state.session,
      storeSession: state.storeOpenId,
    });
    ctx.writtenHash = hash;
    ctx.deps.location.writeHash(hash);
  };
  const unsubscribe = store.subscribe((state, previous) => {
    if (
      state.status !== 'ready' ||
      (state.step === previous.step &&
        state.selectedSeq === previous.selectedSeq &&
        state.session === previous.session &&
        state.storeOpenId === previous.storeOpenId &&
        state.load === previous.load &&
        state.status === previous.status)
    ) {
      return;
    }
    if (cancel === null) cancel = ctx.deps.scheduler.setTimeout(write, WRITE_DELAY_MS);
  });
  return () => {
    cancel?.();
    unsubscribe();
  };
}
