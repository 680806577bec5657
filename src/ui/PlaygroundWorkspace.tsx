/**
 * The playground: the view switch and restart buttons (main store) above the ordinary panels on
 * the sandbox store, whose log is the playground: the composer, surface, two views, timeline,
 * inspector, curve and transport all work on it unchanged.
 */
import { AppStoreProvider, useAppStore } from '../store/react';
import { selectSandbox } from '../store/selectors';
import { useShortcuts } from './hooks/useShortcuts';
import { ContextCurve } from './panels/curve/ContextCurve';
import { Diagnostics } from './panels/Diagnostics';
import { ExportMenu } from './panels/exports/ExportMenu';
import { Inspector } from './panels/inspector/Inspector';
import { PlaygroundPanel } from './panels/playground/PlaygroundPanel';
import { PlaygroundStart, PlaygroundStartButtons } from './panels/playground/PlaygroundStart';
import { ReplaceInspector } from './panels/replace/ReplaceInspector';
import { Surface } from './panels/surface/Surface';
import { Timeline } from './panels/timeline/Timeline';
import { Transport } from './panels/transport/Transport';
import { TwoViews } from './panels/views/TwoViews';
import { VIEW_TABS_ID, WorkspaceBar } from './panels/WorkspaceBar';
import { PersistedSplit } from './panels/PersistedSplit';
import { tabId, tabPanelId } from './widgets/TabBar';

/** The global keyboard map, on the sandbox while the playground is shown. */
function SandboxShortcuts({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  useShortcuts(onShowShortcuts);
  return null;
}

function PlaygroundLayout() {
  return (
    <PersistedSplit
      name="pg-main"
      direction="horizontal"
      defaultSizes={[0.28, 0.42, 0.3]}
      separatorLabels={['Resize playground and surface', 'Resize surface and timeline']}
      className="workspace-split"
    >
      <PlaygroundPanel />
      <PersistedSplit name="pg-middle" direction="vertical" defaultSizes={[0.42, 0.58]} separatorLabels={['Resize surface and two views']}>
        <Surface />
        <TwoViews />
      </PersistedSplit>
      <PersistedSplit
        name="pg-side"
        direction="vertical"
        defaultSizes={[0.4, 0.4, 0.2]}
        separatorLabels={['Resize timeline and inspector', 'Resize inspector and diagnostics']}
      >
        <Timeline />
        <Inspector />
        <Diagnostics />
      </PersistedSplit>
    </PersistedSplit>
  );
}

export function PlaygroundWorkspace({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  const sandbox = useAppStore(selectSandbox);
  const panel = { role: 'tabpanel', id: tabPanelId(VIEW_TABS_ID, 'playground'), 'aria-labelledby': tabId(VIEW_TABS_ID, 'playground') };
  if (!sandbox) {
    return (
      <div className="workspace">
        <WorkspaceBar />
        <div className="workspace-view" {...panel}>
          <PlaygroundStart />
        </div>
      </div>
    );
  }
  return (
    <div className="workspace playground-workspace">
      <WorkspaceBar>
        <PlaygroundStartButtons compact />
        <AppStoreProvider store={sandbox}>
          <ExportMenu />
        </AppStoreProvider>
      </WorkspaceBar>
      <AppStoreProvider store={sandbox}>
        <SandboxShortcuts onShowShortcuts={onShowShortcuts} />
        <div className="workspace-view" {...panel}>
          <PlaygroundLayout />
        </div>
        <ContextCurve />
        <Transport />
        <ReplaceInspector />
      </AppStoreProvider>
    </div>
  );
}
