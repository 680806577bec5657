/**
 * What dsh's own loader would do with the log (log-format.md §4, §11, §13), as one verdict for
 * a banner: refuse it, truncate a torn tail, or repair an interrupted turn on open. The log is
 * shown as decoded either way; this only says how upstream would differ.
 */
import type { Diagnostic } from '../model';
import { LOADER_REFUSES_PREFIX } from './checks';
import { PROJECTED_RULE } from '../decode/projected';

/** One loader verdict: its kind, upstream's exact message, and the rule that carries it. */
export interface LoaderVerdict {
  kind: 'refuses' | 'truncates' | 'repairs';
  message: string;
  rule: string;
  /** True for an envelope-projected snapshot, which no loader is meant to read. */
  projected: boolean;
}

/** The verdict from a session's diagnostics, or null when upstream loads the log as it is. */
export function loaderVerdict(diagnostics: readonly Diagnostic[]): LoaderVerdict | null {
  const projected = diagnostics.some((d) => d.rule === PROJECTED_RULE);
  const find = (rule: string): Diagnostic | undefined => diagnostics.find((d) => d.rule === rule);
  const verdict = (kind: LoaderVerdict['kind'], d: Diagnostic, message = d.message): LoaderVerdict => ({
    kind,
    message,
    rule: d.rule,
    projected,
  });
  for (const rule of ['loader/fatal-damage', 'zstd/torn-record']) {
    const d = find(rule);
    if (d) return verdict('refuses', d);
  }
  const result = find('loader/result');
  if (result?.message.startsWith(LOADER_REFUSES_PREFIX)) {
    // The rule that refused, when one says it; else the summary's.
    const cause = diagnostics.find((d) => d.severity === 'error' && d.rule.startsWith('loader/'));
    return { ...verdict('refuses', result, result.message.slice(LOADER_REFUSES_PREFIX.length)), rule: cause?.rule ?? result.rule };
  }
  for (const rule of ['loader/torn-tail', 'loader/torn-line']) {
    const d = find(rule);
    if (d) return verdict('truncates', d);
  }
  const repair = find('loader/interrupted-turn');
  return repair ? verdict('repairs', repair) : null;
}
