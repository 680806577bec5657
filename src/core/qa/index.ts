/**
 * Compaction QA checks (not upstream checks; rule ids `qa/...`): producer guarantees around
 * summarizing compaction and tool-result pruning (events.md §6.4), run in the analyzer's single
 * streaming pass.
 */
export type { QaFoldContext } from './context';
export { CompactionQaCheck, QA_RULES, QA_SEVERITY } from './compaction';
export { contentBound, derivedMessageSize, jsonLength, jsonUpperBound } from './size';
export type { CompactionQaOptions, QaRule } from './compaction';
