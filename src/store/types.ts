/**
 * The shape of the app store. It holds the cursor, the selection, the filter, summaries and
 * preferences: never the event log, and never windows of rows (components fetch those).
 */
import type { StateCreator, StoreApi } from 'zustand/vanilla';
import type { CoreClient } from '../client/CoreClient';
import type { LatestWins } from '../client/latestWins';
import type {
  DemoInfo,
  ExportKind,
  Family,
  LoadSummary,
  NavigateKind,
  PlaygroundResult,
  PlaygroundState,
  PlaygroundTemplate,
  ProgressEvent,
  QueryErrorInfo,
  PriceList,
  RowFilter,
  SessionSummary,
} from '../protocol/protocol';
import type { StoreDetails, StoreListing, StoreSearchAnswer } from '../protocol/store-api';
import type { ResolvedDeps } from './deps';

/** A file that can be read again as it is now (a File System Access handle). */
export interface FileHandleLike {
  getFile(): Promise<Blob>;
}

/** What the user asked to open. A `File` is a `Blob` with a name; it stays on disk. */
export type LoadSource =
  /** With `handle` (a picked file in Chromium), the file can be followed. */
  | { kind: 'file'; file: Blob; name: string; handle?: FileHandleLike }
  | { kind: 'text'; name: string; text: string }
  | { kind: 'url'; url: string }
  | { kind: 'sample'; name: string }
  /** A guided demo, built by the engine. */
  | { kind: 'demo'; id: string }
  /** A session of the store served by `surface-lens view`, by its opaque id. */
  | { kind: 'store'; id: string; name: string; url: string };

/** A bundled sample, as listed in `samples/index.json`. */
export interface SampleInfo {
  name: string;
  file: string;
  title: string;
  description: string;
}

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error' | 'cancelled';

export interface LoadSlice {
  /** The engine client in use; replaced by a fresh one when reloading after its death. */
  client: CoreClient;
  status: LoadStatus;
  /** Display name of what is loading or loaded. */
  sourceName: string | null;
  progress: ProgressEvent | null;
  load: LoadSummary | null;
  /** Index of the selected session within the load. */
  session: number;
  /** Why the last open failed (network, decode, ...), ready to show. */
  loadError: string | null;
  /** Set when the engine died; the app offers to reload the file. */
  engineError: string | null;
  /** True while the engine has stopped answering requests that wait (see `CoreClient.onStall`). */
  engineStalled: boolean;
  /** Stops an engine that stopped answering; it is then reported dead, with Reload. */
  stopEngine(): void;
  /** The bundled samples offered on the start screen. */
  samples: SampleInfo[];
  /** Reads `samples/index.json` (once); keeps the built-in list when it is missing. */
  loadSampleIndex(): Promise<void>;
  openSource(source: LoadSource): Promise<void>;
  cancelLoad(): Promise<void>;
  /**
   * The last open that failed or was cancelled while another log was on screen (that log stays
   * open and usable): what was asked and why it did not open. Cleared by the next open.
   */
  failedOpen: { name: string; message: string } | null;
  dismissFailedOpen(): void;
  /** Opens the last source again (on a fresh client if the engine died). */
  reload(): Promise<void>;
  selectSession(index: number): void;
}

/** A shadowed range picked in the Shadowed ranges panel, highlighted in the other views. */
export interface Highlight {
  replacement: number;
  /** Nodes it shadowed directly. */
  shadowedSeqs: number[];
  /** The node visible at the cursor that stands for it (itself, or the replacement that shadowed it). */
  visible: number;
}

export interface CursorSlice {
  /** Number of events applied: 0…accepted. */
  step: number;
  selectedSeq: number | null;
  playing: boolean;
  highlight: Highlight | null;
  /** Moves the cursor (clamped); by default selects the event applied at that step. */
  goTo(step: number, options?: { select?: boolean }): void;
  stepBy(delta: number): void;
  /** Moves to the next/previous surface change or replace, as the engine computes it. */
  navigate(kind: NavigateKind): Promise<void>;
  goToStart(): void;
  goToEnd(): void;
  play(): void;
  pause(): void;
  togglePlay(): void;
  select(seq: number | null): void;
  /** Moves the cursor to the step that applies `seq` and selects it. */
  jumpToSeq(seq: number): void;
  setHighlight(highlight: Highlight | null): void;
}

