/**
 * Every read of the store goes through here. Selectors return primitives or objects already in
 * the state (stable references), so components need `useShallow` only where noted.
 */
import type { SessionSummary } from '../protocol/protocol';
import { noteIndexAt } from './slices/demo';
import type { AppState, LoadStatus } from './types';

export const selectClient = (s: AppState) => s.client;
export const selectStatus = (s: AppState): LoadStatus => s.status;
export const selectLoad = (s: AppState) => s.load;
export const selectSessions = (s: AppState): SessionSummary[] => s.load?.sessions ?? EMPTY_SESSIONS;
export const selectSessionIndex = (s: AppState) => s.session;
export const selectSession = (s: AppState): SessionSummary | null => s.load?.sessions[s.session] ?? null;
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

/** Identifies what the engine currently holds for the views: refetch when it changes. */
export const selectSessionKey = (s: AppState): string =>
  s.load ? `${s.load.loadId}:${s.session}` : 'none';

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

export const selectFilter = (s: AppState) => s.filter;
export const selectSearch = (s: AppState) => s.search;

export const selectTheme = (s: AppState) => s.theme;
export const selectPaneSizes = (id: string) => (s: AppState): number[] | undefined => s.paneSizes[id];
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

export const selectSandbox = (s: AppState) => s.sandbox;
export const selectPlaygroundStarting = (s: AppState) => s.playgroundStarting;
export const selectPlaygroundError = (s: AppState) => s.playgroundError;
export const selectPlayground = (s: AppState) => s.playground;
export const selectRefusal = (s: AppState) => s.refusal;
export const selectLastAccepted = (s: AppState) => s.lastAccepted;
export const selectPlaygroundBusy = (s: AppState) => s.playgroundBusy;

/** Total events of every session of the load. */
export const selectTotalEvents = (s: AppState): number =>
  s.load ? s.load.sessions.reduce((sum, session) => sum + session.events, 0) : 0;

/** The surface error or decode error of the selected session, as one line. */
export const selectSessionErrorText = (s: AppState): string | null => {
  const session = selectSession(s);
  if (!session) return null;
  const surface = session.surfaceError;
  if (surface) {
    const line = surface.line === null ? '' : `, line ${surface.line}`;
    return `Surface error at seq ${formatSeqValue(surface.seq)}${line}: ${surface.message}`;
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
      const loaded = `Loaded ${selectTotalEvents(s)} events`;
      return error ? `${loaded}. ${error}` : `${loaded}.`;
    }
  }
};

/** A seq as the engine reported it (may be a non-number for a refused event). */
export function formatSeqValue(seq: unknown): string {
  if (typeof seq === 'number') return String(seq);
  if (seq === undefined) return 'undefined';
  return JSON.stringify(seq) ?? String(seq);
}

const EMPTY_SESSIONS: SessionSummary[] = [];
