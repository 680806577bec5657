/**
 * Summaries of an analysed session shared by the CLI and the engine.
 */
import type { Diagnostic, Severity } from '../model';
import { familyOf } from './family';
import type { Family } from './family';
import type { SessionAnalysis } from './session';

/** Event counts by type, from the type column. */
export function typeCounts(session: SessionAnalysis): Map<string, number> {
  const { typeId, types } = session.columns;
  const counts = new Uint32Array(types.length);
  for (let i = 0; i < typeId.length; i++) counts[typeId[i]!] = counts[typeId[i]!]! + 1;
  const out = new Map<string, number>();
  types.forEach((type, id) => {
    if (counts[id]! > 0) out.set(type, counts[id]!);
  });
  return out;
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
