/**
 * The standard set of diagnostic checks run over every session.
 */
import type { EventCheck } from '../checks/check';
import { SeedCheck } from '../checks/seed';
import type { SessionFormat } from '../model';
import type { FoldProbe } from './session';

/** Build the checks for one session. */
export function standardChecks(
  _header: Record<string, unknown> | null,
  _format: SessionFormat,
  fold: FoldProbe,
): EventCheck[] {
  return [new SeedCheck({ surface: (_event, index) => fold.errorAt(index) })];
}
