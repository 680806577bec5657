/**
 * A deliberately plain decoder for oracle tests: split at LF, drop the final fragment, skip
 * blank lines, treat a first `session` line as the header, expand packed rows (a malformed row,
 * like an unparsable line, ends the input and is reported as `badLine`). No streaming, no
 * byte columns: the obvious reading of log-format.md §1.2.
 */
import { expandPackedRow, isPackedRow, validatePackedRow } from '../../src/core/decode/packed';

export interface NaiveDecoded {
  header: Record<string, unknown> | null;
  events: unknown[];
  /** 1-based line of the first unparsable line, or null. */
  badLine: number | null;
}

export function naiveDecode(text: string): NaiveDecoded {
  const lines = text.split('\n');
  lines.pop(); // the piece after the last LF is never a line
  let header: Record<string, unknown> | null = null;
  const events: unknown[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    if (/^[ \t\r]*$/.test(line)) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      return { header, events, badLine: i + 1 };
    }
    if (i === 0 && value !== null && typeof value === 'object' && (value as { type?: unknown }).type === 'session') {
      header = value as Record<string, unknown>;
      continue;
    }
    if (isPackedRow(value)) {
      // A malformed row ends the input like an unparsable line (log-format.md §1.2 step 7).
      let row;
      try {
        row = validatePackedRow(value);
      } catch {
        return { header, events, badLine: i + 1 };
      }
      events.push(...expandPackedRow(row));
    }
    else if (Array.isArray(value)) events.push(...(value as unknown[]));
    else events.push(value);
  }
  return { header, events, badLine: null };
}
