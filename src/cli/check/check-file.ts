/**
 * Check one log file: open it with the core and reduce every session to what the reports need.
 * The result is plain data (structured-clonable), so a worker thread can compute it and the
 * main thread render it: the output is the same whichever thread checked the file.
 */
import type { Diagnostic } from '../../core/model';
import { toJsonRecord } from '../../core/analyze/report';
import { hasProblems } from '../../core/analyze/summary';
import { ReadError, openLogFile } from '../../node/store';
import { formatHuman } from '../format';

/** Options of {@link checkFile}. */
export interface CheckFileOptions {
  /** `--memory-limit` in bytes. */
  memoryLimitBytes?: number;
}

/** One checked session. */
export interface SessionCheck {
  /** The `--format json` record (one line of JSON Lines). */
  record: Record<string, unknown>;
  /** The human-readable report. */
  human: string;
  /** A surface error, a decode error or an error diagnostic. */
  problems: boolean;
}

/** One checked file. */
export interface FileCheck {
  path: string;
  /** Why the file could not be read at all, or null. */
  readError: string | null;
  /** Findings about the container (ZIP members refused, …). */
  findings: Diagnostic[];
  sessions: SessionCheck[];
}

/** Open and check one file; never throws for a bad file. */
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
  return {
    path,
    readError: null,
    findings: result.findings,
    sessions: result.sessions.map((session) => ({ record: toJsonRecord(session), human: formatHuman(session), problems: hasProblems(session) })),
  };
}
