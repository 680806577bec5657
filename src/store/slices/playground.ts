/**
 * The playground. The main store starts it in the engine and shows it through a sandbox store
 * (same factory, on a client whose only session is the playground), so every ordinary panel
 * works on the playground log. The sandbox offers candidates, undoes, redoes and exports: a
 * candidate enters the log only if the engine's fold accepts it; a refusal keeps its exact
 * message and changes nothing else.
 */
import { errorMessage, isAbortError } from '../../client/errors';
import type { LoadSummary, PlaygroundState } from '../../protocol/protocol';
import type { AppSlice, PlaygroundSlice, StoreContext } from '../types';
import { FRESH_SEARCH } from './filter';
import { selectSessionId } from '../selectors';

export const PLAYGROUND_FILE = 'playground';

/** The playground log as a one-session load (a new `loadId` per change, so views refetch). */
export function playgroundLoad(state: PlaygroundState, loadId: number): LoadSummary {
  return {
    loadId,
    file: PLAYGROUND_FILE,
    bytes: 0,
    sessions: [{ ...state.summary, index: 0, path: PLAYGROUND_FILE }],
    findings: [],
    elapsedMs: 0,
  };
}

export const createPlaygroundSlice =
  (ctx: StoreContext): AppSlice<PlaygroundSlice> =>
  (set, get) => {
    let revision = 0;
    let sandboxClient: unknown = null;

    /** Runs one sandbox operation at a time; failures are reported, not thrown. */
    const operate = async <T>(run: () => Promise<T>): Promise<T | null> => {
      if (get().playgroundBusy || !get().playground) return null;
      set({ playgroundBusy: true, playgroundError: null });
      try {
        return await run();
      } catch (error) {
        if (!isAbortError(error)) set({ playgroundError: errorMessage(error) });
        return null;
      } finally {
        set({ playgroundBusy: false });
      }
    };

    return {
      sandbox: null,
      playgroundStarting: false,
      playgroundError: null,
      playground: null,
      refusal: null,
      lastAccepted: null,
      playgroundBusy: false,

      async startPlayground(from) {
        const state = get();
        if (state.playgroundStarting) return;
        const origin =
          from === 'cursor' && state.status === 'ready' && state.load ? { session: selectSessionId(state), step: state.step } : null;
        set({ playgroundStarting: true, playgroundError: null });
        try {
          const client = state.client;
          const started = await client.playgroundStart(origin);
          let sandbox = get().sandbox;
          if (!sandbox || sandboxClient !== client) {
            sandbox?.dispose();
            sandbox = ctx.createSandbox(client);
            sandboxClient = client;
          }
          sandbox.getState().setSpeed(get().speed);
          sandbox.getState().adoptPlayground(started);
          get().pause();
          set({ sandbox, view: 'playground', playgroundStarting: false });
        } catch (error) {
          set({ playgroundStarting: false, playgroundError: `Could not start the playground: ${errorMessage(error)}` });
        }
      },

      adoptPlayground(playground, selected = null) {
        ctx.loadToken++;
        ctx.requests.cancelPending();
        ctx.cancelPlayback?.();
        ctx.cancelPlayback = null;
        set({
          status: 'ready',
          sourceName: PLAYGROUND_FILE,
          progress: null,
          loadError: null,
          load: playgroundLoad(playground, ++revision),
          session: 0,
          step: playground.summary.accepted,
          selectedSeq: selected,
          playing: false,
          highlight: null,
          replaceTarget: null,
          search: FRESH_SEARCH,
          playground,
          refusal: null,
          lastAccepted: selected,
        });
      },

      offer(template) {
        return operate(async () => {
          set({ refusal: null });
          const result = await get().client.playgroundOffer(template);
          // A refusal leaves the log, the cursor and the selection exactly as they were.
          if (result.ok) get().adoptPlayground(result.state, result.seq);
          else set({ refusal: { message: result.message, rule: result.rule } });
          return result;
        });
      },

      async undo() {
        await operate(async () => get().adoptPlayground(await get().client.playgroundUndo()));
      },

      async redo() {
        await operate(async () => get().adoptPlayground(await get().client.playgroundRedo()));
      },

      async exportPlayground() {
        await operate(async () => {
          set({ exporting: 'playground' });
          try {
            ctx.deps.download(await get().client.playgroundExport());
          } finally {
            set({ exporting: null });
          }
        });
      },
    };
  };
