/**
 * A small seeded pseudo-random generator for the log generator and tests.
 *
 * The core is sfc32 (a 128-bit-state "small fast counting" generator): fast on 32-bit integer
 * math, good enough statistically for synthetic data, and exactly reproducible in every JS
 * engine because it only uses `| 0`, `>>>` and `Math.imul`. `Math.random` is never used, so
 * a seed always reproduces the same output byte for byte.
 */

/** FNV-1a over UTF-16 code units, then a murmur3-style finaliser so nearby labels spread well. */
function hashLabel(label: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    h ^= label.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return fmix32(h);
}

/**
 * murmur3's fmix32: a bijective avalanche step on 32 bits. Exported because a bijection turns a
 * counter into ids that look random yet can never collide.
 */
export function fmix32(x: number): number {
  let h = x | 0;
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

const HEX = '0123456789abcdef';
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/**
 * A seeded random stream. Every method advances the stream; `fork(label)` derives an
 * independent substream that depends only on this stream's identity and the label, not on how
 * many numbers were drawn so far, so adding draws in one part of a program does not perturb a
 * forked part.
 */
export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;
  /** Identity of this stream (seed path), used to derive forks. */
  private readonly key: number;

  /** @param seed any number (only its low 32 bits after `>>> 0` of its integer part matter) or a string */
  constructor(seed: number | string) {
    const key = typeof seed === 'string' ? hashLabel(seed) : fmix32((Math.trunc(seed) >>> 0) ^ 0x5bd1e995);
    this.key = key;
    // Spread the 32-bit key over the 128-bit state; the constants only break symmetry.
    this.a = 0x9e3779b9;
    this.b = key;
    this.c = fmix32(key ^ 0x243f6a88);
    this.d = 1;
    // sfc32 needs a few rounds to decorrelate from the (structured) initial state.
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** Next raw 32-bit unsigned integer. */
  u32(): number {
    const t = (((this.a + this.b) | 0) + this.d) | 0;
    this.d = (this.d + 1) | 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) | 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) | 0;
    return t >>> 0;
  }

  /** Uniform float in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform integer in the inclusive range [lo, hi]. */
  int(lo: number, hi: number): number {
    if (hi <= lo) return lo;
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A uniformly chosen element. Throws on an empty list (a programming error, not data). */
  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick on an empty list');
    return items[Math.floor(this.next() * items.length)] as T;
  }

  /** An element chosen with probability proportional to its weight. */
  weighted<T>(entries: readonly (readonly [T, number])[]): T {
    let total = 0;
    for (const [, w] of entries) total += w;
    let r = this.next() * total;
    for (const [value, w] of entries) {
      r -= w;
      if (r < 0) return value;
    }
    const last = entries[entries.length - 1];
    if (last === undefined) throw new Error('Rng.weighted on an empty list');
    return last[0];
  }

  /** Integer with a roughly geometric distribution: mean about `mean`, capped at `max`. */
  geometric(mean: number, max: number): number {
    const p = 1 / (mean + 1);
    let n = 0;
    while (n < max && !this.chance(p)) n++;
    return n;
  }

  /** `n` lowercase hex digits. */
  hex(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[this.u32() & 15];
    return s;
  }

  /** `n` characters from [A-Za-z0-9]. */
  alnum(n: number): string {
    let s = '';
    for (let i = 0; i < n; i++) s += ALNUM[this.u32() % 62];
    return s;
  }

  /**
   * An independent substream named `label`. Forking the same label from the same stream always
   * yields the same sequence, whatever was drawn from the parent in between.
   */
  fork(label: string): Rng {
    return new Rng(`${this.key.toString(16)}/${label}`);
  }
}
