/**
 * JSON-RPC notification captures (log-format.md §1.1 row 6a, §9.1): what the Python SDK's
 * JSON-RPC runtime sends its client, one message per line. Session events arrive as
 * `{"method":"session.event","params":{"sessionId","event"}}`, interleaved with other
 * notifications (`session.status`, `subagent.started`, `subagent.finished`, …) and responses.
 * The events fold like stream-json (§9); the other notifications carry no events.
 */

/** Longest parameter text kept in a context note. */
const CONTEXT_CHARS = 200;

function isObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** Whether a parsed first line is a JSON-RPC notification: a string `method` and an object `params`. */
export function isJsonRpcNotification(value: unknown): boolean {
  return isObject(value) && typeof value.method === 'string' && isObject(value.params);
}

/** The event a `session.event` notification carries, with its session id; null for any other message. */
export function rpcSessionEvent(value: unknown): { sessionId: string; event: unknown } | null {
  if (!isObject(value) || value.method !== 'session.event' || !isObject(value.params)) return null;
  return { sessionId: String(value.params.sessionId), event: value.params.event };
}

/**
 * A notification worth showing beside the events (`subagent.*`: a child started or finished),
 * as one line of text; null for everything else (`session.status` ticks, responses, events).
 */
export function rpcContextNote(value: unknown): string | null {
  if (!isObject(value) || typeof value.method !== 'string' || !value.method.startsWith('subagent.')) return null;
  const params = JSON.stringify(value.params ?? null);
  // A note, not a payload viewer: long parameters are cut (the raw line stays in the file).
  return `${value.method} ${params.length > CONTEXT_CHARS ? `${params.slice(0, CONTEXT_CHARS)}…` : params}`;
}
