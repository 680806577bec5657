/**
 * Summaries of an analysed session shared by the CLI and the engine.
 */
import type { Diagnostic, Severity } from '../model';
import { familyOf } from './family';
import type { Family } from './family';
import type { SessionAnalysis } from './session';
import { factsOfTally } from './time';
import type { TimeFacts } from './time';

/** Event counts by type, from the type column (its running tally: only events not counted yet are read). */
export function typeCounts(session: SessionAnalysis): Map<string, number> {
  const tally = session.tally.update(session.columns);
  const out = new Map<string, number>();
  session.columns.types.forEach((type, id) => {
    const n = tally.typeCount(id);
    if (n > 0) out.set(type, n);
  });
  return out;
}

/** How the session's times read (its running tally: only events not counted yet are read). */
export function sessionTimeFacts(session: SessionAnalysis): TimeFacts {
  return factsOfTally(session.tally.update(session.columns).time(), session.diagnostics);
}

/** Event counts by family. */
export function familyCounts(session: SessionAnalysis): Partial<Record<Family, number>> {
  const out: Partial<Record<Family, number>> = {};
  for (const [type, count] of typeCounts(session)) {
    const family = familyOf(type);
    out[family] = (out[family] ?? 0) + count;
  }
  return out;
}

/** Diagnostics by severity. */
export function severityCounts(diagnostics: readonly Diagnostic[]): Record<Severity, number> {
  const out: Record<Severity, number> = { error: 0, warning: 0, info: 0 };
  for (const d of diagnostics) out[d.severity] += 1;
  return out;
}

/** Derived model messages after the accepted prefix. */
export function finalMessages(session: SessionAnalysis): number {
  return session.index.messagesAt(session.fold.accepted);
}
