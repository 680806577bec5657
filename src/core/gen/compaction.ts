/** The generator's compactions and prunes: see {@link Compactor}. */

import { headCodePoints, tailCodePoints, tokensOf } from './parts';
import { REPLACEMENT_KINDS } from './violations';
import type { Obj, SurfaceNode } from './parts';
import { SurfaceModel } from './surface';
import { CHECKPOINT_PREAMBLE, PROVIDER, PRUNE_MARKER } from './vocabulary';

/** Summarizing compactions (nested, failed, manual) and tool-result pruning over the tracked surface. */
export abstract class Compactor extends SurfaceModel {
  // ----- compaction and pruning --------------------------------------------------------------

  /** Prune every current tool result over the threshold (events.md §6.3). */
  protected pruneCurrent(): void {
    for (let i = 0; i < this.nodes.length; i++) {
      const node = this.nodes[i] as SurfaceNode;
      if (node.prunable === null) continue;
      const original = node.prunable;
      const s = node.seq;
      this.ev('compaction/prune', { shadowedRange: { start: s, end: s }, shadowedSeqs: [s], shadowedTokenCount: node.tokens });
      const message = original.message as Obj;
      const block = (message.content as Obj[])[0] as Obj;
      const inner = block.content as Obj[];
      const text = (inner[0] as Obj).text as string;
      // Upstream keeps the first 4096 and last 1024 code points (threshold 8192); a smaller
      // test threshold scales them down so the copy still is a shortening.
      const head = Math.min(4096, Math.floor(this.pruneThreshold / 2));
      const tail = Math.min(1024, Math.floor(this.pruneThreshold / 8));
      const cutText = headCodePoints(text, head) + PRUNE_MARKER + tailCodePoints(text, tail);
      // Identical data except the first block's content: same keys in the same order.
      const data: Obj = {
        ...original,
        message: { ...message, content: [{ ...block, content: [{ type: 'text', text: cutText }, ...inner.slice(1)] }] },
      };
      if (this.armed() === 'tool-result-changes-meta') {
        const meta = (original.meta ?? {}) as Obj;
        data.meta = { ...meta, pruned: true };
        this.recordViolation(this.nextSeq, 'tool/result surface replacement may change only content');
      }
      const seq = this.ev('tool/result', data, [s], { op: 'replace', start: s, end: s });
      const tokens = tokensOf(cutText.length);
      this.contextTokens += tokens - node.tokens;
      this.nodes[i] = { seq, tokens, balance: -1, checkpoint: false, prunable: null };
      this.meta.stats.prunes++;
    }
  }

  /** An automatic compaction at a step start when the context is over the threshold. */
  protected maybeCompact(turn: number, step: number): void {
    const armed = this.armed();
    const forced = armed !== null && REPLACEMENT_KINDS.has(armed);
    if (!forced && !(this.compactionOn && this.contextTokens > this.threshold)) return;
    const minNodes = forced && armed === 'replace-start-after-end' ? 2 : 1;
    const range = this.chooseRange(minNodes, forced);
    if (range === null) return;
    const fail = !forced && this.rng.chance(this.failureRate);
    if (!fail && !forced && this.rng.chance(0.3)) {
      // Context overflow: the request failed first, then compaction runs inside the same step.
      this.ev('assistant/chunk', {
        turn,
        step,
        chunk: {
          type: 'finish',
          reason: { kind: 'error', failure: { message: 'request exceeded the model context window', code: 'CONTEXT_WINDOW_EXCEEDED' } },
        },
      });
    }
    this.compact(range, turn, null, fail, forced);
  }

  /** A manual `/compact` between turns (events.md §6.2). */
  protected manualCompact(): void {
    const commandId = this.commandId();
    this.ev('command/run', { commandId, name: 'compact', args: '', source: { kind: 'user' } });
    const range = this.nodes.length >= 2 ? this.chooseRange(2, false) : null;
    if (range === null) {
      this.ev('command/done', { commandId, kind: 'success', text: 'No compactable history yet.' });
      return;
    }
    const fail = this.rng.chance(this.failureRate / 2);
    const result = this.compact(range, null, commandId, fail);
    if ('error' in result) {
      this.ev('command/done', { commandId, kind: 'error', text: `Compaction failed: ${result.error}` });
    } else {
      this.ev('command/done', {
        commandId,
        kind: 'success',
        text: `Compacted ${result.count} history items (~${result.tokens} tokens).`,
        sourceEventSeq: result.summarySeq,
      });
      this.meta.stats.manualCompactions++;
    }
  }

