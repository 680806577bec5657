/**
 * Coarse grouping of event types, for colour, filters and summaries.
 */

/** A family of event types. */
export type Family =
  | 'turn'
  | 'step'
  | 'user'
  | 'assistant'
  | 'chunk'
  | 'tool'
  | 'compaction'
  | 'command'
  | 'approval'
  | 'hook'
  | 'session'
  | 'request'
  | 'other';

/** All families, in display order. */
export const FAMILIES: readonly Family[] = [
  'turn',
  'step',
  'user',
  'assistant',
  'chunk',
  'tool',
  'compaction',
  'command',
  'approval',
  'hook',
  'session',
  'request',
  'other',
];

const BY_PREFIX: ReadonlyArray<readonly [string, Family]> = [
  ['turn/', 'turn'],
  ['step/', 'step'],
  ['user/', 'user'],
  ['assistant/chunk', 'chunk'],
  ['assistant/', 'assistant'],
  ['tool/', 'tool'],
  ['tool-workflow/', 'tool'],
  ['compaction/', 'compaction'],
  ['command/', 'command'],
  ['approval/', 'approval'],
  ['permission/', 'approval'],
  ['sandbox/', 'approval'],
  ['hook/', 'hook'],
  ['session/', 'session'],
  ['agent/', 'session'],
  ['agent-preset/', 'session'],
  ['subagent/', 'session'],
  ['team/', 'session'],
  ['request/', 'request'],
  ['llm/', 'request'],
  ['web/', 'request'],
];

/** The family of an event type. */
export function familyOf(type: string): Family {
  for (const [prefix, family] of BY_PREFIX) if (type.startsWith(prefix)) return family;
  return 'other';
}
