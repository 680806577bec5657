/**
 * The state of an event at a cursor (surface.md §9 classes, plus the devtool's `future`,
 * `rejected` and `pending`), from the fold result and the time-travel index.
 */
import type { SessionAnalysis } from './session';

/** State of an event at a cursor. */
export type EventStateName = 'future' | 'current' | 'shadowed' | 'log-only' | 'rejected' | 'pending';

/** State of event `index` at cursor `step` (step k has applied events 0…k-1). */
export function eventStateAt(session: SessionAnalysis, index: number, step: number): EventStateName {
  const { fold, index: tt } = session;
  if (fold.error) {
    if (index === fold.error.index) return 'rejected';
    if (index > fold.error.index) return 'pending';
  }
  if (index >= step) return 'future';
  return tt.classify(index, step).state;
}
