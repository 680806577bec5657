/**
 * The report formats of `check`: `human` and `json` are written as each file is checked;
 * `md`, `html` and `junit` need the whole run and are written at its end.
 */
import type { CheckedDiagnostic } from './check-file';
import { htmlReport } from './html';
import type { HtmlReportOptions } from './html';
import { firstError, firstWarning } from './select';
import type { SelectedSession } from './select';

export type ReportFormat = 'human' | 'json' | 'md' | 'html' | 'junit';
export const REPORT_FORMATS: readonly ReportFormat[] = ['human', 'json', 'md', 'html', 'junit'];

/** Everything a run reports, in order. */
export type ReportItem =
  | { kind: 'session'; selected: SelectedSession; failed: boolean }
  | { kind: 'finding'; path: string; finding: CheckedDiagnostic }
  | { kind: 'unreadable'; path: string; message: string }
  | { kind: 'skipped'; path: string; reason: string; message: string };

function count(diagnostics: readonly CheckedDiagnostic[], severity: CheckedDiagnostic['severity']): number {
  return diagnostics.reduce((n, d) => n + (d.severity === severity ? 1 : 0), 0);
}

/** The human-readable report of one session. */
export function humanSession(s: SelectedSession): string {
  const { session, diagnostics } = s;
  const lines: string[] = [];
  const id = session.sessionId ? ` (session ${session.sessionId})` : '';
  const window = session.windowFrom === null ? '' : `, window from seq ${session.windowFrom}`;
  lines.push(`${session.path}${id}: ${session.format}, ${session.events} events${window}`);
  const families = session.families.map(([family, n]) => `${family} ${n}`).join(', ');
  if (families) lines.push(`  events by family: ${families}`);
  const { surface } = session;
  lines.push(
    `  surface: ${surface.nodes} nodes, ${surface.replacements} replacements, ` +
      `${surface.messages} derived messages, ${surface.accepted} of ${session.events} events folded`,
  );
  const errors = count(diagnostics, 'error');
  lines.push(`  diagnostics: ${errors} errors, ${count(diagnostics, 'warning')} warnings, ${count(diagnostics, 'info')} info`);
  const e = session.decodeError;
  if (e && s.decodeErrorCounts) {
    const where = [e.line !== null ? `line ${e.line}` : null, e.byte !== null ? `byte ${e.byte}` : null].filter(Boolean).join(', ');
    const rule = e.rule === null ? '' : ` [${e.rule}]`;
    lines.push(`  DECODE ERROR at ${session.path}${where ? `, ${where}` : ''}${rule}: ${e.message}`);
  }
  const f = session.surfaceError;
  if (f && s.surfaceErrorCounts) {
    lines.push(`  SURFACE ERROR at ${session.path}, line ${f.line ?? '?'}, ${errorPlace(f)} [${f.rule}]: ${f.message}`);
    if (f.event !== null) lines.push(`    event: ${f.event}`);
  }
  // The decode and surface errors are stated above (they are in the list too); the others follow.
  const stated = (d: CheckedDiagnostic): boolean =>
    (f !== null && d.rule === f.rule && d.seq === f.seq && d.message === f.message) ||
    (e !== null && d.seq === null && d.line === e.line && d.message === e.message);
  const others = diagnostics.filter((x) => x.severity === 'error' && !stated(x));
  for (const d of others.slice(0, 5)) {
    const where = [d.line !== null ? `line ${d.line}` : null, d.seq !== null ? `seq ${d.seq}` : null].filter(Boolean).join(', ');
    lines.push(`  error${where ? ` (${where})` : ''} [${d.rule}]: ${d.message}`);
  }
  if (others.length > 5) lines.push(`  … ${others.length - 5} more errors (use --format json for all)`);
  return `${lines.join('\n')}\n`;
}

/** The `--format json` record: the core's record with the diagnostics of the rule selection. */
export function jsonSession(s: SelectedSession): string {
  const diagnostics = s.diagnostics.map((d) => ({ severity: d.severity, rule: d.rule, seq: d.seq, line: d.line, message: d.message }));
  return `${JSON.stringify({ ...s.session.record, diagnostics })}\n`;
}

/** What `human` and `json` write for one item as it arrives (`md` and `junit` write nothing until the end). */
export function streamItem(format: ReportFormat, item: ReportItem): string {
  if (format === 'human') {
    if (item.kind === 'session') return humanSession(item.selected);
    if (item.kind === 'finding') return `${item.path}: ${item.finding.severity} [${item.finding.rule}] ${item.finding.message}\n`;
    return '';
  }
  if (format === 'json' && item.kind === 'session') return jsonSession(item.selected);
  return '';
}

/** Markdown table cell: pipes and line breaks would break the table. */
function cell(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ')
    .replace(/</g, '&lt;');
}

