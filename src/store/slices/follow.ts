/**
 * Live follow: the open source is looked at again while dsh may still be writing it (a URL by
 * Range requests, a picked file through its File System Access handle), and what it gained
 * becomes the session (the engine's `grow`). The cursor follows the end like a terminal's
 * scroll lock, and `live.pin` is the one place that says whether it does: pinned, new events
 * move the cursor to the new end (and the timeline shows it); a cursor moved elsewhere, or a
 * timeline the user scrolled away from its end, pauses it, and End pins it again. A pause by
 * scrolling also ends when the user scrolls back to the very bottom (what the scroll did, the
 * scroll undoes); a pause by moving the cursor does not, since the step the user chose is
 * what the surface shows. Selection, filters, search and open spans are kept; a new replace
 * is announced.
 */
import { errorMessage } from '../../client/errors';
import type { GrowRequest, GrowResult, LoadSummary, SessionSummary } from '../../protocol/protocol';
import type { AppSlice, AppState, FollowPin, FollowSlice, LiveState, LoadSource, StoreContext } from '../types';

/** The first look after a change; nothing new backs off from it. */
export const FOLLOW_INTERVAL_MS = 1000;
/** The longest wait between two looks at a source that does not change. */
export const FOLLOW_MAX_INTERVAL_MS = 8000;

/** Why a source cannot be followed here, or null when it can. */
export function followRefusal(source: LoadSource | null): string | null {
  if (source === null) return 'Nothing is open.';
  // A store session is a URL of the local server (Range and ETag), which also says when it grew.
  if (source.kind === 'url' || source.kind === 'store') return null;
  if (source.kind === 'file') {
    return source.handle
      ? null
      : 'Following a picked file needs Chromium (the File System Access API: open it with "Open file…" there) or `surface-lens view`.';
  }
  return 'Only a URL or a picked file can be followed.';
}

const PINNED: FollowPin = Object.freeze({ pinned: true });

/**
 * What a move of the cursor to `step` of `session` does to the pin: at the end it pins, anywhere
 * else it pauses (a pause keeps the event count of its start). The store update to merge, empty
 * when nothing changes or nothing is followed, so a move during playback costs no render.
 */
export function pinAfterMove(live: LiveState | null, session: SessionSummary | null, step: number): Partial<Pick<AppState, 'live'>> {
  if (!live?.active) return {};
  if (step >= (session?.accepted ?? 0)) return live.pin.pinned ? {} : { live: { ...live, pin: PINNED } };
  if (!live.pin.pinned && live.pin.by === 'cursor') return {};
  const events = live.pin.pinned ? (session?.events ?? 0) : live.pin.events;
  return { live: { ...live, pin: { pinned: false, by: 'cursor', events } } };
}

function announcement(before: LoadSummary | null, after: LoadSummary, session: number): string | null {
  const was = before?.sessions[session]?.replacements ?? 0;
  const now = after.sessions[session]?.replacements ?? 0;
  if (now <= was) return null;
  return now - was === 1 ? 'A new replace was applied.' : `${now - was} new replaces were applied.`;
}

