/**
 * What makes a message a compaction checkpoint: its `source` names the `compact` plugin (the
 * summary a compaction appends in place of what it shadows). The one test of it; the checks,
 * the QA and the descriptions all ask here.
 */

/** True when a message `source` is a compaction checkpoint's. */
export function isCheckpointSource(source: unknown): source is Record<string, unknown> {
  if (source === null || typeof source !== 'object' || Array.isArray(source)) return false;
  const s = source as Record<string, unknown>;
  return s.kind === 'plugin' && s.plugin === 'compact';
}
