/** Exports of a session: the model view or surface at a step, the report, one event's raw line. */
import { toJsonRecord, toMarkdownReport } from '../../core/analyze/report';
import { deriveEventMessage } from '../../core/fold/manager';
import { exportSession as writeSession } from '../../core/export/session';
import type { EventParams, ExportFile, ExportSessionParams, ExportTextParams, SessionExportResult } from '../../protocol/protocol';
import type { QuerySession } from './session';
import { surfaceNode } from './surface';

function baseName(q: QuerySession): string {
  const s = q.session;
  return (s.sessionId ?? s.path.split(/[\\/!]/).pop() ?? 'session').replace(/[^A-Za-z0-9_.-]/g, '_');
}

/**
 * The raw line of one event, whole, as a file: how the inspector offers an event too large
 * to send in a detail (a user action, so the size is the user's choice).
 */
export function exportEvent(q: QuerySession, { seq }: EventParams): ExportFile {
  const index = q.indexOf(seq);
  return { name: `${baseName(q)}.event-${seq}.jsonl`, mime: 'application/jsonl', text: `${q.session.log.raw(index)}\n` };
}

export function exportText(q: QuerySession, { kind, step }: ExportTextParams): ExportFile {
  const base = baseName(q);
  const k = q.clampStep(step);
  const tt = q.session.index;
  switch (kind) {
    case 'model-view': {
      const messages = tt
        .nodesAt(k)
        .map((seq) => deriveEventMessage(q.event(seq)))
        .filter((m) => m !== null);
      return { name: `${base}.model-view.step-${k}.json`, mime: 'application/json', text: `${JSON.stringify(messages, null, 2)}\n` };
    }
    case 'surface': {
      const nodes = tt.nodesAt(k).map((seq) => surfaceNode(q, seq));
      return { name: `${base}.surface.step-${k}.json`, mime: 'application/json', text: `${JSON.stringify({ step: k, nodes }, null, 2)}\n` };
    }
    case 'report-json':
      return {
        name: `${base}.report.json`,
        mime: 'application/json',
        text: `${JSON.stringify(toJsonRecord(q.session), null, 2)}\n`,
      };
    case 'report-markdown':
      return { name: `${base}.report.md`, mime: 'text/markdown', text: toMarkdownReport(q.session) };
  }
}

/** A file to send: the log cut at a step or the self-contained page (one core call, as the CLI's). */
export function exportSession(q: QuerySession, { session: _session, ...request }: ExportSessionParams): SessionExportResult {
  return writeSession(q.session, request);
}
