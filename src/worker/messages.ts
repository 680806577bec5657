/**
 * Messages as chat rows: content blocks flattened to clipped text. Log content is untrusted; it
 * leaves here as plain strings only.
 */
import { replacementKind } from '../core/analyze/describe';
import { deriveEventMessage } from '../core/fold/manager';
import type { EventState, MessageBlock, ViewMessage } from '../protocol/protocol';

/** Longest text sent per block; the inspector has the full event. */
export const MAX_BLOCK_TEXT = 4000;

/* eslint-disable @typescript-eslint/no-explicit-any */
function isObject(x: unknown): x is Record<string, any> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function clipBlock(text: string): { text: string; truncated: boolean } {
  return text.length <= MAX_BLOCK_TEXT ? { text, truncated: false } : { text: text.slice(0, MAX_BLOCK_TEXT), truncated: true };
}

/** The text of nested tool-result content. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => {
      if (!isObject(block)) return '';
      if (block.type === 'text' || block.type === 'reasoning') return String(block.text ?? '');
      if (block.type === 'image') return '[image]';
      if (block.type === 'tool-result') return contentText(block.content);
      return `[${String(block.type)}]`;
    })
    .join('\n');
}

/** Flatten a message's content blocks. */
export function messageBlocks(content: unknown): MessageBlock[] {
  if (!Array.isArray(content)) return [];
  return content.map((block): MessageBlock => {
    if (!isObject(block)) return { kind: 'other', ...clipBlock(JSON.stringify(block) ?? String(block)) };
    switch (block.type) {
      case 'text':
        return { kind: 'text', ...clipBlock(String(block.text ?? '')) };
      case 'reasoning':
        return { kind: 'reasoning', ...clipBlock(String(block.text ?? '')) };
      case 'tool-call':
        return { kind: 'tool-call', ...clipBlock(String(block.arguments ?? '')), name: String(block.name ?? ''), callId: String(block.id ?? '') };
      case 'tool-result':
        return {
          kind: 'tool-result',
          ...clipBlock(contentText(block.content)),
          callId: String(block.toolCallId ?? ''),
          isError: block.isError === true,
        };
      case 'image':
        return { kind: 'image', text: String(block.attachment?.name ?? block.attachment?.mediaType ?? 'image'), truncated: false };
      default:
        return { kind: 'other', ...clipBlock(JSON.stringify(block) ?? '') };
    }
  });
}

/** A surface event as a chat row. */
export function viewMessage(event: unknown, seq: number, type: string, state: EventState): ViewMessage {
  const e = isObject(event) ? event : {};
  const replacement = e.surfaceOp !== undefined && e.surfaceOp !== 'append';
  let message: any;
  let empty = false;
  try {
    message = deriveEventMessage(e);
    empty = message === null;
  } catch {
    message = null;
  }
  if (message === null && type === 'assistant/message' && isObject(e.data) && isObject(e.data.message)) message = e.data.message;
  return {
    seq,
    type,
    role: isObject(message) && typeof message.role === 'string' ? message.role : null,
    origin: replacement ? 'replacement' : 'append',
    replacementKind: replacement ? replacementKind(e) : null,
    state,
    blocks: isObject(message) ? messageBlocks(message.content) : [],
    empty,
  };
}

/** Size of an event's derived message (JSON length), 0 when it projects to nothing. */
export function derivedSize(event: unknown): number {
  try {
    const message = deriveEventMessage(event);
    return message === null ? 0 : (JSON.stringify(message)?.length ?? 0);
  } catch {
    return 0;
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */

/** How token counts are estimated (stated in the UI). */
export const TOKEN_METHOD = 'estimated as ⌈characters of the derived message JSON ÷ 4⌉ (no tokenizer)';

/** The token estimate for a size. */
export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}
