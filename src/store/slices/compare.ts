/**
 * Comparing the open session with a second log: a file, a URL, a store session (by its URL), or
 * another session of the same load (a ZIP's). The engine holds the other log's sessions beside
 * the load (`openCompare`), so both are ordinary sessions named by handle; the comparison
 * itself (common prefix, divergence, deltas) and the views are fetched by the panel.
 *
 * A link carries the comparison as `?…&compare=VALUE` beside the main source's own parameter
 * (the hash stays the cursor's deep link): `url:URL` (a URL or a store session's file URL) or
 * `session:N` (session N of the same load). A local file or pasted text cannot be linked: the
 * browser gives a page no path to reopen it, so the link is refused with that reason.
 */
import { errorMessage } from '../../client/errors';
import type { OpenRequest } from '../../protocol/protocol';
import type { AppSlice, CompareSlice, CompareSource, StoreContext } from '../types';

/** The `compare=` value that reopens a source, or null when it cannot be linked. */
export function compareParamOf(source: CompareSource): string | null {
  switch (source.kind) {
    case 'url':
      return `url:${source.url}`;
    case 'store':
      return `url:${source.url}`;
    case 'loaded':
      return `session:${source.index}`;
    default:
      return null;
  }
}

/** The source a `compare=` value names, or null when it is not one. */
export function parseCompareParam(value: string): CompareSource | null {
  if (value.startsWith('url:') && value.length > 4) return { kind: 'url', url: value.slice(4) };
  const m = /^session:(\d{1,6})$/.exec(value);
  return m ? { kind: 'loaded', index: Number(m[1]) } : null;
}

function labelOf(source: CompareSource): string {
  switch (source.kind) {
    case 'file':
    case 'text':
    case 'store':
      return source.name;
    case 'url':
      return source.url;
    case 'loaded':
      return `session ${source.index + 1} of this file`;
  }
}

function requestOf(source: Exclude<CompareSource, { kind: 'loaded' }>): OpenRequest {
  switch (source.kind) {
    case 'file':
      return { kind: 'file', name: source.name, file: source.file };
    case 'text':
      return { kind: 'text', name: source.name, text: source.text };
    case 'url':
      return { kind: 'url', url: source.url };
    case 'store':
      return { kind: 'url', url: source.url };
  }
}

export const createCompareSlice =
  (ctx: StoreContext): AppSlice<CompareSlice> =>
  (set, get) => {
    let token = 0;
    return {
      compare: null,

      async openCompare(source) {
        const mine = ++token;
        const load = get().load;
        const label = labelOf(source);
        const param = compareParamOf(source);
        set({ compare: { status: 'loading', label, param, source, session: null, handle: null, error: null } });
        try {
          let session;
          if (source.kind === 'loaded') {
            session = load?.sessions[source.index] ?? null;
            if (!session) throw new Error(`this file has no session ${source.index + 1}`);
            await get().client.closeCompare();
          } else {
            const summary = await get().client.openCompare(requestOf(source));
            session = summary.sessions[0] ?? null;
            if (!session) throw new Error(`${label} holds no session`);
          }
          if (mine !== token) return;
          set({ compare: { status: 'ready', label, param, source, session, handle: session.id, error: null } });
        } catch (error) {
          if (mine !== token) return;
          set({ compare: { status: 'error', label, param, source, session: null, handle: null, error: errorMessage(error) } });
        }
      },

      closeCompare() {
        token++;
        if (get().compare === null) return;
        set({ compare: null });
        get()
          .client.closeCompare()
          .catch(() => {});
      },

      compareLink() {
        const c = get().compare;
        if (!c) return { link: null, reason: 'nothing is being compared' };
        if (c.param === null)
          return { link: null, reason: `${c.label} was opened from this computer: a link cannot reopen a local file or pasted text` };
        const main = ctx.lastSource;
        const params = new URLSearchParams();
        if (main?.kind === 'url') params.set('url', main.url);
        else if (main?.kind === 'sample') params.set('sample', main.name);
        else if (main?.kind === 'demo') params.set('demo', main.id);
        // A store session is named by the deep link's `session=` in the hash.
        else if (main?.kind !== 'store')
          return { link: null, reason: 'the open log was opened from this computer: a link cannot reopen a local file or pasted text' };
        params.set('compare', c.param);
        return { link: `?${params.toString()}${ctx.deps.location.readHash()}`, reason: null };
      },
    };
  };
