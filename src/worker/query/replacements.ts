/** The replacements applied by a step, their gutter brackets, and where the transport can jump. */
import { OpCode } from '../../core/analyze/columns';
import { replacementKind } from '../../core/analyze/describe';
import type {
  Bracket,
  BracketsParams,
  NavigateParams,
  ReplacementKind,
  ReplacementRow,
  ReplacementsParams,
  ReplacementsWindow,
} from '../../protocol/protocol';
import { breakSteps } from './analysis';
import { MAX_WINDOW } from './session';
import type { QuerySession } from './session';

/** Kind of each replacement, by replacement number (parsed once per session). */
export function replacementKinds(q: QuerySession): ReplacementKind[] {
  const tt = q.session.index;
  // A grown session keeps the kinds it had and parses only its new replacements.
  const kinds: ReplacementKind[] = q.kinds ?? [];
  for (let r = kinds.length; r < tt.replacementCount; r++) kinds.push(replacementKind(q.parse(tt.replacement(r).seq - q.session.baseSeq)));
  q.kinds = kinds;
  return kinds;
}

export function replacements(q: QuerySession, { step, start, count: asked }: ReplacementsParams): ReplacementsWindow {
  const tt = q.session.index;
  const count = tt.replaceGenerationAt(step);
  const kinds = replacementKinds(q);
  // Shadowed at `step` by its replacedBy, which is then itself in this list.
  const over = (seq: number): number | null => {
    const leave = tt.leaveStep(seq);
    return leave >= 0 && leave <= step ? tt.replacedBy(seq) : null;
  };
  const from = Math.max(0, Math.min(count, start));
  const to = Math.min(count, from + Math.max(0, Math.min(asked, MAX_WINDOW)));
  // The replacement standing for each at `step`: the top of its chain of replaced-by, as far as
  // `step` has applied it. Walked from the window's rows only, last first, and remembered for
  // every replacement passed on the way: a row's walk stops where a later row's went (a log
  // whose every replace shadows the previous one has chains 100,000 long).
  const visibleOf = new Map<number, number>();
  const standIn = (seq: number): number => {
    const path: number[] = [];
    let at = seq;
    let top = visibleOf.get(at);
    while (top === undefined) {
      const by = over(at);
      if (by === null) top = at;
      else {
        path.push(at);
        at = by;
        top = visibleOf.get(at);
      }
    }
    for (const passed of path) visibleOf.set(passed, top);
    visibleOf.set(at, top);
    return top;
  };
  const items = new Array<ReplacementRow>(to - from);
  for (let r = to - 1; r >= from; r--) {
    const rep = tt.replacement(r);
    items[r - from] = {
      seq: rep.seq,
      step: rep.step,
      start: rep.start,
      end: rep.end,
      shadowedSeqs: rep.shadowedSeqs,
      kind: kinds[r] ?? 'other',
      shadowedBy: over(rep.seq),
      visible: standIn(rep.seq),
    };
  }
  return { total: count, items };
}

export function brackets(q: QuerySession, { step, lo, hi }: BracketsParams): Bracket[] {
  const tt = q.session.index;
  // A grown session keeps the spans it had (see `QuerySession.grow`): only new replacements are spanned.
  if (q.spans === null || q.spans.first.length < tt.replacementCount) q.spans = tt.bracketSpans(q.spans ?? undefined);
  const { first, last } = q.spans;
  const count = tt.replaceGenerationAt(step);
  const kinds = replacementKinds(q);
  // Depth = how many replaces applied by `step` shadowed it, through the chain of replaced-by.
  // Chains share their tails (a compaction replaces the previous summary), so depths are
  // memoized: O(brackets) instead of O(brackets × depth) for sessions nested hundreds deep.
  const depths = new Map<number, number>();
  const depthOf = (seq: number): number => {
    const path: number[] = [];
    let at = seq;
    let base = 0;
    for (;;) {
      const known = depths.get(at);
      if (known !== undefined) {
        base = known;
        break;
      }
      const leave = tt.leaveStep(at);
      if (leave < 0 || leave > step) break;
      path.push(at);
      at = tt.replacedBy(at);
    }
    for (let i = path.length - 1; i >= 0; i--) depths.set(path[i]!, ++base);
    if (path.length === 0 && !depths.has(seq)) depths.set(seq, base);
    return depths.get(seq) as number;
  };
  const out: Bracket[] = [];
  for (let r = 0; r < count; r++) {
    const a = first[r]!;
    const b = last[r]!;
    if (b < lo || a > hi) continue;
    const seq = tt.replacement(r).seq;
    out.push({ replacement: seq, first: a, last: b, depth: depthOf(seq), kind: kinds[r] ?? 'other' });
  }
  return out;
}

/** Steps at which a replace was applied (a copy: it crosses to the page). */
export function replaceSteps(q: QuerySession): Int32Array {
  return q.session.index.replaceSteps().slice();
}

export function navigate(q: QuerySession, { step, kind }: NavigateParams): number | null {
  const accepted = q.session.fold.accepted;
  if (kind === 'next-break' || kind === 'prev-break') {
    const breaks = breakSteps(q.session);
    if (kind === 'next-break') return breaks.find((s) => s > step) ?? null;
    return breaks.filter((s) => s < step).at(-1) ?? null;
  }
  const steps = q.session.index.replaceSteps();
  if (kind === 'next-replace') {
    for (const s of steps) if (s > step) return s;
    return null;
  }
  if (kind === 'prev-replace') {
    for (let i = steps.length - 1; i >= 0; i--) if (steps[i]! < step) return steps[i]!;
    return null;
  }
  const op = q.session.columns.op;
  if (kind === 'next-change') {
    // Step k applies event k - 1.
    for (let k = step + 1; k <= accepted; k++) if (op[k - 1] !== OpCode.None) return k;
    return null;
  }
  for (let k = Math.min(step, accepted + 1) - 1; k >= 1; k--) if (op[k - 1] !== OpCode.None) return k;
  return step > 0 ? 0 : null;
}
