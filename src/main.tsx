// Installs React Fast Refresh in development from a module file: the CSP forbids the inline
// preamble script Vite would otherwise inject. In a production build this module is empty.
import '@vitejs/plugin-react/preamble';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import type { CoreClient } from './client/CoreClient';
import { FallbackCoreClient } from './client/FallbackCoreClient';
import { InProcessCoreClient } from './client/InProcessCoreClient';
import { WorkerCoreClient } from './client/WorkerCoreClient';
import { loadInProcessEngine } from './client/engineFallback';
import { createAppStore } from './store/createAppStore';
import { parseCompareParam } from './store/slices/compare';
import { AppStoreProvider } from './store/react';
import { App } from './ui/App';

const inProcess = (): InProcessCoreClient => new InProcessCoreClient(loadInProcessEngine());

/**
 * The engine runs in a worker; where `Worker` is missing, or a worker cannot be started, it runs
 * here (lazily loaded).
 */
function createClient(): CoreClient {
  if (typeof Worker !== 'function') return inProcess();
  const client = new FallbackCoreClient(() => new WorkerCoreClient(), inProcess);
  client.ready.then(
    () => {
      if (client.mode === 'in-process') console.warn('Surface Lens: the engine runs on the page:', client.fallbackReason?.message);
    },
    () => {},
  );
  return client;
}

const prefersDark = typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;
const store = createAppStore(createClient(), { createClient, defaultTheme: prefersDark ? 'dark' : 'light' });

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root element.');
createRoot(root).render(
  <StrictMode>
    <AppStoreProvider store={store}>
      <App />
    </AppStoreProvider>
  </StrictMode>,
);

// `?url=…` opens a log from a server (the user asked by opening that link); `?sample=NAME`
// opens a bundled sample (`/?sample=teaching`); `?demo=ID` a guided demo.
const params = new URLSearchParams(location.search);
const url = params.get('url');
const sample = params.get('sample');
const demo = params.get('demo');
// Served by `surface-lens view`: the store's listing answers, and the Sessions view shows it.
const storeProbe = url || sample || demo ? Promise.resolve(false) : store.getState().initStore();
// `&follow` keeps looking at the URL while it grows (Range requests; see the follow slice).
if (url) {
  void store
    .getState()
    .openSource({ kind: 'url', url })
    .then(() => {
      if (params.has('follow') && store.getState().status === 'ready') store.getState().startFollow();
    });
} else if (sample) void store.getState().openSource({ kind: 'sample', name: sample });
else if (demo) void store.getState().openDemo(demo);
void storeProbe;

// `&compare=url:URL` or `&compare=session:N` (a link to a comparison, see the compare slice):
// once the log has opened, compare it with that one.
const compareWith = params.get('compare');
const compareSource = compareWith === null ? null : parseCompareParam(compareWith);
if (compareSource) {
  const stop = store.subscribe((state) => {
    if (state.status !== 'ready' || state.load === null) return;
    stop();
    void state.openCompare(compareSource);
  });
}
