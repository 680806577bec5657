/**
 * What the listing learns lazily about a session, after its header: the title (the latest
 * `session/title`, else the first user message) and, when the whole file was read, its event
 * count. Reads at most {@link DETAILS_SCAN_BYTES} of the file: a 100 MB session gets the title
 * of its first part (dsh titles a session within its first turn) and no count until opened.
 */
import { isPackedRow, validatePackedRow } from '../core/decode/packed';
import { decodeZstdFrame, initZstd, walkZstdFrames } from '../core/decode/zstd';
import type { StoreFormat } from '../protocol/store-api';
import { readAt } from './store-fs';
import type { StoreFs } from './store-fs';

/** Bytes of the file read at most for its details. */
export const DETAILS_SCAN_BYTES = 16 * 1024 * 1024;
const TITLE_CHARS = 200;

/** A session's title and event count. */
export interface SessionDetails {
  title: string | null;
  titleFrom: 'title' | 'first-message' | null;
  events: number | null;
}

const decoder = new TextDecoder('utf-8', { ignoreBOM: true });

function firstText(content: unknown): string | null {
  if (!Array.isArray(content)) return null;
  for (const part of content) {
    if (part && typeof part === 'object' && (part as { type?: unknown }).type === 'text') {
      const text = (part as { text?: unknown }).text;
      if (typeof text === 'string' && text.trim() !== '') return text;
    }
  }
  return null;
}

function clip(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > TITLE_CHARS ? `${line.slice(0, TITLE_CHARS - 1)}…` : line;
}

/** Accumulates lines (the header excluded) into details. */
class DetailsScan {
  title: string | null = null;
  firstMessage: string | null = null;
  events = 0;
  private header = true;

  line(text: string): void {
    if (this.header) {
      this.header = false;
      return;
    }
    if (text === '') return;
    // Only three kinds of line need parsing: titles, user messages and packed rows (for the count).
    const isTitle = text.includes('"session/title"');
    const isUser = this.firstMessage === null && text.includes('"user/message"');
    const isPacked = text.includes('-chunks"');
    if (!isTitle && !isUser && !isPacked) {
      this.events += 1;
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.events += 1;
      return;
    }
    if (isPackedRow(value)) {
      try {
        this.events += validatePackedRow(value).members.length;
      } catch {
        this.events += 1;
      }
      return;
    }
    this.events += 1;
    const event = value as { type?: unknown; data?: { title?: unknown; content?: unknown } };
    if (event.type === 'session/title' && typeof event.data?.title === 'string' && event.data.title.trim() !== '') {
      this.title = clip(event.data.title);
    } else if (event.type === 'user/message' && this.firstMessage === null) {
      const text = firstText(event.data?.content);
      if (text !== null) this.firstMessage = clip(text);
    }
  }

  result(complete: boolean): SessionDetails {
    const titleFrom = this.title !== null ? 'title' : this.firstMessage !== null ? 'first-message' : null;
    return { title: this.title ?? this.firstMessage, titleFrom, events: complete ? this.events : null };
  }
}

/** Splits byte chunks into lines; a last line without LF is not a line yet (a write in progress). */
class LineSplitter {
  private rest: Uint8Array = new Uint8Array(0);
  constructor(private readonly onLine: (text: string) => void) {}

  push(chunk: Uint8Array): void {
    let bytes = chunk;
    if (this.rest.length > 0) {
      bytes = new Uint8Array(this.rest.length + chunk.length);
      bytes.set(this.rest);
      bytes.set(chunk, this.rest.length);
    }
    let start = 0;
    for (let lf = bytes.indexOf(0x0a); lf >= 0; lf = bytes.indexOf(0x0a, start)) {
      this.onLine(decoder.decode(bytes.subarray(start, lf)));
      start = lf + 1;
    }
    this.rest = bytes.slice(start);
  }
}

/** The details of a session file; read errors propagate. */
export async function readDetails(fs: StoreFs, path: string, format: StoreFormat, size: number): Promise<SessionDetails> {
  const scan = new DetailsScan();
  const lines = new LineSplitter((text) => scan.line(text));
  if (format === 'zip') return { title: null, titleFrom: null, events: null };
  const length = Math.min(size, DETAILS_SCAN_BYTES);
  if (format === 'jsonl') {
    const CHUNK = 1024 * 1024;
    for (let at = 0; at < length; at += CHUNK) {
      const chunk = await readAt(fs, path, at, Math.min(CHUNK, length - at));
      lines.push(chunk);
      if (chunk.length === 0) break;
    }
    return scan.result(length === size);
  }
  await initZstd();
  const bytes = await readAt(fs, path, 0, length);
  let complete = length === size;
  try {
    const walk = walkZstdFrames(bytes);
    if (walk.tornStart !== null) complete = false;
    for (const frame of walk.frames) lines.push(decodeZstdFrame(bytes.subarray(frame.start, frame.end), frame.start));
  } catch {
    // Damage after the header: what came before it still gives the title; the count is unknown.
    complete = false;
  }
  return scan.result(complete);
}
