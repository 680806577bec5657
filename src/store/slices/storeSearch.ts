/**
 * "Search all sessions" of `surface-lens view`: one query of the app's language over every
 * session of the store, answered by the local server (its index, or a scan until the index is
 * ready). Latest wins: only the answer to the newest query is kept.
 */
import { errorMessage } from '../../client/errors';
import type { StoreSearchAnswer } from '../../protocol/store-api';
import type { AppSlice, StoreContext, StoreSearchSlice } from '../types';

/** The API path of a search (src/protocol/store-api.ts). */
export const storeSearchUrl = (query: string): string => `/api/store/search?q=${encodeURIComponent(query)}`;

export const createStoreSearchSlice =
  (ctx: StoreContext): AppSlice<StoreSearchSlice> =>
  (set, get) => {
    let asked = 0;
    return {
      storeSearch: { text: '', status: 'idle', answer: null, error: null },

      async searchStore(text) {
        const mine = ++asked;
        if (text.trim() === '') {
          set({ storeSearch: { text, status: 'idle', answer: null, error: null } });
          return;
        }
        set({ storeSearch: { ...get().storeSearch, text, status: 'searching', error: null } });
        try {
          const response = await ctx.deps.fetch(storeSearchUrl(text));
          const body = JSON.parse(new TextDecoder().decode(await response.arrayBuffer())) as StoreSearchAnswer & { error?: unknown };
          if (mine !== asked) return;
          if (!response.ok) throw new Error(typeof body.error === 'string' ? body.error : `HTTP ${response.status}`);
          // Before the index is ready the server read every session: the answer is whole either way.
          set({ storeSearch: { text, status: 'done', answer: body, error: null } });
        } catch (error) {
          if (mine !== asked) return;
          set({ storeSearch: { text, status: 'error', answer: null, error: errorMessage(error) } });
        }
      },
    };
  };