export type SearchStatus = 'idle' | 'searching' | 'found' | 'not-found' | 'error';

export interface SearchState {
  text: string;
  status: SearchStatus;
  /** Row of the current hit within the filtered rows. */
  row: number | null;
  seq: number | null;
  wrapped: boolean;
  /** Rows that match the query, once the engine has counted them. */
  total: number | null;
  /** Why the engine could not search (not a query error). */
  error: string | null;
  /** What is wrong with the query, and where in {@link text}. */
  queryError: QueryErrorInfo | null;
  /** Quick filters: only replace events / only events that report a failure. */
  replacesOnly: boolean;
  errorsOnly: boolean;
}

export interface FilterSlice {
  filter: RowFilter;
  search: SearchState;
  /** Empty families mean all; toggling from "all" shows only that family. */
  toggleFamily(family: Family): void;
  showAllFamilies(): void;
  setSurfaceOnly(surfaceOnly: boolean): void;
  setSearchText(text: string): void;
  /** Turns a quick filter of the search on or off (and searches again). */
  setQuickFilter(which: 'replacesOnly' | 'errorsOnly', on: boolean): void;
  /** Finds the next (1) or previous (-1) row matching the search, in the engine. */
  findNext(direction: 1 | -1): Promise<void>;
  /** Selects a match of the list (its row and seq), as next/previous would have. */
  showMatch(row: number, seq: number): void;
}

export type Theme = 'light' | 'dark';

/** See {@link PrefsSlice.timeMode}. */
export type TimeMode = 'elapsed' | 'clock';

export interface PrefsSlice {
  theme: Theme;
  /** Pane sizes by split id, as fractions of the split. */
  paneSizes: Record<string, number[]>;
  /** Playback speed in steps per second. */
  speed: number;
  /** How the timeline shows times: elapsed from the earliest event, or local wall-clock time. */
  timeMode: TimeMode;
  /**
   * Prices per model (dollars per million tokens) the user gave for the token table's cost:
   * logs record none. Empty: no cost is shown.
   */
  prices: PriceList;
  setPrices(prices: PriceList): void;
  setTimeMode(mode: TimeMode): void;
  setTheme(theme: Theme): void;
  toggleTheme(): void;
  setPaneSizes(id: string, sizes: number[]): void;
  setSpeed(speed: number): void;
}

export interface DeepLinkSlice {
  deepLinkWarning: string | null;
  dismissDeepLinkWarning(): void;
}

/** What the workspace shows: the timeline-centric panels, the two views, or the playground. */
export type WorkspaceView = 'timeline' | 'views' | 'playground';

export interface ViewSlice {
  view: WorkspaceView;
  /** The replacement shown in the replace inspector, or null when it is closed. */
  replaceTarget: number | null;
  setView(view: WorkspaceView): void;
  /** Opens the replace inspector on a replacement (and selects it). */
  openReplace(seq: number): void;
  closeReplace(): void;
}

export interface DemoSlice {
  /** The guided demos, once fetched from the engine. */
  demos: DemoInfo[] | null;
  demosError: string | null;
  /** The demo that is open (its narration follows the cursor), or null. */
  activeDemo: DemoInfo | null;
  loadDemos(): Promise<void>;
  /** Opens a demo as the current log, at step 0, with its narration. */
  openDemo(id: string): Promise<void>;
  /** Moves the cursor to the next / previous narrated step. */
  nextNote(): void;
  previousNote(): void;
}

/** The files to send: the log cut at the cursor, or the self-contained page. */
export type SessionExportFormat = 'jsonl' | 'html';

export interface ExportSlice {
  /** The export being prepared, if any. */
  exporting: ExportKind | 'playground' | 'event' | SessionExportFormat | null;
  exportError: string | null;
  /** Whether the files to send are redacted (secrets, home-directory paths, e-mail addresses). */
  redactExports: boolean;
  setRedactExports(redact: boolean): void;
  /** What the last redacted export replaced (counts per kind), to show; null otherwise. */
  exportNote: string | null;
  /**
   * Writes the session at the cursor to send and downloads it: the log cut at the cursor, or the
   * self-contained page (the built viewer fetched from the app's own origin, the session inside,
   * opening at the cursor and selection), redacted when {@link redactExports} is set.
   */
  exportSession(format: SessionExportFormat): Promise<void>;
  /** Exports the model view or surface at the cursor, or the report, and downloads it. */
  exportFile(kind: ExportKind): Promise<void>;
  /** Downloads the raw line of one event whole (the inspector clips a large one). */
  exportEvent(seq: number): Promise<void>;
}

