/**
 * Timeline filter (families, surface events only) and text search. Search runs in the engine,
 * so it finds rows that are not rendered; typing is latest-wins.
 */
import { errorMessage, isAbortError } from '../../client/errors';
import type { AppSlice, FilterSlice, SearchState, StoreContext } from '../types';
import { selectSessionId } from '../selectors';

export const FRESH_SEARCH: SearchState = { text: '', status: 'idle', row: null, seq: null, wrapped: false, error: null };

export const createFilterSlice =
  (ctx: StoreContext): AppSlice<FilterSlice> =>
  (set, get) => {
    /** Searches started; an answer counts only for the newest. */
    let searches = 0;
    return {
      filter: { families: [], surfaceOnly: false },
      search: FRESH_SEARCH,

      toggleFamily(family) {
        const { families, surfaceOnly } = get().filter;
        let next: typeof families;
        if (families.length === 0) next = [family];
        else if (families.includes(family)) next = families.filter((f) => f !== family);
        else next = [...families, family];
        // Row numbers change with the filter: the previous hit no longer means anything.
        set({ filter: { families: next, surfaceOnly }, search: { ...get().search, row: null, status: 'idle', wrapped: false } });
      },

      showAllFamilies() {
        if (get().filter.families.length === 0) return;
        set({ filter: { ...get().filter, families: [] }, search: { ...get().search, row: null, status: 'idle', wrapped: false } });
      },

      setSurfaceOnly(surfaceOnly) {
        if (get().filter.surfaceOnly === surfaceOnly) return;
        set({ filter: { ...get().filter, surfaceOnly }, search: { ...get().search, row: null, status: 'idle', wrapped: false } });
      },

      setSearchText(text) {
        set({ search: { ...FRESH_SEARCH, text } });
      },

      async findNext(direction) {
        const state = get();
        const text = state.search.text;
        if (state.status !== 'ready' || text.trim() === '') return;
        const query = {
          session: selectSessionId(state),
          text,
          filter: state.filter,
          fromRow: state.search.row ?? -1,
          direction,
        };
        const token = ctx.loadToken;
        const mine = ++searches;
        set({ search: { ...state.search, status: 'searching', error: null } });
        try {
          // Sent at once, not queued behind a slow search still running: the engine stops the
          // older one when this one begins (it answers AbortError), and only the newest counts here.
          const result = await state.client.search(query);
          const now = get();
          if (mine !== searches || token !== ctx.loadToken || now.search.text !== text || now.filter !== query.filter) return;
          if (result.row === null) {
            set({ search: { ...now.search, status: 'not-found', wrapped: false } });
            return;
          }
          set({ search: { ...now.search, status: 'found', row: result.row, seq: result.seq, wrapped: result.wrapped } });
          if (result.seq !== null) now.select(result.seq);
        } catch (error) {
          if (isAbortError(error)) return;
          set({ search: { ...get().search, status: 'error', error: errorMessage(error) } });
        }
      },
    };
  };
