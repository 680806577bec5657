/**
 * A plain JSON array of events (log-format.md §10) whose element 0 is the session header: the
 * obvious conversion of a JSONL file to an array. Element 0 is then the header, not an event.
 */
import type { Diagnostic } from '../model';

/** Rule of the info diagnostic that reports a header found at element 0. */
export const ARRAY_HEADER_RULE = 'decode/array-header';

/** The header (when element 0 is one), the events, and the diagnostic that says so. */
export function splitArrayHeader(values: unknown[]): {
  header: Record<string, unknown> | null;
  events: unknown[];
  diagnostic: Diagnostic | null;
} {
  const first = values[0];
  if (first === null || typeof first !== 'object' || Array.isArray(first) || (first as { type?: unknown }).type !== 'session') {
    return { header: null, events: values, diagnostic: null };
  }
  return {
    header: first as Record<string, unknown>,
    events: values.slice(1),
    diagnostic: {
      severity: 'info',
      rule: ARRAY_HEADER_RULE,
      seq: null,
      line: null,
      message:
        'element 0 of the JSON array is the session header, not an event: the events are elements 1 onwards (upstream has no array form)',
    },
  };
}
