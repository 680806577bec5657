/**
 * Check one log file: open it with the core and reduce every session to what the reports need.
 * The result is plain data (structured-clonable), so a worker thread can compute it and the
 * main thread render it: the output is the same whichever thread checked the file.
 */
import type { SessionAnalysis } from '../../core/analyze/session';
import { toJsonRecord } from '../../core/analyze/report';
import { familyCounts, finalMessages } from '../../core/analyze/summary';
import type { Severity } from '../../core/model';
import { ReadError, openLogFile } from '../../node/store';

/** Options of {@link checkFile}. */
export interface CheckFileOptions {
  /** `--memory-limit` in bytes. */
  memoryLimitBytes?: number;
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
  /** The `--format json` record (one line of JSON Lines), before rule selection. */
  record: Record<string, unknown>;
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

/** Reduce one analysed session to plain data. */
export function sessionCheck(session: SessionAnalysis): SessionCheck {
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
    surface: { nodes: fold.nodes.length, replacements: fold.replacements.length, messages: finalMessages(session), accepted: fold.accepted },
    surfaceError: fold.error && { seq: fold.error.seq, index: fold.error.index, line: fold.error.line, rule: fold.error.rule, message: fold.error.message, event },
    decodeError: e && { line: e.line, byte: e.byte, rule: e.rule ?? null, message: e.message },
    diagnostics: session.diagnostics.map(plain),
    record: toJsonRecord(session),
  };
}

/** Open and check one file; never throws for a file that cannot be read or decoded. */
export async function checkFile(path: string, options: CheckFileOptions = {}): Promise<FileCheck> {
  let result;
  try {
    result = await openLogFile(path, {
      ...(options.memoryLimitBytes === undefined ? {} : { memoryLimitBytes: options.memoryLimitBytes, memoryLimitName: 'the --memory-limit' }),
    });
  } catch (error) {
    if (error instanceof ReadError) return { path, readError: error.message, findings: [], sessions: [] };
    throw error;
  }
  return { path, readError: null, findings: result.findings.map(plain), sessions: result.sessions.map(sessionCheck) };
}
