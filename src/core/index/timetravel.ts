/**
 * The time-travel index: the surface after any step k without replaying from the start.
 *
 * Every node that ever lives is placed once in a global order (an append at the end, a
 * replacement immediately before the first node it shadows). The surface at step k is the set
 * of nodes alive at k (entered at or before k, not yet shadowed), in that order. Alive sets are
 * bitsets over the global order, checkpointed every K steps; a seek copies the nearest earlier
 * checkpoint and replays at most K - 1 events' enter/leave bits.
 */
import type { Plan } from '../fold/surface';
import { GrowArray } from '../util/grow';
import { firstAtLeast, indexOfAscending } from '../util/sorted';

const NEVER = 0x7fffffff;

/** How an event relates to the surface at a step (surface.md §9 plus `future`). */
export type Classification =
  { state: 'future' } | { state: 'log-only' } | { state: 'current' } | { state: 'shadowed'; by: number; chain: number[]; visible: number };

/** Collects enter/leave facts while the fold runs; `finish` builds the index. */
export class TimeTravelBuilder {
  private readonly baseSeq: number;
  private readonly nodeSeq = new GrowArray(Int32Array);
  private readonly enter = new GrowArray(Int32Array);
  private readonly leave = new GrowArray(Int32Array);
  private readonly replacer = new GrowArray(Int32Array);
  private readonly next = new GrowArray(Int32Array);
  private readonly prev = new GrowArray(Int32Array);
  private head = -1;
  private tail = -1;
  private readonly replNode = new GrowArray(Int32Array);
  private readonly replStart = new GrowArray(Int32Array);
  private readonly replEnd = new GrowArray(Int32Array);
  private readonly replShadowOffset = new GrowArray(Int32Array);
  private readonly replShadow = new GrowArray(Int32Array);
  private readonly replOfNode = new GrowArray(Int32Array);
  private readonly message = new GrowArray(Int32Array);
  /**
   * Live mode (after the first {@link live} call): the global order kept as it changes, by node
   * (`livePos`) and by position (`liveAt`), and where nodes were inserted before the end since
   * the index last took them. Before that the order is only the linked list, read once by
   * {@link finish} or the first {@link live}: a whole load pays nothing for an insertion.
   */
  private livePos: GrowArray<Int32Array> | null = null;
  private liveAt: GrowArray<Int32Array> | null = null;
  /** Nodes inserted before the end since the index last took the order (see {@link settleOrder}). */
  private inserted: number[] = [];
  /** Nodes in the order when the index last took it: the nodes added since have no exact position yet. */
  private orderLength = 0;
  private liveIndex: TimeTravelIndex | null = null;

  /** @param baseSeq absolute seq of event index 0 */
  constructor(baseSeq = 0) {
    this.baseSeq = baseSeq;
    this.replShadowOffset.push(0);
  }

  private newNode(seq: number, step: number): number {
    const id = this.nodeSeq.length;
    this.nodeSeq.push(seq);
    this.enter.push(step);
    this.leave.push(NEVER);
    this.replacer.push(-1);
    this.next.push(-1);
    this.prev.push(-1);
    this.replOfNode.push(-1);
    return id;
  }

  /** The node the event with this seq made (the fold only shadows nodes, so there is one). */
  private nodeOfSeq(seq: number): number {
    return indexOfAscending(this.enter.raw(), this.enter.length, seq - this.baseSeq + 1);
  }

  /**
   * Record event `index`, which the fold accepted with `plan`: a log-only event keeps nothing
   * (only nodes have rows), nor does an event the fold refused, which is never recorded.
   * @param message false for a node whose derived message is null (an empty usage-only
   *   assistant message): it is on the surface but the model sees nothing for it
   */
  add(index: number, plan: Plan, message = true): void {
    const step = index + 1;
    if (plan.kind === 'log-only') return;
    const node = this.newNode(plan.seq, step);
    this.message.push(message ? 1 : 0);
    if (plan.kind === 'append') {
      if (this.tail === -1) this.head = node;
      else {
        this.next.set(this.tail, node);
        this.prev.set(node, this.tail);
      }
      this.tail = node;
      if (this.livePos !== null && this.liveAt !== null) {
        this.livePos.push(this.liveAt.length);
        this.liveAt.push(node);
      }
      return;
    }
    // Insert immediately before the first shadowed node.
    const first = this.nodeOfSeq(plan.shadowed[0]!);
    if (this.livePos !== null && this.liveAt !== null) this.insertLive(node);
    const before = this.prev.get(first);
    this.prev.set(node, before);
    this.next.set(node, first);
    this.prev.set(first, node);
    if (before === -1) this.head = node;
    else this.next.set(before, node);
    const r = this.replNode.length;
    this.replNode.push(node);
    this.replStart.push(plan.start);
    this.replEnd.push(plan.end);
    this.replOfNode.set(node, r);
    for (const seq of plan.shadowed) {
      const shadowedNode = this.nodeOfSeq(seq);
      this.leave.set(shadowedNode, step);
      this.replacer.set(shadowedNode, node);
      this.replShadow.push(shadowedNode);
    }
    this.replShadowOffset.push(this.replShadow.length);
  }

