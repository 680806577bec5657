/**
 * The fold's current nodes, with positions found in O(log n) whatever the pattern of replaces.
 *
 * A plain array makes a replace cost O(n): `indexOf` for its bounds and `splice` to remove
 * the range. A log that replaces the last node after every append, or the first node of a long
 * surface, then folds in quadratic time. Here every node sits in a slot: an append opens a new
 * slot at the end, and a replacement takes the slot of the first node it shadows (surface.md
 * §3.3 puts it exactly there), so slots never move and their order is the surface order. A
 * Fenwick tree over the slots counts the live ones (a node's index is the live slots before
 * it), a skip list with path compression jumps over slots that died, and a node is found by its
 * seq through binary search: nodes are created in log order, so their seqs ascend.
 */
import { indexOfAscending } from '../util/sorted';

/** The read side the fold checks need (a plain `number[]` also provides it). */
export interface NodePositions {
  readonly length: number;
  /** Index of the node with this seq among the current nodes, or -1. */
  indexOf(seq: number): number;
  /** The seqs of the current nodes at indexes `start` … `end - 1`. */
  slice(start?: number, end?: number): number[];
}

/** Room for index `size` in an Int32 column (doubling). */
function grow(data: Int32Array<ArrayBuffer>, size: number): Int32Array<ArrayBuffer> {
  if (size < data.length) return data;
  const next = new Int32Array(data.length * 2);
  next.set(data);
  return next;
}

/** Room for index `size` in a Float64 column (doubling). */
function growSeqs(data: Float64Array<ArrayBuffer>, size: number): Float64Array<ArrayBuffer> {
  if (size < data.length) return data;
  const next = new Float64Array(data.length * 2);
  next.set(data);
  return next;
}

/** The current nodes of a surface fold; see the module comment. */
export class LiveSurface implements NodePositions {
  /** Seq of each node ever created, ascending (creation order = log order). */
  private nodeSeq = new Float64Array(64);
  /** Slot of each node. */
  private nodeSlot = new Int32Array(64);
  private nodes = 0;
  /** Node in each slot, -1 once the slot died. */
  private slotNode = new Int32Array(64);
  /** Fenwick tree (1-based) over the slots' live counts. */
  private tree = new Int32Array(65);
  /** Next slot at or after this one that may be live (path-compressed on dead slots). */
  private skip = new Int32Array(64);
  private slots = 0;
  private live = 0;
  /**
   * Seqs that do not ascend cannot be indexed (a valid fold never produces them: every node is
   * the event being folded); such a surface falls back to a plain array.
   */
  private overflow: number[] | null = null;

  /** Number of current nodes. */
  get length(): number {
    return this.overflow !== null ? this.overflow.length : this.live;
  }

  /** Append a node (surface.md §3.3 append). Seqs must ascend across appends and replaces. */
  push(seq: number): void {
    if (this.overflow !== null || !this.accepts(seq)) {
      this.toOverflow().push(seq);
      return;
    }
    const node = this.newNode(seq);
    const slot = this.slots++;
    this.slotNode = grow(this.slotNode, slot);
    this.skip = grow(this.skip, slot);
    this.tree = grow(this.tree, slot + 1);
    this.slotNode[slot] = node;
    this.skip[slot] = slot;
    this.nodeSlot[node] = slot;
    // Fenwick append: the new cell covers (i - lowbit(i), i]; its value is 1 plus the cells
    // that tile (i - lowbit(i), i - 1].
    const i = slot + 1;
    let sum = 1;
    const low = i - (i & -i);
    for (let j = i - 1; j > low; j -= j & -j) sum += this.tree[j]!;
    this.tree[i] = sum;
    this.live++;
  }

  /**
   * Replace the nodes at indexes `startIdx` … `endIdx` (inclusive) by a node with `seq`
   * (surface.md §3.3 replace). Returns the shadowed seqs in surface order.
   */
  replace(startIdx: number, endIdx: number, seq: number): number[] {
    if (this.overflow !== null || !this.accepts(seq)) {
      const nodes = this.toOverflow();
      return nodes.splice(startIdx, endIdx - startIdx + 1, seq);
    }
    const shadowed: number[] = [];
    const first = this.selectSlot(startIdx);
    let slot = first;
    for (let k = startIdx; k <= endIdx; k++) {
      const node = this.slotNode[slot]!;
      shadowed.push(this.nodeSeq[node]!);
      if (k > startIdx) this.kill(slot);
      slot = this.nextLive(slot + 1);
    }
    const node = this.newNode(seq);
    this.slotNode[first] = node;
    this.nodeSlot[node] = first;
    return shadowed;
  }

