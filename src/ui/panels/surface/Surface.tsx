/**
 * The surface at the cursor in model-visible order, with the derived message count, the
 * replace generation and what step k changed. Replacement nodes expand to show what they
 * shadowed, recursively.
 *
 * Everything shown comes from one engine answer (useSurfaceFeed), so the step, the counts, the
 * change line and the nodes always agree; the change line carries the step they are for in
 * `data-surface-step` (tests and the benchmark wait for it). The list is virtualized with TanStack Virtual: an expanded replacement is
 * an item as tall as its subtree, and the virtualizer measures such variable-height items (the
 * surface holds at most thousands of nodes, so its per-item measurements stay cheap; the
 * million-row timeline uses the fixed-height list in widgets/VirtualList.tsx instead).
 */
import { useEffect, useLayoutEffect, useMemo, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
import type { StepChange, SurfaceWindow } from '../../../protocol/protocol';
import { useAppStore, useAppStoreApi } from '../../../store/react';
import { selectHighlight, selectIsReady, selectSelectedSeq } from '../../../store/selectors';
import { registerSurface, surfaceShown } from '../../hooks/seekPacer';
import { EmptyState } from '../../widgets/EmptyState';
import { measureOptions } from '../../widgets/virtualMeasure';
import { Panel } from '../../widgets/Panel';
import { useFixedViewport } from '../../widgets/VirtualList';
import { formatCount, plural } from '../../format';
import { SURFACE_ROW_HEIGHT, SurfaceItem } from './SurfaceItem';
import type { SurfaceContext } from './SurfaceItem';
import { useExpansions } from './useExpansions';
import { useSurfaceFeed } from './useSurfaceFeed';

const CHANGE_GLYPH: Record<StepChange['kind'], string> = { start: '|◀', append: '+', replace: '⇄', 'log-only': '·' };

export function Surface() {
  const ready = useAppStore(selectIsReady);
  return <Panel title="Surface">{ready ? <SurfaceBody /> : <EmptyState title="No log loaded" />}</Panel>;
}

function SurfaceBody() {
  const feed = useSurfaceFeed();
  const window = feed.window;
  // Panels that follow the cursor later wait for this panel to paint the step (seekPacer.ts).
  const store = useAppStoreApi();
  useLayoutEffect(() => registerSurface(store), [store]);
  const shownStep = window?.step ?? null;
  useLayoutEffect(() => {
    if (shownStep !== null) surfaceShown(store, shownStep);
  }, [store, shownStep, window]);
  if (!window) return feed.error ? <p className="panel-error">Could not read the surface: {feed.error}</p> : null;
  const change = window.change;
  const step = window.step;
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
      <p className={`surface-change change-${change.kind}`} data-surface-step={step}>
        <span className="mono">step {formatCount(step)}</span>
        <span aria-hidden="true" className="change-glyph">
          {CHANGE_GLYPH[change.kind]}
        </span>
        <span>{change.text}</span>
      </p>
      {feed.error ? <p className="panel-error">Could not read the surface: {feed.error}</p> : null}
      {window.total === 0 ? (
        <EmptyState title={`The surface is empty at step ${formatCount(step)}`} icon="○">
          {step === 0 ? 'Nothing is applied yet: step forward.' : 'No surface event has been applied.'}
        </EmptyState>
      ) : (
        <SurfaceList window={window} setRange={feed.setRange} />
      )}
    </>
  );
}

function SurfaceList({ window, setRange }: { window: SurfaceWindow; setRange: (first: number, last: number) => void }) {
  const selectedSeq = useAppStore(selectSelectedSeq);
  const highlight = useAppStore(selectHighlight);
  const select = useAppStore((s) => s.select);
  const expansions = useExpansions();
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const fixed = useFixedViewport();

  const nodeAt = (index: number) => window.nodes[index - window.start] ?? null;
  // The app is not built with React Compiler; the virtualizer's functions are used as documented.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer<HTMLDivElement, HTMLLIElement>({
    count: window.total,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => SURFACE_ROW_HEIGHT,
    // Few extra items: every rendered item is updated at each seek.
    overscan: 3,
    // Items are keyed by index: after a seek the rendered items are updated in place rather than
    // replaced (an item that changes height is measured again by the virtualizer's observer).
    // Hosts without layout (jsdom) get the fixed viewport and estimated sizes.
    ...measureOptions(fixed),
  });
  const items = virtualizer.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  useEffect(() => setRange(first, last), [first, last, setRange]);

  const context = useMemo<SurfaceContext>(() => ({ selectedSeq, highlight }), [selectedSeq, highlight]);
  // Without layout there is nothing to measure: items keep their estimated size.
  const measureRef = fixed ? undefined : virtualizer.measureElement;
  return (
    <div ref={scrollRef} className="vlist sf-list">
      <ul
        className="sf-items"
        aria-label={`Surface nodes at step ${window.step}, ${plural(window.total, 'node')}`}
        style={{ height: virtualizer.getTotalSize() }}
      >
        {items.map((item) => {
          const node = nodeAt(item.index);
          const seq = node?.seq ?? null;
          return (
            <SurfaceItem
              key={item.key}
              index={item.index}
              measureRef={measureRef}
              style={{ top: item.start }}
              node={node}
              depth={0}
              parent={null}
              position={item.index + 1}
              setSize={window.total}
              selected={seq !== null && seq === selectedSeq}
              highlighted={seq !== null && highlight !== null && seq === highlight.visible}
              context={seq !== null && expansions.isOpen(seq) ? context : null}
              onSelect={select}
              expansions={expansions}
            />
          );
        })}
      </ul>
    </div>
  );
}
