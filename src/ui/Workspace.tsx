/** The panels of a loaded session, in resizable, persisted splits, above the transport. */
import { useAppStore } from '../store/react';
import { selectPaneSizes } from '../store/selectors';
import { Diagnostics } from './panels/Diagnostics';
import { Inspector } from './panels/inspector/Inspector';
import { SessionPicker } from './panels/SessionPicker';
import { ShadowedRanges } from './panels/ShadowedRanges';
import { Surface } from './panels/surface/Surface';
import { Timeline } from './panels/timeline/Timeline';
import { Transport } from './panels/transport/Transport';
import { SplitPane } from './widgets/SplitPane';

const mainSizes = selectPaneSizes('main');
const middleSizes = selectPaneSizes('middle');
const sideSizes = selectPaneSizes('side');

export function Workspace() {
  const setPaneSizes = useAppStore((s) => s.setPaneSizes);
  const main = useAppStore(mainSizes);
  const middle = useAppStore(middleSizes);
  const side = useAppStore(sideSizes);
  return (
    <div className="workspace">
      <SessionPicker />
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
      <Transport />
    </div>
  );
}
