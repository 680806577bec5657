/**
 * "Export": the model view and the surface node list at the cursor (JSON), and the
 * diagnostics/QA report (JSON or Markdown), downloaded as files.
 */
import type { ExportKind } from '../../../protocol/protocol';
import { useAppStore } from '../../../store/react';
import { selectExportError, selectExporting, selectIsReady, selectStep } from '../../../store/selectors';
import { MenuButton } from '../../widgets/MenuButton';
import { formatCount } from '../../format';

export function ExportMenu() {
  const ready = useAppStore(selectIsReady);
  const step = useAppStore(selectStep);
  const exporting = useAppStore(selectExporting);
  const error = useAppStore(selectExportError);
  const exportFile = useAppStore((s) => s.exportFile);
  const at = `step ${formatCount(step)}`;
  const items: { id: ExportKind; label: string; description: string }[] = [
    { id: 'model-view', label: `Model view at ${at} (JSON)`, description: 'The messages array the model receives.' },
    { id: 'surface', label: `Surface nodes at ${at} (JSON)`, description: 'The node list, in surface order.' },
    { id: 'report-json', label: 'Diagnostics and QA report (JSON)', description: 'Every finding, with rule, seq and line.' },
    { id: 'report-markdown', label: 'Diagnostics and QA report (Markdown)', description: 'The same report, to read or paste.' },
  ];
  return (
    <span className="export">
      <MenuButton
        label={exporting ? 'Exporting…' : 'Export'}
        ariaLabel="Export"
        listLabel="Exports"
        align="end"
        disabled={!ready}
        items={items.map((item) => ({ ...item, disabled: exporting !== null, onSelect: () => void exportFile(item.id) }))}
      />
      {error ? (
        <span className="sev-error export-error" role="alert">
          {error}
        </span>
      ) : null}
    </span>
  );
}
