/**
 * The derived-message list of the current surface, as the analysis pass reads it: which surface
 * nodes bear a message, in surface order, and their JSON sizes, with positions and running
 * sizes found in O(log n) whatever the pattern of replaces.
 *
 * An array of seqs made each replace cost O(n) (`indexOf` for its cut, `splice`, and redoing
 * the running sizes after the cut), so a log that replaces its last message after every append
 * was analysed in quadratic time. Here every surface node sits in a slot, as in the fold's
 * `LiveSurface`: an append opens a slot at the end, and a replacement takes the slot of the first
 * node it shadows (surface.md §3.3 puts it exactly there), so slot order is surface order. Two
 * Fenwick trees over the slots hold, per slot, whether it bears a message and that message's
 * size: a message's position is the bearing slots before it, and the size of the first k
 * messages a prefix sum.
 */
import { indexOfAscending } from '../util/sorted';

/** Room for index `size` (doubling). */
function growInt(data: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size < data.length) return data;
  const next = new Int32Array(data.length * 2);
  next.set(data);
  return next;
}

function growFloat(data: Float64Array<ArrayBuffer>, size: number): Float64Array<ArrayBuffer> {
  if (size < data.length) return data;
  const next = new Float64Array(data.length * 2);
  next.set(data);
  return next;
}

/** What a replace did to the message list. */
export interface ListCut {
  /** Position of the first message it removed, or where its message went when it removed none. */
  cut: number;
  /** The seqs of the messages it removed, in order (positions `cut` …). */
  removed: number[];
  /** Their sizes, in the same order. */
  removedSizes: number[];
  /** Those of them that were marked when they entered (see {@link MessageList.append}). */
  marked: number[];
}

/** The current surface's message-bearing nodes; see the module comment. */
export class MessageList {
  /**
   * Seq and slot of every node ever entered, in the order they entered: seqs ascend (each node
   * is the event being folded), so a node is found by binary search, and is live while its slot
   * still holds its seq. Nodes entered out of order (never from a valid fold) go to a map.
   */
  private nodeSeq = new Float64Array(64);
  private nodeSlot = new Int32Array(64);
  private nodes = 0;
  private unordered: Map<number, number> | null = null;
  /** Seq of the node in each slot. */
  private slotSeq = new Float64Array(64);
  /** 1 for a marked message, else 0. */
  private slotMark = new Int32Array(64);
  /** Size of the message in each slot, or -1 when the slot bears none. */
  private slotSize = new Float64Array(64);
  /** Fenwick trees (1-based) over the slots: message counts and sizes. */
  private count = new Int32Array(65);
  private size = new Float64Array(65);
  private slots = 0;
  private messages = 0;
  private chars = 0;

  /** Messages in the list. */
  get length(): number {
    return this.messages;
  }

  /** JSON characters of every message in the list. */
  get totalSize(): number {
    return this.chars;
  }

  /**
   * A node appended to the surface; `size` is its message's, or null when it bears none.
   * `marked`: reported among a later replace's {@link ListCut.marked} when it removes it.
   */
  append(seq: number, size: number | null, marked = false): void {
    const slot = this.slots++;
    this.slotSeq = growFloat(this.slotSeq, slot);
    this.slotSize = growFloat(this.slotSize, slot);
    this.slotMark = growInt(this.slotMark, slot);
    this.count = growInt(this.count, slot + 1);
    this.size = growFloat(this.size, slot + 1);
    this.enter(seq, slot);
    this.slotSeq[slot] = seq;
    this.slotSize[slot] = size ?? -1;
    this.slotMark[slot] = marked && size !== null ? 1 : 0;
    // Fenwick append: the new cell covers (i - lowbit(i), i]; its value is the slot's own plus
    // the cells that tile (i - lowbit(i), i - 1].
    const i = slot + 1;
    let n = size === null ? 0 : 1;
    let s = size ?? 0;
    const low = i - (i & -i);
    for (let j = i - 1; j > low; j -= j & -j) {
      n += this.count[j]!;
      s += this.size[j]!;
    }
    this.count[i] = n;
    this.size[i] = s;
    if (size !== null) {
      this.messages++;
      this.chars += size;
    }
  }

