/**
 * Re-encode a generated session log in the other text forms upstream produces or that users
 * make from it (log-format.md §1.1, §9.1, §10, §14), so each form can be tested against the
 * same events without upstream's files.
 */
import { ROW_TAGS } from '../decode/packed';

function parseLines(text: string): Record<string, unknown>[] {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

function withoutKeys(record: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) if (!keys.includes(key)) out[key] = value;
  return out;
}

/**
 * The envelope projection of upstream's committed snapshots (§14): the header line unchanged,
 * every body record without `seq` and `time` (packed rows: `seq0`, `time0`), top-level only.
 */
export function projectSnapshot(jsonl: string): string {
  const [header, ...body] = parseLines(jsonl);
  const projected = body.map((record) => withoutKeys(record, ROW_TAGS.has(record.type) ? ['seq0', 'time0'] : ['seq', 'time']));
  return [header, ...projected].map((r) => `${JSON.stringify(r)}\n`).join('');
}

/** Expand packed rows into their member events (the wire forms carry events unpacked). */
function unpackedEvents(body: Record<string, unknown>[]): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const record of body) {
    if (!ROW_TAGS.has(record.type)) {
      out.push(record);
      continue;
    }
    const data = record.data as {
      turn: number;
      step: number;
      index: number;
      dt: number[];
      texts?: string[];
      args?: string[];
      id?: string;
      name?: string;
    };
    const members = data.texts ?? data.args ?? [];
    let time = record.time0 as number;
    members.forEach((member, k) => {
      if (k > 0) time += data.dt[k - 1]!;
      const chunk =
        record.type === 'tool-call-chunks'
          ? {
              type: 'tool-call-delta',
              index: data.index,
              id: data.id,
              ...(data.name === undefined ? {} : { name: data.name }),
              argumentsDelta: member,
            }
          : { type: record.type === 'text-chunks' ? 'text-delta' : 'reasoning-delta', index: data.index, text: member };
      out.push({ type: 'assistant/chunk', seq: (record.seq0 as number) + k, time, data: { turn: data.turn, step: data.step, chunk } });
    });
  }
  return out;
}

/**
 * What the JSON-RPC runtime sends its client for this session (§9.1): one `session.event`
 * notification per event, `session.status` around the run, and a `subagent.started` /
 * `subagent.finished` pair in the middle, as context.
 */
export function toJsonRpcNotifications(jsonl: string): string {
  const [header, ...body] = parseLines(jsonl);
  const sessionId = String(header?.id);
  const events = unpackedEvents(body);
  const lines: unknown[] = [{ method: 'session.status', params: { sessionId, status: 'running' } }];
  const middle = Math.floor(events.length / 2);
  events.forEach((event, i) => {
    if (i === middle)
      lines.push({ jsonrpc: '2.0', method: 'subagent.started', params: { sessionId, childSessionId: `${sessionId}-child` } });
    lines.push({ method: 'session.event', params: { sessionId, event } });
    if (i === middle)
      lines.push({ jsonrpc: '2.0', method: 'subagent.finished', params: { sessionId, childSessionId: `${sessionId}-child` } });
  });
  lines.push({ method: 'session.status', params: { sessionId, status: 'idle' } });
  return lines.map((l) => `${JSON.stringify(l)}\n`).join('');
}

/** The log with a leading UTF-8 byte-order mark, as some editors save it (§1.1). */
export function withByteOrderMark(jsonl: string): string {
  return `\uFEFF${jsonl}`;
}

/** The obvious conversion of a JSONL log to a JSON array: the header first, then the events unpacked (§10). */
export function toJsonArrayWithHeader(jsonl: string): string {
  const [header, ...body] = parseLines(jsonl);
  // One element per line, as a person converting a log by hand would leave it.
  return `[\n${[header, ...unpackedEvents(body)].map((r) => JSON.stringify(r)).join(',\n')}\n]\n`;
}
