/** The compaction loss of a loaded session's replaces (see `loss.ts`). */
import type { SessionAnalysis } from '../analyze/session';
import type { CompactionLoss } from './loss';
import { replaceLoss } from './loss';

/** The loss of the replace whose replacement is `seq`, or null when no applied replace has it. */
export function lossAt(session: SessionAnalysis, seq: number): CompactionLoss | null {
  const cost = session.analytics?.replaces.find((r) => r.seq === seq);
  const replacement = session.fold.replacements.find((r) => r.seq === seq);
  if (cost === undefined || replacement === undefined) return null;
  return replaceLoss((s) => session.log.event(s - session.baseSeq), replacement, cost);
}

/** The loss of every applied replace, in fold order. */
export function sessionLosses(session: SessionAnalysis): CompactionLoss[] {
  const costs = session.analytics?.replaces ?? [];
  const lookup = (s: number): unknown => session.log.event(s - session.baseSeq);
  return session.fold.replacements.flatMap((r, i) => {
    const cost = costs[i];
    return cost !== undefined && cost.seq === r.seq ? [replaceLoss(lookup, r, cost)] : [];
  });
}
