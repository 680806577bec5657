/**
 * Words the UI shows for kinds and states of events. They live in the core because search
 * matches them too: a person who reads "compaction summary" on a row can type it and find it.
 */

/** The kind of a replacement (see `replacementKind` in describe.ts). */
export type ReplacementKindName = 'compaction' | 'prune' | 'other';

/** What the UI calls each kind of replacement. */
export const REPLACEMENT_KIND_LABEL: Record<ReplacementKindName, string> = {
  compaction: 'compaction summary',
  prune: 'tool-result prune',
  other: 'other',
};
