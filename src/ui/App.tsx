/** Lays out the app; every panel reads the store itself. */
import { useCallback, useDeferredValue, useState } from 'react';
import { useAppStore } from '../store/react';
import { selectLoad, selectStatus, selectView } from '../store/selectors';
import { useFileDrop } from './hooks/useFileDrop';
import { useShortcuts } from './hooks/useShortcuts';
import { useTheme } from './hooks/useTheme';
import { usePageTitle } from './hooks/usePageTitle';
import { DeepLinkBanner } from './panels/DeepLinkBanner';
import { ErrorBanner } from './panels/ErrorBanner';
import { Header } from './panels/Header';
import { ShortcutSheet } from './panels/ShortcutSheet';
import { SessionsView } from './panels/sessions/SessionsView';
import { LoadProgress } from './panels/start/LoadProgress';
import { StartScreen } from './panels/start/StartScreen';
import { StatusBar } from './panels/StatusBar';
import { PlaygroundWorkspace } from './PlaygroundWorkspace';
import { Workspace } from './Workspace';

export function App() {
  const [sheetOpen, setSheetOpen] = useState(false);
  const openSheet = useCallback(() => setSheetOpen(true), []);
  const hasLoad = useAppStore(selectLoad) !== null;
  // A preview (the first lines of a large log, see the load slice) mounts the workspace in a
  // background render, in slices that yield: mounting every panel at once was a long task at the
  // start of every large load. A loaded log mounts it at once.
  const previewMounted = useDeferredValue(hasLoad);
  const status = useAppStore(selectStatus);
  const showWorkspace = hasLoad && (previewMounted || status !== 'loading');
  const playground = useAppStore(selectView) === 'playground';
  const showingSessions = useAppStore((s) => s.storeMode && s.showingSessions);
  const dragging = useFileDrop();
  useTheme();
  usePageTitle();
  // In the playground the keyboard drives the playground's own cursor (see PlaygroundWorkspace).
  useShortcuts(openSheet, !playground);
  let body;
  if (showingSessions) body = <SessionsView />;
  else if (playground) body = <PlaygroundWorkspace onShowShortcuts={openSheet} />;
  else if (showWorkspace) body = <Workspace />;
  else body = <StartScreen />;
  return (
    // data-status lets browser tests and benchmarks wait for "ready" instead of sleeping.
    <div className="app" data-status={status}>
      <Header onShowShortcuts={openSheet} />
      <ErrorBanner />
      <DeepLinkBanner />
      {/* A large log shows its first rows while it loads: the progress and Cancel stay in view. */}
      {hasLoad && status === 'loading' && !playground ? <LoadProgress /> : null}
      <main className="main">{body}</main>
      <StatusBar />
      <ShortcutSheet open={sheetOpen} onClose={() => setSheetOpen(false)} />
      {dragging ? (
        <div className="drop-overlay" aria-hidden="true">
          <p>Drop to open</p>
        </div>
      ) : null}
    </div>
  );
}
