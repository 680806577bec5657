/**
 * A large log while it loads: the workspace shows the preview's first lines, and the timeline's
 * first rows are the ones the preview came with, so they are on screen before the engine (busy
 * loading the rest) has answered any request of the timeline.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { generateText } from '../../src/core/gen/generate';
import { App } from '../../src/ui/App';
import { PREVIEW_MIN_INPUT } from '../../src/worker/engine';
import { renderIdle } from './harness';

const text = generateText({ seed: 52, events: 52_000 });

const timelineSeqs = (): number[] =>
  [...within(screen.getByRole('region', { name: 'Timeline' })).queryAllByRole('row')]
    .map((row) => row.getAttribute('data-seq'))
    .filter((seq): seq is string => seq !== null)
    .map(Number);

describe('a large log while it loads', () => {
  it('shows the first timeline rows from the preview, before any rows request is answered', async () => {
    const { client } = renderIdle(<App />);
    const file = new File([text], 'big.jsonl');
    expect(file.size).toBeGreaterThan(PREVIEW_MIN_INPUT);
    client.holdLoad();
    fireEvent.change(screen.getByLabelText('Open log'), { target: { files: [file] } });
    await waitFor(() => expect(client.callsTo('open')).toHaveLength(1));
    // From here on no request is answered: only what came with the open's progress can show.
    client.hold();
    await waitFor(() => expect(timelineSeqs().length).toBeGreaterThan(10));
    expect(timelineSeqs().slice(0, 5)).toEqual([0, 1, 2, 3, 4]);
    expect(document.querySelector('.app')?.getAttribute('data-status')).toBe('loading');
    expect(client.callsTo('rows').length).toBeGreaterThan(0);
    expect(client.heldCount).toBeGreaterThan(0);
    client.release();
    client.releaseLoad();
    await waitFor(() => expect(screen.getByRole('status').textContent).toMatch(/^Loaded [\d,]+ events\.$/), { timeout: 10_000 });
    await waitFor(() => expect(timelineSeqs().slice(0, 5)).toEqual([0, 1, 2, 3, 4]));
  }, 20_000);
});
