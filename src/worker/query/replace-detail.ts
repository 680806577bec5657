/** The replace inspector's data for one replacement: sizes, the prune diff, the compaction it closes. */
import { diffLines } from 'diff';
import type { DiffPart, ReplaceDetail, ReplacementParams } from '../../protocol/protocol';
import { sessionDiagnostics } from '../../core/analyze/diagnostics';
import { estimateTokens, TOKEN_METHOD } from '../../core/analyze/tokens';
import { derivedMessageSize as derivedSize } from '../../core/qa/size';
import { replaceLossInfo } from './analysis';
import { contentText } from './messages';
import { replacementKinds } from './replacements';
import type { QuerySession } from './session';
import { message } from './views';

/** Largest text diffed in the inspector (per side). */
const MAX_DIFF_TEXT = 200_000;

/* eslint-disable @typescript-eslint/no-explicit-any -- log content is untyped JSON, read defensively */
function pruneDiff(original: any, copy: any): ReplaceDetail['prune'] {
  const text = (event: any): string => {
    try {
      return contentText(event.data.message.content[0].content);
    } catch {
      return '';
    }
  };
  const before = text(original);
  const after = text(copy);
  const clipped = before.length > MAX_DIFF_TEXT || after.length > MAX_DIFF_TEXT;
  const diff: DiffPart[] = diffLines(before.slice(0, MAX_DIFF_TEXT), after.slice(0, MAX_DIFF_TEXT)).map((part) => ({
    op: part.added ? 'add' : part.removed ? 'remove' : 'same',
    text: part.value,
  }));
  return { before: before.slice(0, MAX_DIFF_TEXT), after: after.slice(0, MAX_DIFF_TEXT), diff, clipped };
}

/** Find the compaction bracket events of a checkpoint by its compactionId. */
function compaction(q: QuerySession, checkpoint: any, actual: number[]): ReplaceDetail['compaction'] {
  const source = checkpoint?.data?.source;
  const id = typeof source?.compactionId === 'string' ? (source.compactionId as string) : null;
  const found = { start: null as number | null, summary: null as number | null, end: null as number | null };
  let summary: any = null;
  let error: string | null = null;
  if (id !== null) {
    const { typeId, types } = q.session.columns;
    const wanted = new Map<number, 'start' | 'summary' | 'end'>();
    types.forEach((type, i) => {
      if (type === 'compaction/start') wanted.set(i, 'start');
      else if (type === 'compaction/summary') wanted.set(i, 'summary');
      else if (type === 'compaction/end') wanted.set(i, 'end');
    });
    for (let i = 0; i < typeId.length; i++) {
      const which = wanted.get(typeId[i]!);
      if (!which || found[which] !== null) continue;
      const event: any = q.session.log.event(i);
      if (event?.data?.compactionId !== id) continue;
      found[which] = q.seqOf(i);
      if (which === 'summary') summary = event;
      if (which === 'end' && typeof event.data.error === 'string') error = event.data.error;
    }
  }
  const declaredSeqs: unknown[] | null = Array.isArray(summary?.data?.shadowedSeqs) ? summary.data.shadowedSeqs : null;
  const range = summary?.data?.shadowedRange;
  return {
    compactionId: id,
    startSeq: found.start,
    summarySeq: found.summary,
    endSeq: found.end,
    declaredRange: range && typeof range === 'object' ? { start: range.start, end: range.end } : null,
    declaredSeqs,
    declaredMatches: declaredSeqs !== null && JSON.stringify(declaredSeqs) === JSON.stringify(actual),
    error,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */

export function replaceDetail(q: QuerySession, { replacement: seq }: ReplacementParams): ReplaceDetail {
  const tt = q.session.index;
  const r = tt.replacementOfSeq(seq);
  if (r < 0) throw new Error(`seq ${seq} is not a replacement`);
  const rep = tt.replacement(r);
  const step = rep.step;
  const replacementEvent: unknown = q.event(seq);
  const shadowedEvents: unknown[] = rep.shadowedSeqs.map((s) => q.event(s));
  const bytesBefore = shadowedEvents.reduce((sum: number, e) => sum + derivedSize(e), 0);
  const bytesAfter = derivedSize(replacementEvent);
  const kind = replacementKinds(q)[r] ?? 'other';
  return {
    seq,
    step,
    kind,
    start: rep.start,
    end: rep.end,
    shadowedSeqs: rep.shadowedSeqs,
    replacement: message(q, seq, step),
    shadowed: rep.shadowedSeqs.map((s) => message(q, s, step - 1)),
    bytesBefore,
    bytesAfter,
    tokensBefore: estimateTokens(bytesBefore),
    tokensAfter: estimateTokens(bytesAfter),
    tokenMethod: TOKEN_METHOD,
    prune: kind === 'prune' ? pruneDiff(shadowedEvents[0], replacementEvent) : null,
    compaction: kind === 'compaction' ? compaction(q, replacementEvent, rep.shadowedSeqs) : null,
    findings: sessionDiagnostics(q.session).filter((d) => d.rule.startsWith('qa/') && d.seq === seq),
    loss: replaceLossInfo(q.session, seq),
  };
}
