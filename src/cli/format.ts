/**
 * Output formats of `surface-lens check`.
 */
import type { SessionAnalysis } from '../core/analyze/session';
import { familyCounts, finalMessages, severityCounts } from '../core/analyze/summary';

export { toJsonRecord } from '../core/analyze/report';

/** Shorten one event's raw text for display. */
function abbreviate(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

/** The human-readable report of one session. */
export function formatHuman(session: SessionAnalysis): string {
  const { fold } = session;
  const lines: string[] = [];
  const id = session.sessionId ? ` (session ${session.sessionId})` : '';
  const partial = session.partial ? `, window from seq ${session.baseSeq}` : '';
  lines.push(`${session.path}${id}: ${session.format}, ${session.log.length} events${partial}`);
  const families = Object.entries(familyCounts(session))
    .sort((a, b) => b[1] - a[1])
    .map(([family, count]) => `${family} ${count}`)
    .join(', ');
  if (families) lines.push(`  events by family: ${families}`);
  lines.push(
    `  surface: ${fold.nodes.length} nodes, ${fold.replacements.length} replacements, ` +
      `${finalMessages(session)} derived messages, ${fold.accepted} of ${session.log.length} events folded`,
  );
  const severities = severityCounts(session.diagnostics);
  lines.push(`  diagnostics: ${severities.error} errors, ${severities.warning} warnings, ${severities.info} info`);
  if (session.decodeError) {
    const e = session.decodeError;
    const where = [e.line !== null ? `line ${e.line}` : null, e.byte !== null ? `byte ${e.byte}` : null].filter(Boolean).join(', ');
    const rule = e.rule === undefined ? '' : ` [${e.rule}]`;
    lines.push(`  DECODE ERROR at ${session.path}${where ? `, ${where}` : ''}${rule}: ${e.message}`);
  }
  if (fold.error) {
    const e = fold.error;
    lines.push(`  SURFACE ERROR at ${session.path}, line ${e.line ?? '?'}, seq ${String(e.seq)} [${e.rule}]: ${e.message}`);
    try {
      lines.push(`    event: ${abbreviate(session.log.raw(e.index))}`);
    } catch {
      // The raw text is a nicety; the error itself was reported.
    }
  }
  for (const d of session.diagnostics.filter((x) => x.severity === 'error').slice(0, 5)) {
    const where = [d.line !== null ? `line ${d.line}` : null, d.seq !== null ? `seq ${d.seq}` : null].filter(Boolean).join(', ');
    lines.push(`  error${where ? ` (${where})` : ''} [${d.rule}]: ${d.message}`);
  }
  const moreErrors = severities.error - 5;
  if (moreErrors > 0) lines.push(`  … ${moreErrors} more errors (use --json for all)`);
  return `${lines.join('\n')}\n`;
}
