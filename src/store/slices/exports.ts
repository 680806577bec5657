/**
 * Exports of the session at the cursor (model view, surface), of its report, of one event, and
 * the files to send (the log cut at the cursor, the self-contained page), downloaded. The engine
 * writes them all; this slice only fetches the viewer template and says what redaction did.
 */
import { errorMessage } from '../../client/errors';
import type { RedactReport } from '../../protocol/protocol';
import type { AppSlice, ExportSlice, StoreContext } from '../types';
import { selectSessionId } from '../selectors';

export const createExportSlice =
  (ctx: StoreContext): AppSlice<ExportSlice> =>
  (set, get) => ({
    exporting: null,
    exportError: null,
    redactExports: false,
    exportNote: null,

    setRedactExports(redact) {
      set({ redactExports: redact });
    },

    async exportSession(format) {
      const state = get();
      if (state.status !== 'ready' || !state.load || state.exporting !== null) return;
      set({ exporting: format, exportError: null, exportNote: null });
      try {
        let template: string | undefined;
        if (format === 'html') {
          const response = await ctx.deps.fetch(ctx.deps.viewerUrl);
          if (!response.ok)
            throw new Error(
              `the viewer page is not available (${response.status} ${response.statusText}): build the app with \`npm run build\``,
            );
          template = new TextDecoder().decode(await response.arrayBuffer());
        }
        const file = await state.client.exportSession({
          session: selectSessionId(state),
          format,
          step: state.step,
          seq: state.selectedSeq,
          redact: state.redactExports,
          template,
        });
        ctx.deps.download({ name: file.name, mime: file.mime, text: file.text });
        set({ exporting: null, exportNote: file.redaction ? redactionNote(file.redaction) : null });
      } catch (error) {
        set({ exporting: null, exportError: `Export failed: ${errorMessage(error)}` });
      }
    },

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

/** "Redacted 5: email 3, home-path 2", or that nothing was found. */
export function redactionNote(report: RedactReport): string {
  if (report.total === 0) return 'Redacted nothing: no secret, home-directory path or e-mail address found.';
  const parts = Object.entries(report.kinds).map(([kind, count]) => `${kind} ${count.occurrences}`);
  return `Redacted ${report.total}: ${parts.join(', ')}.`;
}
