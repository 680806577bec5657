/**
 * Diagnostics about the text of a session rather than its events: the header line (loader view)
 * and what upstream's line scanner would make of damage (torn tail or fatal).
 */
import type { HeaderLineResult } from '../checks/header';
import type { JsonlScanner, TextSession } from '../decode/jsonl';
import type { Diagnostic } from '../model';

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
  if (session.format === 'stream-json') return out;
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
  if (loader.fatal && loader.issue !== null) {
    out.push({ severity: 'error', rule: 'loader/fatal-damage', seq: null, line: lineOf(loader.issueLine, headerOffset), message: loader.issue });
  } else if (zstdTornRecord) {
    out.push({ severity: 'error', rule: 'zstd/torn-record', seq: null, line: lineOf(loader.issueLine, headerOffset), message: ZSTD_TORN_RECORD });
  } else if (loader.issue !== null) {
    out.push({
      severity: 'warning',
      rule: 'loader/torn-tail',
      seq: null,
      line: lineOf(loader.issueLine, headerOffset),
      message: `upstream's loader would keep the first ${loader.accepted} events and treat the rest as a torn tail: ${loader.issue}`,
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

function lineOf(loaderLine: number | null, headerLine: number): number | null {
  return loaderLine === null ? null : loaderLine + headerLine;
}
