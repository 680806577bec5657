/**
 * The per-session requests, one entry each: the engine dispatches every `session` request of
 * the method table (`CORE_METHODS` in the protocol) to its entry here, with the session its
 * parameter names. Adding a request is its protocol entry, its query code here, and its
 * consumer; the type below refuses a table that misses one or answers with another type.
 */
import type { CoreResult, SessionMethod, SessionRequest } from '../../protocol/protocol';
import { compare, compareView } from './compare';
import { usageTurns } from './analysis';
import { curve } from './curve';
import { detail } from './detail';
import { diagnostics } from './diagnostics';
import { exportEvent, exportSession, exportText } from './exports';
import { replaceDetail } from './replace-detail';
import { brackets, navigate, replacements, replaceSteps } from './replacements';
import { rowOf, rows } from './rows';
import { search, searchMatches } from './search';
import { QuerySession } from './session';
import type { SessionAnalysis } from '../../core/analyze/session';
import { shadowedBy, surface } from './surface';
import { timeAt, timeTrack } from './timing';
import { blockText, transcript, viewPlace, views } from './views';

/** What a request's query code may ask of the engine. */
export interface QueryContext {
  /** Yields to the event loop (a long request runs in slices so others are answered meanwhile). */
  pause(): Promise<void>;
  /** True once the session the request is about was replaced (a new load or playground state). */
  stale(): boolean;
  /** Another open session by handle (a comparison's other side); throws when none is open. */
  other(handle: number): QuerySession;
}

type Handler<K extends SessionMethod> = (
  q: QuerySession,
  params: SessionRequest<K>,
  context: QueryContext,
) => CoreResult<K> | Promise<CoreResult<K>>;

export const SESSION_QUERIES = {
  rows,
  rowOf,
  search: (q, query, { pause }) => search(q, query, pause),
  searchMatches: (q, params, { pause }) => searchMatches(q, params, pause),
  surface,
  shadowedBy,
  replacements,
  brackets,
  detail,
  diagnostics,
  replaceSteps,
  navigate,
  views,
  transcript,
  viewPlace,
  blockText,
  replaceDetail,
  curve: (q, params, { pause, stale }) => curve(q, params, pause, stale),
  usageTurns,
  timeTrack,
  timeAt,
  compare,
  compareView,
  exportText,
  exportEvent,
  exportSession,
} satisfies { [K in SessionMethod]: Handler<K> };

export { QuerySession } from './session';

/** The query code of one session, bound to it (see {@link sessionQueries}). */
export type BoundQueries = {
  [K in keyof typeof SESSION_QUERIES]: (
    params: Omit<SessionRequest<K>, 'session'> & { session?: number },
  ) => ReturnType<(typeof SESSION_QUERIES)[K]>;
} & { readonly query: QuerySession };

/**
 * The query code of one analysed session, bound to it: each request answered as the engine
 * answers it, for callers that hold the analysis rather than an engine (benchmarks, tests).
 */
export function sessionQueries(
  analysis: SessionAnalysis,
  context: QueryContext = {
    pause: async () => {},
    stale: () => false,
    other: () => {
      throw new Error('bound queries hold one session');
    },
  },
): BoundQueries {
  const query = new QuerySession(analysis);
  const bound: Record<string, unknown> = { query };
  for (const [method, answer] of Object.entries(SESSION_QUERIES)) {
    bound[method] = (params: object) =>
      (answer as (q: QuerySession, p: unknown, c: QueryContext) => unknown)(query, { session: 0, ...params }, context);
  }
  return bound as BoundQueries;
}
