/**
 * Growable typed-array columns. The core keeps per-event facts in typed arrays rather than
 * objects: a million events cost a few bytes each instead of a few hundred.
 */
import type { MemoryBudget } from './budget';

// Only two element types, on purpose: a store site that sees many typed-array kinds goes
// megamorphic in V8, and these pushes run once per event of a million-event log.
type TypedArray = Int32Array | Float64Array;
type TypedArrayCtor<T extends TypedArray> = new (length: number) => T;

/** A typed array that doubles its capacity as values are pushed. */
export class GrowArray<T extends TypedArray> {
  private data: T;
  private size = 0;
  private readonly ctor: TypedArrayCtor<T>;

  constructor(ctor: TypedArrayCtor<T>, capacity = 1024) {
    this.ctor = ctor;
    this.data = new ctor(Math.max(16, capacity));
  }

  get length(): number {
    return this.size;
  }

  push(value: number): void {
    if (this.size === this.data.length) this.reserve(this.size * 2);
    this.data[this.size++] = value;
  }

  /** Drop values from `length` on. */
  truncate(length: number): void {
    if (length < this.size) this.size = Math.max(0, length);
  }

  get(index: number): number {
    return this.data[index]!;
  }

  set(index: number, value: number): void {
    this.data[index] = value;
  }

  /** Make room for at least `capacity` values (in one allocation: no doubling copies after it). */
  reserve(capacity: number): void {
    if (capacity <= this.data.length) return;
    const next = new this.ctor(capacity);
    (next as unknown as { set(a: ArrayLike<number>): void }).set(this.data);
    this.data = next;
  }

  /**
   * The values: the array itself when full, a view when at most an eighth of it is unused (a
   * reservation sized from an estimate: its unused end was never written, so it takes no
   * memory, where a trimmed copy would hold every value twice until collected), else a trimmed
   * copy. The builder should not be reused.
   */
  finish(): T {
    const capacity = this.data.length;
    if (this.size === capacity) return this.data;
    if (capacity - this.size <= capacity >>> 3) return this.data.subarray(0, this.size) as T;
    return this.data.slice(0, this.size) as T;
  }

  /** Direct access to the backing array (valid up to `length`). */
  raw(): T {
    return this.data;
  }
}

/** A growable byte buffer, for the logical text of a log. */
export class ByteBuffer {
  private data: Uint8Array;
  private size = 0;
  /** The load's memory budget, consulted before every growth; null for no limit. */
  private readonly budget: MemoryBudget | null;

  /**
   * @param capacity bytes to allocate up front
   * @param budget consulted before allocating; the buffer then holds what it allocates. With a
   *   budget, the first allocation takes at most a quarter of what is left, so a generous guess
   *   at the capacity cannot starve the rest of the load.
   */
  constructor(capacity = 1 << 16, budget: MemoryBudget | null = null) {
    this.budget = budget;
    let size = Math.max(16, capacity);
    if (budget !== null) {
      size = Math.max(16, Math.min(size, Math.floor(budget.available / 4)));
      budget.hold(size);
    }
    this.data = new Uint8Array(size);
  }

  get length(): number {
    return this.size;
  }

  /** Bytes allocated: the final size of a text wrapped whole or sized from a known length. */
  get capacity(): number {
    return this.data.length;
  }

  /**
   * Append bytes. Throws a `MemoryLimitError` (and leaves the buffer unchanged) when growing
   * it would take the load over its budget.
   */
  append(chunk: Uint8Array): void {
    const need = this.size + chunk.length;
    // A reader that writes the input into this buffer's own storage (see `over`) hands over
    // the bytes already in place: copying them onto themselves would change nothing.
    if (need <= this.data.length && chunk.buffer === this.data.buffer && chunk.byteOffset === this.data.byteOffset + this.size) {
      this.size = need;
      return;
    }
    if (need > this.data.length) {
      let capacity = Math.max(16, this.data.length * 2);
      while (capacity < need) capacity *= 2;
      const budget = this.budget;
      if (budget !== null) {
        // Doubling keeps appends linear; near the limit take half of what is left instead, so
        // the buffer can still grow a few times (and other allocations still fit) before the
        // budget refuses. The old and the new array are both alive during the copy. When not
        // even `need` fits, the refusal names what `need` would take, not a doubled capacity.
        if (!budget.fits(capacity)) {
          budget.check(need);
          capacity = need + Math.floor((budget.available - need) / 2);
        }
        budget.hold(capacity);
      }
      const next = new Uint8Array(capacity);
      next.set(this.data.subarray(0, this.size));
      budget?.release(this.data.length);
      this.data = next;
    }
    this.data.set(chunk, this.size);
    this.size = need;
  }

  /** Forget the bytes from `length` on (where a load stopped reading). */
  truncate(length: number): void {
    if (length < this.size) this.size = Math.max(0, length);
  }

  /** The bytes written so far (a view; valid until the next append). */
  view(): Uint8Array {
    return this.data.subarray(0, this.size);
  }

  /**
   * A buffer of exactly `capacity` bytes, for an input of known size that arrives in pieces (a
   * file read as a stream): held from the start, as a whole input would be.
   * @throws MemoryLimitError when the budget cannot hold it
   */
  static sized(capacity: number, budget: MemoryBudget | null): ByteBuffer {
    budget?.check(capacity);
    const buffer = new ByteBuffer(16, budget);
    budget?.hold(capacity);
    budget?.release(16);
    buffer.data = new Uint8Array(capacity);
    return buffer;
  }

  /**
   * An empty buffer over `storage`, for an input that a reader writes into `storage` in order
   * (a file read in pieces into one allocation): each `append` of the next bytes in place only
   * extends the buffer. The storage is held as a whole input would be.
   */
  static over(storage: Uint8Array, budget: MemoryBudget | null): ByteBuffer {
    const buffer = new ByteBuffer(16, budget);
    budget?.release(16);
    budget?.hold(storage.length);
    buffer.data = storage;
    return buffer;
  }

  /** Wrap existing bytes without copying (for inputs that arrive whole). */
  static wrap(bytes: Uint8Array): ByteBuffer {
    const buffer = new ByteBuffer(16);
    buffer.data = bytes;
    buffer.size = bytes.length;
    return buffer;
  }
}
