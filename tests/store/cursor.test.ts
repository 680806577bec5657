import { describe, expect, it } from 'vitest';
import { selectAccepted, selectAtEnd, selectStatusText } from '../../src/store/selectors';
import { loadedTestStore, makeTestStore } from './helpers';

describe('cursor', () => {
  it('starts at the end of the accepted prefix after a load and reports it', async () => {
    const { store } = await loadedTestStore();
    const state = store.getState();
    expect(state.status).toBe('ready');
    expect(selectAccepted(state)).toBe(30);
    expect(state.step).toBe(30);
    expect(selectStatusText(state)).toBe('Loaded 30 events.');
  });

  it('steps within 0…accepted and never beyond', async () => {
    const { store } = await loadedTestStore();
    const s = () => store.getState();
    s().goToStart();
    expect(s().step).toBe(0);
    s().stepBy(-1);
    expect(s().step).toBe(0);
    s().stepBy(1);
    expect(s().step).toBe(1);
    expect(s().selectedSeq).toBe(0);
    s().goTo(10_000);
    expect(s().step).toBe(30);
    s().stepBy(1);
    expect(s().step).toBe(30);
    expect(selectAtEnd(s())).toBe(true);
    s().goTo(-5);
    expect(s().step).toBe(0);
    s().goTo(Number.NaN);
    expect(s().step).toBe(0);
  });

  it('stops at the refused event when the fold failed', async () => {
    const { store } = await loadedTestStore({ surfaceErrorIndex: 20 });
    store.getState().goTo(25);
    expect(store.getState().step).toBe(20);
    expect(selectStatusText(store.getState())).toMatch(/^Loaded 30 events\. Surface error at seq 20, line 22: surface replace: /);
  });

  it('navigates to the next and previous surface change and replace via the engine', async () => {
    const { store, client } = await loadedTestStore();
    const s = () => store.getState();
    s().goTo(0);
    await s().navigate('next-change');
    expect(s().step).toBe(3); // seq 2 is the first append
    await s().navigate('next-replace');
    expect(s().step).toBe(19); // seq 18
    await s().navigate('next-replace');
    expect(s().step).toBe(25);
    await s().navigate('prev-replace');
    expect(s().step).toBe(19);
    await s().navigate('prev-change');
    expect(s().step).toBe(16); // seq 15
    expect(client.callsTo('navigate').map((c) => c.args[2])).toEqual([
      'next-change',
      'next-replace',
      'next-replace',
      'prev-replace',
      'prev-change',
    ]);
  });

  it('applies each transport press once even when pressed faster than the engine answers', async () => {
    const { store } = await loadedTestStore();
    store.getState().goTo(0);
    const a = store.getState().navigate('next-replace');
    const b = store.getState().navigate('next-replace');
    await Promise.all([a, b]);
    expect(store.getState().step).toBe(25);
  });

  it('jumps to a seq: the cursor applies it and it is selected', async () => {
    const { store } = await loadedTestStore();
    store.getState().jumpToSeq(18);
    expect(store.getState().step).toBe(19);
    expect(store.getState().selectedSeq).toBe(18);
    store.getState().jumpToSeq(999);
    expect(store.getState().selectedSeq).toBe(29);
  });

  it('plays with the injected scheduler and stops at the end', async () => {
    const { store, scheduler } = await loadedTestStore();
    const s = () => store.getState();
    s().goTo(25);
    s().setSpeed(10);
    s().play();
    expect(s().playing).toBe(true);
    scheduler.advance(100);
    expect(s().step).toBe(26);
    scheduler.advance(200);
    expect(s().step).toBe(28);
    s().pause();
    scheduler.advance(1000);
    expect(s().step).toBe(28);
    s().togglePlay();
    scheduler.advance(1000);
    expect(s().step).toBe(30);
    expect(s().playing).toBe(false);
    expect(scheduler.size).toBe(0);
  });

  it('restarts from step 0 when play is pressed at the end', async () => {
    const { store, scheduler } = await loadedTestStore();
    store.getState().setSpeed(1000);
    store.getState().play();
    expect(store.getState().step).toBe(0);
    scheduler.advance(17);
    expect(store.getState().step).toBeGreaterThan(1);
  });

  it('does nothing before a load', () => {
    const { store } = makeTestStore();
    store.getState().stepBy(1);
    store.getState().play();
    expect(store.getState().step).toBe(0);
    expect(store.getState().playing).toBe(false);
  });
});
