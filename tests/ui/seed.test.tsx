/**
 * A forked child's seed (session-store.md §2): its first `seedLength` events are the parent's.
 * The child's timeline marks them as the parent's; the session's own events are not marked.
 * On the real engine.
 */
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { Timeline } from '../../src/ui/panels/timeline/Timeline';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderWith } from './harness';

/** `small.jsonl` as a child forked from a parent with its first `seed` events. */
function childText(seed: number | null, parent: string | null = 'parent-1'): string {
  const [header, ...events] = fixtureText('small.jsonl').trimEnd().split('\n');
  const fields = JSON.parse(header as string) as Record<string, unknown>;
  if (parent !== null) Object.assign(fields, { parentSession: parent, origin: 'subagent', delegationDepth: 1 });
  if (seed !== null) fields.seedLength = seed;
  return `${[JSON.stringify(fields), ...events].join('\n')}\n`;
}

async function renderChild(text: string) {
  const test = makeEngineStore();
  const view = renderWith(<Timeline />, test);
  await act(() => test.store.getState().openSource({ kind: 'text', name: 'child.jsonl', text }));
  return view;
}

const rows = () =>
  within(screen.getByRole('region', { name: 'Timeline' }))
    .queryAllByRole('row')
    .filter((row) => row.getAttribute('aria-busy') !== 'true');

describe("a forked child's seed", () => {
  it.each([3, 5])('marks the first %i events as the parent’s and no others', async (seed) => {
    const { store } = await renderChild(childText(seed));
    expect(store.getState().load?.sessions[0]?.seedLength).toBe(seed);
    act(() => store.getState().goTo(0));
    await waitFor(() => expect(rows().length).toBeGreaterThan(seed + 2));
    const marked = rows().map((row) => row.classList.contains('is-seed'));
    const shown = rows().length;
    expect(marked).toEqual(Array.from({ length: shown }, (_, i) => i < seed));
    const first = rows()[0] as HTMLElement;
    expect(within(first).getByTitle(/Inherited from the parent session/).textContent).toBe("parent's (seed), ");
    expect(rows()[seed]?.querySelector('.seed-mark')).toBeNull();
  });

  it('marks nothing without a seedLength, or without a parent', async () => {
    for (const text of [childText(null), childText(4, null)]) {
      const { store, unmount } = await renderChild(text);
      expect(store.getState().load?.sessions[0]?.seedLength).toBeNull();
      await waitFor(() => expect(rows().length).toBeGreaterThan(5));
      expect(rows().some((row) => row.classList.contains('is-seed'))).toBe(false);
      unmount();
    }
  });
});
