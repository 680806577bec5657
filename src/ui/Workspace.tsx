/**
 * The panels of a loaded session, in resizable, persisted splits: the timeline-centric layout or
 * the two views, with the narration of a demo above and the context curve and transport below.
 */
import { useAppStore } from '../store/react';
import { selectPaneSizes, selectView } from '../store/selectors';
import { Diagnostics } from './panels/Diagnostics';
import { NarrationBar } from './panels/demos/NarrationBar';
import { ExportMenu } from './panels/exports/ExportMenu';
import { ContextCurve } from './panels/curve/ContextCurve';
import { Inspector } from './panels/inspector/Inspector';
import { ReplaceInspector } from './panels/replace/ReplaceInspector';
import { SessionPicker } from './panels/SessionPicker';
import { ShadowedRanges } from './panels/ShadowedRanges';
import { Surface } from './panels/surface/Surface';
import { Timeline } from './panels/timeline/Timeline';
import { Transport } from './panels/transport/Transport';
import { TwoViews } from './panels/views/TwoViews';
import { VIEW_TABS_ID, WorkspaceBar } from './panels/WorkspaceBar';
import { SplitPane } from './widgets/SplitPane';
import { tabId, tabPanelId } from './widgets/TabBar';

const mainSizes = selectPaneSizes('main');
const middleSizes = selectPaneSizes('middle');
const sideSizes = selectPaneSizes('side');
const viewsSizes = selectPaneSizes('views');
const viewsSideSizes = selectPaneSizes('views-side');

function TimelineLayout() {
  const setPaneSizes = useAppStore((s) => s.setPaneSizes);
  const main = useAppStore(mainSizes);
  const middle = useAppStore(middleSizes);
  const side = useAppStore(sideSizes);
  return (
    <SplitPane
      direction="horizontal"
      sizes={main}
      defaultSizes={[0.46, 0.3, 0.24]}
      onResize={(sizes) => setPaneSizes('main', sizes)}
      separatorLabels={['Resize timeline and surface', 'Resize surface and inspector']}
      className="workspace-split"
    >
      <Timeline />
      <SplitPane
        direction="vertical"
        sizes={middle}
        defaultSizes={[0.68, 0.32]}
        onResize={(sizes) => setPaneSizes('middle', sizes)}
        separatorLabels={['Resize surface and shadowed ranges']}
      >
        <Surface />
        <ShadowedRanges />
      </SplitPane>
      <SplitPane
        direction="vertical"
        sizes={side}
        defaultSizes={[0.66, 0.34]}
        onResize={(sizes) => setPaneSizes('side', sizes)}
        separatorLabels={['Resize inspector and diagnostics']}
      >
        <Inspector />
        <Diagnostics />
      </SplitPane>
    </SplitPane>
  );
}

function ViewsLayout() {
  const setPaneSizes = useAppStore((s) => s.setPaneSizes);
  const views = useAppStore(viewsSizes);
  const side = useAppStore(viewsSideSizes);
  return (
    <SplitPane
      direction="horizontal"
      sizes={views}
      defaultSizes={[0.72, 0.28]}
      onResize={(sizes) => setPaneSizes('views', sizes)}
      separatorLabels={['Resize the two views and the inspector']}
      className="workspace-split"
    >
      <TwoViews />
      <SplitPane
        direction="vertical"
        sizes={side}
        defaultSizes={[0.62, 0.38]}
        onResize={(sizes) => setPaneSizes('views-side', sizes)}
        separatorLabels={['Resize inspector and shadowed ranges']}
      >
        <Inspector />
        <ShadowedRanges />
      </SplitPane>
    </SplitPane>
  );
}

export function Workspace() {
  const view = useAppStore(selectView) === 'views' ? 'views' : 'timeline';
  return (
    <div className="workspace">
      <SessionPicker />
      <WorkspaceBar>
        <ExportMenu />
      </WorkspaceBar>
      <NarrationBar />
      <div className="workspace-view" role="tabpanel" id={tabPanelId(VIEW_TABS_ID, view)} aria-labelledby={tabId(VIEW_TABS_ID, view)}>
        {view === 'views' ? <ViewsLayout /> : <TimelineLayout />}
      </div>
      <ContextCurve />
      <Transport />
      <ReplaceInspector />
    </div>
  );
}
