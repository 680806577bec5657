/**
 * The analysis on screen, against the real engine in process: the context curve's reused-prefix
 * series and a ✂ mark at every prefix break, the transport's jump to the next break, the
 * tokens-per-turn table, and the replace inspector's cached prefix invalidated and loss counts.
 * The expected figures come from the core's own analysis of the same log.
 */
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { InProcessCoreClient } from '../../src/client/InProcessCoreClient';
import { sessionLosses } from '../../src/core/analysis/session-loss';
import { usageByTurn } from '../../src/core/analysis/usage';
import { openBytes } from '../../src/core/analyze/open';
import { generateText } from '../../src/core/gen/generate';
import { createAppStore } from '../../src/store/createAppStore';
import { memoryStorage } from '../../src/store/deps';
import { ContextCurve } from '../../src/ui/panels/curve/ContextCurve';
import { ReplaceInspector } from '../../src/ui/panels/replace/ReplaceInspector';
import { Transport } from '../../src/ui/panels/transport/Transport';
import { createEngine } from '../../src/worker/engine';
import { FakeLocation, FakeScheduler } from '../store/helpers';
import { renderWith } from './harness';

const text = generateText({ seed: 6, events: 2500, pruneThreshold: 500, longToolResultRate: 0.3, compaction: { thresholdTokens: 1500 } });

async function loaded() {
  const client = new InProcessCoreClient(createEngine());
  const scheduler = new FakeScheduler();
  const location = new FakeLocation();
  const store = createAppStore(client, { storage: memoryStorage(), scheduler, location });
  await store.getState().openSource({ kind: 'text', name: 'gen.jsonl', text });
  const expected = (await openBytes(new TextEncoder().encode(text), { name: 'gen.jsonl' })).sessions[0]!;
  return { store, expected, test: { store, client: client as never, scheduler, location } };
}

const region = () => screen.getByRole('region', { name: 'Context curve' });

/** Opens the tokens-per-turn table, whose rows are rendered only while it is open. */
async function openTokenTable(): Promise<HTMLElement> {
  const summary = await waitFor(() => within(region()).getByText(/^Tokens per turn/), { timeout: 10_000 });
  expect(within(region()).queryByRole('table')).toBeNull();
  fireEvent.click(summary);
  return waitFor(() => within(region()).getByRole('table'));
}

