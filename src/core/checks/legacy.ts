/**
 * Legacy shape upgrades of the loader view (log-format.md §12), applied per event in upstream's
 * order: turn/start → turn/end → steering/message → pre-identity messages. Storage is never
 * rewritten; an upgraded event is a fresh shallow copy and the parsed input is left untouched
 * (other checks may still read it). Events that need no upgrade are returned as they are, so
 * current logs allocate nothing here.
 */
import { hasOnlyKeys, isRecord } from './check';

/** What an upgrade needs from the loader, implemented by a long-lived object (no per-event closures). */
export interface LegacyContext {
  /** The session id, for `legacyId(seq)` and the error texts. */
  readonly sessionId: string;
  /** The message id of the earlier event with this seq, if known (replacement inheritance). */
  messageIdAt(seq: number): string | undefined;
  /** Receives a description of each upgrade applied to the event with this seq. */
  upgraded(seq: unknown, description: string): void;
}

/** A legacy event too malformed to upgrade; `message` is upstream's exact text. */
export class LegacyMalformedError extends Error {
  override readonly name = 'LegacyMalformedError';
}

/** `legacyId(seq)`: the stable id minted for a message persisted before identities existed. */
export function legacyMessageId(sessionId: string, seq: unknown): string {
  return `legacy-message:${sessionId}:${String(seq)}`;
}

/** "Safe turn": a safe integer ≥ 1. */
function isSafeTurn(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 1;
}

function malformed(ctx: LegacyContext, what: string, seq: unknown): LegacyMalformedError {
  return new LegacyMalformedError(`session "${ctx.sessionId}" contains malformed pre-react-loop ${what} at seq ${String(seq)}`);
}

/**
 * Upgrade one event (§12). Returns the input itself when nothing applies.
 *
 * @throws LegacyMalformedError for a legacy event that cannot be upgraded
 */
export function upgradeLegacyEvent(event: unknown, ctx: LegacyContext): unknown {
  if (!isRecord(event)) return event;
  let current: Record<string, unknown> = event;
  const type = current.type;
  if (type === 'turn/start') current = upgradeTurnStart(current, ctx);
  else if (type === 'turn/end') current = upgradeTurnEnd(current, ctx);
  else if (type === 'steering/message') current = upgradeSteering(current, ctx);
  return upgradeMessage(current, ctx);
}

function upgradeTurnStart(event: Record<string, unknown>, ctx: LegacyContext): Record<string, unknown> {
  const data = event.data;
  if (!isRecord(data) || !Object.hasOwn(data, 'trigger')) return event;
  const trigger = data.trigger;
  if (
    !isSafeTurn(data.turn) ||
    !hasOnlyKeys(data, ['turn', 'trigger']) ||
    !isRecord(trigger) ||
    typeof trigger.kind !== 'string' ||
    trigger.kind.length === 0
  ) {
    throw malformed(ctx, 'turn/start', event.seq);
  }
  ctx.upgraded(event.seq, 'pre-react-loop turn/start: trigger dropped');
  return { ...event, data: { turn: data.turn } };
}

const PLAIN_END_KINDS: readonly unknown[] = ['completed', 'blocked', 'max-tokens', 'interrupted'];

function upgradeTurnEnd(event: Record<string, unknown>, ctx: LegacyContext): Record<string, unknown> {
  const data = event.data;
  if (!isRecord(data)) return event;
  const reason = data.reason;
  if (!isSafeTurn(data.turn) || !hasOnlyKeys(data, ['turn', 'reason']) || !isRecord(reason) || typeof reason.kind !== 'string') {
    throw malformed(ctx, 'turn/end', event.seq);
  }
  const kind = reason.kind;
  let upgraded: Record<string, unknown>;
  let description: string;
  if (PLAIN_END_KINDS.includes(kind)) {
    if (!hasOnlyKeys(reason, ['kind'])) throw malformed(ctx, 'turn/end', event.seq);
    return event;
  } else if (kind === 'aborted') {
    if (Object.hasOwn(reason, 'reason')) return event;
    if (!hasOnlyKeys(reason, ['kind'])) throw malformed(ctx, 'turn/end', event.seq);
    upgraded = { kind: 'aborted', reason: { kind: 'legacy' } };
    description = 'reason {kind:"aborted"} → {kind:"aborted", reason:{kind:"legacy"}}';
  } else if (kind === 'disposed') {
    if (!hasOnlyKeys(reason, ['kind'])) throw malformed(ctx, 'turn/end', event.seq);
    upgraded = { kind: 'aborted', reason: { kind: 'disposed' } };
    description = 'reason {kind:"disposed"} → {kind:"aborted", reason:{kind:"disposed"}}';
  } else if (kind === 'error') {
    if (Object.hasOwn(reason, 'error')) return event;
    const error = legacyErrorFailure(reason);
    if (error === null) throw malformed(ctx, 'turn/end', event.seq);
    upgraded = { kind: 'error', error };
    description = 'legacy error reason → {kind:"error", error}';
  } else {
    return event;
  }
  ctx.upgraded(event.seq, `pre-react-loop turn/end: ${description}`);
  return { ...event, data: { ...data, reason: upgraded } };
}

