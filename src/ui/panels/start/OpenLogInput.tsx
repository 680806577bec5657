/**
 * The one file input of the app, labelled "Open log". Exactly one is mounted at a time (on the
 * start screen before a load, in the header after), so "Open log" always names one control.
 */
import { useAppStore } from '../../../store/react';
import type { FileHandleLike } from '../../../store/types';
import { IDS } from '../../ids';

/** Chromium's File System Access picker, where there is one: its handle lets a file be followed. */
interface PickedHandle extends FileHandleLike {
  getFile(): Promise<File>;
}
type OpenFilePicker = () => Promise<PickedHandle[]>;

function filePicker(): OpenFilePicker | null {
  const picker = (globalThis as { showOpenFilePicker?: OpenFilePicker }).showOpenFilePicker;
  return typeof picker === 'function' ? picker.bind(globalThis) : null;
}

export function OpenLogInput({ variant = 'primary' }: { variant?: 'primary' | 'compact' }) {
  const openSource = useAppStore((s) => s.openSource);
  return (
    <label
      className={`file-button file-button-${variant}`}
      onClick={(event) => {
        const picker = filePicker();
        if (picker === null) return;
        // Picked through the handle, the file can be read again later (Follow).
        event.preventDefault();
        void (async () => {
          try {
            const [handle] = await picker();
            if (!handle) return;
            const file = await handle.getFile();
            void openSource({ kind: 'file', file, name: file.name, handle });
          } catch {
            // The picker was dismissed.
          }
        })();
      }}
    >
      <input
        id={IDS.openLog}
        type="file"
        className="file-input"
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          if (file) void openSource({ kind: 'file', file, name: file.name });
          // Let the same file be picked again (to reload it).
          event.currentTarget.value = '';
        }}
      />
      Open log
    </label>
  );
}
