/**
 * The analysis strip above the transport: the context curve or the time track, one at a time,
 * chosen by a tab (the choice is the page's, not persisted: every visit starts on the curve).
 */
import { useState } from 'react';
import { TabBar, tabId, tabPanelId } from '../../widgets/TabBar';
import { TimeTrack } from '../timetrack/TimeTrack';
import { ContextCurve } from './ContextCurve';

type Strip = 'curve' | 'time';
const TABS_ID = 'analysis-strip';

export function CurveArea() {
  const [strip, setStrip] = useState<Strip>('curve');
  return (
    <div className="curve-area">
      <TabBar
        idBase={TABS_ID}
        label="Context curve or time track"
        tabs={[
          { value: 'curve', label: 'Context curve' },
          { value: 'time', label: 'Time track' },
        ]}
        value={strip}
        onChange={setStrip}
      />
      <div role="tabpanel" id={tabPanelId(TABS_ID, strip)} aria-labelledby={tabId(TABS_ID, strip)}>
        {strip === 'curve' ? <ContextCurve /> : <TimeTrack />}
      </div>
    </div>
  );
}
