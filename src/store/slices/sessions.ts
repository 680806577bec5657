/**
 * The Sessions view of `surface-lens view`: the store's listing from the local server, its
 * lazily read titles, the live changes from the events stream, and opening a session by its
 * opaque id. Outside `view` (a static host, the dev server) the probe fails and nothing shows.
 */
import { errorMessage } from '../../client/errors';
import type { StoreChange, StoreDetails, StoreListing, StoreSessionRow } from '../../protocol/store-api';
import { parseDeepLink } from '../deepLink';
import type { AppSlice, AppState, SessionsSlice, StoreContext } from '../types';

/** Titles asked per request; the rows in view go first. */
const DETAILS_BATCH = 200;

/** The API paths (src/protocol/store-api.ts). */
export const STORE_API = {
  listing: '/api/store',
  details: (ids: readonly string[]) => `/api/store/details?ids=${ids.map(encodeURIComponent).join(',')}`,
  file: (id: string, name: string) => `/api/store/session/${encodeURIComponent(id)}/file/${encodeURIComponent(name)}`,
  events: '/api/store/events',
} as const;

async function fetchJson<T>(ctx: StoreContext, url: string): Promise<T> {
  const response = await ctx.deps.fetch(url);
  const text = new TextDecoder().decode(await response.arrayBuffer());
  if (!response.ok) {
    let message = `HTTP ${response.status}`;
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? message;
    } catch {
      // Not our JSON: keep the status.
    }
    throw new Error(message);
  }
  return JSON.parse(text) as T;
}

function applyChange(listing: StoreListing, change: StoreChange): StoreListing {
  const sessions = listing.sessions.filter((row) => row.id !== change.id);
  if (change.kind !== 'removed' && change.row) sessions.push(change.row);
  return { ...listing, sessions };
}

export const createSessionsSlice =
  (ctx: StoreContext): AppSlice<SessionsSlice> =>
  (set, get) => {
    let pendingDetails = new Set<string>();
    /** Ids whose details were asked and not invalidated since (each is fetched once). */
    const asked = new Set<string>();
    let detailsRunning = false;
    let stopEvents: (() => void) | null = null;

    const pumpDetails = async (): Promise<void> => {
      if (detailsRunning) return;
      detailsRunning = true;
      try {
        while (pendingDetails.size > 0) {
          const ids = [...pendingDetails].slice(0, DETAILS_BATCH);
          for (const id of ids) {
            pendingDetails.delete(id);
            asked.add(id);
          }
          const list = await fetchJson<StoreDetails[]>(ctx, STORE_API.details(ids));
          const storeDetails = { ...get().storeDetails };
          for (const details of list) storeDetails[details.id] = details;
          set({ storeDetails });
        }
      } catch (error) {
        set({ storeError: `Could not read session titles: ${errorMessage(error)}` });
      } finally {
        detailsRunning = false;
      }
    };

    const onChange = (change: StoreChange): void => {
      const listing = get().storeListing;
      if (!listing) return;
      set({ storeListing: applyChange(listing, change) });
      if (change.kind !== 'removed') {
        asked.delete(change.id);
        pendingDetails.add(change.id);
        void pumpDetails();
      }
      // The open session follows through the engine's grow (only the new bytes are fetched, by
      // Range); the server's word that it changed makes the next look come now.
      if (change.id === get().storeOpenId && (change.kind === 'grew' || change.kind === 'rewritten')) get().followHint();
    };

    return {
      storeMode: false,
      storeListing: null,
      storeDetails: {},
      storeError: null,
      storeFilter: '',
      storeCollapsed: [],
      storeOpenId: null,
      storeFollowNote: null,
      showingSessions: false,

      async initStore() {
        let listing: StoreListing;
        try {
          listing = await fetchJson<StoreListing>(ctx, STORE_API.listing);
          if (!Array.isArray(listing.sessions)) return false;
        } catch {
          return false;
        }
        const linked = parseDeepLink(ctx.deps.location.readHash())?.storeSession ?? null;
        const open = linked !== null && listing.sessions.some((row) => row.id === linked) ? linked : null;
        set({ storeMode: true, storeListing: listing, showingSessions: open === null && get().load === null });
        // A reload or a shared link: reopen its session (its step and seq apply after the load).
        if (open !== null) void get().openStoreSession(open);
        pendingDetails = new Set(listing.sessions.map((row) => row.id));
        void pumpDetails();
        stopEvents?.();
        stopEvents = ctx.deps.subscribe(STORE_API.events, (data) => {
          try {
            onChange(JSON.parse(data) as StoreChange);
          } catch {
            // A malformed message is ignored; the next listing corrects the view.
          }
        });
        return true;
      },

      requestDetails(ids) {
        const known = get().storeDetails;
        // The rows in view go to the front of the queue.
        const front = ids.filter((id) => !(id in known) && !asked.has(id));
        if (front.length === 0) return;
        pendingDetails = new Set([...front, ...pendingDetails]);
        void pumpDetails();
      },

      setStoreFilter(text) {
        set({ storeFilter: text });
      },

      toggleStoreCollapsed(key) {
        const collapsed = get().storeCollapsed;
        set({ storeCollapsed: collapsed.includes(key) ? collapsed.filter((k) => k !== key) : [...collapsed, key] });
      },

      showSessions(show) {
        set({ showingSessions: show });
      },

      async openStoreSession(id, options) {
        const row = get().storeListing?.sessions.find((r: StoreSessionRow) => r.id === id);
        if (!row) {
          set({ storeError: 'That session is not in the listing (removed, or from another store).' });
          return;
        }
        const title = get().storeDetails[id]?.title;
        // The open session's id is set when it has loaded: until then the one on screen stays.
        set({ showingSessions: false, storeError: null, ...(options?.keepView ? {} : { storeFollowNote: null }) });
        await get().openSource({
          kind: 'store',
          id,
          name: title ? `${title} (${row.sessionId ?? row.fileName})` : (row.sessionId ?? row.fileName),
          url: STORE_API.file(id, row.fileName),
        });
      },

      disposeStore() {
        stopEvents?.();
        stopEvents = null;
      },
    };
  };

/** The store session open now, if any. */
export function openStoreRow(state: AppState): StoreSessionRow | null {
  const id = state.storeOpenId;
  return id === null ? null : (state.storeListing?.sessions.find((row) => row.id === id) ?? null);
}
