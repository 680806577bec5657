/**
 * Messages as chat rows: content blocks flattened to clipped text. Log content is untrusted; it
 * leaves here as plain strings only.
 */
import { replacementKind } from '../../core/analyze/describe';
import { familyOf } from '../../core/analyze/family';
import { deriveEventMessage } from '../../core/fold/manager';
import type { EventState, MessageBlock, ViewMessage } from '../../protocol/protocol';

/** Longest text sent per block; `blockText` sends one block whole on request. */
export const MAX_BLOCK_TEXT = 4000;

/* eslint-disable @typescript-eslint/no-explicit-any */
function isObject(x: unknown): x is Record<string, any> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

/** The clipping of {@link messageBlocks}: at most `limit` characters of a block's text. */
type Clip = (text: string) => { text: string; truncated: boolean };

const clipTo =
  (limit: number): Clip =>
  (text) =>
    text.length <= limit ? { text, truncated: false } : { text: text.slice(0, limit), truncated: true };

const defaultClip = clipTo(MAX_BLOCK_TEXT);

/** The text of nested tool-result content. */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((block) => {
      if (!isObject(block)) return '';
      if (block.type === 'text' || block.type === 'reasoning') return String(block.text ?? '');
      if (block.type === 'tool-result') return contentText(block.content);
      return `[${String(block.type)}]`;
    })
    .join('\n');
}

/**
 * Flatten a message's content blocks, each block's text clipped to `limit` characters (the
 * views' default; `Infinity` for a block's whole text).
 */
export function messageBlocks(content: unknown, limit = MAX_BLOCK_TEXT): MessageBlock[] {
  if (!Array.isArray(content)) return [];
  const clipBlock = limit === MAX_BLOCK_TEXT ? defaultClip : clipTo(limit);
  return content.map((block): MessageBlock => {
    if (!isObject(block)) return { kind: 'other', ...clipBlock(JSON.stringify(block) ?? String(block)) };
    switch (block.type) {
      case 'text':
        return { kind: 'text', ...clipBlock(String(block.text ?? '')) };
      case 'reasoning':
        return { kind: 'reasoning', ...clipBlock(String(block.text ?? '')) };
      case 'tool-call':
        return {
          kind: 'tool-call',
          ...clipBlock(String(block.arguments ?? '')),
          name: String(block.name ?? ''),
          callId: String(block.id ?? ''),
        };
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

/**
 * The message a chat row shows for an event: its derived message, or, for an assistant message
 * that projects to nothing, the message it carries (shown dimmed as empty).
 */
function shownMessage(e: Record<string, any>, type: string): { message: any; empty: boolean } {
  let message: any;
  let empty = false;
  try {
    message = deriveEventMessage(e);
    empty = message === null;
  } catch {
    message = null;
  }
  if (message === null && type === 'assistant/message' && isObject(e.data) && isObject(e.data.message)) message = e.data.message;
  return { message, empty };
}

/** The whole text of block `index` of an event's chat row (the views send it clipped); null when there is none. */
export function blockText(event: unknown, type: string, index: number): string | null {
  const { message } = shownMessage(isObject(event) ? event : {}, type);
  if (!isObject(message)) return null;
  return messageBlocks(message.content, Infinity)[index]?.text ?? null;
}

/** A surface event as a chat row. */
export function viewMessage(event: unknown, seq: number, type: string, state: EventState): ViewMessage {
  const e = isObject(event) ? event : {};
  const replacement = e.surfaceOp !== undefined && e.surfaceOp !== 'append';
  const { message, empty } = shownMessage(e, type);
  return {
    seq,
    type,
    family: familyOf(type),
    role: isObject(message) && typeof message.role === 'string' ? message.role : null,
    origin: replacement ? 'replacement' : 'append',
    replacementKind: replacement ? replacementKind(e) : null,
    state,
    blocks: isObject(message) ? messageBlocks(message.content) : [],
    empty,
  };
}
/* eslint-enable @typescript-eslint/no-explicit-any */
