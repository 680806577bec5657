/**
 * Reports of an analysed session: the `check --json` record, and the diagnostics/QA report as
 * JSON or Markdown (the app's export).
 */
import { sessionLosses } from '../analysis/session-loss';
import { usageByTurn } from '../analysis/usage';
import type { Diagnostic } from '../model';
import { leadingErrorCount, sessionDiagnostics } from './diagnostics';
import type { SessionAnalysis } from './session';
import { familyCounts, finalMessages, severityCounts } from './summary';

/**
 * The `check --json` record of one session (one line of JSON Lines), also the app's "report
 * JSON" export. `diagnostics` is the session's complete list ({@link sessionDiagnostics}: the
 * decode and surface errors included, once each); `surfaceError` and `decodeError` state those
 * two with their location.
 */
export function toJsonRecord(session: SessionAnalysis): Record<string, unknown> {
  const { fold } = session;
  return {
    file: session.path,
    format: session.format,
    sessionId: session.sessionId,
    events: session.log.length,
    surface: {
      accepted: fold.accepted,
      nodes: fold.nodes,
      replacements: fold.replacements.map((r) => ({ seq: r.seq, start: r.start, end: r.end, shadowedSeqs: r.shadowedSeqs })),
      replaceGeneration: fold.replaceGeneration,
      messages: finalMessages(session),
    },
    surfaceError: fold.error && { seq: fold.error.seq, line: fold.error.line, message: fold.error.message },
    decodeError: session.decodeError && {
      line: session.decodeError.line,
      byte: session.decodeError.byte,
      ...(session.decodeError.rule === undefined ? {} : { rule: session.decodeError.rule }),
      message: session.decodeError.message,
    },
    requests: session.analytics?.requests ?? [],
    usage: usageByTurn(session.analytics?.requests ?? []),
    compactions: sessionLosses(session),
    diagnostics: sessionDiagnostics(session).map((d) => ({
      severity: d.severity,
      rule: d.rule,
      seq: d.seq,
      line: d.line,
      message: d.message,
    })),
  };
}

/** Markdown table cell: pipes and line breaks would break the table. */
function cell(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

/** The diagnostics and QA report as Markdown. */
export function toMarkdownReport(session: SessionAnalysis): string {
  const { fold } = session;
  const all = sessionDiagnostics(session);
  const severities = severityCounts(all);
  // The decode and surface errors are stated first, with their location; the tables list the rest.
  const rest = all.slice(leadingErrorCount(session));
  const lines: string[] = [];
  lines.push(`# Surface Lens report: ${cell(session.path)}`, '');
  lines.push('| | |', '|---|---|');
  lines.push(`| session | ${cell(session.sessionId ?? '(none)')} |`);
  lines.push(`| format | ${session.format} |`);
  lines.push(`| events | ${session.log.length} (${fold.accepted} folded) |`);
  const families = Object.entries(familyCounts(session))
    .map(([family, count]) => `${family} ${count}`)
    .join(', ');
  lines.push(`| by family | ${families || '—'} |`);
  lines.push(
    `| surface | ${fold.nodes.length} nodes, ${fold.replacements.length} replacements, ${finalMessages(session)} derived messages |`,
  );
  lines.push(`| diagnostics | ${severities.error} errors, ${severities.warning} warnings, ${severities.info} info |`, '');
  if (session.decodeError) {
    const e = session.decodeError;
    const rule = e.rule === undefined ? '' : `, \`${e.rule}\``;
    lines.push(`**Decode error** (line ${e.line ?? '?'}, byte ${e.byte ?? '?'}${rule}): ${cell(e.message)}`, '');
  }
  if (fold.error) {
    const e = fold.error;
    lines.push(`**Surface error** at seq ${String(e.seq)}, line ${e.line ?? '?'} (\`${e.rule}\`): ${cell(e.message)}`, '');
  }
  const groups: [string, Diagnostic[]][] = [
    [rest.length < all.length ? 'Other errors' : 'Errors', rest.filter((d) => d.severity === 'error')],
    ['Warnings', rest.filter((d) => d.severity === 'warning')],
    ['Info', rest.filter((d) => d.severity === 'info')],
  ];
  for (const [title, items] of groups) {
    if (items.length === 0) continue;
    lines.push(`## ${title} (${items.length})`, '', '| rule | seq | line | message |', '|---|---|---|---|');
    for (const d of items) lines.push(`| \`${d.rule}\` | ${d.seq ?? ''} | ${d.line ?? ''} | ${cell(d.message)} |`);
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}
