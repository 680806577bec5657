/**
 * Every read of the store goes through here. Selectors return primitives or objects already in
 * the state (stable references), so the default equality of `useAppStore` is enough.
 */
import type { SessionSummary, SurfaceErrorInfo } from '../protocol/protocol';
import { noteIndexAt } from './slices/demo';
import type { AppState, FollowPin, LoadStatus } from './types';

export const selectClient = (s: AppState) => s.client;
export const selectStatus = (s: AppState): LoadStatus => s.status;
export const selectLoad = (s: AppState) => s.load;
export const selectSessions = (s: AppState): SessionSummary[] => s.load?.sessions ?? EMPTY_SESSIONS;
export const selectSessionIndex = (s: AppState) => s.session;
export const selectSession = (s: AppState): SessionSummary | null => s.load?.sessions[s.session] ?? null;
/**
 * The engine's handle of the selected session (its summary's `id`): the `session` of every
 * per-session request. -1 when none is selected (the engine refuses it).
 */
export const selectSessionId = (s: AppState): number => selectSession(s)?.id ?? -1;
export const selectProgress = (s: AppState) => s.progress;
export const selectSourceName = (s: AppState) => s.sourceName;
export const selectLoadError = (s: AppState) => s.loadError;
export const selectEngineError = (s: AppState) => s.engineError;
export const selectSamples = (s: AppState) => s.samples;
/**
 * Whether the panels can show the session: once loaded, and while a large log loads, on the
 * preview of its first lines the engine sent with the progress (the load slice sets `load` then).
 */
export const selectIsReady = (s: AppState): boolean => (s.status === 'ready' || s.status === 'loading') && selectSession(s) !== null;

/** A preview's first timeline rows (see `LoadSummary.firstRows`), or null. */
export const selectFirstRows = (s: AppState) => s.load?.firstRows ?? null;

/** Identifies what the engine currently holds for the views: refetch when it changes. */
export const selectSessionKey = (s: AppState): string => (s.load ? `${s.load.loadId}:${s.session}` : 'none');

export const selectStep = (s: AppState) => s.step;
export const selectAccepted = (s: AppState): number => selectSession(s)?.accepted ?? 0;
export const selectEventCount = (s: AppState): number => selectSession(s)?.events ?? 0;
export const selectBaseSeq = (s: AppState): number => selectSession(s)?.baseSeq ?? 0;
export const selectSelectedSeq = (s: AppState) => s.selectedSeq;
export const selectPlaying = (s: AppState) => s.playing;
export const selectSpeed = (s: AppState) => s.speed;
export const selectHighlight = (s: AppState) => s.highlight;
export const selectAtStart = (s: AppState): boolean => s.step <= 0;
export const selectAtEnd = (s: AppState): boolean => s.step >= selectAccepted(s);

/** A followed session pinned to its end: the cursor and the timeline move to every new end. */
export const selectFollowPinned = (s: AppState): boolean => s.live?.active === true && s.live.pin.pinned;

/** A followed session's pause (what paused it, its event count then), or null when pinned or not followed. */
export const selectFollowPause = (s: AppState): Extract<FollowPin, { pinned: false }> | null =>
  s.live?.active === true && !s.live.pin.pinned ? s.live.pin : null;

/** Events that arrived since a followed session's pause (0 when pinned or not followed). */
export const selectArrivedSincePause = (s: AppState): number => {
  const pause = selectFollowPause(s);
  return pause === null ? 0 : Math.max(0, (selectSession(s)?.events ?? 0) - pause.events);
};

export const selectFilter = (s: AppState) => s.filter;
export const selectSearch = (s: AppState) => s.search;

export const selectTheme = (s: AppState) => s.theme;
export const selectPaneSizes =
  (id: string) =>
  (s: AppState): number[] | undefined =>
    s.paneSizes[id];
export const selectDeepLinkWarning = (s: AppState) => s.deepLinkWarning;

export const selectView = (s: AppState) => s.view;
export const selectReplaceTarget = (s: AppState) => s.replaceTarget;

export const selectDemos = (s: AppState) => s.demos;
export const selectDemosError = (s: AppState) => s.demosError;
export const selectActiveDemo = (s: AppState) => s.activeDemo;
/** Index of the narration note at the cursor (the latest with step ≤ cursor), or -1. */
export const selectDemoNoteIndex = (s: AppState): number => noteIndexAt(s.activeDemo, s.step);
export const selectHasNextNote = (s: AppState): boolean => s.activeDemo?.notes.some((n) => n.step > s.step) ?? false;
export const selectHasPreviousNote = (s: AppState): boolean => {
  const current = s.activeDemo?.notes[selectDemoNoteIndex(s)];
  return current !== undefined && (s.activeDemo?.notes.some((n) => n.step < current.step) ?? false);
};

export const selectExporting = (s: AppState) => s.exporting;
export const selectExportError = (s: AppState) => s.exportError;
export const selectExportNote = (s: AppState) => s.exportNote;
export const selectRedactExports = (s: AppState) => s.redactExports;

