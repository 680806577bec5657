/** Small things a newcomer reads: plurals, full fingerprints, MiB. */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { App } from '../../src/ui/App';
import { formatBytes } from '../../src/ui/format';
import { renderFixture } from './harness';

describe('what the header and status bar say', () => {
  it('counts with plurals and shows the whole fingerprint', async () => {
    const { store } = await renderFixture(<App />, 'teaching.jsonl');
    const session = store.getState().load!.sessions[0]!;
    const details = document.querySelector('.status-details')?.textContent ?? '';
    expect(details).toContain(`fp ${session.fingerprint}`);
    const header = document.querySelector('header')?.textContent ?? '';
    // The teaching sample ends with 2 nodes after 2 replaces.
    expect(header).toContain('54 events · 2 nodes · 2 replaces');
    expect(header).not.toMatch(/\b1 (nodes|replaces|events)\b/);
    expect(screen.getByRole('status').textContent).toBe('Loaded 54 events.');
  });

  it('binary byte units are named as such', () => {
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MiB');
  });
});