/** A candidate the fold refused: the exact rule message and the rule id. */
export interface Refusal {
  message: string;
  rule: string;
}

/**
 * The playground. The main store starts it and keeps a sandbox store whose log is the playground
 * (every ordinary panel works on it); the sandbox offers candidates, undoes and exports.
 */
export interface PlaygroundSlice {
  /** (main store) The store showing the playground, once started. */
  sandbox: AppStoreApi | null;
  playgroundStarting: boolean;
  playgroundError: string | null;
  /** (main store) Starts a playground, empty or from the cursor of the loaded session. */
  startPlayground(from: 'empty' | 'cursor'): Promise<void>;

  /** (sandbox) The playground after the last operation. */
  playground: PlaygroundState | null;
  /** (sandbox) Why the last candidate was refused; cleared by the next operation. */
  refusal: Refusal | null;
  /** (sandbox) Seq of the last accepted candidate. */
  lastAccepted: number | null;
  playgroundBusy: boolean;
  /** (sandbox) Shows a playground state: its log becomes the session, the cursor at its end. */
  adoptPlayground(state: PlaygroundState, selected?: number | null): void;
  offer(template: PlaygroundTemplate): Promise<PlaygroundResult | null>;
  undo(): Promise<void>;
  redo(): Promise<void>;
  exportPlayground(): Promise<void>;
}

/** The Sessions view of `surface-lens view` (absent outside it: `storeMode` stays false). */
export interface SessionsSlice {
  /** The page is served by `surface-lens view` (its store API answered). */
  storeMode: boolean;
  storeListing: StoreListing | null;
  /** Titles and event counts by row id, as they arrive. */
  storeDetails: Record<string, StoreDetails>;
  storeError: string | null;
  storeFilter: string;
  /** Keys of collapsed tree items (`p:<project>` or a row id). */
  storeCollapsed: string[];
  /** The store session open in the workspace, by id. */
  storeOpenId: string | null;
  /** Said when the open session grew (only its new bytes read) or was rewritten. */
  storeFollowNote: string | null;
  /** The Sessions view is shown (instead of the workspace). */
  showingSessions: boolean;
  /** Probes the store API; true (and the listing loaded, changes followed) when it answers. */
  initStore(): Promise<boolean>;
  /** Asks titles for these rows first. */
  requestDetails(ids: readonly string[]): void;
  setStoreFilter(text: string): void;
  toggleStoreCollapsed(key: string): void;
  showSessions(show: boolean): void;
  openStoreSession(id: string, options?: { keepView?: boolean }): Promise<void>;
  disposeStore(): void;
}

/** Live follow of the open source (see the follow slice). */
export interface LiveState {
  /** Looking at the source again about once a second (backing off while it does not change). */
  active: boolean;
  /** When the last change arrived (ms since the epoch), or null before any. */
  lastAppendAt: number | null;
  /** What the last look said (a re-read from the start, a server without ranges, a stop). */
  note: string | null;
  /** Why following is not possible, or why the last look failed. */
  error: string | null;
  /** Said to screen readers: a new replace arrived. */
  announce: string | null;
  /** Whether the cursor and the timeline follow the end, like a terminal's scroll lock. */
  pin: FollowPin;
}

/**
 * The scroll lock of a followed session: pinned, the cursor moves to every new end and the
 * timeline shows it; paused, neither moves until End (or, after a scroll, scrolling back to
 * the very bottom). `by` says what paused it: a scroll of the timeline (the cursor stayed) or a
 * move of the cursor; `events` is how many events the session had then, so the app can say
 * how many arrived since.
 */
export type FollowPin = { pinned: true } | { pinned: false; by: 'scroll' | 'cursor'; events: number };

