/**
 * A session written back as session JSONL, optionally cut at a step and redacted: the file to
 * send (`export --jsonl`, the app's "Log (cut at cursor)") and the payload of the self-contained
 * HTML export.
 *
 * Cut at step K, the log holds the header and the first K events, so opening it folds exactly
 * as the first K events of the original did (a minimal repro). Session JSONL rows are kept as
 * they are (byte for byte unless redacted); a packed chunk row cut inside keeps its first
 * members and is still a packed row. Other text forms (stream-json, JSON-RPC captures, arrays)
 * and envelope-projected snapshots are written as one complete event per line.
 */
import type { SessionAnalysis } from '../analyze/session';
import { redactRecord } from '../redact/event';
import type { Redactor } from '../redact/redactor';

/** How to write a session. */
export interface ExportLogOptions {
  /** Keep the first `step` events (the cursor); all of them when absent. */
  step?: number | undefined;
  /** Rewrite every string through this redactor before it is written. */
  redactor?: Redactor | undefined;
}

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => v !== null && typeof v === 'object' && !Array.isArray(v);

/** The number of events a cut at `step` keeps: `step` within [0, events]. */
export function clampStep(session: SessionAnalysis, step: number | undefined): number {
  const n = session.log.length;
  if (step === undefined || !Number.isFinite(step)) return n;
  return Math.max(0, Math.min(n, Math.floor(step)));
}

/** A packed row keeping its first `members` members (log-format.md §3.2: `dt` has one gap fewer). */
function cutPackedRow(row: Obj, members: number): Obj {
  const data = row.data as Obj;
  const key = Array.isArray(data.args) ? 'args' : 'texts';
  const payload = data[key] as unknown[];
  const dt = data.dt as unknown[];
  return { ...row, data: { ...data, dt: dt.slice(0, members - 1), [key]: payload.slice(0, members) } };
}

/**
 * The lines of the written log, header first, each without its LF.
 * @throws Error when the session's rows cannot be read back (they were decoded once, so only a
 *   changed source can do that)
 */
export function* exportLogLines(session: SessionAnalysis, options: ExportLogOptions = {}): Generator<string, void, undefined> {
  const { log } = session;
  const n = clampStep(session, options.step);
  const redactor = options.redactor;
  const originalOf = (seq: number): unknown => {
    const i = seq - session.baseSeq;
    return Number.isInteger(i) && i >= 0 && i < log.length ? log.event(i) : null;
  };
  const write = (record: unknown): string =>
    redactor ? JSON.stringify(redactRecord(record, redactor, originalOf).value) : JSON.stringify(record);

  if (session.header !== null) yield write(session.header);
  const projected = (log as { projected?: boolean }).projected === true;
  if (session.form.text !== 'jsonl' || projected) {
    for (let i = 0; i < n; i++) yield write(log.event(i));
    return;
  }
  // Session JSONL: one line per row; a row holds one event, or a packed run of members.
  let i = 0;
  while (i < n) {
    const { byte, member } = log.origin(i);
    let end = i + 1;
    if (member >= 0) while (end < log.length && log.origin(end).byte === byte) end++;
    if (end <= n) {
      yield redactor ? write(JSON.parse(log.raw(i))) : log.raw(i);
    } else {
      const row: unknown = JSON.parse(log.raw(i));
      yield write(isObj(row) ? cutPackedRow(row, n - i) : row);
    }
    i = Math.min(end, n);
  }
}

/** {@link exportLogLines} as one text, every line ending in LF. */
export function exportLogText(session: SessionAnalysis, options: ExportLogOptions = {}): string {
  let text = '';
  for (const line of exportLogLines(session, options)) text += `${line}\n`;
  return text;
}
