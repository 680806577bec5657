/** What the workspace shows (timeline, two views, playground) and the replace inspector. */
import type { AppSlice, ViewSlice } from '../types';

export const createViewSlice = (): AppSlice<ViewSlice> => (set, get) => ({
  view: 'timeline',
  replaceTarget: null,

  setView(view) {
    if (get().view !== view) set({ view });
  },

  openReplace(seq) {
    if (!Number.isInteger(seq) || seq < 0) return;
    set({ replaceTarget: seq, selectedSeq: seq });
  },

  closeReplace() {
    if (get().replaceTarget !== null) set({ replaceTarget: null });
  },
});
