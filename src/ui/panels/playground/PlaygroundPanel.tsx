/**
 * The playground's own controls (in the sandbox store): undo, redo, export as session.jsonl,
 * the outcome of the last candidate (a refusal shows the exact rule message; the log is
 * unchanged), pending tool calls, the templates and the replace composer.
 */
import { useAppStore } from '../../../store/react';
import {
  selectExporting,
  selectLastAccepted,
  selectPlayground,
  selectPlaygroundBusy,
  selectPlaygroundError,
  selectRefusal,
} from '../../../store/selectors';
import { EmptyState } from '../../widgets/EmptyState';
import { Panel } from '../../widgets/Panel';
import { formatCount, plural } from '../../format';
import { ReplaceComposer } from './ReplaceComposer';
import { TemplateForm } from './TemplateForm';

export const PLAYGROUND_TITLE = 'Playground';

export function PlaygroundPanel() {
  const playground = useAppStore(selectPlayground);
  const refusal = useAppStore(selectRefusal);
  const accepted = useAppStore(selectLastAccepted);
  const busy = useAppStore(selectPlaygroundBusy);
  const error = useAppStore(selectPlaygroundError);
  const exporting = useAppStore(selectExporting) === 'playground';
  const undo = useAppStore((s) => s.undo);
  const redo = useAppStore((s) => s.redo);
  const exportPlayground = useAppStore((s) => s.exportPlayground);
  if (!playground) {
    return (
      <Panel title={PLAYGROUND_TITLE}>
        <EmptyState title="No playground" />
      </Panel>
    );
  }
  const { summary } = playground;
  return (
    <Panel title={PLAYGROUND_TITLE} meta={`${plural(summary.events, 'event')} · ${plural(summary.nodes, 'node')}`} className="playground">
      <div className="toolbar pg-toolbar">
        <button type="button" onClick={() => void undo()} disabled={busy || !playground.canUndo} title="Remove the last event">
          ↶ Undo
        </button>
        <button type="button" onClick={() => void redo()} disabled={busy || !playground.canRedo} title="Put back the last undone event">
          ↷ Redo
        </button>
        <button type="button" onClick={() => void exportPlayground()} disabled={busy} title="Download the playground log">
          {exporting ? 'Exporting…' : '⤓ Export session.jsonl'}
        </button>
      </div>
      <div className="pg-body">
        <p className="hint pg-note">A scratch log kept by the engine: the file you opened is not changed.</p>
        {refusal ? (
          <div className="pg-refusal" role="alert">
            <p className="pg-refusal-head">
              {/* Text that does not parse never reaches the fold: say what refused it. */}
              <span aria-hidden="true">✕</span> {refusal.rule === 'playground/json' ? 'Not valid JSON' : 'Refused by the fold'}{' '}
              <span className="mono muted">{refusal.rule}</span>
            </p>
            <p className="pg-refusal-message mono">{refusal.message}</p>
            <p className="hint">Nothing was appended: the log, the surface and the cursor are unchanged.</p>
          </div>
        ) : accepted !== null ? (
          <p className="pg-accepted">
            <span aria-hidden="true">✓</span> Accepted as seq {formatCount(accepted)}.
          </p>
        ) : null}
        {error ? <p className="panel-error">{error}</p> : null}
        {playground.pendingCalls.length > 0 ? (
          <p className="pg-pending">
            Waiting for a result:{' '}
            {playground.pendingCalls.map((p) => (
              <span key={p.callId} className="badge fam-tool">
                {p.name} · {p.callId}
              </span>
            ))}
          </p>
        ) : null}
        <TemplateForm playground={playground} />
        <ReplaceComposer />
      </div>
    </Panel>
  );
}
