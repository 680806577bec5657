/**
 * Loading: opening a file, text, URL or bundled sample; progress; cancel; the session picked in
 * a ZIP; the death of the engine and reloading on a fresh client.
 */
import type { CoreClient } from '../../client/CoreClient';
import { errorMessage, isAbortError } from '../../client/errors';
import type { OpenRequest } from '../../protocol/protocol';
import type { AppSlice, AppState, LoadSlice, LoadSource, StoreContext } from '../types';
import { FRESH_SEARCH } from './filter';

const SAMPLE_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/i;

export function sourceName(source: LoadSource): string {
  switch (source.kind) {
    case 'file':
    case 'text':
      return source.name;
    case 'url':
      return source.url;
    case 'sample':
      return `${source.name}.jsonl`;
  }
}

/** The bytes of a file. `FileReader` covers hosts whose `Blob` lacks `arrayBuffer()` (jsdom). */
function readBlob(blob: Blob): Promise<ArrayBuffer> {
  if (typeof blob.arrayBuffer === 'function') return blob.arrayBuffer();
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(reader.result as ArrayBuffer);
    reader.onerror = () => reject(reader.error ?? new Error('The file could not be read.'));
    reader.readAsArrayBuffer(blob);
  });
}

/** Turns what the user picked into an engine request; reads files and fetches samples. */
async function toRequest(source: LoadSource, ctx: StoreContext): Promise<OpenRequest> {
  switch (source.kind) {
    case 'file':
      return { kind: 'bytes', name: source.name, buffer: await readBlob(source.file) };
    case 'text':
      return { kind: 'text', name: source.name, text: source.text };
    case 'url':
      return { kind: 'url', url: source.url };
    case 'sample': {
      if (!SAMPLE_NAME.test(source.name)) throw new Error(`"${source.name}" is not a sample name.`);
      const url = ctx.deps.sampleUrl(source.name);
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
      return { kind: 'bytes', name: `${source.name}.jsonl`, buffer: await response.arrayBuffer() };
    }
  }
}

/** State reset by every new open: nothing of the previous file may leak into the next one. */
function freshSessionState(): Partial<AppState> {
  return { step: 0, selectedSeq: null, highlight: null, playing: false, search: FRESH_SEARCH, deepLinkWarning: null };
}

export const createLoadSlice =
  (ctx: StoreContext, initialClient: CoreClient): AppSlice<LoadSlice> =>
  (set, get) => {
    const watch = (client: CoreClient): void => {
      client.onDead((error) => {
        if (get().client !== client) return;
        ctx.cancelPlayback?.();
        const message = `The engine stopped: ${errorMessage(error)}`;
        set(get().status === 'loading' ? { engineError: message, status: 'error', loadError: message, playing: false } : { engineError: message, playing: false });
      });
    };
    watch(initialClient);

    /** The live client, or a fresh one when the old one died and we know how to make one. */
    const liveClient = (): CoreClient => {
      const current = get().client;
      if (!current.dead || !ctx.deps.createClient) return current;
      const next = ctx.deps.createClient();
      watch(next);
      set({ client: next, engineError: null });
      return next;
    };

    return {
      client: initialClient,
      status: 'idle',
      sourceName: null,
      progress: null,
      load: null,
      session: 0,
      loadError: null,
      engineError: null,

      async openSource(source) {
        const token = ++ctx.loadToken;
        ctx.requests.cancelPending();
        ctx.cancelPlayback?.();
        const wasLoading = get().status === 'loading';
        const client = liveClient();
        ctx.lastSource = source;
        set({ ...freshSessionState(), status: 'loading', sourceName: sourceName(source), progress: null, load: null, session: 0, loadError: null });
        try {
          // A second file replaces the first: stop the running load before starting the next.
          if (wasLoading) await client.cancel().catch(() => {});
          const request = await toRequest(source, ctx);
          if (token !== ctx.loadToken) return;
          const summary = await client.open(request, (progress) => {
            if (token === ctx.loadToken) set({ progress });
          });
          if (token !== ctx.loadToken) return;
          const first = summary.sessions[0];
          set({ status: 'ready', load: summary, progress: null, session: 0, step: first?.accepted ?? 0 });
          ctx.applyDeepLink();
        } catch (error) {
          if (token !== ctx.loadToken) return;
          if (isAbortError(error)) set({ status: 'cancelled', progress: null });
          else set({ status: 'error', progress: null, loadError: errorMessage(error) });
        }
      },

      async cancelLoad() {
        if (get().status !== 'loading') return;
        ctx.loadToken++;
        set({ status: 'cancelled', progress: null });
        await get()
          .client.cancel()
          .catch(() => {});
      },

      async reload() {
        if (ctx.lastSource) await get().openSource(ctx.lastSource);
      },

      selectSession(index) {
        const load = get().load;
        const session = load?.sessions[index];
        if (!session || index === get().session) return;
        ctx.requests.cancelPending();
        ctx.cancelPlayback?.();
        set({ ...freshSessionState(), session: index, step: session.accepted });
      },
    };
  };