export const createFollowSlice =
  (ctx: StoreContext): AppSlice<FollowSlice> =>
  (set, get) => {
    let cancelTimer: (() => void) | null = null;
    let generation = 0;

    /** The next look, waiting (its wait is what a change hint cuts short). */
    let pending: (() => void) | null = null;

    /** A hint that the source changed (a file observer, the store's events stream): look now. */
    const lookNow = (): void => {
      const run = pending;
      if (run === null) return;
      cancelTimer?.();
      cancelTimer = null;
      pending = null;
      run();
    };
    let observer: { disconnect(): void } | null = null;

    const stopTimer = (): void => {
      cancelTimer?.();
      cancelTimer = null;
      pending = null;
    };

    /**
     * Chromium's `FileSystemObserver`, where there is one, may say that a followed file changed:
     * the next look then comes at once. Only a hint: the looks go on without it.
     */
    const watchHandle = (source: LoadSource | null): void => {
      observer?.disconnect();
      observer = null;
      const Observer = (
        globalThis as { FileSystemObserver?: new (callback: () => void) => { observe(handle: unknown): Promise<void>; disconnect(): void } }
      ).FileSystemObserver;
      if (source?.kind !== 'file' || !source.handle || typeof Observer !== 'function') return;
      try {
        const next = new Observer(lookNow);
        next.observe(source.handle).catch(() => next.disconnect());
        observer = next;
      } catch {
        observer = null;
      }
    };

    const requestFor = async (source: LoadSource): Promise<GrowRequest> => {
      if (source.kind === 'url' || source.kind === 'store') return { kind: 'url' };
      if (source.kind === 'file' && source.handle) return { kind: 'file', file: await source.handle.getFile() };
      throw new Error(followRefusal(source) ?? 'This source cannot be followed.');
    };

    /** Take a growth: the new load replaces the old one without resetting what the user set. */
    const adopt = (result: GrowResult, at: number): void => {
      const state = get();
      const summary = result.summary;
      const live: LiveState = { ...(state.live as LiveState), note: result.note ?? state.live?.note ?? null };
      if (summary === null) {
        set({ live });
        return;
      }
      const before = state.load;
      const session = Math.min(state.session, Math.max(0, summary.sessions.length - 1));
      const end = summary.sessions[session]?.accepted ?? 0;
      // A re-read starts over: the old places mean nothing in the new text, so it follows the end.
      const pin = result.kind === 'reread' ? PINNED : live.pin;
      const step = pin.pinned ? end : Math.min(state.step, end);
      const grew =
        ctx.lastSource?.kind !== 'store'
          ? {}
          : {
              storeFollowNote:
                result.kind === 'reread'
                  ? 'The open session was rewritten: it was read again from the start.'
                  : `The open session grew: ${result.newEvents === 1 ? '1 new event' : `${result.newEvents.toLocaleString('en-US')} new events`}, only the new bytes read.`,
            };
      set({
        load: summary,
        session,
        step,
        live: { ...live, pin, lastAppendAt: at, announce: announcement(before, summary, session) ?? live.announce },
        ...grew,
      });
    };

    const look = async (token: number, mine: number, wait: number): Promise<void> => {
      cancelTimer = null;
      pending = null;
      const source = ctx.lastSource;
      if (token !== ctx.loadToken || mine !== generation || source === null || get().status !== 'ready') return;
      let next = wait;
      try {
        const result = await get().client.grow(await requestFor(source));
        if (token !== ctx.loadToken || mine !== generation) return;
        adopt(result, ctx.deps.now());
        if (!result.following) {
          set({ live: { ...(get().live as LiveState), active: false, note: result.note } });
          return;
        }
        const changed = result.kind === 'appended' || result.kind === 'reread';
        // A large session costs the engine about as much per change as opening it: leave it
        // at least as long again between looks, so following never keeps the engine busy.
        const floor = Math.max(FOLLOW_INTERVAL_MS, 2 * result.elapsedMs);
        next = changed ? floor : Math.min(Math.max(FOLLOW_MAX_INTERVAL_MS, floor), Math.max(floor, Math.round(wait * 1.5)));
      } catch (error) {
        if (token !== ctx.loadToken || mine !== generation) return;
        // A failed look (the network, a file gone) is said; the next one may succeed.
        set({ live: { ...(get().live as LiveState), error: errorMessage(error) } });
        next = Math.min(FOLLOW_MAX_INTERVAL_MS, Math.round(wait * 2));
      }
      const run = (): void => void look(token, mine, next);
      pending = run;
      cancelTimer = ctx.deps.scheduler.setTimeout(run, next);
    };

    return {
      live: null,

      startFollow() {
        const refusal = followRefusal(ctx.lastSource);
        if (refusal !== null) {
          set({ live: { active: false, lastAppendAt: null, note: null, error: refusal, announce: null, pin: PINNED } });
          return;
        }
        stopTimer();
        watchHandle(ctx.lastSource);
        const mine = ++generation;
        // Follow pins when the cursor is at the end; a cursor stepped back stays, paused, until End.
        const state = get();
        const session = state.load?.sessions[state.session] ?? null;
        const pin: FollowPin =
          state.step >= (session?.accepted ?? 0) ? PINNED : { pinned: false, by: 'cursor', events: session?.events ?? 0 };
        set({ live: { active: true, lastAppendAt: state.live?.lastAppendAt ?? null, note: null, error: null, announce: null, pin } });
        void look(ctx.loadToken, mine, FOLLOW_INTERVAL_MS);
      },

      followHint() {
        lookNow();
      },

      followRefusal() {
        return followRefusal(ctx.lastSource);
      },

      timelineScrolled(atEnd) {
        const state = get();
        const live = state.live;
        if (!live?.active) return;
        if (atEnd) {
          if (!live.pin.pinned && live.pin.by === 'scroll') state.followEnd();
          return;
        }
        if (!live.pin.pinned) return;
        const events = state.load?.sessions[state.session]?.events ?? 0;
        set({ live: { ...live, pin: { pinned: false, by: 'scroll', events } } });
      },

      followEnd() {
        const state = get();
        if (!state.live?.active) return;
        state.pause();
        state.goTo(state.load?.sessions[state.session]?.accepted ?? 0, { select: false });
      },

      stopFollow() {
        generation++;
        stopTimer();
        observer?.disconnect();
        observer = null;
        const live = get().live;
        if (live) set({ live: { ...live, active: false } });
      },
    };
  };
