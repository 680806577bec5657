/**
 * Compaction QA checks — extra producer-guarantee checks, **not** upstream checks (rule ids
 * `qa/...`): summaries, prunes and checkpoints against what their replacements actually did
 * (events.md §6, §6.4). They run in the analyzer's single streaming pass and never change the
 * fold.
 *
 * Wiring: construct one {@link CompactionQaCheck} per session with a {@link QaFoldContext} over
 * the analyzer's fold, and call `event(value, index, line)` for every decoded event after the
 * fold has applied it (also for events after a refusal; the context then answers `null` and the
 * check stays silent). `planAt` may answer `null` or a `log-only` plan for log-only events.
 */
export type { QaFoldContext } from './context';
export { CompactionQaCheck, QA_RULES } from './compaction';
export type { CompactionQaOptions } from './compaction';
export { contentBound, derivedMessageSize, jsonLength, jsonUpperBound } from './size';
