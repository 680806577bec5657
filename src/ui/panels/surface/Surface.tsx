/**
 * The surface at the cursor in model-visible order, with the derived message count, the
 * replace generation and what step k changed. Replacement nodes expand to show what they
 * shadowed, recursively.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import type { StepChange } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectHighlight, selectIsReady, selectSelectedSeq, selectStep } from '../../../store/selectors';
import { EmptyState } from '../../widgets/EmptyState';
import { Panel } from '../../widgets/Panel';
import { VirtualList } from '../../widgets/VirtualList';
import { formatCount, plural } from '../../format';
import { SURFACE_ROW_HEIGHT, SurfaceRow } from './SurfaceRow';
import { useSurfaceRows } from './useSurfaceRows';

const CHANGE_GLYPH: Record<StepChange['kind'], string> = { start: '|◀', append: '+', replace: '⇄', 'log-only': '·' };

export function Surface() {
  const ready = useAppStore(selectIsReady);
  return <Panel title="Surface">{ready ? <SurfaceBody /> : <EmptyState title="No log loaded" />}</Panel>;
}

function SurfaceBody() {
  const [range, setRange] = useState({ first: 0, last: 40 });
  const rows = useSurfaceRows(range);
  const step = useAppStore(selectStep);
  const selectedSeq = useAppStore(selectSelectedSeq);
  const highlight = useAppStore(selectHighlight);
  const select = useAppStore((s) => s.select);

  // The list reports rendered rows; the fetch needs the surface indexes they stand for.
  const itemAt = useRef(rows.itemAt);
  useEffect(() => {
    itemAt.current = rows.itemAt;
  });
  const onRangeChange = useCallback((first: number, last: number) => {
    setRange({ first: itemAt.current(first).index, last: itemAt.current(Math.max(first, last)).index });
  }, []);

  const window = rows.window;
  if (!window) return rows.error ? <p className="panel-error">Could not read the surface: {rows.error}</p> : null;
  const change = window.change;
  return (
    <>
      <div className="surface-summary">
        <span>
          <b>{formatCount(window.total)}</b> nodes
        </span>
        <span>
          <b>{formatCount(window.messages)}</b> messages
        </span>
        <span title="Replaces applied so far">
          generation <b>{window.replaceGeneration}</b>
        </span>
      </div>
      <p className={`surface-change change-${change.kind}`}>
        <span className="mono">step {formatCount(step)}</span>
        <span aria-hidden="true" className="change-glyph">
          {CHANGE_GLYPH[change.kind]}
        </span>
        <span>{change.text}</span>
      </p>
      {rows.error ? <p className="panel-error">Could not read the surface: {rows.error}</p> : null}
      {window.total === 0 ? (
        <EmptyState title={`The surface is empty at step ${formatCount(step)}`} icon="○">
          {step === 0 ? 'Nothing is applied yet: step forward.' : 'No surface event has been applied.'}
        </EmptyState>
      ) : (
        <VirtualList
          count={rows.count}
          rowHeight={SURFACE_ROW_HEIGHT}
          as="ul"
          innerProps={{ 'aria-label': `Surface nodes at step ${step}, ${plural(window.total, 'node')}` }}
          scrollerProps={{ className: 'sf-list' }}
          onRangeChange={onRangeChange}
          renderRow={(row, style) => {
            const item = rows.itemAt(row);
            const seq = item.node?.seq ?? null;
            return (
              <SurfaceRow
                item={item}
                style={style}
                position={row + 1}
                count={rows.count}
                open={seq !== null && rows.isOpen(seq)}
                selected={seq !== null && seq === selectedSeq}
                highlighted={
                  seq !== null &&
                  highlight !== null &&
                  (item.depth === 0 ? seq === highlight.visible : highlight.shadowedSeqs.includes(seq))
                }
                onToggle={rows.toggle}
                onSelect={select}
              />
            );
          }}
        />
      )}
    </>
  );
}
