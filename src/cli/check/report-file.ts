/**
 * One checked file as `check` reports it: its text for the streamed formats, its stderr lines,
 * the exit status it asks for, and the items a whole-run format renders at the end.
 *
 * A worker thread runs this right after the check, so what crosses to the calling thread is a few
 * strings rather than the whole result (cloning every session's JSON record and stringifying it
 * again on the calling thread had been most of that thread's work). The calling thread runs the
 * same function for `--jobs 1`: the output is the same whichever thread reported the file.
 */
import { sessionCost } from '../../core/analysis/cost';
import type { PriceList } from '../../core/analysis/cost';
import type { ModelUsage, TurnUsage } from '../../core/analysis/usage';
import type { FileCheck } from './check-file';
import { streamItem } from './formats';
import type { ReportFormat, ReportItem } from './formats';
import { fails, findingFails, selectSession } from './select';
import type { FailOn, RuleSelection } from './select';

/** What reporting a file needs to know of the run; plain data, so it can be sent to a worker. */
export interface ReportContext {
  format: ReportFormat;
  selection: RuleSelection;
  failOn: FailOn;
  /** `--prices`, or null. */
  prices: PriceList | null;
}

/** One file's part of the report. */
export interface FileReport {
  /** What the streamed formats (`human`, `json`) write for the file; empty for the others. */
  stdout: string;
  /** Lines for stderr (an unreadable file, a file without a session). */
  stderr: string;
  /** The exit status the file asks for: 0, 1 (something failed) or 2 (unreadable). */
  status: number;
  /** What the whole-run formats (`md`, `html`, `junit`) render at the end; empty for the streamed ones. */
  items: ReportItem[];
}

/** Formats whose report is written file by file; the others keep items for the end of the run. */
export function isStreamed(format: ReportFormat): boolean {
  return format === 'human' || format === 'json';
}

/** Report one checked file under the run's format, rule selection, `--fail-on` and prices. */
export function reportFile(file: FileCheck, context: ReportContext): FileReport {
  const { format, failOn, prices } = context;
  const keep = !isStreamed(format);
  const report: FileReport = { stdout: '', stderr: '', status: 0, items: [] };
  const emit = (item: ReportItem): void => {
    if (keep) report.items.push(item);
    report.stdout += streamItem(format, item);
  };
  if (file.readError !== null) {
    report.stderr += `surface-lens: ${file.readError}\n`;
    if (keep) report.items.push({ kind: 'unreadable', path: file.path, message: file.readError });
    report.status = 2;
    return report;
  }
  if (file.sessions.length === 0) {
    report.stderr += `surface-lens: ${file.path}: no session found\n`;
    if (failOn !== 'never') report.status = 1;
  }
  for (const finding of file.findings) {
    emit({ kind: 'finding', path: file.path, finding });
    if (findingFails(finding, failOn)) report.status = 1;
  }
  for (const session of file.sessions) {
    if (prices !== null && session.record !== null) {
      // Priced from the record's usage per model, which the logs carry (they record no cost).
      const usage = session.record.usage as { turns: TurnUsage[]; total: { models: ModelUsage[] } };
      session.record.cost = { ...sessionCost(usage, prices), currency: 'USD' };
    }
    const selected = selectSession(session, context.selection);
    const failed = fails(selected, failOn);
    emit({ kind: 'session', selected, failed });
    if (failed) report.status = 1;
  }
  return report;
}