  /**
   * Live mode: `node` goes immediately before `first`. Only noted: the positions after it move
   * once per look, in {@link settleOrder}, not once per insertion (a log that replaces its last
   * node again and again inserts at the same place each time, before all the earlier ones).
   */
  private insertLive(node: number): void {
    const pos = this.livePos as GrowArray<Int32Array>;
    const at = this.liveAt as GrowArray<Int32Array>;
    // Room and an id-aligned entry; the values are laid out by settleOrder.
    pos.push(at.length);
    at.push(node);
    this.inserted.push(node);
  }

  /**
   * Lay out the global order again with the nodes added since the last look, and return where
   * the inserted nodes now are, in ascending order: inserting empty bits there, lowest first,
   * moves an earlier alive set's bits as the insertions one by one did.
   *
   * Insertions never reorder the nodes already placed: the new order is the old one with a run
   * of new nodes spliced in before some old nodes, and the nodes added at the end. So the old
   * nodes move in runs (one `copyWithin` each, from the last run back, since every run moves
   * right) and only the new nodes are found through the linked list. Walking the whole list
   * from the first insertion instead cost an append that inserts far from the end (a log that
   * replaces its last node again and again inserts before all its earlier replacements) a
   * pointer chase over every node after it.
   */
  private settleOrder(): number[] {
    const pos = this.livePos as GrowArray<Int32Array>;
    const at = this.liveAt as GrowArray<Int32Array>;
    const inserted = this.inserted;
    const oldLength = this.orderLength;
    this.orderLength = at.length;
    if (inserted.length === 0) return [];
    const next = this.next.raw();
    const prev = this.prev.raw();
    const atRaw = at.raw();
    const posRaw = pos.raw();
    // The old nodes with new nodes right before them, by old position (ascending).
    const breaks: number[] = [];
    for (const n of inserted) {
      const m = next[n]!;
      if (m !== -1 && m < oldLength) breaks.push(posRaw[m]!);
    }
    breaks.sort((x, y) => x - y);
    // How many new nodes sit before each break (its run of them), and in all before it.
    const runs = breaks.map((b) => {
      let count = 0;
      for (let x = prev[atRaw[b]!]!; x !== -1 && x >= oldLength; x = prev[x]!) count += 1;
      return count;
    });
    let shift = 0;
    const shifts = runs.map((count) => (shift += count));
    // From the last run of old nodes back: move it right by the new nodes before it, then write
    // the new nodes before it at the places that frees.
    for (let j = breaks.length - 1; j >= 0; j--) {
      const start = breaks[j]!;
      const end = j + 1 < breaks.length ? breaks[j + 1]! : oldLength;
      const by = shifts[j]!;
      atRaw.copyWithin(start + by, start, end);
      for (let p = start + by; p < end + by; p++) posRaw[atRaw[p]!] = p;
      let p = start + by - 1;
      for (let x = prev[atRaw[start + by]!]!; p >= start + by - runs[j]!; x = prev[x]!) {
        atRaw[p] = x;
        posRaw[x] = p;
        p -= 1;
      }
    }
    // The new nodes after the last old node (added at the end, and any run before those).
    let p = oldLength + shift;
    for (let node = oldLength === 0 ? this.head : next[atRaw[oldLength - 1 + shift]!]!; node !== -1; node = next[node]!) {
      atRaw[p] = node;
      posRaw[node] = p;
      p += 1;
    }
    const out = inserted.map((n) => pos.get(n)).sort((a, b) => a - b);
    this.inserted = [];
    return out;
  }

  /** The columns as they stand, as views (valid until the next event). */
  private liveColumns(steps: number, checkpointEvery: number): IndexColumns {
    const view = (a: GrowArray<Int32Array>): Int32Array => a.raw().subarray(0, a.length);
    return {
      baseSeq: this.baseSeq,
      steps,
      nodeSeq: view(this.nodeSeq),
      enter: view(this.enter),
      leave: view(this.leave),
      replacer: view(this.replacer),
      pos: view(this.livePos as GrowArray<Int32Array>),
      nodeAtPos: view(this.liveAt as GrowArray<Int32Array>),
      replNode: view(this.replNode),
      replStart: view(this.replStart),
      replEnd: view(this.replEnd),
      replShadowOffset: view(this.replShadowOffset),
      replShadow: view(this.replShadow),
      replOfNode: view(this.replOfNode),
      message: view(this.message),
      checkpointEvery,
    };
  }