/** The `LlmFailure` of a legacy `{kind:"error", step, …}` reason, or `null` when malformed. */
function legacyErrorFailure(reason: Record<string, unknown>): Record<string, unknown> | null {
  const step = reason.step;
  if (typeof step !== 'number' || !Number.isSafeInteger(step) || step < 0) return null;
  const failure = reason.failure;
  if (
    isRecord(failure) &&
    hasOnlyKeys(reason, ['kind', 'step', 'failure']) &&
    hasOnlyKeys(failure, ['message', 'code'], ['status', 'providerRetryAfterMs', 'requestId']) &&
    typeof failure.message === 'string' &&
    typeof failure.code === 'string' &&
    (failure.status === undefined || typeof failure.status === 'number') &&
    (failure.providerRetryAfterMs === undefined || typeof failure.providerRetryAfterMs === 'number') &&
    (failure.requestId === undefined || typeof failure.requestId === 'string')
  ) {
    return failure;
  }
  const code = reason.code;
  const keys = code === undefined ? ['kind', 'step', 'message'] : ['kind', 'step', 'message', 'code'];
  if (!hasOnlyKeys(reason, keys) || typeof reason.message !== 'string' || (code !== undefined && typeof code !== 'string')) {
    return null;
  }
  return { message: reason.message, code: typeof code === 'string' ? code : 'UNKNOWN' };
}

function upgradeSteering(event: Record<string, unknown>, ctx: LegacyContext): Record<string, unknown> {
  const data = event.data;
  if (!isRecord(data)) throw malformed(ctx, 'steering/message', event.seq);
  const turnOk = typeof data.turn === 'number' && Number.isSafeInteger(data.turn);
  if (turnOk && isRecord(data.message) && hasOnlyKeys(data, ['turn', 'message'])) {
    ctx.upgraded(event.seq, 'steering/message → user/message (wrapped message)');
    return { ...event, type: 'user/message', data: data.message };
  }
  if (!turnOk || !hasOnlyKeys(data, ['turn', 'content', 'source'])) throw malformed(ctx, 'steering/message', event.seq);
  const message: Record<string, unknown> = {};
  for (const key in data) if (key !== 'turn') message[key] = data[key];
  const id = legacyMessageId(ctx.sessionId, event.seq);
  message.id = id;
  message.role = 'user';
  ctx.upgraded(event.seq, `steering/message → user/message with id "${id}"`);
  return { ...event, type: 'user/message', data: message };
}

/** Pre-identity message shapes (§12, last three rows); current-looking events pass untouched. */
function upgradeMessage(event: Record<string, unknown>, ctx: LegacyContext): Record<string, unknown> {
  const data = event.data;
  if (!isRecord(data)) return event;
  const type = event.type;
  const seq = event.seq;
  if (type === 'user/message') {
    if (
      Object.hasOwn(data, 'id') ||
      Object.hasOwn(data, 'role') ||
      Object.hasOwn(data, 'message') ||
      !Object.hasOwn(data, 'content') ||
      !Object.hasOwn(data, 'source')
    ) {
      return event;
    }
    const id = legacyMessageId(ctx.sessionId, seq);
    ctx.upgraded(seq, `pre-identity user/message: id "${id}" and role "user" added`);
    return { ...event, data: { ...data, id, role: 'user' } };
  }
  if (type === 'assistant/message') {
    if (Object.hasOwn(data, 'message') || !Object.hasOwn(data, 'content') || !Object.hasOwn(data, 'provenance')) return event;
    const { content, provenance, ...rest } = data;
    const id = legacyMessageId(ctx.sessionId, seq);
    const source = { ...(isRecord(provenance) ? provenance : {}), kind: 'model' };
    ctx.upgraded(seq, `pre-identity assistant/message: content and provenance wrapped into message "${id}"`);
    return { ...event, data: { ...rest, message: { id, role: 'assistant', content, source } } };
  }
  if (type === 'tool/result') {
    if (
      Object.hasOwn(data, 'message') ||
      !Object.hasOwn(data, 'callId') ||
      !Object.hasOwn(data, 'content') ||
      !Object.hasOwn(data, 'isError')
    ) {
      return event;
    }
    const { callId, content, isError, ...rest } = data;
    const op = event.surfaceOp;
    const start = isRecord(op) && op.op === 'replace' && typeof op.start === 'number' ? op.start : undefined;
    const id = start === undefined ? legacyMessageId(ctx.sessionId, seq) : ctx.messageIdAt(start);
    const origin = start === undefined ? '' : ` (inherited from seq ${start})`;
    ctx.upgraded(seq, `pre-identity tool/result: callId, content and isError wrapped into message "${String(id)}"${origin}`);
    const block = { type: 'tool-result', toolCallId: callId, content, isError };
    const message = { id, role: 'user', content: [block], source: { kind: 'tool', callId } };
    return { ...event, data: { ...rest, message } };
  }
  return event;
}
