/** The context curve: the size of the derived messages at every step, bucketed for plotting. */
import type { CurveData, CurveParams } from '../../protocol/protocol';
import { TOKEN_METHOD } from '../../core/analyze/tokens';
import { derivedMessageSize } from '../../core/qa/size';
import { curveRequests, curveUsage } from './analysis';
import { abortError } from './session';
import type { QuerySession } from './session';

/**
 * Size every node's derived message, a slice at a time, and hand the sizes to the index, which
 * keeps only the byte curve it sweeps from them. Stops with an `AbortError` when `stale()` says
 * the session was replaced (a new load) meanwhile.
 */
async function sizeNodes(q: QuerySession, yieldNow: () => Promise<void>, stale: () => boolean): Promise<void> {
  const tt = q.session.index;
  const seqs = tt.nodeSeqs();
  // A grown session's index keeps the sizes it was given: only the new nodes are sized.
  const from = tt.unsizedFrom();
  const sizes = new Float64Array(seqs.length - from);
  for (let i = from; i < seqs.length; i++) {
    sizes[i - from] = derivedMessageSize(q.event(seqs[i]!));
    if ((i & 511) === 511) {
      await yieldNow();
      if (stale()) throw abortError('the session was replaced');
    }
  }
  // Nodes that arrived while this ran (the session grew) are sized as the index asks.
  tt.curve((seq, node) => (node - from < sizes.length ? sizes[node - from]! : derivedMessageSize(q.event(seq))));
}

/**
 * The context curve in at most `buckets` buckets. The first call sizes every node's derived
 * message (each node's line parsed again: a quarter of a second for a million-event log), a
 * slice at a time with `yieldNow` between slices, so requests that arrive meanwhile (the
 * timeline's rows, a seek) are answered rather than queued behind it.
 */
export async function curve(
  q: QuerySession,
  { buckets }: CurveParams,
  yieldNow: () => Promise<void> = async () => {},
  stale: () => boolean = () => false,
): Promise<CurveData> {
  const tt = q.session.index;
  q.sizing ??= sizeNodes(q, yieldNow, stale).catch((error: unknown) => {
    q.sizing = null;
    throw error;
  });
  await q.sizing;
  // The index keeps the byte curve once it has it.
  const sized = tt.curve();
  const bytes = sized.bytes as Float64Array;
  const steps = tt.steps;
  const n = Math.max(1, Math.min(buckets, steps + 1));
  const out: CurveData['buckets'] = [];
  let bytesMax = 0;
  for (let b = 0; b < n; b++) {
    const from = Math.floor((b * (steps + 1)) / n);
    const to = Math.max(from, Math.floor(((b + 1) * (steps + 1)) / n) - 1);
    let lo = Infinity;
    let hi = 0;
    let messages = 0;
    for (let k = from; k <= to; k++) {
      const v = bytes[k]!;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      messages = Math.max(messages, sized.messages[k]!);
    }
    bytesMax = Math.max(bytesMax, hi);
    out.push({ from, to, bytesMin: lo === Infinity ? 0 : lo, bytesMax: hi, messagesMax: messages });
  }
  return {
    steps,
    buckets: out,
    replaces: Array.from(tt.replaceSteps()),
    bytesMax,
    tokenMethod: TOKEN_METHOD,
    requests: curveRequests(q.session),
    usage: curveUsage(q.session),
  };
}
