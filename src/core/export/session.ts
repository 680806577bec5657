/**
 * One call for every "file to send" (the app's export through the worker, the same as the
 * CLI's): the log cut at a step, or the self-contained page, optionally redacted, with the
 * redaction's counts.
 */
import type { SessionAnalysis } from '../analyze/session';
import { Redactor } from '../redact/redactor';
import type { RedactReport } from '../redact/redactor';
import { clampStep, exportLogText } from './log';
import { standaloneHtml } from './standalone';

/** What to write. */
export interface SessionExportRequest {
  /** `jsonl`: the log itself; `html`: the viewer page with the log inside. */
  format: 'jsonl' | 'html';
  /** Keep the first `step` events (the cursor); the page opens there. */
  step: number;
  /** The event the page selects, or null. */
  seq: number | null;
  redact: boolean;
  /** The built viewer (`standalone.html`); required for `html`. */
  template?: string | undefined;
}

/** The file written, and what redaction replaced (null when not asked). */
export interface SessionExportResult {
  name: string;
  mime: string;
  text: string;
  redaction: RedactReport | null;
}

const baseName = (session: SessionAnalysis): string =>
  (session.sessionId ?? session.path.split(/[\\/!]/).pop() ?? 'session')
    .replace(/\.(jsonl|zstd|zst|gz|zip|json)$/gi, '')
    .replace(/[^A-Za-z0-9_.-]/g, '_') || 'session';

/**
 * Write a session to send.
 * @throws Error for `html` without a template, or a template that is not the built viewer
 */
export function exportSession(session: SessionAnalysis, request: SessionExportRequest): SessionExportResult {
  const step = clampStep(session, request.step);
  const redactor = request.redact ? new Redactor() : undefined;
  const name = `${baseName(session)}.step-${step}${request.redact ? '.redacted' : ''}`;
  if (request.format === 'jsonl') {
    const text = exportLogText(session, { step, redactor });
    return { name: `${name}.jsonl`, mime: 'application/jsonl', text, redaction: redactor?.report() ?? null };
  }
  if (request.template === undefined) throw new Error('the self-contained page needs the built viewer (standalone.html)');
  const text = standaloneHtml(request.template, session, { step, redactor, seq: request.seq, name: `${name}.jsonl` });
  return { name: `${name}.html`, mime: 'text/html', text, redaction: redactor?.report() ?? null };
}
