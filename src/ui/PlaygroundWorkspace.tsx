/**
 * The playground: the view switch and restart buttons (main store) above the ordinary panels on
 * the sandbox store, whose log is the playground: the composer, surface, two views, timeline,
 * inspector, curve and transport all work on it unchanged.
 */
import { AppStoreProvider, useAppStore } from '../store/react';
import { selectPaneSizes, selectSandbox } from '../store/selectors';
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
import { SplitPane } from './widgets/SplitPane';
import { tabId, tabPanelId } from './widgets/TabBar';

const mainSizes = selectPaneSizes('pg-main');
const middleSizes = selectPaneSizes('pg-middle');
const sideSizes = selectPaneSizes('pg-side');

/** The global keyboard map, on the sandbox while the playground is shown. */
function SandboxShortcuts({ onShowShortcuts }: { onShowShortcuts: () => void }) {
  useShortcuts(onShowShortcuts);
  return null;
}

function PlaygroundLayout() {
  const setPaneSizes = useAppStore((s) => s.setPaneSizes);
  const main = useAppStore(mainSizes);
  const middle = useAppStore(middleSizes);
  const side = useAppStore(sideSizes);
  return (
    <SplitPane
      direction="horizontal"
      sizes={main}
      defaultSizes={[0.28, 0.42, 0.3]}
      onResize={(sizes) => setPaneSizes('pg-main', sizes)}
      separatorLabels={['Resize playground and surface', 'Resize surface and timeline']}
      className="workspace-split"
    >
      <PlaygroundPanel />
      <SplitPane
        direction="vertical"
        sizes={middle}
        defaultSizes={[0.42, 0.58]}
        onResize={(sizes) => setPaneSizes('pg-middle', sizes)}
        separatorLabels={['Resize surface and two views']}
      >
        <Surface />
        <TwoViews />
      </SplitPane>
      <SplitPane
        direction="vertical"
        sizes={side}
        defaultSizes={[0.4, 0.4, 0.2]}
        onResize={(sizes) => setPaneSizes('pg-side', sizes)}
        separatorLabels={['Resize timeline and inspector', 'Resize inspector and diagnostics']}
      >
        <Timeline />
        <Inspector />
        <Diagnostics />
      </SplitPane>
    </SplitPane>
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
