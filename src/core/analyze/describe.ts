/**
 * One-line human summaries of events and surface nodes. Log content is untrusted: these return
 * plain strings that the UI renders as text.
 */

import { isCheckpointSource } from '../util/checkpoint';
import type { ReplacementKindName } from './labels';

/* eslint-disable @typescript-eslint/no-explicit-any */
const MAX = 160;
/**
 * Characters of a text looked at for a one-line preview. Collapsing the whitespace of a whole
 * 200 MB message to show 160 characters of it would copy all of it; only a long run of
 * whitespace inside this much could make a preview shorter than it would be otherwise.
 */
const PREVIEW_SCAN = 64 * 1024;

/** Collapse whitespace and clip to `max` characters. */
export function clip(text: string, max = MAX): string {
  const scan = Math.max(PREVIEW_SCAN, max * 4);
  const long = text.length > scan;
  const flat = (long ? text.slice(0, scan) : text).replace(/\s+/g, ' ').trim();
  if (flat.length <= max && !long) return flat;
  return flat.length < max ? `${flat}…` : `${flat.slice(0, max - 1)}…`;
}

/** The start of a text, enough for a preview of it (one character more, so `clip` knows it was cut). */
function head(text: string): string {
  return text.length > PREVIEW_SCAN ? text.slice(0, PREVIEW_SCAN + 1) : text;
}

function isObject(x: unknown): x is Record<string, any> {
  return x !== null && typeof x === 'object' && !Array.isArray(x);
}

function compactJson(x: unknown): string {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
}

/** Text of a list of content blocks, tool calls and results included, for previews. */
export function blocksText(content: unknown): string {
  if (!Array.isArray(content)) return typeof content === 'string' ? head(content) : '';
  // Each part is cut to what a preview can show, and the length is summed as parts are added:
  // joining all parts after each block would copy a huge first block once per block.
  const parts: string[] = [];
  let length = 0;
  for (const block of content) {
    if (!isObject(block)) continue;
    let part: string;
    switch (block.type) {
      case 'text':
        part = head(String(block.text ?? ''));
        break;
      case 'reasoning':
        part = `(thinking) ${head(String(block.text ?? ''))}`;
        break;
      case 'tool-call':
        part = `→ ${head(String(block.name ?? '?'))}(${head(String(block.arguments ?? ''))})`;
        break;
      case 'tool-result':
        part = `${block.isError === true ? '✗ ' : ''}${blocksText(block.content)}`;
        break;
      case 'image':
        part = '[image]';
        break;
      default:
        part = `[${head(String(block.type))}]`;
    }
    parts.push(part);
    length += part.length + 1;
    if (length - 1 > MAX * 2) break;
  }
  return parts.join(' ');
}

/** The message of a surface event (null when it has none or is malformed). */
function messageOf(event: Record<string, any>): Record<string, any> | null {
  const data = event.data;
  if (!isObject(data)) return null;
  if (event.type === 'user/message') return data;
  return isObject(data.message) ? data.message : null;
}

/** Role of a surface event's message, if any. */
export function roleOf(event: unknown): string | null {
  if (!isObject(event)) return null;
  const message = messageOf(event);
  return message && typeof message.role === 'string' ? message.role : null;
}

/** Preview of a surface node: the text the model sees, clipped. */
export function previewOf(event: unknown): string {
  if (!isObject(event)) return clip(compactJson(event));
  const message = messageOf(event);
  if (!message) return clip(compactJson(event.data));
  const source = message.source;
  const prefix = isCheckpointSource(source) ? '[compaction summary] ' : '';
  const text = blocksText(message.content);
  if (text === '' && Array.isArray(message.content) && message.content.length === 0) return '(empty: usage only)';
  return clip(prefix + text);
}

/** A one-line summary of any event for the timeline. */
export function summarizeEvent(event: unknown): string {
  if (!isObject(event)) return clip(`(not an object) ${compactJson(event)}`);
  const data: any = event.data;
  const d: Record<string, any> = isObject(data) ? data : {};
  switch (event.type) {
    case 'user/message':
    case 'assistant/message':
    case 'tool/result':
      return previewOf(event);
    case 'assistant/chunk': {
      const chunk = isObject(d.chunk) ? d.chunk : {};
      const body = chunk.text ?? chunk.argumentsDelta ?? chunk.blockType ?? (chunk.reason ? compactJson(chunk.reason) : undefined);
      return clip(
        `${String(chunk.type ?? '?')}${body !== undefined ? ` ${typeof body === 'string' ? JSON.stringify(body) : compactJson(body)}` : ''}`,
      );
    }
    case 'tool/call':
      return clip(`${String(d.name ?? '?')}(${String(d.arguments ?? '')}) #${String(d.callId ?? '')}`);
    case 'turn/start':
      return `turn ${String(d.turn)}`;
    case 'turn/end':
      return clip(`turn ${String(d.turn)} ${isObject(d.reason) ? String(d.reason.kind) : ''}`);
    case 'step/start':
    case 'step/end':
      return `turn ${String(d.turn)} step ${String(d.step)}`;
    case 'compaction/start':
    case 'compaction/end':
      return clip(
        `${String(d.compactionId ?? '')}${d.turn === null ? ' standalone' : ` turn ${String(d.turn)}`}${d.error ? ` error: ${String(d.error)}` : ''}`,
      );
    case 'compaction/summary':
    case 'compaction/prune': {
      const seqs = Array.isArray(d.shadowedSeqs) ? d.shadowedSeqs : [];
      const range = isObject(d.shadowedRange) ? `${String(d.shadowedRange.start)}…${String(d.shadowedRange.end)}` : '?';
      return clip(`shadows ${range} (${seqs.length} nodes, ~${String(d.shadowedTokenCount ?? '?')} tokens)`);
    }
    default:
      return clip(compactJson(data));
  }
}

/** The kind of a replacement event, for display. */
export function replacementKind(event: unknown): ReplacementKindName {
  if (!isObject(event)) return 'other';
  if (event.type === 'tool/result') return 'prune';
  const message = messageOf(event);
  const source = message?.source;
  if (event.type === 'user/message' && isCheckpointSource(source)) {
    return 'compaction';
  }
  return 'other';
}
/* eslint-enable @typescript-eslint/no-explicit-any */
