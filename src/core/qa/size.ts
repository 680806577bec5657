/**
 * Message sizes for the QA checks: the size of a model message is the length of its
 * `JSON.stringify` text (surface.md §7 messages). Three measures, from cheap to exact:
 *
 * - {@link contentBound}: a lower bound read from the texts of a message's content (no scan);
 * - {@link jsonUpperBound}: an upper bound from the value's shape and string lengths (no scan);
 * - {@link jsonLength}: the exact length, computed without building the text.
 *
 * All three assume a value produced by `JSON.parse` (plain objects and arrays, finite numbers,
 * no `toJSON`).
 */
import { deriveEventMessage } from '../fold/manager';

/** Extra characters `JSON.stringify` writes for each ASCII code unit (escapes). */
const ASCII_EXTRA = new Uint8Array(128);
for (let c = 0; c < 0x20; c++) ASCII_EXTRA[c] = 5; // \u00XX
for (const c of [0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x22, 0x5c]) ASCII_EXTRA[c] = 1; // \b \t \n \f \r \" \\

// Control characters are what these patterns are about.
/* eslint-disable no-control-regex */
/** Any code unit `JSON.stringify` escapes, or a surrogate (which it may). */
const ANY_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/** A code unit written as `\u00XX` or a surrogate: the cases only the loop measures. */
const RARE_ESCAPE = /[\u0000-\u0007\u000b\u000e-\u001f\ud800-\udfff]/;
/* eslint-enable no-control-regex */
/** The code units written with a two-character escape (`\"`, `\\`, `\n`, …). */
const SHORT_ESCAPES = ['\n', '"', '\\', '\t', '\r', '\b', '\f'];
/** Below this length the loop is as fast as the native scans. */
const SCAN_FROM = 64;

function occurrences(s: string, unit: string): number {
  let n = 0;
  for (let i = s.indexOf(unit); i !== -1; i = s.indexOf(unit, i + 1)) n++;
  return n;
}

/** Exact length of `JSON.stringify(s)` for a string (quotes and escapes included). */
export function jsonStringLength(s: string): number {
  const length = s.length;
  if (length >= SCAN_FROM) {
    // Long texts (tool results, files) are measured with the engine's own scans. Most need no
    // escape at all: one scan, which stops at the first escape of the others. When every code
    // unit that needs escaping has a two-character escape, each is one extra character.
    if (!ANY_ESCAPE.test(s)) return length + 2;
    if (!RARE_ESCAPE.test(s)) {
      let n = length + 2;
      for (const unit of SHORT_ESCAPES) n += occurrences(s, unit);
      return n;
    }
  }
  let n = length + 2;
  for (let i = 0; i < length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) {
      n += ASCII_EXTRA[c]!;
    } else if ((c & 0xf800) === 0xd800) {
      // A well-formed surrogate pair is written as is; a lone surrogate as \uXXXX.
      if (c <= 0xdbff && i + 1 < length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
      else n += 5;
    }
  }
  return n;
}

/** Exact length of `JSON.stringify(value)` for a JSON value, without building the text. */
export function jsonLength(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return jsonStringLength(value);
    case 'number':
      return Number.isFinite(value) ? String(value).length : 4;
    case 'boolean':
      return value ? 4 : 5;
    case 'object': {
      if (value === null) return 4;
      if (Array.isArray(value)) {
        let n = value.length > 0 ? value.length + 1 : 2;
        for (const item of value as unknown[]) n += item === undefined ? 4 : jsonLength(item);
        return n;
      }
      let n = 1;
      let members = 0;
      const record = value as Record<string, unknown>;
      for (const key in record) {
        if (!Object.prototype.hasOwnProperty.call(record, key)) continue;
        const item = record[key];
        if (item === undefined) continue;
        n += jsonStringLength(key) + 1 + jsonLength(item);
        members++;
      }
      return n + (members > 0 ? members : 1);
    }
    default:
      return 0;
  }
}

/**
 * An upper bound of `JSON.stringify(value).length` that never scans a string: every character
 * is counted at its worst escape (6 characters).
 */
export function jsonUpperBound(value: unknown): number {
  switch (typeof value) {
    case 'string':
      return 6 * value.length + 2;
    case 'number':
      return 24;
    case 'boolean':
      return 5;
    case 'object': {
      if (value === null) return 4;
      let n = 2;
      if (Array.isArray(value)) {
        for (const item of value as unknown[]) n += 1 + jsonUpperBound(item);
        return n;
      }
      const record = value as Record<string, unknown>;
      for (const key in record) n += 6 * key.length + 4 + jsonUpperBound(record[key]);
      return n;
    }
    default:
      return 4;
  }
}

/**
 * A lower bound of the JSON size of a message with this `content`: the lengths of the strings
 * it holds (texts, tool-call arguments, nested tool-result texts) plus their quotes.
 * `JSON.stringify` writes each of them once, escaped (never shorter), so the bound holds. Reads
 * a few properties per block; no string is scanned.
 */
export function contentBound(content: unknown): number {
  if (!Array.isArray(content)) return 0;
  let n = 0;
  for (const block of content as unknown[]) {
    if (block === null || typeof block !== 'object') continue;
    const b = block as Record<string, unknown>;
    const text = b.text;
    if (typeof text === 'string') {
      n += text.length + 2;
      continue;
    }
    const args = b.arguments;
    if (typeof args === 'string') n += args.length + 2;
    else if (Array.isArray(b.content)) n += contentBound(b.content);
  }
  return n;
}

/** The derived model message of an event (surface.md §7), `null` when none or malformed. */
export function derivedMessage(event: unknown): unknown {
  try {
    const message = deriveEventMessage(event);
    return message === undefined ? null : message;
  } catch {
    return null;
  }
}

/**
 * Size of an event's model message: the length of `JSON.stringify` of its derived message
 * (surface.md §7), 0 when it derives none.
 */
export function derivedMessageSize(event: unknown): number {
  const message = derivedMessage(event);
  return message === null ? 0 : jsonLength(message);
}
