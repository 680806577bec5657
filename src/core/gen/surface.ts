/** The generator's model of the surface: see {@link SurfaceModel}. */

import type { Obj, SurfaceNode } from './parts';
import { LogWriter } from './writer';

/** The surface as the generator tracks it: the nodes, their sizes, and the ranges a replace may take. */
export abstract class SurfaceModel extends LogWriter {
  // ----- surface tracking --------------------------------------------------------------------

  protected appendNode(seq: number, tokens: number, balance: number, prunable: Obj | null = null): void {
    this.nodes.push({ seq, tokens, balance, checkpoint: false, prunable });
    this.contextTokens += tokens;
  }

  /**
   * Choose a compactable range [a, b] (node indices) whose both cuts are balanced (§6.4), keeping
   * about `keepRatio` of the context verbatim after it. `minNodes` is the fewest nodes the range
   * may hold; `force` accepts any balanced range when the preferred one does not exist.
   */
  protected chooseRange(minNodes: number, force: boolean): [number, number] | null {
    const n = this.nodes.length;
    if (n < minNodes) return null;
    // balanced[c] = the running balance before index c is 0 (c = n is the end of the surface).
    const balanced: boolean[] = new Array<boolean>(n + 1);
    const tailTokens: number[] = new Array<number>(n + 1);
    let bal = 0;
    for (let c = 0; c <= n; c++) {
      balanced[c] = bal === 0;
      const node = this.nodes[c];
      if (node !== undefined) bal += node.balance;
    }
    tailTokens[n] = 0;
    for (let c = n - 1; c >= 0; c--) tailTokens[c] = tailTokens[c + 1]! + (this.nodes[c] as SurfaceNode).tokens;

    // Mostly compact from the very beginning (which nests earlier checkpoints); sometimes
    // leave the first node(s) alone, as a range starting after an earlier checkpoint.
    let a = 0;
    if (this.rng.chance(0.2)) {
      const later: number[] = [];
      for (let c = 1; c < Math.min(n - minNodes, 4); c++) if (balanced[c]) later.push(c);
      if (later.length > 0) a = this.rng.pick(later);
    }
    // Usually keep `keepRatio` of the context; sometimes much more, so the next compaction comes
    // soon and its range ends inside the tail that predates the previous checkpoint (a range
    // whose start seq is numerically after its end seq).
    const ratio = this.rng.chance(0.3) ? Math.max(this.keepRatio, 0.55 + 0.3 * this.rng.next()) : this.keepRatio;
    const keep = ratio * this.contextTokens;
    let endCut = -1;
    // The largest balanced end cut that still keeps enough context and at least one node.
    for (let c = n - 1; c >= a + minNodes; c--) {
      if (balanced[c] && tailTokens[c]! >= keep) {
        endCut = c;
        break;
      }
    }
    if (endCut < 0) {
      // Keep at least one node when possible; a forced compaction may take everything.
      for (let c = n - 1; c >= a + minNodes; c--)
        if (balanced[c]) {
          endCut = c;
          break;
        }
      if (endCut < 0 && force && balanced[n] && n >= a + minNodes) endCut = n;
    }
    if (endCut < 0) return null;
    return [a, endCut - 1];
  }
}
