/**
 * The self-contained HTML report of `check --format html`: one file, no network, a strict
 * Content-Security-Policy (nothing may load; the one inline style and the one inline script are
 * allowed by hash), a table of sessions sortable by any column, and each session's context
 * curve as inline SVG. Log content is only ever escaped text; the script moves rows, it never
 * parses markup.
 */
import { createHash } from 'node:crypto';
import type { CheckedDiagnostic, CurveSummary } from './check-file';
import type { ReportItem } from './formats';
import { firstError, firstWarning } from './select';

/** Text as HTML character data or a quoted attribute value. */
export function htmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');
}

const STYLE = `
body{font:14px/1.4 system-ui,sans-serif;margin:1.5rem;color:#1d1f23;background:#fff}
h1{font-size:1.25rem}
table{border-collapse:collapse;width:100%}
th,td{border-bottom:1px solid #d9dce1;padding:.35rem .5rem;text-align:left;vertical-align:top}
th button{font:inherit;font-weight:600;background:none;border:0;padding:0;cursor:pointer}
th[aria-sort=ascending] button::after{content:" ▲"}
th[aria-sort=descending] button::after{content:" ▼"}
td.n{text-align:right;font-variant-numeric:tabular-nums}
td.path{word-break:break-all;max-width:28rem}
tr.fail td:first-child{color:#b3261e;font-weight:600}
tr.pass td:first-child{color:#1e7a34}
svg{display:block}
ul.other{padding-left:1.2rem}
`;

/** Sorting: a header click orders the rows by that column's data-v (numbers numerically). */
const SCRIPT = `
(function () {
  var table = document.getElementById('sessions');
  if (!table) return;
  var body = table.tBodies[0];
  var heads = table.tHead.rows[0].cells;
  function value(row, i) { return row.cells[i].getAttribute('data-v') || ''; }
  Array.prototype.forEach.call(heads, function (th, i) {
    var button = th.querySelector('button');
    if (!button) return;
    button.addEventListener('click', function () {
      var descending = th.getAttribute('aria-sort') === 'ascending';
      Array.prototype.forEach.call(heads, function (h) { h.removeAttribute('aria-sort'); });
      th.setAttribute('aria-sort', descending ? 'descending' : 'ascending');
      var numeric = th.getAttribute('data-type') === 'number';
      var rows = Array.prototype.slice.call(body.rows);
      rows.sort(function (a, b) {
        var x = value(a, i), y = value(b, i);
        var c = numeric ? Number(x) - Number(y) : (x < y ? -1 : x > y ? 1 : 0);
        return descending ? -c : c;
      });
      rows.forEach(function (r) { body.appendChild(r); });
    });
  });
})();
`;

function hash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** The policy the report carries; exported so tests check the page against it. */
export const REPORT_CSP = `default-src 'none'; style-src ${hash(STYLE)}; script-src ${hash(SCRIPT)}; img-src 'none'; base-uri 'none'; form-action 'none'`;

/** A sparkline of the model-view size over the steps. */
function curveSvg(curve: CurveSummary | null): string {
  if (curve === null || curve.bytes.length === 0) return '';
  const width = 160;
  const height = 32;
  const max = Math.max(1, ...curve.bytes);
  const n = curve.bytes.length;
  const points = curve.bytes
    .map((b, i) => `${(n === 1 ? width : (i * width) / (n - 1)).toFixed(1)},${(height - 1 - (b / max) * (height - 2)).toFixed(1)}`)
    .join(' ');
  const label = `context over ${curve.steps} steps: up to ${max} bytes, ${Math.max(0, ...curve.messages)} messages`;
  return `<svg width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" role="img" aria-label="${htmlText(label)}"><title>${htmlText(label)}</title><polyline fill="none" stroke="#3b6fd6" stroke-width="1.5" points="${points}"/></svg>`;
}

function count(diagnostics: readonly CheckedDiagnostic[], severity: CheckedDiagnostic['severity']): number {
  return diagnostics.reduce((n, d) => n + (d.severity === severity ? 1 : 0), 0);
}