  indexOf(seq: number): number {
    if (this.overflow !== null) return this.overflow.indexOf(seq);
    const node = this.nodeOf(seq);
    if (node < 0) return -1;
    const slot = this.nodeSlot[node]!;
    if (this.slotNode[slot] !== node) return -1;
    return this.prefix(slot + 1) - 1;
  }

  slice(start = 0, end = this.length): number[] {
    if (this.overflow !== null) return this.overflow.slice(start, end);
    const n = this.live;
    const from = start < 0 ? Math.max(0, n + start) : Math.min(start, n);
    const to = end < 0 ? Math.max(0, n + end) : Math.min(end, n);
    if (from >= to) return [];
    // Sized up front: a replace keeps its slice (as the Replacement's shadowedSeqs) for the rest
    // of the session, and a list grown by push from empty reserves 17 elements.
    const out = new Array<number>(to - from);
    let slot = this.selectSlot(from);
    for (let k = from; k < to; k++) {
      out[k - from] = this.nodeSeq[this.slotNode[slot]!]!;
      slot = this.nextLive(slot + 1);
    }
    return out;
  }

  /** The seq of the node at `index` (O(log n)), or undefined outside the surface. */
  at(index: number): number | undefined {
    if (this.overflow !== null) return this.overflow[index];
    if (!(index >= 0 && index < this.live)) return undefined;
    return this.nodeSeq[this.slotNode[this.selectSlot(Math.trunc(index))]!];
  }

  /** An independent copy. */
  clone(): LiveSurface {
    const copy = new LiveSurface();
    copy.nodeSeq = this.nodeSeq.slice();
    copy.nodeSlot = this.nodeSlot.slice();
    copy.nodes = this.nodes;
    copy.slotNode = this.slotNode.slice();
    copy.tree = this.tree.slice();
    copy.skip = this.skip.slice();
    copy.slots = this.slots;
    copy.live = this.live;
    copy.overflow = this.overflow === null ? null : this.overflow.slice();
    return copy;
  }

  private accepts(seq: number): boolean {
    return this.nodes === 0 || seq > this.nodeSeq[this.nodes - 1]!;
  }

  /** Leave the indexed form (seqs out of order: never from a valid fold). */
  private toOverflow(): number[] {
    if (this.overflow === null) this.overflow = this.slice();
    return this.overflow;
  }

  private newNode(seq: number): number {
    const node = this.nodes++;
    this.nodeSeq = growSeqs(this.nodeSeq, node);
    this.nodeSlot = grow(this.nodeSlot, node);
    this.nodeSeq[node] = seq;
    return node;
  }

  /** The node created for `seq`, or -1 (binary search over the ascending seqs). */
  private nodeOf(seq: number): number {
    return indexOfAscending(this.nodeSeq, this.nodes, seq);
  }

  /** Live slots among the first `i` slots. */
  private prefix(i: number): number {
    let sum = 0;
    for (let j = i; j > 0; j -= j & -j) sum += this.tree[j]!;
    return sum;
  }

  /** The slot of the live node at `index` (0-based), by descending the Fenwick tree. */
  private selectSlot(index: number): number {
    let pos = 0;
    let rest = index + 1;
    let step = 1;
    while (step * 2 <= this.slots) step *= 2;
    for (; step > 0; step >>= 1) {
      const next = pos + step;
      if (next <= this.slots && this.tree[next]! < rest) {
        pos = next;
        rest -= this.tree[next]!;
      }
    }
    return pos; // 1-based position pos + 1 is the slot; 0-based it is pos
  }

  private kill(slot: number): void {
    this.slotNode[slot] = -1;
    this.skip[slot] = slot + 1;
    for (let j = slot + 1; j <= this.slots; j += j & -j) this.tree[j] = this.tree[j]! - 1;
    this.live--;
  }

  /** The first live slot at or after `slot` (`slots` when none). */
  private nextLive(slot: number): number {
    const skip = this.skip;
    let root = slot;
    while (root < this.slots && skip[root] !== root) root = skip[root]!;
    // Path compression: every dead slot on the way now points at the live one.
    while (slot < root) {
      const next = skip[slot]!;
      skip[slot] = root;
      slot = next;
    }
    return root;
  }
}
