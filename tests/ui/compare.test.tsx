/**
 * Comparing two logs in the app, on the real engine in process: the teaching sample and a copy
 * whose second prompt (event 28) is reworded, so they share exactly 28 events. The engine holds
 * both (the load and the comparison); the panel says where they diverge, steps both with the
 * cursor, diffs the two model views message by message, overlays the curves and lists the
 * per-request deltas the core computes. A link carries a comparison of URLs, not of local files.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { compareSessions } from '../../src/core/analysis/compare';
import { openBytes } from '../../src/core/analyze/open';
import { compareParamOf, parseCompareParam } from '../../src/store/slices/compare';
import { CompareView } from '../../src/ui/panels/compare/CompareView';
import { Workspace } from '../../src/ui/Workspace';
import { makeEngineStore } from '../store/helpers';
import { fixtureText } from '../support/test-engine';
import { renderWith } from './harness';

const A = fixtureText('teaching.jsonl');
const DIVERGE = 28;
const B = A.split('\n')
  .map((line, i) => (i === DIVERGE + 1 ? line.replace(/"text":"[^"]*"/, '"text":"Explain sunsets instead, briefly."') : line))
  .join('\n');

async function comparing() {
  const test = makeEngineStore();
  await test.store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: A });
  await test.store.getState().openCompare({ kind: 'text', name: 'b.jsonl', text: B });
  const [a, b] = await Promise.all(
    [A, B].map(async (t) => (await openBytes(new TextEncoder().encode(t), { name: 'x.jsonl' })).sessions[0]!),
  );
  return { test, expected: compareSessions(a!, b!) };
}

const panel = () => screen.getByRole('region', { name: 'Comparison' });

describe('Compare with…', () => {
  it('holds both sessions in the engine and aligns them by their common event prefix', async () => {
    expect(B).not.toBe(A);
    const { test, expected } = await comparing();
    expect(expected.commonPrefix).toBe(DIVERGE);
    const state = test.store.getState();
    expect(state.compare?.status).toBe('ready');
    // Two sessions of one engine, under their own handles: the load's stays as it is.
    expect(state.compare!.handle).not.toBe(state.load!.sessions[0]!.id);
    expect(state.load!.file).toBe('a.jsonl');
    renderWith(<CompareView />, test);
    const summary = await within(panel()).findByRole('status', {}, { timeout: 10_000 });
    expect(summary.textContent).toContain(
      `Equal for the first ${DIVERGE} events; then this log has seq ${DIVERGE} (user/message), b.jsonl has seq ${DIVERGE} (user/message).`,
    );
  });

  it('steps both together from the divergence, with the model views diffed message by message', async () => {
    const { test } = await comparing();
    renderWith(<CompareView />, test);
    fireEvent.click(await within(panel()).findByRole('button', { name: 'Go to where they diverge' }, { timeout: 10_000 }));
    expect(test.store.getState().step).toBe(DIVERGE);
    const diff = await within(panel()).findByRole('region', { name: 'Model views side by side' });
    await waitFor(() => expect(diff.querySelector('h3')!.textContent).toContain('identical'));
    expect(diff.querySelector('[data-kind]:not([data-kind="same"])')).toBeNull();
    // One step on, each side has applied its own event 28: the prompt differs.
    act(() => test.store.getState().goTo(DIVERGE + 1));
    await waitFor(() => expect(diff.querySelectorAll('[data-kind="changed"]')).toHaveLength(1));
    const changed = diff.querySelector('[data-kind="changed"]')!;
    expect(changed.textContent).toContain('Explain sunsets instead');
    expect(changed.querySelectorAll('td')[0]!.textContent).toContain(`seq ${DIVERGE}`);
    expect(panel().textContent).toContain(`this log at step ${DIVERGE + 1}, b.jsonl at step ${DIVERGE + 1}`);
  });

  it('overlays both curves and lists the per-request deltas the core computes', async () => {
    const { test, expected } = await comparing();
    renderWith(<CompareView />, test);
    const deltas = await within(panel()).findByRole('region', { name: 'Per-request deltas' }, { timeout: 10_000 });
    expect(expected.deltas.length).toBeGreaterThan(0);
    expect(deltas.querySelectorAll('tbody tr')).toHaveLength(expected.deltas.length);
    const first = expected.deltas[0]!;
    const row = deltas.querySelector(`tr[data-index="${first.index}"]`)!;
    expect(row.textContent).toContain(first.tokens! > 0 ? `+${first.tokens}` : String(first.tokens));
    await waitFor(() => {
      expect(panel().querySelector('.cmp-curve-a')!.getAttribute('d')).toMatch(/^M/);
      expect(panel().querySelector('.cmp-curve-b')!.getAttribute('d')).toMatch(/^M/);
    });
  });

  it('opens from the workspace bar and closes back to the workspace', async () => {
    const test = makeEngineStore();
    await test.store.getState().openSource({ kind: 'text', name: 'a.jsonl', text: A });
    renderWith(<Workspace />, test);
    fireEvent.click(screen.getByRole('button', { name: 'Compare with…' }));
    const file = new File([B], 'b.jsonl', { type: 'application/jsonl' });
    // jsdom's File has no arrayBuffer(); browsers' do.
    Object.defineProperty(file, 'arrayBuffer', { value: async () => new TextEncoder().encode(B).buffer });
    const group = screen.getByRole('group', { name: 'Compare with another log' });
    fireEvent.change(group.querySelector('input[type="file"]')!, { target: { files: [file] } });
    await waitFor(() => expect(panel().textContent).toContain(`Equal for the first ${DIVERGE} events`), { timeout: 10_000 });
    // A local file cannot be linked, and the link says so.
    fireEvent.click(within(panel()).getByRole('button', { name: 'Link to this comparison' }));
    expect(within(panel()).getByRole('status', { name: 'Comparison link' }).textContent).toMatch(/^No link: .*local file/);
    fireEvent.click(within(panel()).getByRole('button', { name: 'Close comparison' }));
    expect(screen.queryByRole('region', { name: 'Comparison' })).toBeNull();
    expect(test.store.getState().compare).toBeNull();
  });

  it('links a comparison of URLs with the main source and the hash', async () => {
    expect(parseCompareParam(compareParamOf({ kind: 'url', url: 'https://x.test/b.jsonl?v=1' })!)).toEqual({
      kind: 'url',
      url: 'https://x.test/b.jsonl?v=1',
    });
    expect(parseCompareParam('session:2')).toEqual({ kind: 'loaded', index: 2 });
    expect(parseCompareParam('file:/etc/passwd')).toBeNull();
    expect(compareParamOf({ kind: 'text', name: 'p', text: '' })).toBeNull();
    const test = makeEngineStore();
    test.location.writeHash('#step=3&fp=abc');
    // Neither URL answers here; the link is made from what was asked for.
    await test.store.getState().openSource({ kind: 'url', url: 'http://127.0.0.1:9/a.jsonl' });
    await test.store.getState().openCompare({ kind: 'url', url: 'http://127.0.0.1:9/b.jsonl' });
    expect(test.store.getState().compare?.status).toBe('error');
    const { link } = test.store.getState().compareLink();
    const url = new URL(link!, 'http://app.test/');
    expect(url.searchParams.get('url')).toBe('http://127.0.0.1:9/a.jsonl');
    expect(url.searchParams.get('compare')).toBe('url:http://127.0.0.1:9/b.jsonl');
    expect(url.hash).toBe('#step=3&fp=abc');
  });
});
