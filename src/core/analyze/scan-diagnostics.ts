/**
 * Diagnostics about the text of a session rather than its events: the header line (loader view)
 * and what upstream's line scanner would make of damage (torn tail or fatal).
 */
import type { HeaderLineResult } from '../checks/header';
import type { JsonlScanner, TextSession } from '../decode/jsonl';
import type { Diagnostic } from '../model';
import { bomDiagnostic } from '../decode/bom';
import { PROJECTED_MESSAGE, PROJECTED_RULE } from '../decode/projected';

/** Rule of the JSON-RPC notifications shown as context (log-format.md §9.1). */
export const RPC_CONTEXT_RULE = 'decode/rpc-notification';

const ZSTD_TORN_RECORD = 'corrupt Zstandard session log: complete frame contains a torn JSONL record';

/**
 * @param header the header-line verdict for session JSONL, checked once when the session was
 *   found (null for the other text forms)
 * @param zstdTornRecord for Zstandard input: whether damage sits inside complete frames (null
 *   for other inputs)
 */
export function diagnosticsForScan(
  scanner: JsonlScanner,
  session: TextSession,
  header: HeaderLineResult | null,
  zstdTornRecord: boolean | null,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (scanner.bom) out.push(bomDiagnostic());
  if (session.format === 'stream-json') return out;
  if (session.format === 'jsonrpc') {
    for (const note of scanner.contextNotes)
      out.push({ severity: 'info', rule: RPC_CONTEXT_RULE, seq: null, line: note.line, message: note.message });
    return out;
  }
  if (scanner.projected) out.push({ severity: 'info', rule: PROJECTED_RULE, seq: null, line: null, message: PROJECTED_MESSAGE });
  if (session.format === 'headerless-jsonl') {
    out.push({
      severity: 'warning',
      rule: 'extra/missing-header',
      seq: null,
      line: 1,
      message: 'the log has no session header: its first line is an event (not an upstream artifact; folded anyway)',
    });
  } else if (header !== null) {
    out.push(...header.findings);
  }
  const loader = scanner.loader;
  const headerOffset = scanner.headerLine;
  const issue = loader.issue === null ? null : withFileLine(loader.issue, loader.issueLine, headerOffset);
  if (loader.fatal && issue !== null) {
    out.push({ severity: 'error', rule: 'loader/fatal-damage', seq: null, line: lineOf(loader.issueLine, headerOffset), message: issue });
  } else if (zstdTornRecord) {
    out.push({
      severity: 'error',
      rule: 'zstd/torn-record',
      seq: null,
      line: lineOf(loader.issueLine, headerOffset),
      message: ZSTD_TORN_RECORD,
    });
  } else if (loader.issue !== null) {
    out.push({
      severity: 'warning',
      rule: 'loader/torn-tail',
      seq: null,
      line: lineOf(loader.issueLine, headerOffset),
      message: `upstream's loader would keep the first ${loader.accepted} events and treat the rest as a torn tail: ${issue ?? ''}`,
    });
  }
  if (loader.tornBytes > 0) {
    out.push({
      severity: 'info',
      rule: 'loader/torn-line',
      seq: null,
      line: null,
      message: `the last ${loader.tornBytes} bytes (after byte ${loader.committedBytes}) have no terminating LF: an unfinished line, ignored`,
    });
  }
  return out;
}

/**
 * Upstream's scanner counts the lines after the header, so its message says "line 521" for
 * what is line 522 of the file, the number every other view shows. The exact message stays;
 * the file's line follows it.
 */
function withFileLine(issue: string, loaderLine: number | null, headerLine: number): string {
  if (loaderLine === null || headerLine === 0) return issue;
  return `${issue} — line ${loaderLine + headerLine} of the file (dsh counts the lines after the header)`;
}

function lineOf(loaderLine: number | null, headerLine: number): number | null {
  return loaderLine === null ? null : loaderLine + headerLine;
}
