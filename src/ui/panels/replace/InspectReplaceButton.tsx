/**
 * Opens the replace inspector on a replacement. Small enough to sit in any row (surface,
 * shadowed ranges, two views, timeline marker); it reads the store only when clicked.
 */
import type { MouseEvent, ReactNode } from 'react';
import { useAppStoreApi } from '../../../store/react';

export interface InspectReplaceButtonProps {
  seq: number;
  children?: ReactNode;
  className?: string;
  /** -1 keeps it out of the tab order (rows that have a keyboard path elsewhere). */
  tabIndex?: number;
}

export function InspectReplaceButton({ seq, children, className, tabIndex }: InspectReplaceButtonProps) {
  const store = useAppStoreApi();
  const open = (event: MouseEvent) => {
    event.stopPropagation();
    store.getState().openReplace(seq);
  };
  return (
    <button
      type="button"
      className={`inspect-replace ${className ?? ''}`}
      aria-label={`Inspect replace ${seq}`}
      title={`Inspect replace ${seq}: what it shadowed and what replaced it`}
      tabIndex={tabIndex}
      onClick={open}
    >
      {children ?? (
        <>
          <span aria-hidden="true">⇄</span> Inspect
        </>
      )}
    </button>
  );
}
