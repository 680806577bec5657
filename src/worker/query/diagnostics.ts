/** A session's diagnostics, paged. */
import type { Diagnostic } from '../../core/model';
import type { DiagnosticsParams, DiagnosticsWindow } from '../../protocol/protocol';
import { MAX_WINDOW } from './session';
import type { QuerySession } from './session';

/** Every diagnostic, with the decode error and the surface error first. */
export function allDiagnostics(q: QuerySession): Diagnostic[] {
  if (!q.diagnosticsList) {
    const { decodeError, fold } = q.session;
    const list: Diagnostic[] = [];
    if (decodeError) {
      list.push({ severity: 'error', rule: decodeError.rule ?? 'decode/error', seq: null, line: decodeError.line, message: decodeError.message });
    }
    if (fold.error) {
      list.push({
        severity: 'error',
        rule: fold.error.rule,
        seq: q.seqOf(fold.error.index),
        line: fold.error.line,
        message: fold.error.message,
      });
    }
    q.diagnosticsList = [...list, ...q.session.diagnostics];
  }
  return q.diagnosticsList;
}

export function diagnostics(q: QuerySession, { start, count }: DiagnosticsParams): DiagnosticsWindow {
  const all = allDiagnostics(q);
  return { total: all.length, items: all.slice(Math.max(0, start), Math.max(0, start) + Math.min(count, MAX_WINDOW)) };
}
