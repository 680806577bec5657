/**
 * Every replacement applied up to the cursor: its seq, declared start…end, how many nodes it
 * shadowed and its kind. Selecting one highlights it in the timeline and the surface.
 */
import { useCallback, useState } from 'react';
import type { ReplacementRow, ReplacementsWindow } from '../../protocol/protocol';
import type { Highlight } from '../../store/types';
import { useAppStore } from '../../store/react';
import { selectClient, selectHighlight, selectIsReady, selectSessionId, selectSessionKey } from '../../store/selectors';
import { useDeferredStep } from '../hooks/useDeferredCursor';
import { useRemote } from '../hooks/useRemote';
import { isReplaceEpoch, useReplaceEpoch } from '../hooks/useReplaceSteps';
import { Badge } from '../widgets/Badge';
import { EmptyState } from '../widgets/EmptyState';
import { Panel } from '../widgets/Panel';
import { VirtualList } from '../widgets/VirtualList';
import { REPLACEMENT_KIND_LABEL, formatCount } from '../format';
import { InspectReplaceButton } from './replace/InspectReplaceButton';

const ROW_HEIGHT = 26;
/** Rows asked at a time: the window on screen is within [block, block + 2 × BLOCK). */
const BLOCK = 200;

/** What selecting `row` highlights: its shadowed nodes, and the node standing for it (the engine says which). */
const highlightFor = (row: ReplacementRow): Highlight => ({ replacement: row.seq, shadowedSeqs: row.shadowedSeqs, visible: row.visible });

export function ShadowedRanges() {
  const ready = useAppStore(selectIsReady);
  const client = useAppStore(selectClient);
  const session = useAppStore(selectSessionId);
  const sessionKey = useAppStore(selectSessionKey);
  // Follows a seek a moment after the surface (see useDeferredCursor).
  const step = useDeferredStep();
  const highlight = useAppStore(selectHighlight);
  const setHighlight = useAppStore((s) => s.setHighlight);
  const select = useAppStore((s) => s.select);
  // The list changes only when a replace is applied: refetch per replace epoch, not per step.
  const epoch = useReplaceEpoch(step);
  // Asked once the replace steps are known: an answer keyed by the step would be asked again,
  // unchanged, as soon as they arrive.
  const [first, setFirst] = useState(0);
  const onRangeChange = useCallback((from: number) => setFirst(from), []);
  const block = Math.floor(first / BLOCK) * BLOCK;
  const remote = useRemote<ReplacementsWindow>(ready && isReplaceEpoch(epoch) ? `${sessionKey}|${epoch}|${block}` : null, () =>
    client.replacements({ session, step, start: block, count: 2 * BLOCK }),
  );
  const page = remote.data && remote.dataKey?.startsWith(`${sessionKey}|`) ? remote.data : null;
  const pageStart = page && remote.dataKey ? Number(remote.dataKey.split('|').pop()) : 0;
  const rowAt = (index: number): ReplacementRow | null => page?.items[index - pageStart] ?? null;

  const choose = (row: ReplacementRow) => {
    if (highlight?.replacement === row.seq) {
      setHighlight(null);
      return;
    }
    setHighlight(highlightFor(row));
    select(row.seq);
  };

  let body;
  if (!ready) body = <EmptyState title="No log loaded" />;
  else if (remote.error) body = <p className="panel-error">Could not read the replacements: {remote.error}</p>;
  else if (!page) body = null;
  else if (page.total === 0) {
    body = (
      <EmptyState title={`No replace up to step ${formatCount(step)}`} icon="⇄">
        Compactions and tool-result prunes appear here once applied.
      </EmptyState>
    );
  } else {
    body = (
      <VirtualList
        count={page.total}
        rowHeight={ROW_HEIGHT}
        as="ul"
        innerProps={{ 'aria-label': 'Replacements applied up to the cursor' }}
        onRangeChange={onRangeChange}
        renderRow={(index, style) => {
          const row = rowAt(index);
          if (!row) {
            return (
              <li style={style} className="sr-row" aria-busy="true">
                …
              </li>
            );
          }
          const active = highlight?.replacement === row.seq;
          return (
            <li style={style} className={`sr-row ${active ? 'is-highlighted' : ''}`} data-seq={row.seq}>
              <button
                type="button"
                className="sr-select"
                aria-pressed={active}
                onClick={() => choose(row)}
                title={`Applied at step ${row.step}; shadowed ${row.shadowedSeqs.join(', ')}`}
              >
                <span className="mono sr-seq">{row.seq}</span>
                <span className="mono sr-range">
                  {row.start}…{row.end}
                </span>
                <span className="sr-count">{formatCount(row.shadowedSeqs.length)} shadowed</span>
                <Badge tone={`kind-${row.kind}`}>{REPLACEMENT_KIND_LABEL[row.kind]}</Badge>
                {row.shadowedBy !== null ? <span className="sr-nested">⊘ inside {row.shadowedBy}</span> : null}
              </button>
              <InspectReplaceButton seq={row.seq} className="inspect-small">
                <span aria-hidden="true">⇄</span>
              </InspectReplaceButton>
            </li>
          );
        }}
      />
    );
  }
  return (
    <Panel title="Shadowed ranges" meta={page ? `${formatCount(page.total)} at step ${formatCount(step)}` : undefined}>
      {body}
    </Panel>
  );
}
