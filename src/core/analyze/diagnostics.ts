/**
 * A session's complete diagnostics, in one list: the decode error and the surface error (each
 * once, first, as diagnostics) and then every check's finding. Whatever shows diagnostics — the
 * engine's counts and pages, `check`, `check --json`, the report exports — reads this list, so
 * the same file shows the same counts everywhere.
 */
import type { Diagnostic } from '../model';
import type { SessionAnalysis } from './session';

const lists = new WeakMap<SessionAnalysis, readonly Diagnostic[]>();

/** The decode error as a diagnostic. */
function decodeDiagnostic(session: SessionAnalysis): Diagnostic | null {
  const e = session.decodeError;
  return e && { severity: 'error', rule: e.rule ?? 'decode/error', seq: null, line: e.line, message: e.message };
}

/** The surface error (the fold's first refusal) as a diagnostic, with the refused event's seq. */
function surfaceDiagnostic(session: SessionAnalysis): Diagnostic | null {
  const e = session.fold.error;
  return e && { severity: 'error', rule: e.rule, seq: e.index + session.baseSeq, line: e.line, message: e.message };
}

/**
 * Every diagnostic of a session: the decode error, then the surface error, then the checks'
 * findings (`SessionAnalysis.diagnostics`). Computed once per session.
 */
export function sessionDiagnostics(session: SessionAnalysis): readonly Diagnostic[] {
  let list = lists.get(session);
  if (!list) {
    const leading = [decodeDiagnostic(session), surfaceDiagnostic(session)].filter((d): d is Diagnostic => d !== null);
    list = [...leading, ...session.diagnostics];
    lists.set(session, list);
  }
  return list;
}

/**
 * How many of {@link sessionDiagnostics} are the decode and surface errors (they come first):
 * a report that states those two apart lists the rest after them.
 */
export function leadingErrorCount(session: SessionAnalysis): number {
  return (session.decodeError ? 1 : 0) + (session.fold.error ? 1 : 0);
}
