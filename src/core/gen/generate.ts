/**
 * Deterministic generator of realistic dsh session logs (logical JSONL, log-format.md §2–§3).
 *
 * Used by tests, benchmarks and bundled samples. The output mimics what upstream writes
 * (events.md §5–§6): turns with steps, streamed assistant chunks (packed into chunk rows like the
 * live writer does), tool calls and results, log-only plugin events, summarizing compactions
 * (including nested ones and failures), manual `/compact`, and tool-result pruning. The
 * generator tracks the surface itself so every replace it writes is valid, and can inject
 * exactly one rule violation at a known place.
 *
 * Streaming: lines are produced lazily, step by step; memory stays proportional to the current
 * surface (which compaction keeps bounded), never to the whole log.
 *
 * The parts: `options.ts` (the public options and results), `vocabulary.ts` (what the content is
 * made of), `writer.ts` (lines, packing, ids), `surface.ts` (the tracked surface),
 * `compaction.ts` (compactions and prunes), `violations.ts` (the injected rule violations) and
 * `session.ts` (the session script).
 */

import { LogGenerator } from './session';
import type { GenMeta, GenOptions, GeneratedLog } from './options';

export { VIOLATION_KINDS } from './options';
export type { GenMeta, GenOptions, GeneratedLog, ViolationKind } from './options';

/** Generate a log lazily; see {@link GeneratedLog}. */
export function generateLog(opts: GenOptions): GeneratedLog {
  const gen = new LogGenerator(opts);
  return { lines: gen.run(), meta: gen.meta };
}

/**
 * The logical JSONL lines of a log (header first, no trailing LF on each). The generator's
 * return value is the final {@link GenMeta}.
 */
export function* generateLines(opts: GenOptions): Generator<string, GenMeta, undefined> {
  return yield* new LogGenerator(opts).run();
}

/**
 * The whole log as one string: lines joined with LF plus a final LF (none after a torn tail).
 * For small logs only; stream {@link generateLines} for big ones.
 */
export function generateText(opts: GenOptions): string {
  const { lines, meta } = generateLog(opts);
  const text = Array.from(lines).join('\n');
  return meta.finalNewline ? text + '\n' : text;
}
