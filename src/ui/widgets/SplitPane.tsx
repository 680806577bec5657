/**
 * Panes side by side (`horizontal`) or stacked (`vertical`) with draggable, keyboard-operable
 * separators. Sizes are weights (fractions summing to 1); the owner persists them on change.
 */
import { Children, useRef, useState } from 'react';
import type { KeyboardEvent, PointerEvent, ReactNode } from 'react';

export interface SplitPaneProps {
  direction: 'horizontal' | 'vertical';
  /** Persisted sizes, or undefined for `defaultSizes`. */
  sizes: number[] | undefined;
  defaultSizes: number[];
  onResize: (sizes: number[]) => void;
  /** Accessible names of the separators, one per gap. */
  separatorLabels: string[];
  /** Smallest pane, as a fraction. @default 0.12 */
  minFraction?: number;
  className?: string;
  children: ReactNode;
}

const KEY_STEP = 0.02;

function normalize(sizes: number[], count: number, fallback: number[]): number[] {
  const source = sizes.length === count ? sizes : fallback;
  const sum = source.reduce((a, b) => a + b, 0);
  return sum > 0 ? source.map((s) => s / sum) : source.map(() => 1 / count);
}

/** Moves the boundary after pane `gap` by `delta`, keeping both neighbours above `min`. */
export function moveBoundary(sizes: number[], gap: number, delta: number, min: number): number[] {
  const next = [...sizes];
  const a = next[gap] ?? 0;
  const b = next[gap + 1] ?? 0;
  const clamped = Math.max(min - a, Math.min(b - min, delta));
  next[gap] = a + clamped;
  next[gap + 1] = b - clamped;
  return next;
}

export function SplitPane({
  direction,
  sizes,
  defaultSizes,
  onResize,
  separatorLabels,
  minFraction = 0.12,
  className,
  children,
}: SplitPaneProps) {
  const panes = Children.toArray(children);
  const committed = normalize(sizes ?? defaultSizes, panes.length, defaultSizes);
  const [dragging, setDragging] = useState<number[] | null>(null);
  const current = dragging ?? committed;
  const containerRef = useRef<HTMLDivElement | null>(null);
  const drag = useRef<{ gap: number; origin: number; start: number[]; extent: number } | null>(null);
  const horizontal = direction === 'horizontal';

  const onPointerDown = (gap: number) => (event: PointerEvent<HTMLDivElement>) => {
    const rect = containerRef.current?.getBoundingClientRect();
    const extent = rect ? (horizontal ? rect.width : rect.height) : 0;
    if (extent <= 0) return;
    event.currentTarget.setPointerCapture?.(event.pointerId);
    drag.current = { gap, origin: horizontal ? event.clientX : event.clientY, start: current, extent };
  };
  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const d = drag.current;
    if (!d) return;
    const delta = ((horizontal ? event.clientX : event.clientY) - d.origin) / d.extent;
    setDragging(moveBoundary(d.start, d.gap, delta, minFraction));
  };
  const onPointerUp = () => {
    if (!drag.current) return;
    drag.current = null;
    if (dragging) onResize(dragging);
    setDragging(null);
  };
  const onKeyDown = (gap: number) => (event: KeyboardEvent<HTMLDivElement>) => {
    const back = horizontal ? 'ArrowLeft' : 'ArrowUp';
    const forward = horizontal ? 'ArrowRight' : 'ArrowDown';
    const deltas: Record<string, number> = { [back]: -KEY_STEP, [forward]: KEY_STEP, Home: -1, End: 1 };
    const delta = deltas[event.key];
    if (delta === undefined) return;
    event.preventDefault();
    event.stopPropagation();
    onResize(moveBoundary(current, gap, delta, minFraction));
  };

  const cells: ReactNode[] = [];
  panes.forEach((pane, i) => {
    if (i > 0) {
      const gap = i - 1;
      const before = current.slice(0, i).reduce((a, b) => a + b, 0);
      cells.push(
        <div
          key={`sep-${gap}`}
          className="split-separator"
          role="separator"
          aria-orientation={horizontal ? 'vertical' : 'horizontal'}
          aria-label={separatorLabels[gap] ?? 'Resize panes'}
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={Math.round(before * 100)}
          tabIndex={0}
          onPointerDown={onPointerDown(gap)}
          onPointerMove={onPointerMove}
          onPointerUp={onPointerUp}
          onPointerCancel={onPointerUp}
          onKeyDown={onKeyDown(gap)}
        />,
      );
    }
    cells.push(
      <div key={`pane-${i}`} className="split-pane" style={{ flex: `${current[i] ?? 0} 1 0px` }}>
        {pane}
      </div>,
    );
  });

  return (
    <div ref={containerRef} className={`split split-${direction} ${dragging ? 'split-dragging' : ''} ${className ?? ''}`}>
      {cells}
    </div>
  );
}
