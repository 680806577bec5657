import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../src/ui/panels/Diagnostics';
import { renderIdle, renderLoaded } from './harness';

const panel = () => screen.getByRole('region', { name: 'Diagnostics' });

describe('Diagnostics', () => {
  it('lists every error and warning, each linking to its event', async () => {
    const { store } = await renderLoaded(<Diagnostics />, {
      diagnostics: [
        { severity: 'error', rule: 'relational/tool-pairing', seq: 21, line: 23, message: 'tool/call call-2 has no result' },
        { severity: 'warning', rule: 'loader/torn-tail', seq: null, line: 32, message: 'the last line is incomplete' },
      ],
    });
    await waitFor(() => expect(within(panel()).getAllByRole('listitem')).toHaveLength(2));
    expect(panel().textContent).toContain('1 error · 1 warning');
    const [first, second] = within(panel()).getAllByRole('listitem');
    expect(first?.textContent).toContain('error');
    expect(first?.textContent).toContain('relational/tool-pairing');
    expect(first?.textContent).toContain('tool/call call-2 has no result');
    expect(second?.textContent).toContain('no event');
    fireEvent.click(within(first as HTMLElement).getByRole('button', { name: 'event seq 21' }));
    expect(store.getState().selectedSeq).toBe(21);
  });

  it('says so when there is nothing to report', async () => {
    await renderLoaded(<Diagnostics />);
    await waitFor(() => expect(within(panel()).getByText('No errors or warnings')).toBeTruthy());
  });

  it('is a labelled region before a load too', () => {
    renderIdle(<Diagnostics />);
    expect(within(panel()).getByText('No log loaded')).toBeTruthy();
  });
});