  /**
   * Surface nodes `shadowed` (in surface order) replaced by the node `seq`, whose message has
   * `size` characters (null: it bears none). Where the list was cut is measured before the change.
   */
  replace(shadowed: readonly number[], seq: number, size: number | null, marked = false): ListCut {
    const first = shadowed.length > 0 ? this.slotOf(shadowed[0]!) : -1;
    if (first < 0) {
      // Not a node of this surface (a valid fold never does this): the message goes at the end.
      const cut = this.messages;
      this.append(seq, size, marked);
      return { cut, removed: [], removedSizes: [], marked: [] };
    }
    const cut = this.countBefore(first);
    const removed: number[] = [];
    const removedSizes: number[] = [];
    const removedMarked: number[] = [];
    for (const s of shadowed) {
      const slot = this.slotOf(s);
      if (slot < 0) continue;
      if (this.slotSize[slot]! >= 0) {
        removed.push(s);
        removedSizes.push(this.slotSize[slot]!);
        if (this.slotMark[slot] === 1) removedMarked.push(s);
        this.setSlot(slot, null);
      }
      // The slot no longer holds `s`, so `s` is not live.
      this.slotSeq[slot] = NaN;
    }
    this.enter(seq, first);
    this.slotSeq[first] = seq;
    this.slotMark[first] = marked && size !== null ? 1 : 0;
    this.setSlot(first, size);
    return { cut, removed, removedSizes, marked: removedMarked };
  }

  /** Whether the node `seq` is live and bears a message. */
  bears(seq: number): boolean {
    const slot = this.slotOf(seq);
    return slot >= 0 && this.slotSize[slot]! >= 0;
  }

  /**
   * Set the size of the live node `seq`'s message (it entered with a provisional one).
   * @returns false when `seq` is no longer live or bears no message (nothing changes)
   */
  resize(seq: number, size: number): boolean {
    const slot = this.slotOf(seq);
    if (slot < 0 || this.slotSize[slot]! < 0) return false;
    this.setSlot(slot, size);
    return true;
  }

  /** The seq of message `k` (0-based), or undefined outside the list. */
  at(k: number): number | undefined {
    if (!(k >= 0 && k < this.messages)) return undefined;
    return this.slotSeq[this.select(k)];
  }

  /** JSON characters of message `k` (0-based), or 0 outside the list. */
  sizeAt(k: number): number {
    if (!(k >= 0 && k < this.messages)) return 0;
    return this.slotSize[this.select(k)]!;
  }

  /** JSON characters of the first `k` messages. */
  sizeBefore(k: number): number {
    if (k <= 0) return 0;
    if (k >= this.messages) return this.chars;
    let sum = 0;
    for (let j = this.select(k - 1) + 1; j > 0; j -= j & -j) sum += this.size[j]!;
    return sum;
  }

  /** Record that the node `seq` now sits in `slot`. */
  private enter(seq: number, slot: number): void {
    if (this.unordered === null && (this.nodes === 0 || seq > this.nodeSeq[this.nodes - 1]!)) {
      const node = this.nodes++;
      this.nodeSeq = growFloat(this.nodeSeq, node);
      this.nodeSlot = growInt(this.nodeSlot, node);
      this.nodeSeq[node] = seq;
      this.nodeSlot[node] = slot;
      return;
    }
    this.unordered ??= new Map();
    this.unordered.set(seq, slot);
  }

  /** The slot of the live node `seq`, or -1. */
  private slotOf(seq: number): number {
    const node = indexOfAscending(this.nodeSeq, this.nodes, seq);
    let slot = node >= 0 ? this.nodeSlot[node]! : -1;
    if (slot < 0) slot = this.unordered?.get(seq) ?? -1;
    return slot >= 0 && this.slotSeq[slot] === seq ? slot : -1;
  }

  /** Messages in slots before `slot`. */
  private countBefore(slot: number): number {
    let sum = 0;
    for (let j = slot; j > 0; j -= j & -j) sum += this.count[j]!;
    return sum;
  }

  /** The slot of message `k`, by descending the count tree. */
  private select(k: number): number {
    let pos = 0;
    let rest = k + 1;
    let step = 1;
    while (step * 2 <= this.slots) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.slots && this.count[next]! < rest) {
        pos = next;
        rest -= this.count[next]!;
      }
    }
    return pos;
  }

  /** Make `slot` bear a message of `size` characters, or none. */
  private setSlot(slot: number, size: number | null): void {
    const before = this.slotSize[slot]!;
    const dn = (size === null ? 0 : 1) - (before >= 0 ? 1 : 0);
    const ds = (size ?? 0) - (before >= 0 ? before : 0);
    this.slotSize[slot] = size ?? -1;
    this.messages += dn;
    this.chars += ds;
    if (dn === 0 && ds === 0) return;
    for (let j = slot + 1; j <= this.slots; j += j & -j) {
      this.count[j] = this.count[j]! + dn;
      this.size[j] = this.size[j]! + ds;
    }
  }
}