  /**
   * The index of everything recorded so far, for a session that goes on growing: the first call
   * builds it (as {@link finish} does), every later call extends that same index in place with
   * what was recorded since, at a cost proportional to that (plus, for a node inserted before
   * the end, the positions after it). The builder stays usable.
   * @param steps the number of steps the cursor can take (events accepted by the fold)
   * @param checkpointEvery K; chosen from the size at the first call when omitted
   */
  live(steps: number, checkpointEvery?: number): TimeTravelIndex {
    if (this.liveIndex === null || this.livePos === null) {
      const m = this.nodeSeq.length;
      const pos = new GrowArray(Int32Array, Math.max(1024, m * 2));
      const at = new GrowArray(Int32Array, Math.max(1024, m * 2));
      for (let i = 0; i < m; i++) pos.push(0);
      let p = 0;
      for (let node = this.head; node !== -1; node = this.next.get(node)) {
        pos.set(node, p);
        at.push(node);
        p += 1;
      }
      this.livePos = pos;
      this.liveAt = at;
      this.inserted = [];
      this.orderLength = at.length;
      this.liveIndex = new TimeTravelIndex(this.liveColumns(steps, checkpointEvery ?? chooseCheckpointInterval(steps, m)), true);
      return this.liveIndex;
    }
    const insertions = this.settleOrder();
    this.liveIndex.extend(this.liveColumns(steps, this.liveIndex.checkpointEvery), insertions);
    return this.liveIndex;
  }

  /**
   * Build the index.
   * @param steps the number of steps the cursor can take (events accepted by the fold)
   * @param checkpointEvery K; chosen from the log's size when omitted
   */
  finish(steps: number, checkpointEvery?: number): TimeTravelIndex {
    const m = this.nodeSeq.length;
    const pos = new Int32Array(m);
    const nodeAtPos = new Int32Array(m);
    let p = 0;
    for (let node = this.head; node !== -1; node = this.next.get(node)) {
      pos[node] = p;
      nodeAtPos[p] = node;
      p += 1;
    }
    return new TimeTravelIndex({
      baseSeq: this.baseSeq,
      steps,
      nodeSeq: this.nodeSeq.finish(),
      enter: this.enter.finish(),
      leave: this.leave.finish(),
      replacer: this.replacer.finish(),
      pos,
      nodeAtPos,
      replNode: this.replNode.finish(),
      replStart: this.replStart.finish(),
      replEnd: this.replEnd.finish(),
      replShadowOffset: this.replShadowOffset.finish(),
      replShadow: this.replShadow.finish(),
      replOfNode: this.replOfNode.finish(),
      message: this.message.finish(),
      checkpointEvery: checkpointEvery ?? chooseCheckpointInterval(steps, m),
    });
  }
}

/** K such that checkpoints take at most ~4 MB, never below 256 steps. */
function chooseCheckpointInterval(steps: number, nodes: number): number {
  const words = Math.ceil(nodes / 32) + 1;
  const budgetWords = (4 * 1024 * 1024) / 4;
  let k = 256;
  while (k < 1 << 20 && (steps / k) * words > budgetWords) k *= 2;
  return k;
}

interface IndexColumns {
  baseSeq: number;
  steps: number;
  nodeSeq: Int32Array;
  /**
   * Per node, the step it entered: its event's index + 1. Nodes are made in event order, so this
   * ascends, and an event finds its node here by binary search: no per-event column is kept for
   * the many events that make none.
   */
  enter: Int32Array;
  leave: Int32Array;
  replacer: Int32Array;
  pos: Int32Array;
  nodeAtPos: Int32Array;
  replNode: Int32Array;
  replStart: Int32Array;
  replEnd: Int32Array;
  replShadowOffset: Int32Array;
  replShadow: Int32Array;
  replOfNode: Int32Array;
  message: Int32Array;
  checkpointEvery: number;
}

/** Per-step totals of the model view: index k holds the value after k steps. */
export interface ContextCurve {
  /** Derived model messages. */
  messages: Int32Array;
  /** Size of the derived messages, when a size function was given. */
  bytes: Float64Array | null;
}

/**
 * Insert a clear bit at position `p` of a bitset of `words` words: the bits from `p` on move up
 * by one (the caller makes sure the last word has room).
 */