/** A Markdown report for a pull-request comment: a summary, then one row per session. */
export function markdownReport(items: readonly ReportItem[]): string {
  const sessions = items.filter((i) => i.kind === 'session');
  const failed = sessions.filter((i) => i.failed).length;
  const lines = [`## Surface Lens check: ${sessions.length} sessions, ${failed} failing`, ''];
  lines.push(
    '| | session | format | events | nodes | replacements | errors | warnings | first finding |',
    '|---|---|---|---|---|---|---|---|---|',
  );
  for (const item of sessions) {
    const s = item.selected;
    const first = firstError(s) ?? firstWarning(s);
    lines.push(
      `| ${item.failed ? '❌' : '✅'} | ${cell(s.session.path)} | ${s.session.format} | ${s.session.events} | ${s.session.surface.nodes} | ` +
        `${s.session.surface.replacements} | ${count(s.diagnostics, 'error')} | ${count(s.diagnostics, 'warning')} | ` +
        `${first ? `\`${cell(first.rule)}\` ${cell(first.message)}` : ''} |`,
    );
  }
  const other = items.filter((i) => i.kind !== 'session');
  if (other.length > 0) {
    lines.push('', '### Not checked and container findings', '');
    for (const item of other) {
      if (item.kind === 'finding')
        lines.push(`- ${cell(item.path)}: ${item.finding.severity} \`${cell(item.finding.rule)}\` ${cell(item.finding.message)}`);
      else if (item.kind === 'unreadable') lines.push(`- ${cell(item.path)}: unreadable: ${cell(item.message)}`);
      else if (item.kind === 'skipped') lines.push(`- ${cell(item.path)}: skipped (${item.reason}): ${cell(item.message)}`);
    }
  }
  return `${lines.join('\n')}\n`;
}

/** Text as XML character data or attribute value: markup escaped, characters XML 1.0 forbids replaced. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '\uFFFD')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;');
}

/** JUnit XML for CI: one test case per session; a failing one carries its first error. */
export function junitReport(items: readonly ReportItem[]): string {
  const cases: string[] = [];
  let failures = 0;
  let errors = 0;
  let skipped = 0;
  for (const item of items) {
    if (item.kind === 'session') {
      const s = item.selected;
      const name = `name="${xmlText(s.session.path)}" classname="surface-lens.check"`;
      if (!item.failed) {
        cases.push(`    <testcase ${name}/>`);
        continue;
      }
      failures += 1;
      const first = firstError(s) ?? firstWarning(s) ?? { rule: 'check', message: 'failed' };
      const detail = [
        ...(s.session.surfaceError
          ? [`surface error at ${errorPlace(s.session.surfaceError)}, line ${s.session.surfaceError.line ?? '?'}`]
          : []),
        ...s.diagnostics
          .filter((d) => d.severity !== 'info')
          .map((d) => `${d.severity} [${d.rule}]${d.seq !== null ? ` seq ${d.seq}` : ''}: ${d.message}`),
      ].join('\n');
      cases.push(
        `    <testcase ${name}>\n      <failure type="${xmlText(first.rule)}" message="${xmlText(first.message)}">${xmlText(detail).replace(/&#10;/g, '\n')}</failure>\n    </testcase>`,
      );
    } else if (item.kind === 'unreadable') {
      errors += 1;
      cases.push(
        `    <testcase name="${xmlText(item.path)}" classname="surface-lens.check">\n      <error type="unreadable" message="${xmlText(item.message)}"/>\n    </testcase>`,
      );
    } else if (item.kind === 'skipped') {
      skipped += 1;
      cases.push(
        `    <testcase name="${xmlText(item.path)}" classname="surface-lens.check">\n      <skipped message="${xmlText(`${item.reason}: ${item.message}`)}"/>\n    </testcase>`,
      );
    } else if (item.finding.severity === 'error') {
      errors += 1;
      cases.push(
        `    <testcase name="${xmlText(item.path)}" classname="surface-lens.check">\n      <error type="${xmlText(item.finding.rule)}" message="${xmlText(item.finding.message)}"/>\n    </testcase>`,
      );
    }
  }
  const attrs = `name="surface-lens check" tests="${cases.length}" failures="${failures}" errors="${errors}" skipped="${skipped}"`;
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites ${attrs}>\n  <testsuite ${attrs}>\n${cases.join('\n')}${cases.length ? '\n' : ''}  </testsuite>\n</testsuites>\n`;
}

/** What a format writes at the end of the run. */
export function finalReport(format: ReportFormat, items: readonly ReportItem[], html: HtmlReportOptions = {}): string {
  if (format === 'md') return markdownReport(items);
  if (format === 'junit') return junitReport(items);
  if (format === 'html') return htmlReport(items, html);
  return '';
}

/** `seq 87`, or for an event without a number for a seq its position: never "seq undefined". */
function errorPlace(error: { seq: unknown; index: number }): string {
  if (typeof error.seq === 'number') return `seq ${error.seq}`;
  return `position ${error.index} (${error.seq === null ? 'no seq' : `seq ${JSON.stringify(error.seq) ?? String(error.seq)}`})`;
}
