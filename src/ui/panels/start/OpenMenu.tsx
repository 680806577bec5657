/**
 * "Open" in the app bar once a log is open: what the start screen offers besides the file
 * picker (which stays beside it as "Open log") — pasted text, a URL, the bundled samples. The log
 * on screen stays until the new one has loaded, and stays if it fails.
 */
import { useState } from 'react';
import { useAppStore } from '../../../store/react';
import { selectSamples } from '../../../store/selectors';
import { Dialog } from '../../widgets/Dialog';
import { MenuButton } from '../../widgets/MenuButton';
import type { MenuItem } from '../../widgets/MenuButton';
import { PasteForm, UrlForm } from './OpenForms';

type OpenDialog = 'paste' | 'url' | null;

export function OpenMenu() {
  const samples = useAppStore(selectSamples);
  const openSource = useAppStore((s) => s.openSource);
  const loadIndex = useAppStore((s) => s.loadSampleIndex);
  const [dialog, setDialog] = useState<OpenDialog>(null);
  const close = () => setDialog(null);
  const items: MenuItem[] = [
    { id: 'paste', label: 'Paste log text…', onSelect: () => setDialog('paste') },
    {
      id: 'url',
      label: 'Open from a URL…',
      description: 'Kept in the address bar: a reload opens it again',
      onSelect: () => setDialog('url'),
    },
    ...samples.map((sample) => ({
      id: `sample-${sample.name}`,
      label: `Sample: ${sample.title}`,
      description: sample.description,
      onSelect: () => void openSource({ kind: 'sample', name: sample.name }),
    })),
  ];
  return (
    <>
      <MenuButton label="Open" listLabel="Open another log" align="end" onOpen={() => void loadIndex()} items={items} />
      <Dialog open={dialog === 'paste'} title="Paste log text" onClose={close}>
        <PasteForm onOpen={close} className="open-dialog-form" />
      </Dialog>
      <Dialog open={dialog === 'url'} title="Open from a URL" onClose={close}>
        <UrlForm onOpen={close} className="open-dialog-form" />
      </Dialog>
    </>
  );
}
