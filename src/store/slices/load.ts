/**
 * Loading: opening a file, text, URL or bundled sample; progress; cancel; the session picked in
 * a ZIP; the death of the engine and reloading on a fresh client.
 */
import type { CoreClient } from '../../client/CoreClient';
import { errorMessage, isAbortError } from '../../client/errors';
import type { OpenRequest } from '../../protocol/protocol';
import type { AppSlice, AppState, KeptLoad, LoadSlice, LoadSource, SampleInfo, StoreContext } from '../types';
import { FRESH_SEARCH } from './filter';
import { pinAfterMove } from './follow';

const SAFE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

/** The bundled samples (public/samples), used until or unless `samples/index.json` says otherwise. */
export const DEFAULT_SAMPLES: SampleInfo[] = [
  {
    name: 'teaching',
    file: 'teaching.jsonl',
    title: 'Teaching log',
    description: 'Two short turns with a tool call, a prune and a compaction.',
  },
  {
    name: 'nested',
    file: 'nested.jsonl',
    title: 'Nested compactions and prunes',
    description: 'Compactions inside compactions, and tool-result prunes.',
  },
  { name: 'large', file: 'large.jsonl.zstd', title: 'Large log (Zstandard)', description: 'A long multi-frame session.' },
];

/** Keeps the well-formed entries of a sample manifest (our own file, still checked). */
export function parseSampleIndex(json: unknown): SampleInfo[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((entry: unknown) => {
    if (typeof entry !== 'object' || entry === null) return [];
    const e = entry as Record<string, unknown>;
    if (typeof e.name !== 'string' || !SAFE_NAME.test(e.name)) return [];
    if (typeof e.file !== 'string' || !SAFE_NAME.test(e.file)) return [];
    return [
      {
        name: e.name,
        file: e.file,
        title: typeof e.title === 'string' ? e.title : e.name,
        description: typeof e.description === 'string' ? e.description : '',
      },
    ];
  });
}

async function fetchSampleIndex(ctx: StoreContext): Promise<SampleInfo[] | null> {
  try {
    const response = await ctx.deps.fetch(ctx.deps.sampleUrl('index.json'));
    if (!response.ok) return null;
    const list = parseSampleIndex(JSON.parse(new TextDecoder().decode(await response.arrayBuffer())));
    return list.length > 0 ? list : null;
  } catch {
    return null;
  }
}

export function sourceName(source: LoadSource): string {
  switch (source.kind) {
    case 'file':
    case 'text':
      return source.name;
    case 'url':
      return source.url;
    case 'sample':
      return `sample "${source.name}"`;
    case 'demo':
      return `demo "${source.id}"`;
    case 'store':
      return source.name;
  }
}

/**
 * What the address bar says of an open source, so a reload or a shared link opens it again:
 * a URL or a sample by name; null for what a link cannot carry (a file, pasted text, a store
 * session, which the hash names).
 */
export function addressOf(source: LoadSource): { param: 'url' | 'sample' | 'demo'; value: string } | null {
  if (source.kind === 'url') return { param: 'url', value: source.url };
  if (source.kind === 'sample') return { param: 'sample', value: source.name };
  if (source.kind === 'demo') return { param: 'demo', value: source.id };
  return null;
}

/** Turns what the user picked into an engine request; reads files and fetches samples. */
async function toRequest(source: LoadSource, ctx: StoreContext): Promise<OpenRequest> {
  switch (source.kind) {
    case 'file':
      // The engine reads the file itself, as a stream: reading and decoding overlap.
      return { kind: 'file', name: source.name, file: source.file };
    case 'text':
      return { kind: 'text', name: source.name, text: source.text };
    case 'url':
      return { kind: 'url', url: source.url };
    case 'sample': {
      if (!SAFE_NAME.test(source.name)) throw new Error(`"${source.name}" is not a sample name.`);
      const index = ctx.sampleIndex ?? (ctx.sampleIndex = fetchSampleIndex(ctx));
      const known = (await index)?.find((sample) => sample.name === source.name);
      const file = known?.file ?? DEFAULT_SAMPLES.find((sample) => sample.name === source.name)?.file ?? `${source.name}.jsonl`;
      const url = ctx.deps.sampleUrl(file);
      let response;
      try {
        response = await ctx.deps.fetch(url);
      } catch (error) {
        throw new Error(`Could not fetch the sample "${source.name}": ${errorMessage(error)}`, { cause: error });
      }
      if (!response.ok) {
        const status = [response.status, response.statusText].filter(Boolean).join(' ');
        throw new Error(`The sample "${source.name}" is not available (HTTP ${status}).`);
      }
      return { kind: 'bytes', name: file, buffer: await response.arrayBuffer() };
    }
    case 'demo':
      return { kind: 'demo', id: source.id };
    case 'store':
      // The engine fetches it from the local server (same origin: the token cookie goes along).
      return { kind: 'url', url: source.url };
  }
}

/** State reset by every new open: nothing of the previous file may leak into the next one. */
function freshSessionState(): Partial<AppState> {
  return {
    step: 0,
    selectedSeq: null,
    highlight: null,
    playing: false,
    search: FRESH_SEARCH,
    deepLinkWarning: null,
    replaceTarget: null,
    activeDemo: null,
    exportError: null,
    // A new open stops following the previous source (its looks see the new load token).
    live: null,
    // A comparison is of the session it was made for.
    compare: null,
  };
}

