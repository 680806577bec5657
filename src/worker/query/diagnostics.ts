/** A session's diagnostics (the core's one list, see `core/analyze/diagnostics.ts`), paged. */
import { sessionDiagnostics } from '../../core/analyze/diagnostics';
import type { DiagnosticsParams, DiagnosticsWindow } from '../../protocol/protocol';
import { MAX_WINDOW } from './session';
import type { QuerySession } from './session';

export function diagnostics(q: QuerySession, { start, count }: DiagnosticsParams): DiagnosticsWindow {
  const all = sessionDiagnostics(q.session);
  return { total: all.length, items: all.slice(Math.max(0, start), Math.max(0, start) + Math.min(count, MAX_WINDOW)) };
}
