/**
 * Timeline filter (families, surface events only) and search. Search runs in the engine, in the
 * query language (it finds rows that are not rendered and counts every match); typing is
 * latest-wins, and a query error comes back with where it is.
 */
import { errorMessage, isAbortError } from '../../client/errors';
import type { AppSlice, FilterSlice, SearchState, StoreContext } from '../types';
import { selectSearchActive, selectSearchQueryText, selectSessionId } from '../selectors';

export const FRESH_SEARCH: SearchState = {
  text: '',
  status: 'idle',
  row: null,
  seq: null,
  wrapped: false,
  total: null,
  error: null,
  queryError: null,
  replacesOnly: false,
  errorsOnly: false,
};

/** The search after its rows changed meaning (a new filter): the hit and count are gone. */
const reset = (search: SearchState): SearchState => ({ ...search, row: null, seq: null, total: null, status: 'idle', wrapped: false });

export const createFilterSlice =
  (ctx: StoreContext): AppSlice<FilterSlice> =>
  (set, get) => {
    /** Searches started; an answer counts only for the newest. */
    let searches = 0;
    const searchAgain = (): void => {
      if (selectSearchActive(get())) void get().findNext(1);
    };
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
        set({ filter: { families: next, surfaceOnly }, search: reset(get().search) });
      },

      showAllFamilies() {
        if (get().filter.families.length === 0) return;
        set({ filter: { ...get().filter, families: [] }, search: reset(get().search) });
      },

      setSurfaceOnly(surfaceOnly) {
        if (get().filter.surfaceOnly === surfaceOnly) return;
        set({ filter: { ...get().filter, surfaceOnly }, search: reset(get().search) });
      },

      setSearchText(text) {
        const { replacesOnly, errorsOnly } = get().search;
        set({ search: { ...FRESH_SEARCH, text, replacesOnly, errorsOnly } });
      },

      setQuickFilter(which, on) {
        if (get().search[which] === on) return;
        set({ search: { ...reset(get().search), [which]: on, queryError: null } });
        searchAgain();
      },

      showMatch(row, seq) {
        set({ search: { ...get().search, status: 'found', row, seq, wrapped: false } });
        get().select(seq);
      },

      async findNext(direction) {
        const state = get();
        const text = selectSearchQueryText(state);
        if (state.status !== 'ready' || text.trim() === '') return;
        const query = {
          session: selectSessionId(state),
          text,
          filter: state.filter,
          step: state.step,
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
          if (mine !== searches || token !== ctx.loadToken || selectSearchQueryText(now) !== text || now.filter !== query.filter) return;
          if (result.error) {
            set({ search: { ...now.search, status: 'error', row: null, seq: null, total: null, queryError: result.error } });
            return;
          }
          if (result.row === null) {
            set({ search: { ...now.search, status: 'not-found', wrapped: false, total: result.total, queryError: null } });
            return;
          }
          set({
            search: {
              ...now.search,
              status: 'found',
              row: result.row,
              seq: result.seq,
              wrapped: result.wrapped,
              total: result.total,
              queryError: null,
            },
          });
          if (result.seq !== null) now.select(result.seq);
        } catch (error) {
          if (isAbortError(error)) return;
          set({ search: { ...get().search, status: 'error', error: errorMessage(error) } });
        }
      },
    };
  };