export const createLoadSlice =
  (ctx: StoreContext, initialClient: CoreClient): AppSlice<LoadSlice> =>
  (set, get) => {
    const watch = (client: CoreClient): void => {
      client.onDead((error) => {
        if (get().client !== client) return;
        ctx.cancelPlayback?.();
        const message = `The engine stopped: ${errorMessage(error)}`;
        const dead = { engineError: message, engineStalled: false, playing: false };
        set(get().status === 'loading' ? { ...dead, status: 'error', loadError: message } : dead);
      });
      client.onStall?.((stalled) => {
        if (get().client === client && !client.dead) set({ engineStalled: stalled });
      });
    };
    watch(initialClient);

    /** The live client, or a fresh one when the old one died and we know how to make one. */
    const liveClient = (): CoreClient => {
      const current = get().client;
      if (!current.dead || !ctx.deps.createClient) return current;
      const next = ctx.deps.createClient();
      watch(next);
      set({ client: next, engineError: null, engineStalled: false });
      return next;
    };

    /** A failed or cancelled open: the log that was on screen stays, and the banner says why. */
    const restore = (kept: KeptLoad, why: string): void => {
      const name = get().sourceName ?? 'the log';
      ctx.kept = null;
      ctx.lastSource = kept.source;
      set({ status: 'ready', progress: null, sourceName: kept.sourceName, failedOpen: { name, message: why } });
      // Any open stops the looks of a follow (they belong to a load token): resume it.
      if (kept.following) get().startFollow();
    };

    return {
      client: initialClient,
      failedOpen: null,
      status: 'idle',
      sourceName: null,
      progress: null,
      load: null,
      session: 0,
      loadError: null,
      engineError: null,
      engineStalled: false,
      samples: DEFAULT_SAMPLES,

      async loadSampleIndex() {
        const index = ctx.sampleIndex ?? (ctx.sampleIndex = fetchSampleIndex(ctx));
        const list = await index;
        if (list) set({ samples: list });
      },

      async openSource(source) {
        const token = ++ctx.loadToken;
        ctx.requests.cancelPending();
        ctx.cancelPlayback?.();
        const before = get();
        const wasLoading = before.status === 'loading';
        // The log on screen stays until this one has loaded or failed (a second open while one
        // loads keeps the same log: the one loading was never shown).
        if (!wasLoading) {
          ctx.kept =
            before.status === 'ready' && before.load !== null
              ? { source: ctx.lastSource, sourceName: before.sourceName, following: before.live?.active === true }
              : null;
        }
        const kept = ctx.kept;
        const client = liveClient();
        ctx.lastSource = source;
        // Opening a log shows it: leave the playground for the log's own views.
        const view = before.view === 'playground' ? 'timeline' : before.view;
        const storeOpenId = source.kind === 'store' ? source.id : null;
        const starting = {
          status: 'loading' as const,
          sourceName: sourceName(source),
          progress: null,
          loadError: null,
          failedOpen: null,
          showingSessions: false,
        };
        if (kept) set(starting);
        else set({ ...freshSessionState(), ...starting, storeOpenId, view, load: null, session: 0 });
        try {
          // A second file replaces the first: stop the running load before starting the next.
          if (wasLoading) await client.cancel().catch(() => {});
          const request = await toRequest(source, ctx);
          if (token !== ctx.loadToken) return;
          const summary = await client.open(request, (progress) => {
            if (token !== ctx.loadToken) return;
            // The first lines of a large log, shown while the rest loads (the progress stays up),
            // unless another log is on screen: that one stays until this load is done.
            const preview = kept ? undefined : progress.preview;
            if (preview) set({ progress, load: preview, session: 0, step: preview.sessions[0]?.accepted ?? 0 });
            else set({ progress });
          });
          if (token !== ctx.loadToken) return;
          const first = summary.sessions[0];
          ctx.kept = null;
          ctx.sessionCursors.clear();
          set({
            ...freshSessionState(),
            storeOpenId,
            view,
            status: 'ready',
            load: summary,
            progress: null,
            session: 0,
            step: first?.accepted ?? 0,
          });
          ctx.applyDeepLink();
          ctx.deps.location.writeSource?.(addressOf(source));
          // A session of the local store is followed from the start: it may be one dsh is writing.
          if (source.kind === 'store') get().startFollow();
        } catch (error) {
          if (token !== ctx.loadToken) return;
          const cancelled = isAbortError(error);
          if (kept) restore(kept, cancelled ? 'the open was cancelled' : errorMessage(error));
          // A preview shown while loading goes with the load.
          else if (cancelled) set({ status: 'cancelled', progress: null, load: null });
          else set({ status: 'error', progress: null, load: null, loadError: errorMessage(error) });
        }
      },

      async cancelLoad() {
        if (get().status !== 'loading') return;
        ctx.loadToken++;
        const kept = ctx.kept;
        if (kept) restore(kept, 'the open was cancelled');
        else set({ status: 'cancelled', progress: null, load: null });
        await get()
          .client.cancel()
          .catch(() => {});
      },

      dismissFailedOpen() {
        set({ failedOpen: null });
      },

      stopEngine() {
        get().client.terminate();
      },

      async reload() {
        if (ctx.lastSource) await get().openSource(ctx.lastSource);
      },

      selectSession(index) {
        const state = get();
        const session = state.load?.sessions[index];
        if (!session || index === state.session) return;
        ctx.requests.cancelPending();
        ctx.cancelPlayback?.();
        // Each session of a file keeps its own place: coming back to one finds its step and selection.
        ctx.sessionCursors.set(state.session, { step: state.step, selectedSeq: state.selectedSeq });
        const place = ctx.sessionCursors.get(index) ?? { step: session.accepted, selectedSeq: null };
        const step = Math.min(place.step, session.accepted);
        set({ ...freshSessionState(), session: index, step, selectedSeq: place.selectedSeq, ...pinAfterMove(state.live, session, step) });
      },
    };
  };
