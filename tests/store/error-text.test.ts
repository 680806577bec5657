import { describe, expect, it } from 'vitest';
import { acceptedPrefixText, countOf, surfaceErrorPlace } from '../../src/store/selectors';

describe('what a person reads about a surface error', () => {
  it('names the seq when it is a number, else the position and what the seq holds', () => {
    expect(surfaceErrorPlace({ seq: 87, index: 6 })).toBe('seq 87');
    expect(surfaceErrorPlace({ seq: null, index: 0 })).toBe('the event at position 0 (it has no seq)');
    expect(surfaceErrorPlace({ seq: '1', index: 1 })).toBe('the event at position 1 (its seq is "1", not a number)');
  });
  it('never says "the first 0 events"', () => {
    expect(acceptedPrefixText(0)).toBe('No event before it was accepted: the log is still shown, with nothing on the surface.');
    expect(acceptedPrefixText(1)).toBe('The 1 event before it stays fully navigable.');
    expect(acceptedPrefixText(1177)).toBe('The 1,177 events before it stay fully navigable.');
  });
  it('counts with separators and plurals', () => {
    expect(countOf(1, 'event')).toBe('1 event');
    expect(countOf(1000431, 'event')).toBe('1,000,431 events');
  });
});