const cell = (value: string | number, text: string, numeric = false, extra = ''): string =>
  `<td${numeric ? ' class="n"' : extra} data-v="${htmlText(String(value))}">${text}</td>`;

/** What the HTML report may add to its rows. */
export interface HtmlReportOptions {
  /**
   * The address of a session in the app served by `surface-lens view` (the `--view-url` base
   * and the session's store id), or null when it has none. Called with the file's path.
   */
  linkOf?: (file: string) => string | null;
}

/** The file a session's path names (`archive.zip!member` is in `archive.zip`). */
const fileOf = (path: string): string => {
  const at = path.indexOf('.zip!');
  return at < 0 ? path : path.slice(0, at + 4);
};

/** A link that opens the session in the app (the address is ours, never log text), or an empty cell. */
function linkCell(href: string | null): string {
  return href === null ? '<td></td>' : `<td><a href="${htmlText(href)}" rel="noopener noreferrer">open</a></td>`;
}

/** The whole report as one HTML document. */
export function htmlReport(items: readonly ReportItem[], options: HtmlReportOptions = {}): string {
  const rows: string[] = [];
  const other: string[] = [];
  let failed = 0;
  for (const item of items) {
    if (item.kind !== 'session') {
      const what =
        item.kind === 'finding'
          ? `${item.finding.severity} [${item.finding.rule}] ${item.finding.message}`
          : item.kind === 'unreadable'
            ? `unreadable: ${item.message}`
            : `skipped (${item.reason}): ${item.message}`;
      other.push(`<li>${htmlText(item.path)}: ${htmlText(what)}</li>`);
      continue;
    }
    const s = item.selected;
    if (item.failed) failed += 1;
    const first = firstError(s) ?? firstWarning(s);
    const firstText = first ? `[${first.rule}] ${first.message}` : '';
    rows.push(
      `<tr class="${item.failed ? 'fail' : 'pass'}">` +
        cell(item.failed ? 1 : 0, item.failed ? 'fail' : 'pass') +
        cell(s.session.path, htmlText(s.session.path), false, ' class="path"') +
        cell(s.session.sessionId ?? '', htmlText(s.session.sessionId ?? '')) +
        cell(s.session.format, htmlText(s.session.format)) +
        cell(s.session.events, String(s.session.events), true) +
        cell(s.session.surface.nodes, String(s.session.surface.nodes), true) +
        cell(s.session.surface.replacements, String(s.session.surface.replacements), true) +
        cell(count(s.diagnostics, 'error'), String(count(s.diagnostics, 'error')), true) +
        cell(count(s.diagnostics, 'warning'), String(count(s.diagnostics, 'warning')), true) +
        cell(firstText, htmlText(firstText)) +
        cell(s.session.curve ? Math.max(0, ...s.session.curve.bytes) : 0, curveSvg(s.session.curve)) +
        (options.linkOf ? linkCell(options.linkOf(fileOf(s.session.path))) : '') +
        '</tr>',
    );
  }
  const head = (label: string, type: 'number' | 'text'): string => `<th data-type="${type}"><button type="button">${label}</button></th>`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<title>Surface Lens check: ${rows.length} sessions, ${failed} failing</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Surface Lens check: ${rows.length} sessions, ${failed} failing</h1>
<table id="sessions">
<thead><tr>${head('status', 'number')}${head('session file', 'text')}${head('id', 'text')}${head('format', 'text')}${head('events', 'number')}${head('nodes', 'number')}${head('replacements', 'number')}${head('errors', 'number')}${head('warnings', 'number')}${head('first finding', 'text')}${head('context', 'number')}${options.linkOf ? '<th>app</th>' : ''}</tr></thead>
<tbody>
${rows.join('\n')}
</tbody>
</table>
${other.length ? `<h2>Not checked and container findings</h2>\n<ul class="other">\n${other.join('\n')}\n</ul>\n` : ''}<script>${SCRIPT}</script>
</body>
</html>
`;
}
