import { describe, expect, it } from 'vitest';
import { formatDeepLink, parseDeepLink } from '../../src/store/deepLink';
import { FakeLocation, engineStoreWith } from './helpers';
import { TestEngine, fixtureText, openFixture } from '../support/test-engine';

/** The teaching sample's fingerprint, as the engine computes it (54 events, so step 54 is its end). */
async function teachingFingerprint(): Promise<string> {
  const { sessions } = await openFixture(new TestEngine());
  return sessions[0]!.fingerprint;
}

describe('deep links', () => {
  it('parses and formats the hash', () => {
    expect(parseDeepLink('#step=12&seq=7&fp=abc')).toEqual({ step: 12, seq: 7, fingerprint: 'abc', session: null, storeSession: null });
    expect(parseDeepLink('step=3')).toEqual({ step: 3, seq: null, fingerprint: null, session: null, storeSession: null });
    expect(parseDeepLink('#step=-1&seq=x')).toBeNull();
    expect(parseDeepLink('')).toBeNull();
    expect(formatDeepLink({ step: 4, seq: 3, fingerprint: 'f/p', session: 0 })).toBe('#step=4&seq=3&fp=f%2Fp');
    expect(formatDeepLink({ step: 4, seq: null, fingerprint: 'f', session: 2 })).toBe('#step=4&fp=f&session=2');
  });

  it('carries a store session by its opaque id (surface-lens view)', () => {
    const hash = formatDeepLink({ step: 9, seq: 4, fingerprint: 'f', session: 0, storeSession: 'QTUsod-dTymR_6JJQmtR93' });
    expect(hash).toBe('#session=QTUsod-dTymR_6JJQmtR93&step=9&seq=4&fp=f');
    expect(parseDeepLink(hash)).toEqual({ step: 9, seq: 4, fingerprint: 'f', session: null, storeSession: 'QTUsod-dTymR_6JJQmtR93' });
    expect(parseDeepLink('#session=3&step=1')?.storeSession).toBeNull();
    expect(parseDeepLink('#session=../etc&step=1')?.storeSession).toBeNull();
  });

  it('applies the hash after a load, without warning for the same file', async () => {
    const location = new FakeLocation(`#step=12&seq=7&fp=${await teachingFingerprint()}`);
    const { store } = await engineStoreWith('teaching.jsonl', {}, { location });
    expect(store.getState().step).toBe(12);
    expect(store.getState().selectedSeq).toBe(7);
    expect(store.getState().deepLinkWarning).toBeNull();
  });

  it('warns when the link was made for another file, and still clamps into range', async () => {
    const fingerprint = await teachingFingerprint();
    const location = new FakeLocation('#step=900&seq=3&fp=another');
    const { store } = await engineStoreWith('teaching.jsonl', {}, { location });
    expect(store.getState().step).toBe(54);
    expect(store.getState().selectedSeq).toBe(3);
    expect(store.getState().deepLinkWarning).toContain(`different file (fingerprint another, this one is ${fingerprint})`);
    store.getState().dismissDeepLinkWarning();
    expect(store.getState().deepLinkWarning).toBeNull();
  });

  it('writes the hash as the cursor moves (debounced) and does not re-apply its own hash', async () => {
    const fingerprint = await teachingFingerprint();
    const location = new FakeLocation();
    const { store, scheduler } = await engineStoreWith('teaching.jsonl', {}, { location });
    store.getState().goTo(5);
    store.getState().goTo(6);
    expect(location.writes).toEqual([]);
    scheduler.advance(300);
    expect(location.writes).toEqual([`#step=6&seq=5&fp=${fingerprint}`]);
    await store.getState().openSource({ kind: 'text', name: 'nested.jsonl', text: fixtureText('nested.jsonl') });
    expect(store.getState().step).toBe(729);
    expect(store.getState().deepLinkWarning).toBeNull();
  });

  it('follows a hash the user changes after the load, and stops listening when disposed', async () => {
    const fingerprint = await teachingFingerprint();
    const location = new FakeLocation();
    const { store } = await engineStoreWith('teaching.jsonl', {}, { location });
    location.userSets(`#step=4&seq=2&fp=${fingerprint}`);
    expect(store.getState().step).toBe(4);
    expect(store.getState().selectedSeq).toBe(2);
    expect(store.getState().deepLinkWarning).toBeNull();
    location.userSets('#step=9&fp=someone-else');
    expect(store.getState().step).toBe(9);
    expect(store.getState().deepLinkWarning).toMatch(/different file/);
    // A hash that is not a deep link changes nothing.
    location.userSets('#notes');
    expect(store.getState().step).toBe(9);
    expect(location.listenerCount).toBe(1);
    store.dispose();
    expect(location.listenerCount).toBe(0);
  });
});
