/**
 * Comparing two sessions: their longest common event prefix (events equal from the start: same
 * `type` and deep-equal `data`), where each diverges, how their final model views differ, and
 * the per-request token and cache deltas (requests paired by their order).
 */
import type { SessionAnalysis } from '../analyze/session';
import { jsonEqual } from '../fold/surface';
import { derivedMessage, jsonLength } from '../qa/size';
import type { ModelRequest } from './requests';
import { estimateTokens } from '../analyze/tokens';

/** An event named by seq and type. */
export interface EventRef {
  seq: number;
  type: string | null;
}

/** One side of a request pair. */
export interface RequestSide {
  seq: number;
  turn: number | null;
  step: number | null;
  messages: number;
  tokens: number;
  reusedTokens: number;
  cacheRead: number | null;
  input: number | null;
}

/** The n-th request of each session, and B minus A of what differs (a missing side is null). */
export interface RequestDelta {
  index: number;
  a: RequestSide | null;
  b: RequestSide | null;
  /** B − A; null when a side is missing or did not record the count. */
  tokens: number | null;
  reusedTokens: number | null;
  cacheRead: number | null;
  input: number | null;
}

/** The difference of the final model views. */
export interface ViewDifference {
  /** Derived messages equal from the start. */
  commonMessages: number;
  a: { messages: number; tokens: number };
  b: { messages: number; tokens: number };
}

/** The comparison of two sessions. */
export interface Comparison {
  /** Events equal from the start (same type and data). */
  commonPrefix: number;
  /** The first event of each that differs from the other's, or null where that log ended first (or both ended). */
  divergence: { a: EventRef | null; b: EventRef | null };
  /** Same number of events, all equal. */
  equal: boolean;
  finalViews: ViewDifference;
  /** Request counts, and how many pairs are identical in messages sent and usage recorded. */
  requests: { a: number; b: number; same: number };
  /** Every request pair that differs in any of its figures. */
  deltas: RequestDelta[];
}

function eventAt(session: SessionAnalysis, i: number): { type: unknown; data: unknown } {
  const e = session.log.event(i);
  return e !== null && typeof e === 'object' ? (e as { type: unknown; data: unknown }) : { type: undefined, data: e };
}

function ref(session: SessionAnalysis, i: number): EventRef | null {
  if (i >= session.log.length) return null;
  const type = eventAt(session, i).type;
  return { seq: session.baseSeq + i, type: typeof type === 'string' ? type : null };
}

/** The derived messages of a session's final surface (after its accepted prefix). */
function finalView(session: SessionAnalysis): unknown[] {
  return session.fold.nodes.map((n) => derivedMessage(session.log.event(n - session.baseSeq))).filter((m) => m !== null);
}

function equalJson(a: unknown, b: unknown): boolean {
  try {
    return jsonEqual(a, b);
  } catch {
    return false;
  }
}

function side(r: ModelRequest | undefined): RequestSide | null {
  if (r === undefined) return null;
  return {
    seq: r.seq,
    turn: r.turn,
    step: r.step,
    messages: r.messages,
    tokens: r.tokens,
    reusedTokens: r.reusedTokens,
    cacheRead: r.usage?.cacheRead ?? null,
    input: r.usage?.input ?? null,
  };
}

const delta = (a: number | null | undefined, b: number | null | undefined): number | null =>
  a === null || a === undefined || b === null || b === undefined ? null : b - a;

/** Compare two loaded sessions. */
export function compareSessions(a: SessionAnalysis, b: SessionAnalysis): Comparison {
  const n = Math.min(a.log.length, b.log.length);
  let common = 0;
  while (common < n) {
    const x = eventAt(a, common);
    const y = eventAt(b, common);
    if (x.type !== y.type || !equalJson(x.data, y.data)) break;
    common++;
  }
  const equal = common === a.log.length && common === b.log.length;

  const va = finalView(a);
  const vb = finalView(b);
  let commonMessages = 0;
  while (commonMessages < Math.min(va.length, vb.length) && equalJson(va[commonMessages], vb[commonMessages])) commonMessages++;
  const tokens = (ms: unknown[]): number => estimateTokens(ms.reduce<number>((s, m) => s + jsonLength(m), 0));

  const ra = a.analytics?.requests ?? [];
  const rb = b.analytics?.requests ?? [];
  const deltas: RequestDelta[] = [];
  let same = 0;
  for (let i = 0; i < Math.max(ra.length, rb.length); i++) {
    const x = side(ra[i]);
    const y = side(rb[i]);
    const d: RequestDelta = {
      index: i,
      a: x,
      b: y,
      tokens: delta(x?.tokens, y?.tokens),
      reusedTokens: delta(x?.reusedTokens, y?.reusedTokens),
      cacheRead: delta(x?.cacheRead, y?.cacheRead),
      input: delta(x?.input, y?.input),
    };
    const identical =
      x !== null &&
      y !== null &&
      x.messages === y.messages &&
      d.tokens === 0 &&
      d.reusedTokens === 0 &&
      x.cacheRead === y.cacheRead &&
      x.input === y.input;
    if (identical) same++;
    else deltas.push(d);
  }
  return {
    commonPrefix: common,
    divergence: equal ? { a: null, b: null } : { a: ref(a, common), b: ref(b, common) },
    equal,
    finalViews: { commonMessages, a: { messages: va.length, tokens: tokens(va) }, b: { messages: vb.length, tokens: tokens(vb) } },
    requests: { a: ra.length, b: rb.length, same },
    deltas,
  };
}
