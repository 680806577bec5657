import { describe, expect, it } from 'vitest';
import { selectAccepted, selectAtEnd, selectStatusText } from '../../src/store/selectors';
import { engineStoreWith, makeEngineStore } from './helpers';

// The teaching sample: 54 events; appends at seqs 2, 9, 11, 22, 28, 39, 51; a prune (seq 30)
// replaces seq 11 and a compaction checkpoint (seq 43) replaces 2…39.

describe('cursor', () => {
  it('starts at the end of the accepted prefix after a load and reports it', async () => {
    const { store } = await engineStoreWith();
    const state = store.getState();
    expect(state.status).toBe('ready');
    expect(selectAccepted(state)).toBe(54);
    expect(state.step).toBe(54);
    expect(selectStatusText(state)).toBe('Loaded 54 events.');
  });

  it('steps within 0…accepted and never beyond', async () => {
    const { store } = await engineStoreWith();
    const s = () => store.getState();
    s().goToStart();
    expect(s().step).toBe(0);
    s().stepBy(-1);
    expect(s().step).toBe(0);
    s().stepBy(1);
    expect(s().step).toBe(1);
    expect(s().selectedSeq).toBe(0);
    s().goTo(10_000);
    expect(s().step).toBe(54);
    s().stepBy(1);
    expect(s().step).toBe(54);
    expect(selectAtEnd(s())).toBe(true);
    s().goTo(-5);
    expect(s().step).toBe(0);
    s().goTo(Number.NaN);
    expect(s().step).toBe(0);
  });

  it('stops at the refused event when the fold failed', async () => {
    // The checkpoint at seq 1177 leaves 908 out of its sources: the fold stops before it.
    const { store } = await engineStoreWith('violation-replace.jsonl');
    store.getState().goTo(2000);
    expect(store.getState().step).toBe(1177);
    expect(selectStatusText(store.getState())).toMatch(/^Loaded 3,424 events\. Surface error at seq 1177, line 228: surface replace: /);
  });

  it('navigates to the next and previous surface change and replace via the engine', async () => {
    const { store, client } = await engineStoreWith();
    const s = () => store.getState();
    s().goTo(0);
    await s().navigate('next-change');
    expect(s().step).toBe(3); // seq 2 is the first append
    await s().navigate('next-replace');
    expect(s().step).toBe(31); // seq 30, the prune
    await s().navigate('next-replace');
    expect(s().step).toBe(44); // seq 43, the checkpoint
    await s().navigate('prev-replace');
    expect(s().step).toBe(31);
    await s().navigate('prev-change');
    expect(s().step).toBe(29); // seq 28
    expect(client.callsTo('navigate').map((c) => (c.args[0] as { kind: string }).kind)).toEqual([
      'next-change',
      'next-replace',
      'next-replace',
      'prev-replace',
      'prev-change',
    ]);
  });

  it('applies each transport press once even when pressed faster than the engine answers', async () => {
    const { store } = await engineStoreWith();
    store.getState().goTo(0);
    const a = store.getState().navigate('next-replace');
    const b = store.getState().navigate('next-replace');
    await Promise.all([a, b]);
    expect(store.getState().step).toBe(44);
  });

  it('jumps to a seq: the cursor applies it and it is selected', async () => {
    const { store } = await engineStoreWith();
    store.getState().jumpToSeq(43);
    expect(store.getState().step).toBe(44);
    expect(store.getState().selectedSeq).toBe(43);
    store.getState().jumpToSeq(999);
    expect(store.getState().selectedSeq).toBe(53);
  });

  it('plays with the injected scheduler and stops at the end', async () => {
    const { store, scheduler } = await engineStoreWith();
    const s = () => store.getState();
    s().goTo(49);
    s().setSpeed(10);
    s().play();
    expect(s().playing).toBe(true);
    scheduler.advance(100);
    expect(s().step).toBe(50);
    scheduler.advance(200);
    expect(s().step).toBe(52);
    s().pause();
    scheduler.advance(1000);
    expect(s().step).toBe(52);
    s().togglePlay();
    scheduler.advance(1000);
    expect(s().step).toBe(54);
    expect(s().playing).toBe(false);
    expect(scheduler.size).toBe(0);
  });

  it('restarts from step 0 when play is pressed at the end', async () => {
    const { store, scheduler } = await engineStoreWith();
    store.getState().setSpeed(1000);
    store.getState().play();
    expect(store.getState().step).toBe(0);
    scheduler.advance(17);
    expect(store.getState().step).toBeGreaterThan(1);
  });

  it('does nothing before a load', () => {
    const { store } = makeEngineStore();
    store.getState().stepBy(1);
    store.getState().play();
    expect(store.getState().step).toBe(0);
    expect(store.getState().playing).toBe(false);
  });
});
