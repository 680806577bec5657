/** What a panel shows when it has nothing to show, saying why and what to do. */
import type { ReactNode } from 'react';

export function EmptyState({ icon = '∅', title, children }: { icon?: string; title: string; children?: ReactNode }) {
  return (
    <div className="empty">
      <span className="empty-icon" aria-hidden="true">
        {icon}
      </span>
      <p className="empty-title">{title}</p>
      {children === undefined ? null : <div className="empty-body">{children}</div>}
    </div>
  );
}
