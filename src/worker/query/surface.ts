/** The surface at a step, what each step changed, and the nodes a replacement shadowed. */
import { previewOf, roleOf } from '../../core/analyze/describe';
import type { ReplacementParams, StepChange, SurfaceNode, SurfaceWindow, WindowParams } from '../../protocol/protocol';
import { MAX_WINDOW } from './session';
import type { QuerySession } from './session';

function describeNode(q: QuerySession, seq: number): SurfaceNode {
  const index = seq - q.session.baseSeq;
  const event = q.parse(index);
  const tt = q.session.index;
  const r = tt.replacementOfSeq(seq);
  return {
    seq,
    type: q.typeOf(index),
    family: q.familyOf(index),
    role: roleOf(event),
    preview: previewOf(event),
    replacement: r >= 0,
    shadowedCount: r >= 0 ? tt.replacement(r).shadowedSeqs.length : 0,
    empty: !tt.hasMessage(seq),
  };
}

/** One surface node for display (it does not depend on the cursor: cached). */
export function surfaceNode(q: QuerySession, seq: number): SurfaceNode {
  return q.nodes.get(seq) ?? q.nodes.set(seq, describeNode(q, seq));
}

/** What step `step` changed (the event applied at step k is index k - 1). */
export function stepChange(q: QuerySession, step: number): StepChange {
  if (step <= 0) return { kind: 'start', seq: null, type: null, text: 'step 0: nothing applied yet, the surface is empty' };
  const index = Math.min(step, q.session.fold.accepted) - 1;
  const seq = q.seqOf(index);
  const type = q.typeOf(index);
  const tt = q.session.index;
  const r = tt.replacementOfSeq(seq);
  if (r >= 0) {
    const rep = tt.replacement(r);
    const n = rep.shadowedSeqs.length;
    return {
      kind: 'replace',
      seq,
      type,
      start: rep.start,
      end: rep.end,
      shadowed: rep.shadowedSeqs,
      text: `replaced ${rep.start}…${rep.end} (${n} node${n === 1 ? '' : 's'}) with ${seq}`,
    };
  }
  if (tt.enterStep(seq) === step) return { kind: 'append', seq, type, text: `appended ${seq}` };
  return { kind: 'log-only', seq, type, text: `${type} ${seq} is log-only: the surface is unchanged` };
}

export function surface(q: QuerySession, { step, start, count }: WindowParams): SurfaceWindow {
  const tt = q.session.index;
  const k = q.clampStep(step);
  const total = tt.nodeCountAt(k);
  const first = Math.max(0, Math.min(start, total));
  const seqs = tt.nodeWindowAt(k, first, Math.min(count, MAX_WINDOW));
  return {
    step: k,
    total,
    replaceGeneration: tt.replaceGenerationAt(k),
    messages: tt.messagesAt(k),
    change: stepChange(q, k),
    start: first,
    nodes: seqs.map((seq) => surfaceNode(q, seq)),
  };
}

export function shadowedBy(q: QuerySession, { replacement }: ReplacementParams): SurfaceNode[] {
  const r = q.session.index.replacementOfSeq(replacement);
  if (r < 0) return [];
  return q.session.index.replacement(r).shadowedSeqs.map((seq) => surfaceNode(q, seq));
}
