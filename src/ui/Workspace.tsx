/**
 * The panels of a loaded session, in resizable, persisted splits: the timeline-centric layout or
 * the two views, with the narration of a demo above and the context curve and transport below.
 */
import { useAppStore } from '../store/react';
import { selectView } from '../store/selectors';
import { Diagnostics } from './panels/Diagnostics';
import { NarrationBar } from './panels/demos/NarrationBar';
import { ExportMenu } from './panels/exports/ExportMenu';
import { CompareMenu } from './panels/compare/CompareMenu';
import { CompareView } from './panels/compare/CompareView';
import { CurveArea } from './panels/curve/CurveArea';
import { Inspector } from './panels/inspector/Inspector';
import { ReplaceInspector } from './panels/replace/ReplaceInspector';
import { SessionPicker } from './panels/SessionPicker';
import { StoreSessionBar } from './panels/sessions/StoreLinks';
import { ShadowedRanges } from './panels/ShadowedRanges';
import { Surface } from './panels/surface/Surface';
import { Timeline } from './panels/timeline/Timeline';
import { Transport } from './panels/transport/Transport';
import { TwoViews } from './panels/views/TwoViews';
import { VIEW_TABS_ID, WorkspaceBar } from './panels/WorkspaceBar';
import { PersistedSplit } from './panels/PersistedSplit';
import { tabId, tabPanelId } from './widgets/TabBar';

function TimelineLayout() {
  return (
    <PersistedSplit
      name="main"
      direction="horizontal"
      defaultSizes={[0.46, 0.3, 0.24]}
      separatorLabels={['Resize timeline and surface', 'Resize surface and inspector']}
      className="workspace-split"
    >
      <Timeline />
      <PersistedSplit
        name="middle"
        direction="vertical"
        defaultSizes={[0.68, 0.32]}
        separatorLabels={['Resize surface and shadowed ranges']}
      >
        <Surface />
        <ShadowedRanges />
      </PersistedSplit>
      <PersistedSplit name="side" direction="vertical" defaultSizes={[0.66, 0.34]} separatorLabels={['Resize inspector and diagnostics']}>
        <Inspector />
        <Diagnostics />
      </PersistedSplit>
    </PersistedSplit>
  );
}

function ViewsLayout() {
  return (
    <PersistedSplit
      name="views"
      direction="horizontal"
      defaultSizes={[0.72, 0.28]}
      separatorLabels={['Resize the two views and the inspector']}
      className="workspace-split"
    >
      <TwoViews />
      <PersistedSplit
        name="views-side"
        direction="vertical"
        defaultSizes={[0.62, 0.38]}
        separatorLabels={['Resize inspector and shadowed ranges']}
      >
        <Inspector />
        <ShadowedRanges />
      </PersistedSplit>
    </PersistedSplit>
  );
}

export function Workspace() {
  const view = useAppStore(selectView) === 'views' ? 'views' : 'timeline';
  const comparing = useAppStore((s) => s.compare !== null);
  return (
    <div className="workspace">
      <StoreSessionBar />
      <SessionPicker />
      <WorkspaceBar>
        <CompareMenu />
        <ExportMenu />
      </WorkspaceBar>
      <NarrationBar />
      <div className="workspace-view" role="tabpanel" id={tabPanelId(VIEW_TABS_ID, view)} aria-labelledby={tabId(VIEW_TABS_ID, view)}>
        {comparing ? <CompareView /> : view === 'views' ? <ViewsLayout /> : <TimelineLayout />}
      </div>
      <CurveArea />
      <Transport />
      <ReplaceInspector />
    </div>
  );
}
