/**
 * A view of an engine client in which the playground is "the" session: every per-session call
 * goes to {@link PLAYGROUND_SESSION}, whatever index the caller passes. The app keeps a second
 * store on this client, so every ordinary panel (timeline, surface, inspector, two views…) works
 * on the playground unchanged. It shares the engine: terminating it does nothing, and it dies
 * when the engine dies.
 */
import { PLAYGROUND_SESSION } from '../protocol/protocol';
import type { SearchQuery } from '../protocol/protocol';
import type { CoreClient } from './CoreClient';

export function createPlaygroundClient(client: CoreClient): CoreClient {
  const S = PLAYGROUND_SESSION;
  return {
    get dead() {
      return client.dead;
    },
    get engineHome() {
      return client.engineHome ?? null;
    },
    terminate() {
      // The engine belongs to the app's main client.
    },
    onDead: (listener) => client.onDead(listener),
    onStall: (listener) => client.onStall?.(listener) ?? (() => {}),
    hello: () => client.hello(),
    open: () => Promise.reject(new Error('The playground does not open files; open them in the main view.')),
    cancel: () => Promise.resolve(),
    grow: () => Promise.reject(new Error('The playground does not follow a file.')),
    rows: (_session, cursor, filter, start, count) => client.rows(S, cursor, filter, start, count),
    rowOf: (_session, filter, seq) => client.rowOf(S, filter, seq),
    search: (query: SearchQuery) => client.search({ ...query, session: S }),
    surface: (_session, step, start, count) => client.surface(S, step, start, count),
    shadowedBy: (_session, replacement) => client.shadowedBy(S, replacement),
    replacements: (_session, step) => client.replacements(S, step),
    brackets: (_session, step, lo, hi) => client.brackets(S, step, lo, hi),
    detail: (_session, seq, step) => client.detail(S, seq, step),
    diagnostics: (_session, start, count) => client.diagnostics(S, start, count),
    replaceSteps: () => client.replaceSteps(S),
    navigate: (_session, step, kind) => client.navigate(S, step, kind),
    views: (_session, step, start, count) => client.views(S, step, start, count),
    transcript: (_session, step, seq, start, count) => client.transcript(S, step, seq, start, count),
    viewPlace: (_session, step, seq) => client.viewPlace(S, step, seq),
    blockText: (_session, seq, block) => client.blockText(S, seq, block),
    replaceDetail: (_session, replacement) => client.replaceDetail(S, replacement),
    curve: (_session, buckets) => client.curve(S, buckets),
    exportText: (_session, kind, step) => client.exportText(S, kind, step),
    exportEvent: (_session, seq) => client.exportEvent(S, seq),
    exportSession: (_session, request) => client.exportSession(S, request),
    demos: () => client.demos(),
    playgroundStart: (from) => client.playgroundStart(from),
    playgroundOffer: (template) => client.playgroundOffer(template),
    playgroundUndo: () => client.playgroundUndo(),
    playgroundRedo: () => client.playgroundRedo(),
    playgroundExport: () => client.playgroundExport(),
  };
}
