/** A short label with a tone class. Carries text, so colour is never the only signal. */
import type { ReactNode } from 'react';

export interface BadgeProps {
  /** CSS class suffix for the colour, e.g. `fam-user`, `sev-error`. */
  tone?: string;
  title?: string;
  children: ReactNode;
}

export function Badge({ tone, title, children }: BadgeProps) {
  return (
    <span className={`badge ${tone ?? ''}`} title={title}>
      {children}
    </span>
  );
}
