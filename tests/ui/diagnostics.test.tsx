import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/ui/panels/Diagnostics';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderFixture, renderIdle, renderWith } from './harness';

const panel = () => screen.getByRole('region', { name: 'Diagnostics' });

describe('Diagnostics', () => {
  it('lists every error and warning, each linking to its event', async () => {
    // The engine's own list for a log whose replace misses a shadowed node: the surface error,
    // upstream's seed validation and its loader saying the same, and where it loads no further.
    const { store } = await renderFixture(<Diagnostics />, 'violation-replace.jsonl');
    await waitFor(() => expect(within(panel()).getAllByRole('listitem').length).toBeGreaterThanOrEqual(3));
    expect(panel().textContent).toContain('3 errors · 0 warnings');
    const [first] = within(panel()).getAllByRole('listitem');
    expect(first?.textContent).toContain('error');
    expect(first?.textContent).toContain('surface/missing-shadowed-source');
    expect(first?.textContent).toContain('sourceEventSeqs must include every shadowed surface node; missing 908');
    fireEvent.click(within(first as HTMLElement).getByRole('button', { name: 'event seq 1177' }));
    expect(store.getState().selectedSeq).toBe(1177);
  });

  it('says so when there is nothing to report', async () => {
    // The teaching sample's events as a JSON array: no header, so no loader to report on it.
    const events = fixtureText('teaching.jsonl').split('\n').filter(Boolean).slice(1);
    const test = makeEngineStore();
    await test.store.getState().openSource({ kind: 'text', name: 'teaching.json', text: `[${events.join(',')}]` });
    renderWith(<Diagnostics />, test);
    await waitFor(() => expect(within(panel()).getByText('No errors or warnings')).toBeTruthy());
  });

  it('is a labelled region before a load too', () => {
    renderIdle(<Diagnostics />);
    expect(within(panel()).getByText('No log loaded')).toBeTruthy();
  });
});
