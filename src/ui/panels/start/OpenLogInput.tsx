/**
 * The one file input of the app, labelled "Open log". Exactly one is mounted at a time (on the
 * start screen before a load, in the header after), so "Open log" always names one control.
 */
import { useAppStore } from '../../../store/react';
import { IDS } from '../../ids';

export function OpenLogInput({ variant = 'primary' }: { variant?: 'primary' | 'compact' }) {
  const openSource = useAppStore((s) => s.openSource);
  return (
    <label className={`file-button file-button-${variant}`}>
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
