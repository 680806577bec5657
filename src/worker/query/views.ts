/**
 * The two views at a step: the model view (one row per surface node) aligned with the human
 * transcript each row stands for, paged transcripts, where an event appears, and a block's
 * whole text.
 */
import type {
  BlockTextParams,
  EventAtParams,
  TranscriptPage,
  TranscriptParams,
  ViewMessage,
  ViewPlace,
  ViewsWindow,
  WindowParams,
} from '../../protocol/protocol';
import { TRANSCRIPT_PAGE_LIMIT, VIEW_TRANSCRIPT_PREVIEW } from '../../protocol/protocol';
import { blockText as wholeBlockText, viewMessage } from './messages';
import type { QuerySession } from './session';

/** Most rows of the aligned views sent per window (each carries its model message and a preview of its transcript). */
const MAX_VIEW_ROWS = 500;

/** The event `seq` as a chat row, with its state at `step`. */
export function message(q: QuerySession, seq: number, step: number): ViewMessage {
  const index = seq - q.session.baseSeq;
  return viewMessage(q.event(seq), seq, q.typeOf(index), q.stateAt(index, step));
}

function span(
  q: QuerySession,
  seq: number,
  step: number,
  start: number,
  count: number,
  countAll = true,
): { total: number; seqs: number[] } {
  const found = q.session.index.transcriptOf(seq, step, start, count, countAll);
  if (!found) throw new Error(`seq ${seq} is not on the surface at step ${step}`);
  return found;
}

/** Replacements inside replacement `seq` at step k, outermost first (breadth-first). */
function nested(q: QuerySession, seq: number, step: number): number[] {
  const tt = q.session.index;
  const out: number[] = [];
  const queue = [seq];
  while (queue.length > 0) {
    const at = queue.shift() as number;
    const r = tt.replacementOfSeq(at);
    if (r < 0 || tt.replacement(r).step > step) continue;
    for (const child of tt.replacement(r).shadowedSeqs) {
      if (tt.replacementOfSeq(child) >= 0) {
        out.push(child);
        queue.push(child);
      }
    }
  }
  return out;
}

/**
 * Aligned rows [start, start + count) at a step. Rows come from the alive set and each row's
 * transcript from its own span in the index, so the rows outside the window are never built,
 * and only the first {@link VIEW_TRANSCRIPT_PREVIEW} transcript messages of a row are derived:
 * a compaction's thousands of shadowed messages stay in the log until {@link transcript}.
 */
export function views(q: QuerySession, { step, start, count }: WindowParams): ViewsWindow {
  const tt = q.session.index;
  const k = q.clampStep(step);
  const total = tt.nodeCountAt(k);
  const first = Math.max(0, Math.min(start, total));
  const seqs = tt.nodeWindowAt(k, first, Math.min(count, MAX_VIEW_ROWS));
  return {
    step: k,
    total,
    start: first,
    rows: seqs.map((seq) => {
      const known = q.transcriptTotals.get(seq);
      const preview = span(q, seq, k, 0, VIEW_TRANSCRIPT_PREVIEW, known === undefined);
      const rowTotal = known ?? preview.total;
      if (known === undefined) q.transcriptTotals.set(seq, rowTotal);
      return {
        model: message(q, seq, k),
        transcript: preview.seqs.map((s) => message(q, s, k)),
        transcriptTotal: rowTotal,
        nested: nested(q, seq, k),
      };
    }),
  };
}

/** Transcript messages [start, start + count) of the row `seq` at a step (see CoreApi.transcript). */
export function transcript(q: QuerySession, { step, seq, start, count }: TranscriptParams): TranscriptPage {
  const k = q.clampStep(step);
  // With the row's count known, the walk stops at the end of the page.
  const known = q.transcriptTotals.get(seq);
  const page = span(q, seq, k, Math.max(0, start), Math.min(count, TRANSCRIPT_PAGE_LIMIT), known === undefined);
  const total = known ?? page.total;
  if (known === undefined) q.transcriptTotals.set(seq, total);
  return {
    total,
    start: Math.max(0, Math.min(start, total)),
    messages: page.seqs.map((s) => message(q, s, k)),
  };
}

/** Where `seq` appears in the views at a step (see CoreApi.viewPlace). */
export function viewPlace(q: QuerySession, { step, seq }: EventAtParams): ViewPlace | null {
  return q.session.index.viewPlaceOf(seq, q.clampStep(step));
}

/** The whole text of block `block` of `seq`'s chat row (see CoreApi.blockText). */
export function blockText(q: QuerySession, { seq, block }: BlockTextParams): string {
  const index = q.indexOf(seq);
  const text = wholeBlockText(q.event(seq), q.typeOf(index), block);
  if (text === null) throw new Error(`seq ${seq} has no block ${block}`);
  return text;
}
