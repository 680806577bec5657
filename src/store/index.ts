export { createAppStore, PREFS_KEY } from './createAppStore';
export type { AppStore } from './createAppStore';
export type { AppStoreDeps, StorageLike, LocationLike, Scheduler, FetchLike } from './deps';
export { memoryStorage } from './deps';
export type { AppState, LoadSource, LoadStatus, Highlight, Theme, SearchState, SampleInfo, WorkspaceView, Refusal } from './types';
export { parseDeepLink, formatDeepLink } from './deepLink';
export { SPEEDS } from './slices/prefs';
