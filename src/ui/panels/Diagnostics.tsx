/** Every error and warning of the load and the session, each linking to its event. */
import { useCallback, useState } from 'react';
import type { Diagnostic } from '../../protocol/protocol';
import { useAppStore } from '../../store/react';
import { selectClient, selectIsReady, selectLoad, selectSession, selectSessionId, selectSessionKey } from '../../store/selectors';
import { useRemote } from '../hooks/useRemote';
import { EmptyState } from '../widgets/EmptyState';
import { Panel } from '../widgets/Panel';
import { SeqLink } from '../widgets/SeqLink';
import { VirtualList } from '../widgets/VirtualList';
import { SEVERITY_LABEL, formatCount, plural } from '../format';

const ROW_HEIGHT = 36;
const BLOCK = 200;

export function Diagnostics() {
  const ready = useAppStore(selectIsReady);
  const session = useAppStore(selectSession);
  const following = useAppStore((s) => s.live?.active === true);
  return (
    <Panel
      title="Diagnostics"
      meta={
        session ? `${plural(session.diagnosticCounts.error, 'error')} · ${plural(session.diagnosticCounts.warning, 'warning')}` : undefined
      }
    >
      {ready && following ? (
        <p className="diagnostics-provisional muted">
          Following: findings that depend on the end of the log (a torn tail, interrupted turns, what upstream&apos;s loader would keep) are
          provisional until it stops growing.
        </p>
      ) : null}
      {ready ? <DiagnosticList /> : <EmptyState title="No log loaded" />}
    </Panel>
  );
}

function DiagnosticList() {
  const client = useAppStore(selectClient);
  const sessionId = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  const findings = useAppStore(selectLoad)?.findings ?? NO_FINDINGS;
  const select = useAppStore((s) => s.select);
  const [first, setFirst] = useState(0);
  const skip = findings.length;
  const onRangeChange = useCallback((from: number) => setFirst(Math.max(0, from - skip)), [skip]);
  const start = Math.floor(first / BLOCK) * BLOCK;
  const remote = useRemote(`${sessionKey}|${start}`, () => client.diagnostics({ session: sessionId, start, count: BLOCK * 2 }));
  const page = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const total = findings.length + (page?.total ?? 0);

  const itemAt = (row: number): Diagnostic | null => {
    if (row < findings.length) return findings[row] ?? null;
    const index = row - findings.length;
    if (!page || !remote.dataKey) return null;
    const pageStart = Number(remote.dataKey.split('|').pop());
    return page.items[index - pageStart] ?? null;
  };

  if (remote.error) return <p className="panel-error">Could not read diagnostics: {remote.error}</p>;
  if (page && total === 0) return <EmptyState title="No errors or warnings" icon="✓" />;
  return (
    <VirtualList
      count={total}
      rowHeight={ROW_HEIGHT}
      as="ul"
      innerProps={{ 'aria-label': `${formatCount(total)} diagnostics` }}
      onRangeChange={onRangeChange}
      renderRow={(row, style) => {
        const d = itemAt(row);
        if (!d) {
          return (
            <li style={style} className="dg-row" aria-busy="true">
              …
            </li>
          );
        }
        const severity = SEVERITY_LABEL[d.severity];
        return (
          <li style={style} className={`dg-row sev-${d.severity}`}>
            <span className="dg-head">
              <span className="dg-sev">
                <span aria-hidden="true">{severity.glyph}</span> {severity.text}
              </span>
              {d.seq === null ? <span className="muted">no event</span> : <SeqLink seq={d.seq} onSelect={select} label="event" />}
              {d.line === null ? null : <span className="mono muted">line {d.line}</span>}
              <span className="mono dg-rule">{d.rule}</span>
            </span>
            <span className="dg-message" title={d.message}>
              {d.message}
            </span>
          </li>
        );
      }}
    />
  );
}

const NO_FINDINGS: Diagnostic[] = [];