function insertZeroBit(bits: Uint32Array, p: number, words: number): void {
  const w = p >>> 5;
  const b = p & 31;
  const x = bits[w]!;
  const low = b === 0 ? 0 : 0xffffffff >>> (32 - b);
  let carry = x >>> 31;
  bits[w] = (x & low) | ((x & ~low) << 1);
  for (let i = w + 1; i < words; i++) {
    const y = bits[i]!;
    bits[i] = (y << 1) | carry;
    carry = y >>> 31;
  }
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * `curve` as a view of `length` values, its values kept: in place when its buffer has room
 * (values past the view were never read through it), else in a buffer of twice the room. A
 * curve that grows by a few steps per append is copied O(log n) times in all, not on every one.
 */
function roomFor<T extends Int32Array | Float64Array>(curve: T, length: number): T {
  const Ctor = (curve instanceof Int32Array ? Int32Array : Float64Array) as unknown as new (
    buffer: ArrayBufferLike | number,
    offset?: number,
    length?: number,
  ) => T;
  const room = (curve.buffer.byteLength - curve.byteOffset) / curve.BYTES_PER_ELEMENT;
  if (room >= length) return new Ctor(curve.buffer, curve.byteOffset, length);
  const grown = new Ctor(Math.max(length, 2 * room));
  (grown as { set(a: ArrayLike<number>): void }).set(curve);
  return new Ctor(grown.buffer, 0, length);
}

/** Answers "what did the surface look like after step k" for any k. */
export class TimeTravelIndex {
  private c: IndexColumns;
  /** Words of the alive bitsets that hold nodes. */
  private words: number;
  /** Words allocated per bitset (more than {@link words} for a growing index, which doubles it). */
  private capacity: number;
  private readonly checkpoints: Uint32Array[] = [];
  /** How many of {@link insertions} each checkpoint has applied (see {@link checkpoint}). */
  private readonly checkpointInsertions: number[] = [];
  /** Positions where a growing index's nodes were inserted before the end, in order. */
  private readonly insertions = new GrowArray(Int32Array);
  private replStep: Int32Array;
  private readonly replSteps: GrowArray<Int32Array> | null;
  private lastSeek: { step: number; bits: Uint32Array } | null = null;

  /**
   * @param growing whether {@link extend} will be called: bitsets then get room to grow
   */
  constructor(columns: IndexColumns, growing = false) {
    this.c = columns;
    this.words = Math.ceil(columns.nodeSeq.length / 32);
    this.capacity = growing ? Math.max(64, this.words * 2) : this.words;
    this.replSteps = growing ? new GrowArray(Int32Array, Math.max(1024, columns.replNode.length * 2)) : null;
    this.replStep = new Int32Array(columns.replNode.length);
    for (let r = 0; r < columns.replNode.length; r++) {
      const step = columns.enter[columns.replNode[r]!]!;
      this.replStep[r] = step;
      this.replSteps?.push(step);
    }
    this.buildCheckpoints();
  }

  /**
   * Take what the builder recorded since (see `TimeTravelBuilder.live`): the columns as they
   * stand now and the positions where nodes were inserted before the end, in order. Steps
   * already taken never change (a new event only adds a node and shadows older ones at its own
   * step), so the checkpoints only move their bits past each insertion (when next read) and
   * gain the new steps' checkpoints, and the message curve only gains the new steps.
   */
  extend(columns: IndexColumns, insertions: readonly number[]): void {
    const oldSteps = this.c.steps;
    this.c = columns;
    const words = Math.ceil(columns.nodeSeq.length / 32);
    if (words > this.capacity) {
      // The checkpoints move to the larger size when next read (see checkpoint()).
      this.capacity = Math.max(words, this.capacity * 2);
      this.lastSeek = null;
    }
    this.words = words;
    if (insertions.length > 0) {
      // Recorded, not applied: each checkpoint moves its bits past them when next read, so an
      // append costs its own insertions, not one pass over every checkpoint for each.
      for (const p of insertions) this.insertions.push(p);
      this.lastSeek = null;
    }
    const repls = this.replSteps as GrowArray<Int32Array>;
    for (let r = repls.length; r < columns.replNode.length; r++) repls.push(columns.enter[columns.replNode[r]!]!);
    this.replStep = repls.raw().subarray(0, repls.length);
    // New checkpoints, from the last one before the old end.
    const k = columns.checkpointEvery;
    const last = this.checkpoints.length - 1;
    if ((last + 1) * k <= columns.steps) {
      const bits = this.checkpoint(last).slice();
      for (let at = (last + 1) * k; at <= columns.steps; at += k) {
        this.applySteps(bits, at - k, at);
        this.checkpoints.push(bits.slice());
        this.checkpointInsertions.push(this.insertions.length);
      }
    }
    if (this.messageCurve !== null)
      this.messageCurve = this.extendCurve<Int32Array>(this.messageCurve, oldSteps, (node) => columns.message[node]!);
    // The byte curve waits for the new nodes' sizes (see unsizedFrom): `curve(sizeOf)` extends it.
  }

  /**
   * A per-step curve continued from step `from` over the steps since: each step adds the weight
   * of the node it entered and takes away the weights of the nodes it shadowed.
   */
  private extendCurve<T extends Int32Array | Float64Array>(curve: T, from: number, weight: (node: number) => number): T {
    const c = this.c;
    const steps = c.steps;
    const out = roomFor(curve, steps + 1);
    const count = c.enter.length;
    let node = firstAtLeast(c.enter, count, from + 1);
    let sum = curve[from]!;
    for (let k = from + 1; k <= steps; k++) {
      if (node < count && c.enter[node] === k) {
        sum += weight(node);
        const r = c.replOfNode[node]!;
        if (r >= 0) {
          for (let i = c.replShadowOffset[r]!; i < c.replShadowOffset[r + 1]!; i++) sum -= weight(c.replShadow[i]!);
        }
        node += 1;
      }
      out[k] = sum;
    }
    return out;
  }

  /** Steps the cursor can take: 0 … steps. */
  get steps(): number {
    return this.c.steps;
  }

  /** Number of nodes that ever lived. */
  get nodeCount(): number {
    return this.c.nodeSeq.length;
  }

  /** Number of replacements applied over the whole accepted prefix. */
  get replacementCount(): number {
    return this.c.replNode.length;
  }

  /** The checkpoint interval K. */
  get checkpointEvery(): number {
    return this.c.checkpointEvery;
  }

  /**
   * Apply to `bits` the enter/leave bits of the steps after `from` up to `to`: those of the nodes
   * their events made, which are consecutive (nodes are made in event order), and nothing for
   * the log-only events between them.
   */
  private applySteps(bits: Uint32Array, from: number, to: number): void {
    const c = this.c;
    const count = c.enter.length;
    for (let node = firstAtLeast(c.enter, count, from + 1); node < count && c.enter[node]! <= to; node++) {
      const p = c.pos[node]!;
      bits[p >>> 5] = bits[p >>> 5]! | (1 << (p & 31));
      const r = c.replOfNode[node]!;
      if (r < 0) continue;
      const end = c.replShadowOffset[r + 1]!;
      for (let i = c.replShadowOffset[r]!; i < end; i++) {
        const q = c.pos[c.replShadow[i]!]!;
        bits[q >>> 5] = bits[q >>> 5]! & ~(1 << (q & 31));
      }
    }
  }

  private buildCheckpoints(): void {
    const k = this.c.checkpointEvery;
    const bits = new Uint32Array(this.capacity);
    this.checkpoints.push(bits.slice());
    this.checkpointInsertions.push(0);
    for (let at = k; at <= this.c.steps; at += k) {
      this.applySteps(bits, at - k, at);
      this.checkpoints.push(bits.slice());
      this.checkpointInsertions.push(0);
    }
  }

  /**
   * Checkpoint `i`, brought up to date: at the current size, its bits moved past every
   * insertion recorded since it was last read (applied in order, as they happened).
   */
  private checkpoint(i: number): Uint32Array {
    let bits = this.checkpoints[i] as Uint32Array;
    if (bits.length < this.capacity) {
      const grown = new Uint32Array(this.capacity);
      grown.set(bits);
      bits = grown;
      this.checkpoints[i] = bits;
    }
    const done = this.checkpointInsertions[i]!;
    const log = this.insertions;
    if (done < log.length) {
      for (let j = done; j < log.length; j++) insertZeroBit(bits, log.get(j), this.words);
      this.checkpointInsertions[i] = log.length;
    }
    return bits;
  }

  private clampStep(step: number): number {
    return Math.max(0, Math.min(this.c.steps, Math.trunc(step)));
  }

  /**
   * The alive set after `step` events, as a bitset over the global order. The returned array
   * is shared with the next call: copy it to keep it.
   */
  aliveAt(step: number): Uint32Array {
    const k = this.clampStep(step);
    const last = this.lastSeek;
    if (last && last.step === k) return last.bits;
    const every = this.c.checkpointEvery;
    let bits: Uint32Array;
    let from: number;
    if (last && last.step <= k && k - last.step < (k % every) + 1) {
      // Moving forward a little from the previous seek is cheaper than a checkpoint copy.
      bits = last.bits;
      from = last.step;
    } else {
      const cp = Math.floor(k / every);
      bits = this.checkpoint(cp).slice();
      from = cp * every;
    }
    this.applySteps(bits, from, k);
    this.lastSeek = { step: k, bits };
    return bits;
  }

  /** Surface node seqs after `step` events, in surface order. */
  nodesAt(step: number): number[] {
    const bits = this.aliveAt(step);
    const out: number[] = [];
    const { nodeAtPos, nodeSeq } = this.c;
    for (let w = 0; w < this.words; w++) {
      let word = bits[w]!;
      while (word !== 0) {
        const bit = 31 - Math.clz32(word & -word);
        out.push(nodeSeq[nodeAtPos[(w << 5) + bit]!]!);
        word &= word - 1;
      }
    }
    return out;
  }

  /** Number of surface nodes after `step` events. */
  nodeCountAt(step: number): number {
    const bits = this.aliveAt(step);
    let n = 0;
    for (let w = 0; w < this.words; w++) n += popcount(bits[w]!);
    return n;
  }

  /**
   * Surface node seqs [start, start+count) after `step` events, without materialising the rest.
   */
  nodeWindowAt(step: number, start: number, count: number): number[] {
    const bits = this.aliveAt(step);
    const out: number[] = [];
    const { nodeAtPos, nodeSeq } = this.c;
    let seen = 0;
    for (let w = 0; w < this.words && out.length < count; w++) {
      const word0 = bits[w]!;
      const n = popcount(word0);
      if (seen + n <= start) {
        seen += n;
        continue;
      }
      let word = word0;
      while (word !== 0 && out.length < count) {
        const bit = 31 - Math.clz32(word & -word);
        if (seen >= start) out.push(nodeSeq[nodeAtPos[(w << 5) + bit]!]!);
        seen += 1;
        word &= word - 1;
      }
    }
    return out;
  }

  /** Replaces applied in the first `step` events (`replaceGeneration` at step). */
  replaceGenerationAt(step: number): number {
    const k = this.clampStep(step);
    // replStep is ascending: binary search for the count of entries <= k.
    let lo = 0;
    let hi = this.replStep.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.replStep[mid]! <= k) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** Steps (ascending) at which a replace was applied. */
  replaceSteps(): Int32Array {
    return this.replStep;
  }

  /** Replacement number `r` (in event order): its seq, declared bounds, step and shadowed seqs. */
  replacement(r: number): { seq: number; start: number; end: number; step: number; shadowedSeqs: number[] } {
    const c = this.c;
    const shadowedSeqs: number[] = [];
    for (let i = c.replShadowOffset[r]!; i < c.replShadowOffset[r + 1]!; i++) {
      shadowedSeqs.push(c.nodeSeq[c.replShadow[i]!]!);
    }
    return {
      seq: c.nodeSeq[c.replNode[r]!]!,
      start: c.replStart[r]!,
      end: c.replEnd[r]!,
      step: this.replStep[r]!,
      shadowedSeqs,
    };
  }

  /** Replacement number of the event with this seq, or -1. */
  replacementOfSeq(seq: number): number {
    const node = this.nodeOf(seq);
    return node < 0 ? -1 : this.c.replOfNode[node]!;
  }

  private nodeOf(seq: number): number {
    return this.nodeOfIndex(seq - this.c.baseSeq);
  }

  /** The node event `index` made, or -1 (log-only, never applied, or outside the log). */
  private nodeOfIndex(index: number): number {
    return index < 0 ? -1 : indexOfAscending(this.c.enter, this.c.enter.length, index + 1);
  }

  /** Step at which the event with this seq entered the surface, or -1 if it never did. */
  enterStep(seq: number): number {
    const node = this.nodeOf(seq);
    return node < 0 ? -1 : this.c.enter[node]!;
  }

  /** Step at which the event with this seq was shadowed, or -1 if never. */
  leaveStep(seq: number): number {
    const node = this.nodeOf(seq);
    if (node < 0) return -1;
    const leave = this.c.leave[node]!;
    return leave === NEVER ? -1 : leave;
  }

  /** Seq of the replacement that shadowed the event with this seq (ever), or -1. */
  replacedBy(seq: number): number {
    const node = this.nodeOf(seq);
    if (node < 0) return -1;
    const by = this.c.replacer[node]!;
    return by < 0 ? -1 : this.c.nodeSeq[by]!;
  }

  /** Position of the node for `seq` in the global order, or -1. */
  position(seq: number): number {
    const node = this.nodeOf(seq);
    return node < 0 ? -1 : this.c.pos[node]!;
  }

  /** Classify event `index` at `step` (surface.md §9). */
  classify(index: number, step: number): Classification {
    const k = this.clampStep(step);
    if (index >= k) return { state: 'future' };
    const c = this.c;
    const node = this.nodeOfIndex(index);
    if (node < 0) return { state: 'log-only' };
    const leave = c.leave[node]!;
    if (leave > k) return { state: 'current' };
    // Follow the replacers applied by step k until one is still on the surface: that node is
    // the visible stand-in.
    const chain: number[] = [];
    let at = node;
    while (c.replacer[at]! >= 0 && c.leave[at]! <= k) {
      at = c.replacer[at]!;
      chain.push(c.nodeSeq[at]!);
    }
    return { state: 'shadowed', by: chain[0]!, chain, visible: c.nodeSeq[at]! };
  }

  /** True when event `index` is on the surface after `step`. */
  isCurrent(index: number, step: number): boolean {
    const c = this.c;
    const node = this.nodeOfIndex(index);
    if (node < 0) return false;
    return c.enter[node]! <= step && c.leave[node]! > step;
  }

  /**
   * The seq span each replacement covers, directly or through nested replaces (for gutter
   * brackets): `first[r]`/`last[r]` are the smallest and largest covered seq. With `previous`
   * (this index's spans before it grew) only the replacements since are spanned: a
   * replacement's span never changes once it is applied.
   */
  bracketSpans(previous?: { first: Int32Array; last: Int32Array }): { first: Int32Array; last: Int32Array } {
    const c = this.c;
    const count = c.replNode.length;
    const from = previous === undefined ? 0 : Math.min(previous.first.length, count);
    const first = previous === undefined ? new Int32Array(count) : roomFor(previous.first, count);
    const last = previous === undefined ? new Int32Array(count) : roomFor(previous.last, count);
    // Children are applied before their parents, so one pass in event order suffices.
    for (let r = from; r < count; r++) {
      let lo = NEVER;
      let hi = -1;
      for (let i = c.replShadowOffset[r]!; i < c.replShadowOffset[r + 1]!; i++) {
        const node = c.replShadow[i]!;
        const seq = c.nodeSeq[node]!;
        lo = Math.min(lo, seq);
        hi = Math.max(hi, seq);
        const child = c.replOfNode[node]!;
        if (child >= 0) {
          lo = Math.min(lo, first[child]!);
          hi = Math.max(hi, last[child]!);
        }
      }
      first[r] = lo;
      last[r] = hi;
    }
    return { first, last };
  }

  private messageCurve: Int32Array | null = null;
  private byteCurve: Float64Array | null = null;
  /** Each node's size as the byte curve was swept from (kept by a growing index, to extend it). */
  private nodeBytes: GrowArray<Float64Array> | null = null;
  /** A growing index's byte curve holds steps up to here, and sizes of nodes below `nodeBytesFrom`. */
  private byteCurveSteps = 0;
  private nodeBytesFrom = 0;

  /**
   * Per-step sums of a per-node weight from enter/leave deltas, in one O(steps + nodes) pass:
   * the value after k steps is the sum of the weights of the nodes alive at k.
   */
  private sweep(weight: (node: number) => number): Float64Array {
    const c = this.c;
    const steps = c.steps;
    const delta = new Float64Array(steps + 2);
    for (let node = 0; node < c.nodeSeq.length; node++) {
      const enter = c.enter[node]!;
      if (enter > steps) continue;
      const w = weight(node);
      if (w === 0) continue;
      const leave = Math.min(c.leave[node]!, steps + 1);
      delta[enter] = delta[enter]! + w;
      delta[leave] = delta[leave]! - w;
    }
    const out = new Float64Array(steps + 1);
    let sum = 0;
    for (let k = 0; k <= steps; k++) {
      sum += delta[k]!;
      out[k] = sum;
    }
    return out;
  }

  /**
   * The context curve: derived messages and, with `sizeOf`, model-view size after every step.
   * Sizes are computed on first request (at most one call of `sizeOf` per node), then cached.
   * @param sizeOf size of the derived message of the node with this seq (and this node id, the
   *   index into {@link nodeSeqs})
   */
  curve(sizeOf?: (seq: number, node: number) => number): ContextCurve {
    this.messageCurve ??= this.messageSweep();
    const seqs = this.c.nodeSeq;
    if (sizeOf && !this.byteCurve) {
      if (this.replSteps === null) this.byteCurve = this.sweep((node) => sizeOf(seqs[node]!, node));
      else {
        const sizes = new GrowArray(Float64Array, Math.max(1024, seqs.length * 2));
        for (let node = 0; node < seqs.length; node++) sizes.push(sizeOf(seqs[node]!, node));
        this.nodeBytes = sizes;
        this.byteCurve = this.sweep((node) => sizes.get(node));
        this.byteCurveSteps = this.c.steps;
        this.nodeBytesFrom = seqs.length;
      }
    } else if (sizeOf && this.nodeBytes !== null && this.byteCurve !== null && this.byteCurveSteps < this.c.steps) {
      const sizes = this.nodeBytes;
      for (let node = this.nodeBytesFrom; node < seqs.length; node++) sizes.push(sizeOf(seqs[node]!, node));
      this.nodeBytesFrom = seqs.length;
      this.byteCurve = this.extendCurve(this.byteCurve, this.byteCurveSteps, (node) => sizes.get(node));
      this.byteCurveSteps = this.c.steps;
    }
    // A growing index's byte curve is given only while it covers every step.
    const current = this.replSteps === null || this.byteCurveSteps >= this.c.steps;
    return { messages: this.messageCurve, bytes: current ? this.byteCurve : null };
  }

  /**
   * Nodes whose sizes the byte curve still needs (a growing index that gained nodes since the
   * sizes were given): the ids from here on; `nodeCount` when none.
   */
  unsizedFrom(): number {
    if (this.byteCurve === null) return 0;
    return this.byteCurveSteps >= this.c.steps ? this.c.nodeSeq.length : this.nodeBytesFrom;
  }

  /** The seq of every node that ever lived, by node id (a view: do not modify). */
  nodeSeqs(): Int32Array {
    return this.c.nodeSeq;
  }

  /**
   * The message curve: {@link sweep} for the 0/1 message weights, in one Int32 array (the
   * deltas summed in place) rather than two Float64 arrays and a copy.
   */
  private messageSweep(): Int32Array {
    const c = this.c;
    const steps = c.steps;
    const out = new Int32Array(steps + 2);
    for (let node = 0; node < c.nodeSeq.length; node++) {
      const enter = c.enter[node]!;
      if (enter > steps || c.message[node] !== 1) continue;
      out[enter] = out[enter]! + 1;
      const leave = Math.min(c.leave[node]!, steps + 1);
      out[leave] = out[leave]! - 1;
    }
    for (let k = 1; k <= steps; k++) out[k] = out[k]! + out[k - 1]!;
    return out.subarray(0, steps + 1);
  }

  /** Whether {@link messagesAt} was asked once already (the first answer is counted directly). */
  private messagesAsked = false;

  /** Derived model messages after `step` events. */
  messagesAt(step: number): number {
    const k = this.clampStep(step);
    if (this.messageCurve === null && !this.messagesAsked) {
      // One question (check's final count) is answered by counting the nodes alive at `k`; the
      // curve, built from the second question on, answers every later one in O(1).
      this.messagesAsked = true;
      const c = this.c;
      let count = 0;
      for (let node = 0; node < c.nodeSeq.length; node++) {
        if (c.message[node] === 1 && c.enter[node]! <= k && c.leave[node]! > k) count++;
      }
      return count;
    }
    return this.curve().messages[k]!;
  }

  /** True when the node for `seq` projects to a model message. */
  hasMessage(seq: number): boolean {
    const node = this.nodeOf(seq);
    return node >= 0 && this.c.message[node] === 1;
  }

  /**
   * The human transcript aligned with the model view after `step` (surface.md §8): one row per
   * surface node in model order, each with the append-origin events it stands for, in log
   * order. An append that is still current stands for itself; a replacement stands for every
   * append it shadows, directly or through nested replaces.
   *
   * This works because append-origin nodes sit in the global order in log order, and a
   * replacement sits immediately before everything it covers.
   */
  alignedViews(step: number): { model: number; transcript: number[] }[] {
    const k = this.clampStep(step);
    const c = this.c;
    const rows: { model: number; transcript: number[] }[] = [];
    const rowOfNode = new Map<number, { model: number; transcript: number[] }>();
    for (let p = 0; p < c.nodeAtPos.length; p++) {
      const node = c.nodeAtPos[p]!;
      if (c.enter[node]! > k) continue;
      if (c.leave[node]! > k) {
        const row = { model: c.nodeSeq[node]!, transcript: [] as number[] };
        rows.push(row);
        rowOfNode.set(node, row);
      }
      if (c.replOfNode[node]! >= 0) continue; // replacements are model-only
      let at = node;
      while (c.leave[at]! <= k) at = c.replacer[at]!;
      rowOfNode.get(at)?.transcript.push(c.nodeSeq[node]!);
    }
    return rows;
  }

  /**
   * One row of {@link alignedViews} without building the others: the append-origin events the
   * surface node `seq` stands for after `step`, counted, with seqs [start, start + count) of them.
   * Null when `seq` is not on the surface after `step`. With `countAll` false the walk stops once
   * the window is filled, and `total` counts only that far (for a caller that knows the total).
   *
   * A row's events are the nodes entered by `step` from its own position up to the next node
   * alive at `step`: a replacement sits immediately before the first node it shadows, and the
   * nodes it shadows are consecutive alive nodes, each with its own run behind it. So the walk
   * costs the row's span (plus replacements not applied yet that sit inside it), not the
   * surface. It also stops at the first append not applied yet: appends sit in log order and
   * every applied replacement sits before an applied append, so nothing applied follows.
   */
  transcriptOf(seq: number, step: number, start = 0, count = Infinity, countAll = true): { total: number; seqs: number[] } | null {
    const k = this.clampStep(step);
    const c = this.c;
    const node = this.nodeOf(seq);
    if (node < 0 || c.enter[node]! > k || c.leave[node]! <= k) return null;
    const from = Math.max(0, start);
    const to = from + Math.max(0, count);
    const seqs: number[] = [];
    let total = 0;
    const first = c.pos[node]!;
    for (let p = first; p < c.nodeAtPos.length; p++) {
      const at = c.nodeAtPos[p]!;
      const replacement = c.replOfNode[at]! >= 0;
      if (c.enter[at]! > k) {
        if (replacement) continue;
        break;
      }
      if (p !== first && c.leave[at]! > k) break; // the next row
      if (replacement) continue; // replacements are model-only
      if (total >= from && total < to) seqs.push(c.nodeSeq[at]!);
      total += 1;
      if (!countAll && total >= to) break;
    }
    return { total, seqs };
  }

  /**
   * Where the event `seq` appears in {@link alignedViews} after `step`: the row (its index among
   * the surface nodes, and its seq) and the event's index in that row's transcript (0 for an
   * append that is its own row), or -1 for a replacement (the row's model message, or nested in it). Null when the event was not on
   * the surface by `step` (log-only, refused, not yet applied).
   *
   * The row is the node alive at `step` that stands for the event: the event's own node, or the
   * replacement that shadowed it, followed up while that was shadowed too (by `step`).
   */
  viewPlaceOf(seq: number, step: number): { row: number; rowSeq: number; index: number } | null {
    const k = this.clampStep(step);
    const c = this.c;
    const node = this.nodeOf(seq);
    if (node < 0 || c.enter[node]! > k) return null;
    let at = node;
    while (c.leave[at]! <= k) at = c.replacer[at]!;
    const rowSeq = c.nodeSeq[at]!;
    // Its index in the row's transcript (see transcriptOf): the applied appends between the row's
    // position and its own. Appends sit in log order, so every append before it is applied.
    let index = -1;
    if (c.replOfNode[node]! < 0) {
      index = 0;
      for (let p = c.pos[at]!; p < c.pos[node]!; p++) {
        const x = c.nodeAtPos[p]!;
        if (c.replOfNode[x]! < 0 && c.enter[x]! <= k) index += 1;
      }
    }
    // The row's index: the alive nodes before it in the global order.
    const bits = this.aliveAt(k);
    const pos = c.pos[at]!;
    const word = pos >>> 5;
    let row = 0;
    for (let w = 0; w < word; w++) row += popcount(bits[w]!);
    row += popcount(bits[word]! & ((1 << (pos & 31)) - 1));
    return { row, rowSeq, index };
  }

  /** Approximate memory held by the index, in bytes. */
  byteSize(): number {
    const c = this.c;
    let total = this.replStep.byteLength;
    for (const a of [c.nodeSeq, c.enter, c.leave, c.replacer, c.pos, c.nodeAtPos, c.replOfNode]) total += a.byteLength;
    for (const a of [c.replNode, c.replStart, c.replEnd, c.replShadowOffset, c.replShadow]) total += a.byteLength;
    for (const cp of this.checkpoints) total += cp.byteLength;
    return total;
  }
}
