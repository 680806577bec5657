import { describe, expect, it } from 'vitest';
import { FINGERPRINT_EDGE, fingerprint, fingerprintEdges } from '../../../src/core/util/fingerprint';
import { Rng } from '../../../src/core/gen/rng';

describe('fingerprint', () => {
  it('seed 76: the ends of an input give the same fingerprint as the whole of it, at every size around the edges', () => {
    const rng = new Rng('fingerprint-76');
    const sizes = [
      0,
      1,
      100,
      FINGERPRINT_EDGE - 1,
      FINGERPRINT_EDGE,
      FINGERPRINT_EDGE + 1,
      2 * FINGERPRINT_EDGE - 1,
      2 * FINGERPRINT_EDGE,
      2 * FINGERPRINT_EDGE + 1,
      300_000,
    ];
    for (const size of sizes) {
      const bytes = Uint8Array.from({ length: size }, () => rng.int(0, 255));
      const head = bytes.slice(0, FINGERPRINT_EDGE);
      const tail = bytes.slice(Math.max(FINGERPRINT_EDGE, size - FINGERPRINT_EDGE));
      expect(fingerprintEdges(size, head, tail)).toBe(fingerprint(bytes));
    }
  });

  it('changes with the size and with a byte at either end, not with the middle of a large input', () => {
    const bytes = new Uint8Array(300_000).fill(7);
    const base = fingerprint(bytes);
    const at = (i: number): string => {
      const copy = bytes.slice();
      copy[i] = 8;
      return fingerprint(copy);
    };
    expect(at(0)).not.toBe(base);
    expect(at(bytes.length - 1)).not.toBe(base);
    expect(at(150_000)).toBe(base);
    expect(fingerprint(bytes.subarray(1))).not.toBe(base);
  });
});