describe('Analysis views', () => {
  it('marks every prefix break on the curve, with what broke it and the recorded cache reads', async () => {
    const { expected, test } = await loaded();
    renderWith(<ContextCurve />, test);
    await waitFor(() => expect(region().querySelector('.curve-reused')).toBeTruthy(), { timeout: 10_000 });
    const breaks = expected.analytics!.requests.filter((r) => r.brokenBy !== null);
    expect(breaks.length).toBeGreaterThan(2);
    const marks = region().querySelector('.curve-breaks')!;
    const numbers = (what: string) => marks.getAttribute(`data-${what}`)!.split(' ').map(Number);
    expect(numbers('seqs')).toEqual(breaks.map((r) => r.seq));
    expect(numbers('steps')).toEqual(breaks.map((r) => r.seq - expected.baseSeq));
    expect(marks.querySelector('path')!.getAttribute('d')!.match(/M/g)!.length).toBe(2 * breaks.length);
    // The first mark described under the pointer (jsdom's plot is the 600 px fallback, at x 0).
    const first = breaks[0]!;
    const steps = Number(within(region()).getByRole('slider').getAttribute('aria-valuemax'));
    fireEvent.mouseMove(within(region()).getByRole('slider'), { clientX: 8 + (584 * (first.seq - expected.baseSeq)) / steps });
    const title = within(region()).getByRole('tooltip').textContent;
    expect(title).toContain(`✂ prefix break at request seq ${first.seq}`);
    expect(title).toContain(first.brokenBy!.kind === 'header' ? 'request header changed' : `replace at seq ${first.brokenBy!.seq}`);
    expect(title).toContain(
      first.usage?.cacheRead == null ? 'no cache reads recorded' : `recorded cache reads ${first.usage.cacheRead.toLocaleString('en-US')}`,
    );
    expect(region().textContent).toContain('reused prefix');
  });

  it('plots the recorded cache reads beside the estimated reused prefix, with a legend entry', async () => {
    const { expected, test } = await loaded();
    renderWith(<ContextCurve />, test);
    const path = await waitFor(
      () => {
        const found = region().querySelector('.curve-cache');
        if (!found) throw new Error('no cache-read series yet');
        return found;
      },
      { timeout: 10_000 },
    );
    const requests = expected.analytics!.requests;
    const recorded = requests.filter((r) => r.usage?.cacheRead != null);
    expect(recorded.length).toBeGreaterThan(0);
    expect(recorded.length).toBeLessThan(requests.length);
    // One run per stretch of requests that recorded cache reads: a request without one leaves a gap.
    let runs = 0;
    requests.forEach((r, i) => {
      if (r.usage?.cacheRead != null && (i === 0 || requests[i - 1]!.usage?.cacheRead == null)) runs++;
    });
    expect(path.getAttribute('d')!.match(/M/g)).toHaveLength(runs);
    expect(path.getAttribute('d')!.match(/L/g)).toHaveLength(recorded.length * 2 - runs);
    expect(region().textContent).toContain('cache reads (recorded)');
  });

  it('lists recorded tokens per turn with the session totals', async () => {
    const { expected, test } = await loaded();
    renderWith(<ContextCurve />, test);
    const table = await openTokenTable();
    const turns = new Set(expected.analytics!.requests.map((r) => r.turn));
    expect(within(table).getAllByRole('row')).toHaveLength(turns.size + 2);
    // The curve's answer carries the totals and the number of turns; the turns, with their steps,
    // are a request of their own, made when the table is opened.
    const session = test.store.getState().load!.sessions[0]!.id;
    const client = test.client as unknown as InProcessCoreClient;
    const curve = await client.curve({ session, buckets: 300 });
    expect(curve.usage!.turns).toBe(turns.size);
    expect(await client.usageTurns({ session })).toEqual(usageByTurn(expected.analytics!.requests).turns);
    const input = expected.analytics!.requests.reduce((n, r) => n + (r.usage?.input ?? 0), 0);
    const total = within(table).getByRole('rowheader', { name: 'Total' }).closest('tr')!;
    expect(total.textContent).toContain(input.toLocaleString('en-US'));
  });

  it('says no cost without prices, then shows cost per turn and in all from prices given in the form, kept in the preferences', async () => {
    const storage = memoryStorage();
    const client = new InProcessCoreClient(createEngine());
    const store = createAppStore(client, { storage, scheduler: new FakeScheduler(), location: new FakeLocation() });
    await store.getState().openSource({ kind: 'text', name: 'gen.jsonl', text });
    renderWith(<ContextCurve />, { store, client: client as never, scheduler: new FakeScheduler(), location: new FakeLocation() });
    const table = await openTokenTable();
    expect(region().textContent).toContain('Logs record no prices, so no cost is shown');
    expect(within(table).queryByRole('columnheader', { name: 'Cost' })).toBeNull();

    fireEvent.click(within(region()).getByRole('button', { name: 'Set prices…' }));
    const form = within(region()).getByRole('form', { name: 'Prices per model' });
    // The form offers the models the session names; price every one of them.
    const models = [...form.querySelectorAll<HTMLInputElement>('input[aria-label^="Model of row"]')].map((i) => i.value);
    expect(models.length).toBeGreaterThan(0);
    for (const model of models) {
      fireEvent.change(within(form).getByRole('textbox', { name: `Input price of ${model}` }), { target: { value: '1' } });
      fireEvent.change(within(form).getByRole('textbox', { name: `Output price of ${model}` }), { target: { value: '1' } });
    }
    fireEvent.click(within(form).getByRole('button', { name: 'Save prices' }));
    await waitFor(() => expect(within(table).getByRole('columnheader', { name: 'Cost' })).toBeTruthy());

    // At $1 per million of every kind of token, the cost is the token count in millions.
    const u = (await openBytes(new TextEncoder().encode(text), { name: 'gen.jsonl' })).sessions[0]!.analytics!.requests;
    const tokens = u.reduce(
      (n, r) =>
        n +
        (r.usage
          ? (r.usage.input ?? 0) + (r.usage.output ?? 0) + (r.usage.cacheRead ?? 0) + (r.usage.cacheWrite ?? 0) + (r.usage.reasoning ?? 0)
          : 0),
      0,
    );
    const expected = new Intl.NumberFormat('en-US', {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: 2,
      maximumFractionDigits: 4,
    }).format(tokens / 1e6);
    const total = within(table).getByRole('rowheader', { name: 'Total' }).closest('tr')!;
    expect(total.querySelector('.tok-cost')!.textContent).toBe(expected);
    expect(table.querySelectorAll('tbody .tok-cost')).toHaveLength(new Set(u.map((r) => r.turn)).size);

    // Kept across visits.
    const again = createAppStore(new InProcessCoreClient(createEngine()), {
      storage,
      scheduler: new FakeScheduler(),
      location: new FakeLocation(),
    });
    expect(Object.keys(again.getState().prices).sort()).toEqual([...models].sort());
    again.dispose();
  });

  it('refuses a price that is not a number and says so', async () => {
    const { test } = await loaded();
    renderWith(<ContextCurve />, test);
    await waitFor(() => within(region()).getByText(/^Tokens per turn/), { timeout: 10_000 });
    fireEvent.click(within(region()).getByRole('button', { name: 'Set prices…' }));
    const form = within(region()).getByRole('form', { name: 'Prices per model' });
    const model = form.querySelector<HTMLInputElement>('input[aria-label="Model of row 1"]')!.value;
    fireEvent.change(within(form).getByRole('textbox', { name: `Input price of ${model}` }), { target: { value: 'cheap' } });
    fireEvent.change(within(form).getByRole('textbox', { name: `Output price of ${model}` }), { target: { value: '2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Save prices' }));
    expect(within(form).getByRole('alert').textContent).toContain('input: needs a number');
    expect(test.store.getState().prices).toEqual({});
  });

  it('jumps to the next prefix break from the transport', async () => {
    const { store, expected, test } = await loaded();
    renderWith(<Transport />, test);
    const breaks = expected.analytics!.requests.filter((r) => r.brokenBy !== null).map((r) => r.seq - expected.baseSeq);
    act(() => store.getState().goTo(0));
    fireEvent.click(screen.getByRole('button', { name: 'Next prefix-cache break' }));
    await waitFor(() => expect(store.getState().step).toBe(breaks[0]));
    fireEvent.click(screen.getByRole('button', { name: 'Next prefix-cache break' }));
    await waitFor(() => expect(store.getState().step).toBe(breaks[1]));
  });

  it('says what cached prefix a replace invalidated and what it kept and dropped', async () => {
    const { store, expected, test } = await loaded();
    renderWith(<ReplaceInspector />, test);
    const losses = sessionLosses(expected);
    const loss = losses.find((l) => l.kind === 'compaction' && l.invalidatedTokens > 0 && l.kept.paths[1] > l.kept.paths[0])!;
    expect(loss).toBeTruthy();
    act(() => store.getState().openReplace(loss.seq));
    const dialog = await waitFor(() => screen.getByRole('dialog', { name: 'Replace inspector' }), { timeout: 10_000 });
    const section = await waitFor(() => within(dialog).getByRole('region', { name: 'Prefix cache and what was lost' }), {
      timeout: 10_000,
    });
    expect(section.textContent).toContain(`Invalidated ~${loss.invalidatedTokens.toLocaleString('en-US')} tokens`);
    const paths = section.querySelector('tr[data-category="paths"]')!;
    expect(paths.textContent).toContain(`${loss.kept.paths[0]} of ${loss.kept.paths[1]}`);
    fireEvent.click(within(paths as HTMLElement).getByText(/dropped$/));
    for (const item of loss.dropped.paths.slice(0, 5)) expect(paths.textContent).toContain(item);
  });
});
