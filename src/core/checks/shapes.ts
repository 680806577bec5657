/**
 * Payload shape checks shared by seed validation (create and restore) and the loader view:
 * request headers (log-format.md §5.1) and surface messages (§5.2). Each returns the exact
 * upstream message for the first failing condition, or `null`; the caller supplies the subject
 * (`seed user/message at index 3`, `session event at seq 3`, …).
 */
import { isNonEmptyString, isRecord } from './check';

/** Markers `adapterDefaults` may carry; each names a `config` field it stands in for. */
const ADAPTER_DEFAULT_KEYS: readonly string[] = ['reasoningEffort', 'maxTokens'];

/**
 * §5.1: the `request/header` payload names a provider and model, and its adapter defaults are
 * consistent with its config.
 */
export function requestHeaderProblem(data: unknown): string | null {
  const header = isRecord(data) ? data.header : undefined;
  const config = isRecord(header) ? header.config : undefined;
  if (!isRecord(header) || !isRecord(config) || !isNonEmptyString(config.provider) || !isNonEmptyString(config.model)) {
    return 'lacks provider/model';
  }
  if (config.reasoningEffort !== undefined && !isNonEmptyString(config.reasoningEffort)) {
    return 'has an invalid reasoningEffort';
  }
  const defaults = header.adapterDefaults;
  if (defaults !== undefined) {
    if (!isRecord(defaults)) return 'has invalid adapterDefaults';
    for (const key in defaults) {
      if (!ADAPTER_DEFAULT_KEYS.includes(key) || defaults[key] !== true || config[key] === undefined) {
        return 'has invalid adapterDefaults';
      }
    }
  }
  return null;
}

/**
 * §5.2: the message of a `user/message` (`data` itself), `assistant/message` or `tool/result`
 * (`data.message`) is identified, has the right role, source and content.
 *
 * @param type the event type; other types have no message and pass
 */
export function messageShapeProblem(type: unknown, data: unknown): string | null {
  if (type !== 'user/message' && type !== 'assistant/message' && type !== 'tool/result') return null;
  const message = type === 'user/message' ? data : isRecord(data) ? data.message : undefined;
  if (!isRecord(message) || !isNonEmptyString(message.id)) return 'lacks an identified message';
  if (type === 'assistant/message') {
    if (message.role !== 'assistant') return 'message must have role "assistant"';
  } else if (message.role !== 'user') {
    return 'message must have role "user"';
  }
  const source = message.source;
  if (!isRecord(source) || !isNonEmptyString(source.kind)) return 'message has invalid source';
  const content = message.content;
  if (!Array.isArray(content)) return 'message has invalid content';
  if (type === 'assistant/message') {
    if (source.kind !== 'model' || !isNonEmptyString(source.provider) || !isNonEmptyString(source.model)) {
      return 'message must have model source';
    }
    return null;
  }
  if (type === 'tool/result') {
    if (source.kind !== 'tool' || !isNonEmptyString(source.callId)) return 'message must have tool source';
    const block: unknown = content[0];
    if (content.length !== 1 || !isRecord(block) || block.type !== 'tool-result' || !Array.isArray(block.content)) {
      return 'message must contain one tool-result block';
    }
    if (block.toolCallId !== source.callId) return 'message has mismatched tool call ids';
  }
  return null;
}