export interface FollowSlice {
  /** Null until following is asked for; reset by every open. */
  live: LiveState | null;
  /** Follow the open source (a URL, or a file picked with a handle); says why when it cannot. */
  startFollow(): void;
  stopFollow(): void;
  /**
   * The source changed, as something other than a look says (the store's events stream, a file
   * observer): a waiting look runs now instead of at its time. Nothing when not following.
   */
  followHint(): void;
  /** Why the open source cannot be followed here, or null when it can. */
  followRefusal(): string | null;
  /**
   * The user scrolled the timeline (a wheel, the scrollbar, keys; never a scroll the app made)
   * and it now ends at the last row (`atEnd`) or not. Away from the end pauses a pinned follow;
   * back at the very bottom resumes one that a scroll paused. Nothing when not following.
   */
  timelineScrolled(atEnd: boolean): void;
  /** End for a followed session: the cursor to the end (the selection stays) and pinned again; nothing when not following. */
  followEnd(): void;
}

/** "Search all sessions" of `surface-lens view` (see slices/storeSearch.ts). */
export interface StoreSearchSlice {
  storeSearch: {
    text: string;
    status: 'idle' | 'searching' | 'done' | 'error';
    answer: StoreSearchAnswer | null;
    /** Why the server could not answer (a refused query comes in `answer.error`). */
    error: string | null;
  };
  /** Asks the local server; an empty text clears the results. */
  searchStore(text: string): Promise<void>;
}

/** What the open session can be compared with: a log to open, or another session of the load. */
export type CompareSource = Exclude<LoadSource, { kind: 'sample' } | { kind: 'demo' }> | { kind: 'loaded'; index: number };

/** The comparison in progress (see slices/compare.ts). */
export interface CompareState {
  status: 'loading' | 'ready' | 'error';
  label: string;
  /** The link's `compare=` value, or null when the source cannot be linked (a local file). */
  param: string | null;
  source: CompareSource;
  /** The other session (its summary and engine handle) once open. */
  session: SessionSummary | null;
  handle: number | null;
  error: string | null;
}

export interface CompareSlice {
  compare: CompareState | null;
  /** Compares the open session with another log or another session of the load. */
  openCompare(source: CompareSource): Promise<void>;
  closeCompare(): void;
  /** The link (query and hash, relative) that opens this comparison, or why there is none. */
  compareLink(): { link: string | null; reason: string | null };
}

export type AppState = LoadSlice &
  CompareSlice &
  FollowSlice &
  CursorSlice &
  FilterSlice &
  PrefsSlice &
  DeepLinkSlice &
  ViewSlice &
  DemoSlice &
  ExportSlice &
  PlaygroundSlice &
  SessionsSlice &
  StoreSearchSlice;

/** An app store (see `createAppStore`). */
export type AppStoreApi = StoreApi<AppState> & {
  /** Stops timers and subscriptions and terminates the client (tests, hot reload). */
  dispose(): void;
};

/** Services shared by the slices (not state: nothing here is rendered). */
/** The log on screen while another one loads (see {@link LoadSlice.failedOpen}). */
export interface KeptLoad {
  source: LoadSource | null;
  sourceName: string | null;
  /** It was being followed: the follow resumes if the new open fails. */
  following: boolean;
}

export interface StoreContext {
  /** The log on screen while another one loads, or null. */
  kept: KeptLoad | null;
  /** Step and selection of each session of the open file left for another one, by index. */
  sessionCursors: Map<number, { step: number; selectedSeq: number | null }>;
  deps: ResolvedDeps;
  requests: LatestWins;
  /** Bumped by every open; answers to an older open are dropped. */
  loadToken: number;
  lastSource: LoadSource | null;
  cancelPlayback: (() => void) | null;
  /** Applies the URL hash once a load finished (deep-link slice). */
  applyDeepLink: () => void;
  /** The sample manifest, fetched once when first needed. */
  sampleIndex: Promise<SampleInfo[] | null> | null;
  /** The hash this store wrote last: a hash we wrote ourselves is not a link to follow. */
  writtenHash: string | null;
  /** Makes the sandbox store of a playground on `client` (see the playground slice). */
  createSandbox: (client: CoreClient) => AppStoreApi;
}

export type AppSlice<T> = StateCreator<AppState, [['zustand/persist', unknown]], [], T>;
