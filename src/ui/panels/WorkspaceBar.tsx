/** The view switch (timeline, two views, playground) with room for actions on the right. */
import type { ReactNode } from 'react';
import type { WorkspaceView } from '../../store/types';
import { useAppStore } from '../../store/react';
import { selectLoad, selectView } from '../../store/selectors';
import { TabBar } from '../widgets/TabBar';

export const VIEW_TABS_ID = 'workspace-view';

export function WorkspaceBar({ children }: { children?: ReactNode }) {
  const view = useAppStore(selectView);
  const hasLoad = useAppStore(selectLoad) !== null;
  const setView = useAppStore((s) => s.setView);
  return (
    <div className="workspace-bar">
      <TabBar<WorkspaceView>
        idBase={VIEW_TABS_ID}
        label="View"
        value={view}
        onChange={setView}
        tabs={[
          { value: 'timeline', label: 'Timeline', disabled: !hasLoad },
          { value: 'views', label: 'Two views', disabled: !hasLoad },
          { value: 'playground', label: 'Playground' },
        ]}
      />
      <span className="workspace-bar-actions">{children}</span>
    </div>
  );
}
