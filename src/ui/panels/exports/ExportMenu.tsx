/**
 * "Export": the model view and the surface node list at the cursor (JSON), the diagnostics/QA
 * report (JSON or Markdown), and the files to send — the self-contained page and the log cut at
 * the cursor, redacted when the box is ticked — downloaded as files. The engine writes them.
 */
import type { ExportKind } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import {
  selectExportError,
  selectExportNote,
  selectExporting,
  selectIsReady,
  selectRedactExports,
  selectStep,
} from '../../../store/selectors';
import type { SessionExportFormat } from '../../../store/types';
import { MenuButton } from '../../widgets/MenuButton';
import { formatCount } from '../../format';

export function ExportMenu() {
  const ready = useAppStore(selectIsReady);
  const step = useAppStore(selectStep);
  const exporting = useAppStore(selectExporting);
  const error = useAppStore(selectExportError);
  const note = useAppStore(selectExportNote);
  const redact = useAppStore(selectRedactExports);
  const exportFile = useAppStore((s) => s.exportFile);
  const exportSession = useAppStore((s) => s.exportSession);
  const setRedact = useAppStore((s) => s.setRedactExports);
  const at = `step ${formatCount(step)}`;
  const items: { id: ExportKind; label: string; description: string }[] = [
    { id: 'model-view', label: `Model view at ${at} (JSON)`, description: 'The messages array the model receives.' },
    { id: 'surface', label: `Surface nodes at ${at} (JSON)`, description: 'The node list, in surface order.' },
    { id: 'report-json', label: 'Diagnostics and QA report (JSON)', description: 'Every finding, with rule, seq and line.' },
    { id: 'report-markdown', label: 'Diagnostics and QA report (Markdown)', description: 'The same report, to read or paste.' },
  ];
  const toSend: { id: SessionExportFormat; label: string; description: string }[] = [
    {
      id: 'html',
      label: `Self-contained HTML at ${at}`,
      description: 'The viewer and the session in one file; opens offline at this step.',
    },
    { id: 'jsonl', label: `Log (cut at cursor, ${at})`, description: 'The header and the events up to the cursor: a minimal repro.' },
  ];
  return (
    <span className="export">
      <MenuButton
        label={exporting ? 'Exporting…' : 'Export'}
        ariaLabel="Export"
        listLabel="Exports"
        align="end"
        disabled={!ready}
        items={[
          ...items.map((item) => ({ ...item, disabled: exporting !== null, onSelect: () => void exportFile(item.id) })),
          ...toSend.map((item) => ({
            ...item,
            id: `send-${item.id}`,
            disabled: exporting !== null,
            onSelect: () => void exportSession(item.id),
          })),
        ]}
        footer={
          <label className="export-redact">
            <input type="checkbox" checked={redact} onChange={(event) => setRedact(event.currentTarget.checked)} /> Redact secrets, paths
            and e-mail addresses
          </label>
        }
      />
      {error ? (
        <span className="sev-error export-error" role="alert">
          {error}
        </span>
      ) : null}
      {note && !error ? (
        <span className="muted export-note" role="status">
          {note}
        </span>
      ) : null}
    </span>
  );
}