  /**
   * Write one compaction bracket replacing nodes [a, b]; applies the replacement violations
   * when one is armed. Returns the error text of a failed compaction.
   */
  protected compact(
    range: [number, number],
    turn: number | null,
    commandId: string | null,
    fail: boolean,
    forced = false,
  ): { count: number; tokens: number; summarySeq: number } | { error: string } {
    const rng = this.rng;
    const [a, b] = range;
    const compactionId = this.uuid();
    const withCmd = (o: Obj): Obj => (commandId === null ? o : { compactionId: o.compactionId, sourceCommandId: commandId, ...o });
    const startSeq = this.ev('compaction/start', withCmd({ compactionId, turn }));
    this.time += rng.int(800, 9000);
    const shadowedNodes = this.nodes.slice(a, b + 1);
    const shadowed = shadowedNodes.map((n) => n.seq);
    let tokens = 0;
    for (const n of shadowedNodes) tokens += n.tokens;
    const summaryText = this.sentence(rng.int(40, 220));
    const summary = [{ type: 'text', text: summaryText }];
    const cpTokens = tokensOf(CHECKPOINT_PREAMBLE.length + summaryText.length + 21);
    // A summary at least as big as the range is refused upstream; a forced compaction (placing
    // a violation) goes through regardless.
    if (fail || (cpTokens >= tokens && !forced)) {
      const error =
        cpTokens >= tokens
          ? `summary is not smaller than the shadowed content (${cpTokens} estimated framed tokens >= ${tokens})`
          : rng.pick([
              'LlmError: summarizer request failed: upstream timeout (code TIMEOUT)',
              'LlmError: summarizer request failed: 503 Service Unavailable (code PROVIDER_UNAVAILABLE)',
              'CompactionError: the surface changed while the summary was generated',
            ]);
      this.ev('compaction/end', withCmd({ compactionId, turn, error }));
      this.meta.stats.failedCompactions++;
      return { error };
    }
    const summaryData: Obj = withCmd({ compactionId, summary });
    if (rng.chance(0.5)) {
      summaryData.rawOutput = summary;
      summaryData.llmStreamCall = true;
    }
    Object.assign(summaryData, {
      shadowedRange: { start: shadowed[0], end: shadowed[shadowed.length - 1] },
      shadowedSeqs: shadowed,
      shadowedTokenCount: tokens,
      provider: PROVIDER,
      model: this.model,
      maxTokens: 4096,
      usage: { inputTokens: tokens + 300, outputTokens: tokensOf(summaryText.length) },
    });
    const summarySeq = this.ev('compaction/summary', summaryData);

    const source: Obj = { kind: 'plugin', plugin: 'compact', compactionId };
    if (commandId !== null) source.sourceCommandId = commandId;
    const checkpoint = {
      content: [{ type: 'text', text: CHECKPOINT_PREAMBLE }, ...summary, { type: 'text', text: '</compacted-summary>' }],
      source,
      role: 'user',
      id: this.uuid(),
    };
    const first = shadowed[0]!;
    const last = shadowed[shadowed.length - 1]!;
    let op: Obj = { op: 'replace', start: first, end: last };
    let sources = [startSeq, summarySeq, ...shadowed];
    const armed = this.armed();
    const seqNow = this.nextSeq;
    switch (armed) {
      case 'invalid-replace-op':
        op = { op: 'replace', start: first, end: last, reason: 'compact' };
        this.recordViolation(seqNow, 'session event "user/message" carries an invalid replace surfaceOp');
        break;
      case 'replace-start-not-found':
        // The compaction/start event is log-only, so it is never a surface node.
        op = { op: 'replace', start: startSeq, end: last };
        this.recordViolation(seqNow, `surface replace: start seq ${startSeq} not found in surface`);
        break;
      case 'replace-end-not-found':
        op = { op: 'replace', start: first, end: summarySeq };
        this.recordViolation(seqNow, `surface replace: end seq ${summarySeq} not found in surface`);
        break;
      case 'replace-start-after-end':
        if (shadowed.length >= 2) {
          op = { op: 'replace', start: last, end: first };
          this.recordViolation(seqNow, `surface replace: start seq ${last} (index ${b}) is after end seq ${first} (index ${a})`);
        }
        break;
      case 'replace-missing-shadowed-source':
        sources = sources.slice(0, -1);
        this.recordViolation(seqNow, `surface replace: sourceEventSeqs must include every shadowed surface node; missing ${last}`);
        break;
      default:
        break;
    }
    const cpSeq = this.ev('user/message', checkpoint, sources, op);
    const nested = shadowedNodes.some((n) => n.checkpoint);
    this.nodes.splice(a, b - a + 1, { seq: cpSeq, tokens: cpTokens, balance: 0, checkpoint: true, prunable: null });
    this.contextTokens += cpTokens - tokens;
    this.meta.stats.compactions++;
    if (nested) this.meta.stats.nestedCompactions++;
    if (first > last) this.meta.stats.startAfterEndRanges++;
    this.ev('compaction/end', withCmd({ compactionId, turn }));
    return { count: shadowed.length, tokens, summarySeq };
  }
}
