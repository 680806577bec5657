/**
 * Which rules a check reports (`--rule`, `--ignore-rule`) and which findings fail it (`--fail-on`).
 */
import type { CheckedDiagnostic, SessionCheck } from './check-file';

/** `--fail-on`: the least severe finding that makes the exit status 1. */
export type FailOn = 'error' | 'warning' | 'never';
export const FAIL_ON: readonly FailOn[] = ['error', 'warning', 'never'];

/** Rule selectors: a selector names a rule (`surface/contiguity`) or a prefix of rules (`qa/`, `qa`). */
export interface RuleSelection {
  /** Report only rules matching one of these; empty: every rule. */
  rules: readonly string[];
  /** Never report rules matching one of these (wins over `rules`). */
  ignore: readonly string[];
}

/** `qa` and `qa/` both match `qa/…`; a full name matches itself. */
function matches(selector: string, rule: string): boolean {
  if (selector === rule) return true;
  const prefix = selector.endsWith('/') ? selector : `${selector}/`;
  return rule.startsWith(prefix);
}

/** Is this rule reported under the selection? */
export function selected(rule: string, selection: RuleSelection): boolean {
  if (selection.ignore.some((s) => matches(s, rule))) return false;
  return selection.rules.length === 0 || selection.rules.some((s) => matches(s, rule));
}

/** The rule of a decode error without one of its own (a JSON or framing error). */
export const DECODE_RULE = 'decode/error';

/**
 * A session as reported under a selection: diagnostics outside it dropped, and the surface and
 * decode errors kept as facts of the log but marked whether they count.
 */
export interface SelectedSession {
  session: SessionCheck;
  diagnostics: CheckedDiagnostic[];
  surfaceErrorCounts: boolean;
  decodeErrorCounts: boolean;
}

export function selectSession(session: SessionCheck, selection: RuleSelection): SelectedSession {
  return {
    session,
    diagnostics: session.diagnostics.filter((d) => selected(d.rule, selection)),
    surfaceErrorCounts: session.surfaceError !== null && selected(session.surfaceError.rule, selection),
    decodeErrorCounts: session.decodeError !== null && selected(session.decodeError.rule ?? DECODE_RULE, selection),
  };
}

/** The first error of a session as one line (`[rule] message (seq S, line L)`), or null. */
export function firstError(s: SelectedSession): { rule: string; message: string } | null {
  const { surfaceError, decodeError } = s.session;
  if (s.decodeErrorCounts && decodeError) return { rule: decodeError.rule ?? DECODE_RULE, message: decodeError.message };
  if (s.surfaceErrorCounts && surfaceError) return { rule: surfaceError.rule, message: surfaceError.message };
  const d = s.diagnostics.find((x) => x.severity === 'error');
  return d ? { rule: d.rule, message: d.message } : null;
}

/** The first warning, for `--fail-on warning`. */
export function firstWarning(s: SelectedSession): { rule: string; message: string } | null {
  const d = s.diagnostics.find((x) => x.severity === 'warning');
  return d ? { rule: d.rule, message: d.message } : null;
}

/** Does this session fail the check? */
export function fails(s: SelectedSession, failOn: FailOn): boolean {
  if (failOn === 'never') return false;
  if (firstError(s) !== null) return true;
  return failOn === 'warning' && firstWarning(s) !== null;
}

/** Does a container finding fail the check? */
export function findingFails(f: CheckedDiagnostic, failOn: FailOn): boolean {
  return failOn !== 'never' && (f.severity === 'error' || (failOn === 'warning' && f.severity === 'warning'));
}
