// The entry of the self-contained viewer (standalone.html): the app with the engine on the page
// (one file cannot hold a worker script) over the one session embedded in the page, opened at
// the step and selection the export was made at. It fetches nothing.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { InProcessCoreClient } from './client/InProcessCoreClient';
import { SESSION_DATA_ID, SESSION_META_ID } from './core/export/standalone';
import type { EmbeddedMeta } from './core/export/standalone';
import { decodeBase64 } from './core/util/base64';
import { createAppStore } from './store/createAppStore';
import { AppStoreProvider } from './store/react';
import { App } from './ui/App';
import { createEngine } from './worker/engine';

const createClient = (): InProcessCoreClient => new InProcessCoreClient(createEngine());

const metaText = document.getElementById(SESSION_META_ID)?.textContent ?? null;
const data = document.getElementById(SESSION_DATA_ID)?.textContent ?? null;
const meta = metaText === null ? null : (JSON.parse(metaText) as EmbeddedMeta);

// Where to open: the export's step and selection, unless the address already says (a reload
// after moving the cursor keeps the new place).
if (meta && meta.step !== null && location.hash === '') {
  const params = new URLSearchParams({ step: String(meta.step) });
  if (meta.seq !== null) params.set('seq', String(meta.seq));
  history.replaceState(null, '', `#${params.toString()}`);
}

const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
// A saved page has nothing to fetch (the bundled samples are not in it): say so instead of
// letting the policy refuse a request.
const fetchNothing = (): Promise<never> =>
  Promise.reject(new Error('a saved page fetches nothing: open Surface Lens itself for the samples'));
const store = createAppStore(createClient(), { createClient, fetch: fetchNothing, defaultTheme: prefersDark ? 'dark' : 'light' });

const root = document.getElementById('root');
if (!root) throw new Error('standalone.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <AppStoreProvider store={store}>
      <App />
    </AppStoreProvider>
  </StrictMode>,
);

if (meta && data !== null) {
  // The session is gzip-compressed JSONL; the engine's own gzip decoder opens it.
  void store.getState().openSource({
    kind: 'file',
    file: new Blob([decodeBase64(data) as Uint8Array<ArrayBuffer>], { type: 'application/gzip' }),
    name: `${meta.name}.gz`,
  });
}
