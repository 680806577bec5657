/**
 * Guided demos: the list (from the engine), opening one as the current log at step 0, and its
 * narration, which follows the cursor (the latest note at or before the step).
 */
import { errorMessage } from '../../client/errors';
import type { DemoInfo } from '../../protocol/protocol';
import type { AppSlice, AppState, DemoSlice, StoreContext } from '../types';

/** Index of the note shown at the cursor: the latest with step ≤ cursor, or -1. */
export function noteIndexAt(demo: DemoInfo | null, step: number): number {
  if (!demo) return -1;
  let found = -1;
  demo.notes.forEach((note, i) => {
    if (note.step <= step && (found === -1 || note.step >= (demo.notes[found]?.step ?? 0))) found = i;
  });
  return found;
}

const isSource = (state: AppState, ctx: StoreContext, id: string): boolean =>
  state.status === 'ready' && ctx.lastSource?.kind === 'demo' && ctx.lastSource.id === id;

export const createDemoSlice =
  (ctx: StoreContext): AppSlice<DemoSlice> =>
  (set, get) => {
    let listing: Promise<void> | null = null;
    const moveTo = (step: number): void => {
      get().pause();
      get().goTo(step);
    };

    return {
      demos: null,
      demosError: null,
      activeDemo: null,

      loadDemos() {
        const pending: Promise<void> =
          listing ??
          get()
            .client.demos()
            .then(
              (demos) => void set({ demos, demosError: null }),
              (error: unknown) => {
                listing = null;
                set({ demosError: `Could not list the demos: ${errorMessage(error)}` });
              },
            );
        listing = pending;
        return pending;
      },

      async openDemo(id) {
        if (!get().demos) await get().loadDemos();
        const demo = get().demos?.find((d) => d.id === id) ?? null;
        await get().openSource({ kind: 'demo', id });
        // Only if this open is still the latest one and it succeeded.
        if (!demo || !isSource(get(), ctx, id)) return;
        set({ activeDemo: demo });
        get().goTo(0);
      },

      nextNote() {
        const { activeDemo, step } = get();
        const next = activeDemo?.notes.filter((note) => note.step > step).sort((a, b) => a.step - b.step)[0];
        if (next) moveTo(next.step);
      },

      previousNote() {
        const { activeDemo, step } = get();
        const current = activeDemo?.notes[noteIndexAt(activeDemo, step)];
        if (!activeDemo || !current) return;
        const earlier = activeDemo.notes.filter((note) => note.step < current.step).sort((a, b) => b.step - a.step)[0];
        if (earlier) moveTo(earlier.step);
      },
    };
  };
