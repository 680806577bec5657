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

/**
 * With `projected`, follows upstream replay's parseSessionLog literally (log-format.md §14): when
 * the first line after the header has neither `seq` nor `seq0`, every later object record
 * missing its seq key gets the number of events so far and a missing time key gets 0. A leading
 * byte-order mark is dropped (§1.1).
 */
export function naiveDecode(text: string): NaiveDecoded {
  if (text.startsWith('\uFEFF')) text = text.slice(1);
  const lines = text.split('\n');
  let projected: boolean | null = null;
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
    const record = value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
    if (header !== null && projected === null) projected = record !== null && !('seq' in record) && !('seq0' in record);
    if (projected === true && record !== null) {
      const row = ['text-chunks', 'reasoning-chunks', 'tool-call-chunks'].includes(record.type as string);
      if (!((row ? 'seq0' : 'seq') in record)) record[row ? 'seq0' : 'seq'] = events.length;
      if (!((row ? 'time0' : 'time') in record)) record[row ? 'time0' : 'time'] = 0;
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
    } else if (Array.isArray(value)) events.push(...(value as unknown[]));
    else events.push(value);
  }
  return { header, events, badLine: null };
}

/** The events of a JSON-RPC capture (log-format.md §9.1), by session id in order of first appearance. */
export function naiveRpcEvents(text: string): Map<string, unknown[]> {
  const out = new Map<string, unknown[]>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const message = JSON.parse(line) as { method?: unknown; params?: { sessionId?: unknown; event?: unknown } };
    if (message.method !== 'session.event' || message.params === undefined) continue;
    const id = String(message.params.sessionId);
    if (!out.has(id)) out.set(id, []);
    out.get(id)?.push(message.params.event);
  }
  return out;
}
