/**
 * A split pane whose sizes are a persisted preference, keyed by `name`: the layouts declare
 * their splits and this reads and writes the sizes in the store.
 */
import type { ReactNode } from 'react';
import { useAppStore } from '../../store/react';
import { selectPaneSizes } from '../../store/selectors';
import { SplitPane } from '../widgets/SplitPane';

export interface PersistedSplitProps {
  /** Key of the sizes in the persisted preferences. */
  name: string;
  direction: 'horizontal' | 'vertical';
  defaultSizes: number[];
  /** Accessible names of the separators, one per gap. */
  separatorLabels: string[];
  className?: string;
  children: ReactNode[];
}

export function PersistedSplit({ name, direction, defaultSizes, separatorLabels, className, children }: PersistedSplitProps) {
  const sizes = useAppStore(selectPaneSizes(name));
  const setPaneSizes = useAppStore((s) => s.setPaneSizes);
  return (
    <SplitPane
      direction={direction}
      sizes={sizes}
      defaultSizes={defaultSizes}
      onResize={(next) => setPaneSizes(name, next)}
      separatorLabels={separatorLabels}
      {...(className !== undefined ? { className } : {})}
    >
      {children}
    </SplitPane>
  );
}
