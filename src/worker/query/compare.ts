/**
 * Comparing two open sessions (the load's and one opened to compare with, or two of one load):
 * the core's comparison (`core/analysis/compare.ts`: common event prefix, divergence, final
 * views, per-request deltas), computed once per pair, and the message-level diff of the two
 * model views at a pair of steps.
 */
import { diffArrays } from 'diff';
import { compareSessions } from '../../core/analysis/compare';
import { deriveEventMessage } from '../../core/fold/manager';
import { estimateTokens } from '../../core/analyze/tokens';
import type { CompareMessage, CompareParams, CompareViewData, CompareViewParams, SessionComparison } from '../../protocol/protocol';
import type { QueryContext } from './index';
import { contentText } from './messages';
import type { QuerySession } from './session';

/** Messages compared per side; a longer view is compared on its first this many (said in the answer). */
export const MAX_COMPARED_MESSAGES = 2000;
const PREVIEW = 240;

const comparisons = new WeakMap<QuerySession, Map<QuerySession, SessionComparison>>();

export function compare(q: QuerySession, { other }: CompareParams, context: QueryContext): SessionComparison {
  const b = context.other(other);
  let byOther = comparisons.get(q);
  if (byOther === undefined) comparisons.set(q, (byOther = new Map()));
  let found = byOther.get(b);
  if (found === undefined) {
    found = { ...compareSessions(q.session, b.session), accepted: { a: q.session.fold.accepted, b: b.session.fold.accepted } };
    byOther.set(b, found);
  }
  return found;
}

/** JSON with object keys sorted: deep equality as string equality (key order carries no meaning). */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0)))
      : v,
  );
}

function viewAt(q: QuerySession, step: number): { messages: CompareMessage[]; keys: string[]; total: number } {
  const seqs = q.session.index.nodesAt(q.clampStep(step));
  const messages: CompareMessage[] = [];
  const keys: string[] = [];
  let total = 0;
  for (const seq of seqs) {
    const m = deriveEventMessage(q.event(seq)) as { role?: unknown; content?: unknown } | null;
    if (m === null) continue;
    total++;
    if (messages.length >= MAX_COMPARED_MESSAGES) continue;
    const key = canonical(m);
    const text = contentText(m.content);
    messages.push({
      seq,
      role: typeof m.role === 'string' ? m.role : '?',
      text: text.length > PREVIEW ? `${text.slice(0, PREVIEW)}…` : text,
      tokens: estimateTokens(key.length),
    });
    keys.push(key);
  }
  return { messages, keys, total };
}

/**
 * The two model views at `step` (this session) and `otherStep` (the other), diffed message by
 * message (a longest common subsequence of deep-equal messages): equal rows side by side,
 * a run of removed messages beside the run added in their place as changed rows, the rest on
 * one side only.
 */
export function compareView(q: QuerySession, { other, step, otherStep }: CompareViewParams, context: QueryContext): CompareViewData {
  const b = context.other(other);
  const va = viewAt(q, step);
  const vb = viewAt(b, otherStep);
  const rows: CompareViewData['rows'] = [];
  let i = 0;
  let j = 0;
  const parts = diffArrays(va.keys, vb.keys);
  for (let p = 0; p < parts.length; p++) {
    const part = parts[p]!;
    const n = part.count ?? part.value.length;
    if (!part.added && !part.removed) {
      for (let k = 0; k < n; k++) rows.push({ kind: 'same', a: va.messages[i++] ?? null, b: vb.messages[j++] ?? null });
    } else if (part.removed && parts[p + 1]?.added) {
      const next = parts[++p]!;
      const m = next.count ?? next.value.length;
      for (let k = 0; k < Math.max(n, m); k++)
        rows.push({
          kind: k < n && k < m ? 'changed' : k < n ? 'a-only' : 'b-only',
          a: k < n ? (va.messages[i + k] ?? null) : null,
          b: k < m ? (vb.messages[j + k] ?? null) : null,
        });
      i += n;
      j += m;
    } else if (part.removed) {
      for (let k = 0; k < n; k++) rows.push({ kind: 'a-only', a: va.messages[i++] ?? null, b: null });
    } else {
      for (let k = 0; k < n; k++) rows.push({ kind: 'b-only', a: null, b: vb.messages[j++] ?? null });
    }
  }
  return {
    a: { step: q.clampStep(step), messages: va.total },
    b: { step: b.clampStep(otherStep), messages: vb.total },
    clipped: va.total > MAX_COMPARED_MESSAGES || vb.total > MAX_COMPARED_MESSAGES,
    rows,
  };
}