export const selectSandbox = (s: AppState) => s.sandbox;
export const selectPlaygroundStarting = (s: AppState) => s.playgroundStarting;
export const selectPlaygroundError = (s: AppState) => s.playgroundError;
export const selectPlayground = (s: AppState) => s.playground;
export const selectRefusal = (s: AppState) => s.refusal;
export const selectLastAccepted = (s: AppState) => s.lastAccepted;
export const selectPlaygroundBusy = (s: AppState) => s.playgroundBusy;

/** Total events of every session of the load. */
export const selectTotalEvents = (s: AppState): number => (s.load ? s.load.sessions.reduce((sum, session) => sum + session.events, 0) : 0);

/** The surface error or decode error of the selected session, as one line. */
export const selectSessionErrorText = (s: AppState): string | null => {
  const session = selectSession(s);
  if (!session) return null;
  const surface = session.surfaceError;
  if (surface) {
    const line = surface.line === null ? '' : `, line ${surface.line}`;
    return `Surface error at ${surfaceErrorPlace(surface)}${line}: ${surface.message}`;
  }
  const decode = session.decodeError;
  if (decode) {
    const where = decode.line === null ? '' : ` at line ${decode.line}`;
    return `Decoding stopped${where}: ${decode.message}`;
  }
  return null;
};

/** What the `role="status"` region says. */
export const selectStatusText = (s: AppState): string => {
  if (s.engineError) return `${s.engineError} Reload the file to continue.`;
  switch (s.status) {
    case 'idle':
      return 'No log loaded.';
    case 'loading':
      return `Loading ${s.sourceName ?? 'log'}…`;
    case 'cancelled':
      return 'Load cancelled.';
    case 'error':
      return `Could not open ${s.sourceName ?? 'the log'}: ${s.loadError ?? 'unknown error'}`;
    case 'ready': {
      const error = selectSessionErrorText(s);
      // The counts are the open session's, as the header's are; a file of several says so.
      const sessions = s.load?.sessions.length ?? 0;
      const own = selectSession(s)?.events ?? 0;
      const loaded =
        sessions > 1
          ? `Loaded ${countOf(own, 'event')} in session ${s.session + 1} of ${sessions} (${countOf(selectTotalEvents(s), 'event')} in the file)`
          : `Loaded ${countOf(own, 'event')}`;
      const said = error ? `${loaded}. ${error}` : `${loaded}.`;
      if (!s.failedOpen) return said;
      const why = s.failedOpen.message;
      return `Could not open ${s.failedOpen.name}: ${why}${/[.!?]$/.test(why) ? '' : '.'} ${said}`;
    }
  }
};

const integer = new Intl.NumberFormat('en-US');

/** `1 event`, `1,000,431 events`. */
export function countOf(n: number, one: string, many = `${one}s`): string {
  return `${integer.format(n)} ${n === 1 ? one : many}`;
}

/**
 * Where a surface error is, for a person: `seq 87` when the refused event has a number for a
 * seq, else its position and what its seq field holds (never "seq undefined").
 */
export function surfaceErrorPlace(error: Pick<SurfaceErrorInfo, 'seq' | 'index'>): string {
  if (typeof error.seq === 'number') return `seq ${error.seq}`;
  const held = error.seq === null ? 'it has no seq' : `its seq is ${formatSeqValue(error.seq)}, not a number`;
  return `the event at position ${integer.format(error.index)} (${held})`;
}

/** What stays usable before a surface error, as a sentence. */
export function acceptedPrefixText(accepted: number): string {
  if (accepted === 0) return 'No event before it was accepted: the log is still shown, with nothing on the surface.';
  return `The ${countOf(accepted, 'event')} before it stay${accepted === 1 ? 's' : ''} fully navigable.`;
}

/**
 * The page title: `file — Surface Lens`, with the session's path inside an archive (or its id
 * for a stream) when the file holds several sessions.
 */
export const selectPageTitle = (s: AppState): string => {
  const name = s.load?.file ?? (s.status === 'loading' ? s.sourceName : null);
  if (!name) return 'Surface Lens';
  const sessions = s.load?.sessions ?? [];
  const session = sessions[s.session];
  let inner: string | null = null;
  if (session && sessions.length > 1) {
    const { path } = session;
    inner = path.includes('!')
      ? path.slice(path.indexOf('!') + 1)
      : path.includes('#')
        ? path.slice(path.indexOf('#') + 1)
        : session.sessionId;
  }
  return `${inner ? `${name} · ${inner}` : name} — Surface Lens`;
};

/** A seq as the engine reported it (may be a non-number for a refused event). */
export function formatSeqValue(seq: unknown): string {
  if (typeof seq === 'number') return String(seq);
  if (seq === undefined || seq === null) return 'none';
  return JSON.stringify(seq) ?? String(seq);
}

const EMPTY_SESSIONS: SessionSummary[] = [];

/**
 * The query the engine runs: the typed text, then the quick filters' terms (after it, so the
 * positions of a query error still point into what was typed).
 */
export const selectSearchQueryText = (s: AppState): string => {
  const { text, replacesOnly, errorsOnly } = s.search;
  return `${text}${replacesOnly ? ' is:replace' : ''}${errorsOnly ? ' is:error' : ''}`;
};
/** True when there is something to search for (text or a quick filter). */
export const selectSearchActive = (s: AppState): boolean => selectSearchQueryText(s).trim() !== '';
