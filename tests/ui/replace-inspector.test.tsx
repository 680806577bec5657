import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Inspector } from '../../src/ui/panels/inspector/Inspector';
import { ReplaceInspector } from '../../src/ui/panels/replace/ReplaceInspector';
import { ShadowedRanges } from '../../src/ui/panels/ShadowedRanges';
import { renderLoaded } from './harness';

const dialog = () => screen.getByRole('dialog', { name: 'Replace inspector' });

describe('Replace inspector', () => {
  it('shows a prune side by side with a text diff marked by text and colour', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />);
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => store.getState().openReplace(24));
    await waitFor(() => expect(within(dialog()).getByText('seq 24')).toBeTruthy());
    const d = dialog();
    expect(d.textContent).toContain('tool-result prune');
    expect(d.textContent).toContain('replaced 22…22 (1 node) at step 25');
    const before = within(d).getByRole('region', { name: /What was shadowed/ });
    const after = within(d).getByRole('region', { name: /What replaced it/ });
    expect(before.textContent).toContain('a very long output');
    expect(after.textContent).toContain('[pruned]');
    const diff = within(d).getByRole('list', { name: 'Diff of the content of 22 and 24' });
    const lines = within(diff).getAllByRole('listitem');
    expect(lines.map((li) => li.className)).toEqual(['diff-line diff-remove', 'diff-line diff-add']);
    expect(lines[0]?.textContent).toBe('−removed: a very long output');
    expect(lines[1]?.textContent).toBe('+added: [pruned]');
    // Sizes, with the token method stated.
    expect(d.textContent).toContain('Tokens (est.)');
    expect(d.textContent).toContain('Tokens are estimated as ⌈characters of the derived message JSON ÷ 4⌉ (no tokenizer).');
    expect(d.querySelector('.ri-shrank')).not.toBeNull();
    expect(d.textContent).toContain('No QA finding about this replacement.');
  });

  it('links a compaction to its bracket and highlights declared vs actual shadowed seqs', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />, {
      diagnostics: [{ severity: 'warning', rule: 'qa/summary-declared-seqs', seq: 28, line: 30, message: 'compaction/summary 27 declares 18, 15 but 28 shadowed 18, 15, 20' }],
    });
    act(() => store.getState().openReplace(28));
    await waitFor(() => expect(within(dialog()).getByText('seq 28')).toBeTruthy());
    const d = dialog();
    expect(within(d).getByRole('button', { name: 'compaction/start seq 26' })).toBeTruthy();
    expect(within(d).getByRole('button', { name: 'compaction/summary seq 27' })).toBeTruthy();
    expect(within(d).getByText('not found')).toBeTruthy(); // no compaction/end for c2
    const table = within(d).getByRole('table', { name: 'Declared by the summary vs shadowed by the fold' });
    const [, range, seqs] = within(table).getAllByRole('row');
    expect(range?.textContent).toContain('18…20');
    expect(range?.textContent).toContain('✓ matches');
    expect(seqs?.textContent).toContain('18, 15');
    expect(seqs?.textContent).toContain('18, 15, 20');
    expect(seqs?.textContent).toContain('✕ differs');
    expect(seqs?.className).toContain('ri-differs');
    expect(d.textContent).toContain('Shadowed but not declared: 20');
    // The QA finding about it.
    const findings = within(d).getByRole('region', { name: 'QA findings' });
    expect(findings.textContent).toContain('qa/summary-declared-seqs');
    expect(findings.textContent).toContain('declares 18, 15 but 28 shadowed 18, 15, 20');
    // Links select the event and close the inspector.
    fireEvent.click(within(d).getByRole('button', { name: 'compaction/start seq 26' }));
    expect(store.getState().selectedSeq).toBe(26);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('says when the declaration matches, and goes to the step of the replace', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />);
    act(() => store.getState().openReplace(18));
    await waitFor(() => expect(within(dialog()).getByText('seq 18')).toBeTruthy());
    const d = dialog();
    expect(within(d).getByRole('button', { name: 'compaction/end seq 19' })).toBeTruthy();
    expect(within(d).getAllByText('✓ matches')).toHaveLength(2);
    expect(within(d).getByRole('region', { name: /What was shadowed \(4\)/ }).querySelectorAll('article')).toHaveLength(4);
    fireEvent.click(within(d).getByRole('button', { name: 'Go to step 19' }));
    expect(store.getState()).toMatchObject({ step: 19, selectedSeq: 18, replaceTarget: null });
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
    await waitFor(() => expect(within(ranges).getAllByRole('button', { name: /^Inspect replace/ })).toHaveLength(3));
    fireEvent.click(within(ranges).getByRole('button', { name: 'Inspect replace 24' }));
    await waitFor(() => expect(within(dialog()).getByText('seq 24')).toBeTruthy());
    fireEvent.keyDown(dialog(), { key: 'Escape' });
    expect(screen.queryByRole('dialog')).toBeNull();
    act(() => store.getState().select(2)); // shadowed by 18 (itself inside 28)
    const inspector = screen.getByRole('region', { name: 'Inspector' });
    await waitFor(() => expect(within(inspector).getByRole('button', { name: 'Inspect replace 18' })).toBeTruthy());
    fireEvent.click(within(inspector).getByRole('button', { name: 'Inspect replace 18' }));
    await waitFor(() => expect(within(dialog()).getByText('seq 18')).toBeTruthy());
  });

  it('shows why a seq cannot be inspected', async () => {
    const { store } = await renderLoaded(<ReplaceInspector />);
    act(() => store.getState().openReplace(3));
    await waitFor(() => expect(dialog().textContent).toContain('Could not inspect seq 3: seq 3 is not a replacement'));
  });
});
