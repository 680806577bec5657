import { indexOfAscending } from './sorted';

/**
 * A map from seq to value for the nodes of a fold, in a sorted typed array plus an array of
 * values instead of a hash table: the fold creates nodes in log order, so seqs arrive
 * ascending and each is appended, and a lookup is a binary search. About 16 bytes per node ever
 * entered rather than a hash-table entry (~70 bytes) per live one. A seq that does not ascend
 * (never from a valid fold) is kept in a map beside.
 */
export class SeqTable<T> {
  private seqs = new Float64Array(64);
  private readonly values: (T | undefined)[] = [];
  private entered = 0;
  private live = 0;
  private unordered: Map<number, T> | null = null;

  /** Entries present. */
  get size(): number {
    return this.live + (this.unordered?.size ?? 0);
  }

  set(seq: number, value: T): void {
    if (this.unordered === null || !this.unordered.has(seq)) {
      if (this.entered === 0 || seq > this.seqs[this.entered - 1]!) {
        if (this.entered === this.seqs.length) {
          const next = new Float64Array(this.seqs.length * 2);
          next.set(this.seqs);
          this.seqs = next;
        }
        this.seqs[this.entered++] = seq;
        this.values.push(value);
        this.live++;
        return;
      }
      const at = this.find(seq);
      if (at >= 0) {
        if (this.values[at] === undefined) this.live++;
        this.values[at] = value;
        return;
      }
    }
    this.unordered ??= new Map();
    this.unordered.set(seq, value);
  }

  get(seq: number): T | undefined {
    const at = this.find(seq);
    if (at >= 0) return this.values[at];
    return this.unordered?.get(seq);
  }

  has(seq: number): boolean {
    return this.get(seq) !== undefined;
  }

  delete(seq: number): boolean {
    const at = this.find(seq);
    if (at >= 0 && this.values[at] !== undefined) {
      this.values[at] = undefined;
      this.live--;
      return true;
    }
    return this.unordered?.delete(seq) ?? false;
  }

  /** Index of `seq` among the entered seqs, or -1. */
  private find(seq: number): number {
    return indexOfAscending(this.seqs, this.entered, seq);
  }
}
