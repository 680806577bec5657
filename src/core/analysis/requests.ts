/**
 * Model requests and prefix-cache reuse: the vocabulary and the two pure rules (recorded usage
 * normalisation, break attribution). The streaming pass that finds the requests is
 * `recorder.ts`; `docs/ANALYSIS.md` states the definitions.
 */
import type { Json } from '../model';

/** The recorded `TokenUsage` of a model call (events.md §4), `null` for a count not recorded. */
export interface RecordedUsage {
  input: number | null;
  output: number | null;
  cacheRead: number | null;
  cacheWrite: number | null;
  reasoning: number | null;
}

/** What cut the cached prefix between two requests. */
export type BreakKind = 'replace' | 'header' | 'other';

/**
 * Why a request does not reuse all of the previous request's messages: the replace whose cut
 * position explains the break (`seq` is the replacement's), a `request/header` change of system
 * prompt, tools or config (`seq` is the header's; the whole prefix is lost, `at` is 0), or
 * nothing seen in the log (`other`, `seq` null). `at` is the first message index not reused.
 */
export interface PrefixBreak {
  seq: number | null;
  kind: BreakKind;
  at: number;
}

/** One model request (see docs/ANALYSIS.md, Model requests). */
export interface ModelRequest {
  /** The event the request is placed at: its first `assistant/chunk`, or the step's `assistant/message` when the step streamed no chunk. */
  seq: number;
  anchor: 'chunk' | 'message';
  turn: number | null;
  step: number | null;
  /** 1 for a step's first request, 2 after one retry, … */
  attempt: number;
  /** Time of the anchoring event and of the attempt's end (its finish chunk or the step's assistant/message), when recorded. */
  time: number | null;
  endTime: number | null;
  /** Derived messages the request was sent, their JSON characters and estimated tokens. */
  messages: number;
  chars: number;
  tokens: number;
  /** Longest common prefix (deep-equal messages) with the previous request; 0 for the first. */
  reusedMessages: number;
  reusedTokens: number;
  /** JSON characters of the reused messages (the prefix in the curve's byte scale). */
  reusedChars: number;
  brokenBy: PrefixBreak | null;
  /** Recorded usage: the step's assistant/message `usage` for the attempt that produced it, else the attempt's own `usage` chunk. */
  usage: RecordedUsage | null;
  usageFrom: 'message' | 'chunk' | null;
  /** The attempt's finish reason kind (`stop`, `tool-calls`, `error`, …), null when none was recorded. */
  finish: string | null;
  /**
   * The model that answered: the step's `assistant/message` `source.model`, else the model in
   * force (the last `request/header` `config.model` or `request/context` `model` before the
   * request); null when the log names none. Prices are looked up by it (`cost.ts`).
   */
  model: string | null;
}

/** A prefix this long (estimated tokens) or longer is one a provider caches (providers cache from 1,024 tokens). */
export const CACHE_MIN_TOKENS = 1024;
/** Recorded cache reads below this fraction of the reusable prefix are a finding. */
export const CACHE_LOW_RATIO = 0.5;

const count = (x: unknown): number | null => (typeof x === 'number' && Number.isFinite(x) && x >= 0 ? x : null);

/** Normalise a recorded `TokenUsage`; `null` when it is not an object. */
export function recordedUsage(value: unknown): RecordedUsage | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const u = value as Record<string, Json>;
  return {
    input: count(u.inputTokens),
    output: count(u.outputTokens),
    cacheRead: count(u.cacheReadTokens),
    cacheWrite: count(u.cacheWriteTokens),
    reasoning: count(u.reasoningTokens),
  };
}

/** A replace applied between two requests, with where it cut the message list when applied. */
export interface ReplaceCut {
  seq: number;
  /** Index in the derived-message list of the first message it shadowed (or where its replacement went). */
  cut: number;
}

/**
 * Attribute a break. `reused` is the longest common prefix, `previous` the previous request's
 * message count. A header change wins (it invalidates every message); otherwise the break at
 * `reused` is explained by the replace with the largest cut not after it (messages before every
 * cut are untouched, so a replace cutting later cannot have caused it); otherwise `other`.
 * Returns null when nothing broke.
 */
export function attributeBreak(
  reused: number,
  previous: number,
  replaces: readonly ReplaceCut[],
  headerChange: number | null,
): PrefixBreak | null {
  if (headerChange !== null) return { seq: headerChange, kind: 'header', at: 0 };
  if (reused >= previous) return null;
  let best: ReplaceCut | null = null;
  for (const r of replaces) if (r.cut <= reused && (best === null || r.cut >= best.cut)) best = r;
  return best === null ? { seq: null, kind: 'other', at: reused } : { seq: best.seq, kind: 'replace', at: reused };
}
