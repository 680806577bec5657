/**
 * The cursor (step k = events applied, 0…accepted), the selected seq, playback and the
 * highlighted shadowed range. Stepping selects the event the step applied, so every view follows.
 */
import { errorMessage, isAbortError } from '../../client/errors';
import type { NavigateKind, SessionSummary } from '../../protocol/protocol';
import type { AppSlice, AppState, CursorSlice, StoreContext } from '../types';
import { selectSessionId } from '../selectors';
import { pinAfterMove } from './follow';

/** Above this speed, a tick applies several steps instead of firing more often than a frame. */
const FRAME_MS = 1000 / 60;

function currentSession(state: AppState): SessionSummary | null {
  return state.load?.sessions[state.session] ?? null;
}

export function clampStep(state: AppState, step: number): number {
  const accepted = currentSession(state)?.accepted ?? 0;
  if (!Number.isFinite(step)) return 0;
  return Math.min(accepted, Math.max(0, Math.trunc(step)));
}

/** Seq of the event applied at step k (index k-1), or null at step 0. */
export function seqAppliedAt(session: SessionSummary | null, step: number): number | null {
  if (!session || step <= 0) return null;
  return session.baseSeq + step - 1;
}

export const createCursorSlice =
  (ctx: StoreContext): AppSlice<CursorSlice> =>
  (set, get) => {
    /** Transport jumps run one after another (each press moves once), at most 3 queued. */
    let navQueue: Promise<void> = Promise.resolve();
    let navQueued = 0;

    const stopTimer = (): void => {
      ctx.cancelPlayback?.();
      ctx.cancelPlayback = null;
    };

    const tick = (): void => {
      const state = get();
      if (!state.playing) return;
      const accepted = currentSession(state)?.accepted ?? 0;
      const interval = Math.max(FRAME_MS, 1000 / state.speed);
      const stride = Math.max(1, Math.round((state.speed * interval) / 1000));
      const next = Math.min(accepted, state.step + stride);
      state.goTo(next);
      if (next >= accepted) {
        stopTimer();
        set({ playing: false });
        return;
      }
      ctx.cancelPlayback = ctx.deps.scheduler.setTimeout(tick, interval);
    };

    const navigateOnce = async (kind: NavigateKind): Promise<void> => {
      const state = get();
      const session = currentSession(state);
      if (!session || state.status !== 'ready') return;
      const token = ctx.loadToken;
      const from = state.step;
      try {
        const target = await state.client.navigate({ session: selectSessionId(state), step: from, kind });
        const now = get();
        // Ignore answers about another file, session or cursor position.
        if (token !== ctx.loadToken || now.step !== from || currentSession(now) !== session) return;
        if (target !== null) now.goTo(target);
      } catch (error) {
        if (!isAbortError(error) && !get().engineError) set({ loadError: `Navigation failed: ${errorMessage(error)}` });
      }
    };

    return {
      step: 0,
      selectedSeq: null,
      playing: false,
      highlight: null,

      goTo(step, options = {}) {
        const state = get();
        const next = clampStep(state, step);
        const select = options.select ?? true;
        const session = currentSession(state);
        const applied = seqAppliedAt(session, next);
        // Every move of the cursor says whether a followed session stays pinned to its end.
        const pin = pinAfterMove(state.live, session, next);
        if (select && applied !== null) set({ step: next, selectedSeq: applied, ...pin });
        else set({ step: next, ...pin });
      },

      stepBy(delta) {
        get().pause();
        get().goTo(get().step + delta);
      },

      navigate(kind) {
        get().pause();
        if (navQueued >= 3) return navQueue;
        navQueued++;
        navQueue = navQueue.then(() => navigateOnce(kind)).finally(() => void navQueued--);
        return navQueue;
      },

      goToStart() {
        get().pause();
        get().goTo(0);
      },

      goToEnd() {
        get().pause();
        get().goTo(currentSession(get())?.accepted ?? 0);
      },

      play() {
        const state = get();
        const session = currentSession(state);
        if (state.playing || !session || state.status !== 'ready' || session.accepted === 0) return;
        if (state.step >= session.accepted) state.goTo(0);
        set({ playing: true });
        stopTimer();
        ctx.cancelPlayback = ctx.deps.scheduler.setTimeout(tick, Math.max(FRAME_MS, 1000 / state.speed));
      },

      pause() {
        stopTimer();
        if (get().playing) set({ playing: false });
      },

      togglePlay() {
        if (get().playing) get().pause();
        else get().play();
      },

      select(seq) {
        set({ selectedSeq: seq });
      },

      jumpToSeq(seq) {
        const state = get();
        const session = currentSession(state);
        if (!session || !Number.isFinite(seq) || session.events === 0) return;
        state.pause();
        const last = session.baseSeq + session.events - 1;
        const target = Math.min(last, Math.max(session.baseSeq, Math.trunc(seq)));
        get().goTo(target - session.baseSeq + 1, { select: false });
        set({ selectedSeq: target });
      },

      setHighlight(highlight) {
        set({ highlight });
      },
    };
  };
