/**
 * Check one log file: open it with the core and reduce every session to what the reports need.
 * The result is plain data (structured-clonable), so a worker thread can compute it and the
 * main thread render it: the output is the same whichever thread checked the file.
 */
import type { SessionAnalysis } from '../../core/analyze/session';
import { sessionDiagnostics } from '../../core/analyze/diagnostics';
import { toJsonRecord } from '../../core/analyze/report';
import { familyCounts, finalMessages } from '../../core/analyze/summary';
import type { Severity } from '../../core/model';
import { derivedMessageSize } from '../../core/qa/size';
import { ReadError, openLogFile } from '../../node/store';

/** Options of {@link checkFile}. */
export interface CheckFileOptions {
  /** `--memory-limit` in bytes. */
  memoryLimitBytes?: number;
  /** Also compute each session's context curve (the HTML report draws it). */
  curve?: boolean;
  /**
   * Also build each session's `--format json` record. Only that format writes it, and its
   * compaction losses re-read every replace's shadowed events, so the other formats skip it.
   */
  record?: boolean;
}

/** Points of a context curve drawn in a report. */
export const CURVE_POINTS = 60;

/** A session's context over its steps, in at most {@link CURVE_POINTS} points. */
export interface CurveSummary {
  steps: number;
  /** Per point: the largest model-view size (JSON bytes of the derived messages) within it. */
  bytes: number[];
  /** Per point: the most derived messages within it. */
  messages: number[];
}

/** A diagnostic or container finding as the reports carry it. */
export interface CheckedDiagnostic {
  severity: Severity;
  rule: string;
  seq: number | null;
  line: number | null;
  message: string;
}

/** One checked session. */
export interface SessionCheck {
  path: string;
  sessionId: string | null;
  format: string;
  events: number;
  /** The seq the log starts at when it is a window of a longer session, else null. */
  windowFrom: number | null;
  /** Events by family, most first. */
  families: [string, number][];
  surface: { nodes: number; replacements: number; messages: number; accepted: number };
  /** `seq` is the refused event's own seq as decoded, null when it has none; `index` its position. */
  surfaceError: { seq: unknown; index: number; line: number | null; rule: string; message: string; event: string | null } | null;
  decodeError: { line: number | null; byte: number | null; rule: string | null; message: string } | null;
  diagnostics: CheckedDiagnostic[];
  /** The `--format json` record (one line of JSON Lines), before rule selection; with `CheckFileOptions.record`, else null. */
  record: Record<string, unknown> | null;
  /** With `CheckFileOptions.curve`, else null. */
  curve: CurveSummary | null;
}

/** One checked file. */
export interface FileCheck {
  path: string;
  /** Why the file could not be read at all, or null. */
  readError: string | null;
  /** Findings about the container (ZIP members refused, …). */
  findings: CheckedDiagnostic[];
  sessions: SessionCheck[];
}

/** Shorten one event's raw text for display. */
function abbreviate(text: string, max = 200): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length <= max ? flat : `${flat.slice(0, max - 1)}…`;
}

function plain(d: CheckedDiagnostic): CheckedDiagnostic {
  return { severity: d.severity, rule: d.rule, seq: d.seq, line: d.line, message: d.message };
}

/** The context curve of a session: every node's derived message sized once, then bucketed. */
export function curveOf(session: SessionAnalysis): CurveSummary {
  const index = session.index;
  const curve = index.curve((seq) => {
    try {
      return derivedMessageSize(session.log.event(seq - session.baseSeq));
    } catch {
      return 0;
    }
  });
  const steps = index.steps;
  const n = Math.max(1, Math.min(CURVE_POINTS, steps + 1));
  const bytes: number[] = [];
  const messages: number[] = [];
  for (let b = 0; b < n; b++) {
    const from = Math.floor((b * (steps + 1)) / n);
    const to = Math.max(from, Math.floor(((b + 1) * (steps + 1)) / n) - 1);
    let size = 0;
    let count = 0;
    for (let k = from; k <= to; k++) {
      size = Math.max(size, curve.bytes?.[k] ?? 0);
      count = Math.max(count, curve.messages[k] ?? 0);
    }
    bytes.push(size);
    messages.push(count);
  }
  return { steps, bytes, messages };
}

/** Reduce one analysed session to plain data. */
export function sessionCheck(session: SessionAnalysis, options: CheckFileOptions = {}): SessionCheck {
  const { fold } = session;
  let event: string | null = null;
  if (fold.error) {
    try {
      event = abbreviate(session.log.raw(fold.error.index));
    } catch {
      // The raw text is a nicety; the error itself is reported.
    }
  }
  const e = session.decodeError;
  return {
    path: session.path,
    sessionId: session.sessionId,
    format: session.format,
    events: session.log.length,
    windowFrom: session.partial ? session.baseSeq : null,
    families: Object.entries(familyCounts(session)).sort((a, b) => b[1] - a[1]),
    surface: {
      nodes: fold.nodes.length,
      replacements: fold.replacements.length,
      messages: finalMessages(session),
      accepted: fold.accepted,
    },
    surfaceError: fold.error && {
      seq: fold.error.seq,
      index: fold.error.index,
      line: fold.error.line,
      rule: fold.error.rule,
      message: fold.error.message,
      event,
    },
    decodeError: e && { line: e.line, byte: e.byte, rule: e.rule ?? null, message: e.message },
    // The session's one complete list: the decode and surface errors in it, once each.
    diagnostics: sessionDiagnostics(session).map(plain),
    record: options.record === true ? toJsonRecord(session) : null,
    curve: options.curve === true ? curveOf(session) : null,
  };
}

/** Open and check one file; never throws for a file that cannot be read or decoded. */
export async function checkFile(path: string, options: CheckFileOptions = {}): Promise<FileCheck> {
  let result;
  try {
    result = await openLogFile(path, {
      ...(options.memoryLimitBytes === undefined
        ? {}
        : { memoryLimitBytes: options.memoryLimitBytes, memoryLimitName: 'the --memory-limit' }),
    });
  } catch (error) {
    if (error instanceof ReadError) return { path, readError: error.message, findings: [], sessions: [] };
    throw error;
  }
  return {
    path,
    readError: null,
    findings: result.findings.map(plain),
    sessions: result.sessions.map((session) => sessionCheck(session, options)),
  };
}
