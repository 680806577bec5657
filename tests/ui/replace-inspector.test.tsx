import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Inspector } from '../../src/ui/panels/inspector/Inspector';
import { ReplaceInspector } from '../../src/ui/panels/replace/ReplaceInspector';
import { ShadowedRanges } from '../../src/ui/panels/ShadowedRanges';
import { fixtureText } from '../support/test-engine';
import { renderFixture, renderWith } from './harness';
import { engineStoreWithText } from '../store/helpers';

// The teaching sample on the real engine: the prune 30 replaced the tool result 11 (step 31) and
// the checkpoint 43 (bracket 41…44, summary 42) replaced 2…39, the prune among them (step 44).
const renderLoaded = (ui: Parameters<typeof renderFixture>[0]) => renderFixture(ui, 'teaching.jsonl');

/**
 * The teaching sample with a careless compaction: its summary declares 2, 9, 30, 22 of the six
 * seqs the checkpoint shadows, the checkpoint does not cite its compaction/start, and the
 * compaction/end names another compaction.
 */
function carelessCompaction(): string {
  return fixtureText('teaching.jsonl')
    .split('\n')
    .map((line) => {
      if (line.includes('"compaction/summary"')) return line.replace('"shadowedSeqs":[2,9,30,22,28,39]', '"shadowedSeqs":[2,9,30,22]');
      if (line.includes('"seq":43,')) return line.replace('"sourceEventSeqs":[41,42,', '"sourceEventSeqs":[42,');
      if (line.includes('"compaction/end"')) return line.replace('"compactionId":"compaction-8"', '"compactionId":"compaction-9"');
      return line;
    })
    .join('\n');
}

const dialog = () => screen.getByRole('dialog', { name: 'Replace inspector' });

describe('Replace inspector', () => {
  it('shows a prune side by side with a text diff marked by text and colour', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => store.getState().openReplace(30));
    await waitFor(() => expect(within(dialog()).getByText('seq 30')).toBeTruthy());
    const d = dialog();
    expect(d.textContent).toContain('tool-result prune');
    expect(d.textContent).toContain('replaced 11…11 (1 node) at step 31');
    const before = within(d).getByRole('region', { name: /What was shadowed/ });
    const after = within(d).getByRole('region', { name: /What replaced it/ });
    expect(before.textContent).toContain('Air molecules are much smaller');
    expect(after.textContent).toContain('[... tool result middle pruned ...]');
    expect(after.textContent).not.toContain('Air molecules');
    const diff = within(d).getByRole('list', { name: 'Diff of the content of 11 and 30' });
    const lines = within(diff).getAllByRole('listitem');
    // The one-line original is removed; the copy's four lines (the kept start, the marker and
    // the blank lines around it) are added.
    expect(lines.map((li) => li.className)).toEqual(['diff-line diff-remove', ...Array<string>(4).fill('diff-line diff-add')]);
    expect(lines[0]?.textContent).toMatch(/^−removed: Notes on the sky: sunlight is a mix of wavelengths\. Air molecules/);
    expect(lines.slice(1).map((li) => li.textContent?.trim())).toEqual([
      '+added: Notes on the sky: sunlight is a mix of wavelengths.',
      '+added:',
      '+added: [... tool result middle pruned ...]',
      '+added:',
    ]);
    // Sizes, with the token method stated.
    expect(d.textContent).toContain('Tokens (est.)');
    expect(d.textContent).toContain('Tokens are estimated as ⌈characters of the derived message JSON ÷ 4⌉ (no tokenizer).');
    expect(d.querySelector('.ri-shrank')).not.toBeNull();
    expect(d.textContent).toContain('No QA finding about this replacement.');
  });

  it('links a compaction to its bracket and highlights declared vs actual shadowed seqs', async () => {
    const test = await engineStoreWithText(carelessCompaction(), 'careless.jsonl');
    const { store } = renderWith(<ReplaceInspector />, test);
    act(() => store.getState().openReplace(43));
    await waitFor(() => expect(within(dialog()).getByText('seq 43')).toBeTruthy());
    const d = dialog();
    expect(within(d).getByRole('button', { name: 'compaction/start seq 41' })).toBeTruthy();
    expect(within(d).getByRole('button', { name: 'compaction/summary seq 42' })).toBeTruthy();
    expect(within(d).getByText('not found')).toBeTruthy(); // no compaction/end for compaction-8
    const table = within(d).getByRole('table', { name: 'Declared by the summary vs shadowed by the fold' });
    const [, range, seqs] = within(table).getAllByRole('row');
    expect(range?.textContent).toContain('2…39');
    expect(range?.textContent).toContain('✓ matches');
    expect(seqs?.textContent).toContain('2, 9, 30, 22');
    expect(seqs?.textContent).toContain('2, 9, 30, 22, 28, 39');
    expect(seqs?.textContent).toContain('✕ differs');
    expect(seqs?.className).toContain('ri-differs');
    expect(d.textContent).toContain('Shadowed but not declared: 28, 39');
    // The QA finding about the checkpoint itself.
    const findings = within(d).getByRole('region', { name: 'QA findings' });
    expect(findings.textContent).toContain('qa/checkpoint-sources');
    expect(findings.textContent).toContain('its compaction/start (seq 41) is not cited');
    // Links select the event and close the inspector.
    fireEvent.click(within(d).getByRole('button', { name: 'compaction/start seq 41' }));
    expect(store.getState().selectedSeq).toBe(41);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when the declaration matches, and goes to the step of the replace', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />);
    act(() => store.getState().openReplace(43));
    await waitFor(() => expect(within(dialog()).getByText('seq 43')).toBeTruthy());
    const d = dialog();
    expect(within(d).getByRole('button', { name: 'compaction/end seq 44' })).toBeTruthy();
    expect(within(d).getAllByText('✓ matches')).toHaveLength(2);
    expect(
      within(d)
        .getByRole('region', { name: /What was shadowed \(6\)/ })
        .querySelectorAll('article'),
    ).toHaveLength(6);
    expect(d.textContent).toContain('No QA finding about this replacement.');
    fireEvent.click(within(d).getByRole('button', { name: 'Go to step 44' }));
    expect(store.getState()).toMatchObject({ step: 44, selectedSeq: 43, replaceTarget: null });
  });

  it('opens from the shadowed ranges and from the inspector, and closes with Escape', async () => {
    const { store } = await renderLoaded(
      <>
        <ShadowedRanges />
        <Inspector />
        <ReplaceInspector />
      </>,
    );
    const ranges = screen.getByRole('region', { name: 'Shadowed ranges' });
    await waitFor(() => expect(within(ranges).getAllByRole('button', { name: /^Inspect replace/ })).toHaveLength(2));
    fireEvent.click(within(ranges).getByRole('button', { name: 'Inspect replace 30' }));
    await waitFor(() => expect(within(dialog()).getByText('seq 30')).toBeTruthy());
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => store.getState().select(11)); // shadowed by 30 (itself inside 43)
    const inspector = screen.getByRole('region', { name: 'Inspector' });
    await waitFor(() => expect(within(inspector).getByRole('button', { name: 'Inspect replace 30' })).toBeTruthy());
    fireEvent.click(within(inspector).getByRole('button', { name: 'Inspect replace 30' }));
    await waitFor(() => expect(within(dialog()).getByText('seq 30')).toBeTruthy());
  });

  it('shows why a seq cannot be inspected', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />);
    act(() => store.getState().openReplace(3));
    await waitFor(() => expect(dialog().textContent).toContain('Could not inspect seq 3: seq 3 is not a replacement'));
  });
});
