/** Exports of the session at the cursor (model view, surface), of its report and of one event, downloaded. */
import { errorMessage } from '../../client/errors';
import type { AppSlice, ExportSlice, StoreContext } from '../types';
import { selectSessionId } from '../selectors';

export const createExportSlice =
  (ctx: StoreContext): AppSlice<ExportSlice> =>
  (set, get) => ({
    exporting: null,
    exportError: null,

    async exportFile(kind) {
      const state = get();
      if (state.status !== 'ready' || !state.load || state.exporting !== null) return;
      set({ exporting: kind, exportError: null });
      try {
        const file = await state.client.exportText({ session: selectSessionId(state), kind, step: state.step });
        ctx.deps.download(file);
        set({ exporting: null });
      } catch (error) {
        set({ exporting: null, exportError: `Export failed: ${errorMessage(error)}` });
      }
    },

    async exportEvent(seq) {
      const state = get();
      if (state.status !== 'ready' || !state.load || state.exporting !== null) return;
      set({ exporting: 'event', exportError: null });
      try {
        ctx.deps.download(await state.client.exportEvent({ session: selectSessionId(state), seq }));
        set({ exporting: null });
      } catch (error) {
        set({ exporting: null, exportError: `Export failed: ${errorMessage(error)}` });
      }
    },
  });
