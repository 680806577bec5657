/** A labelled region (`<section aria-label>`) with a compact header. */
import type { ReactNode } from 'react';

export interface PanelProps {
  title: string;
  /** Text or controls shown at the right of the header. */
  meta?: ReactNode;
  className?: string;
  children?: ReactNode;
}

export function Panel({ title, meta, className, children }: PanelProps) {
  return (
    <section aria-label={title} className={`panel ${className ?? ''}`}>
      <header className="panel-head">
        <h2 className="panel-title">{title}</h2>
        {meta === undefined ? null : <div className="panel-meta">{meta}</div>}
      </header>
      <div className="panel-body">{children}</div>
    </section>
  );
}
