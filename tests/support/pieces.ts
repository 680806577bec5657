/** Inputs cut the way a growing file or a stream delivers them, for the growing-session tests. */
import type { Rng } from '../../src/core/gen/rng';

/** Cut `bytes` into random pieces of 1..max bytes (each a copy). */
export function cut(bytes: Uint8Array, rng: Rng, max: number): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = rng.int(1, max);
    out.push(bytes.slice(at, at + size));
    at += size;
  }
  return out;
}
