/**
 * Parser of the search query language (see `query.ts` and the README's "Search" section).
 * Never throws: a bad query comes back as one {@link QueryError} naming what is wrong and where.
 */
import { CURSOR_FLAGS, FIELDS, IS_FLAGS } from './query';
import type { IntRange, IsFlag, ParseResult, Query, QueryError, Term } from './query';

type Field = (typeof FIELDS)[number];
type Parsed = { term: Term } | { error: QueryError };

const isSpace = (c: string | undefined): boolean => c !== undefined && /\s/.test(c);

/** Edit distance counting a swap of neighbours as one edit, for "did you mean" on a misspelt field. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const up = d[i - 1] as number[];
      row[j] = Math.min(up[j]! + 1, row[j - 1]! + 1, up[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, (d[i - 2] as number[])[j - 2]! + 1);
    }
  }
  return (d[a.length] as number[])[b.length]!;
}

/** End (exclusive) of the `"…"` starting at `at`, or -1 when it is not closed. */
function phraseEnd(text: string, at: number): number {
  const close = text.indexOf('"', at + 1);
  return close < 0 ? -1 : close + 1;
}

/** End (exclusive) of the closing `/` of the regex starting at `at`, or -1. Backslash escapes. */
function regexEnd(text: string, at: number): number {
  let inClass = false;
  for (let i = at + 1; i < text.length; i++) {
    const c = text[i];
    if (c === '\\') i++;
    else if (c === '[') inClass = true;
    else if (c === ']') inClass = false;
    else if (c === '/' && !inClass) return i + 1;
  }
  return -1;
}

function wordEnd(text: string, at: number): number {
  let i = at;
  while (i < text.length && !isSpace(text[i])) i++;
  return i;
}

function parseRange(value: string): IntRange | null {
  const single = /^\d+$/.exec(value);
  if (single) {
    const n = Number(value);
    return Number.isSafeInteger(n) ? { lo: n, hi: n } : null;
  }
  const range = /^(\d*)\.\.(\d*)$/.exec(value);
  if (!range || (range[1] === '' && range[2] === '')) return null;
  const lo = range[1] === '' ? 0 : Number(range[1]);
  const hi = range[2] === '' ? Number.MAX_SAFE_INTEGER : Number(range[2]);
  return Number.isSafeInteger(lo) && Number.isSafeInteger(hi) ? { lo, hi } : null;
}

function fieldTerm(field: Field, value: string, start: number, valueStart: number, end: number, negate: boolean): Parsed {
  const at = { start: valueStart, end };
  if (value === '') return { error: { ...at, start: start, message: `${field}: needs a value right after the colon` } };
  const base = { start, end, negate };
  switch (field) {
    case 'type': {
      const type = value.toLowerCase();
      return { term: { ...base, kind: 'type', value: type, prefix: type.endsWith('/') } };
    }
    case 'tool':
      return { term: { ...base, kind: 'tool', value } };
    case 'turn':
    case 'step':
    case 'seq': {
      const range = parseRange(value);
      if (!range) return { error: { ...at, message: `${field}: expects a number or a range like 10..200, not "${value}"` } };
      if (range.lo > range.hi) return { error: { ...at, message: `${field}:${value} is empty: ${range.lo} is after ${range.hi}` } };
      return { term: { ...base, kind: field, range } };
    }
    case 'is': {
      const flag = value.toLowerCase();
      if (!(IS_FLAGS as readonly string[]).includes(flag)) {
        return { error: { ...at, message: `is: does not know "${value}" (one of: ${IS_FLAGS.join(', ')})` } };
      }
      return { term: { ...base, kind: 'is', flag: flag as IsFlag } };
    }
  }
}

/** One term starting at `at` (past any `-`); `start` is where the term began, minus included. */
function parseTerm(text: string, at: number, start: number, negate: boolean): Parsed & { next: number } {
  const c = text[at];
  if (c === '"') {
    const end = phraseEnd(text, at);
    if (end < 0) return { error: { start: at, end: text.length, message: 'phrase is not closed: add a " at its end' }, next: text.length };
    const value = text.slice(at + 1, end - 1);
    if (value.trim() === '') return { error: { start: at, end, message: 'empty phrase: put words between the quotes' }, next: end };
    return { term: { start, end, negate, kind: 'phrase', value }, next: end };
  }
  if (c === '/') {
    const close = regexEnd(text, at);
    if (close < 0) return { error: { start: at, end: text.length, message: 'regex is not closed: add a / at its end' }, next: text.length };
    const end = wordEnd(text, close);
    const flags = text.slice(close, end);
    const source = text.slice(at + 1, close - 1);
    if (source === '') return { error: { start: at, end, message: 'empty regex: put a pattern between the slashes' }, next: end };
    const bad = [...flags].find((f) => f !== 'i');
    if (bad !== undefined) return { error: { start: close, end, message: `regex flag "${bad}" is not supported (only i)` }, next: end };
    try {
      new RegExp(source, flags);
    } catch (error) {
      return { error: { start: at, end, message: `bad regex: ${(error as Error).message}` }, next: end };
    }
    return { term: { start, end, negate, kind: 'regex', source, flags: flags === '' ? '' : 'i' }, next: end };
  }
  const field = /^([A-Za-z][A-Za-z-]*):/.exec(text.slice(at, at + 32));
  if (field) {
    const name = (field[1] as string).toLowerCase();
    const valueStart = at + field[0].length;
    if ((FIELDS as readonly string[]).includes(name)) {
      if (text[valueStart] === '"') {
        const end = phraseEnd(text, valueStart);
        if (end < 0)
          return {
            error: { start: valueStart, end: text.length, message: 'quoted value is not closed: add a " at its end' },
            next: text.length,
          };
        return { ...fieldTerm(name as Field, text.slice(valueStart + 1, end - 1), start, valueStart, end, negate), next: end };
      }
      const end = wordEnd(text, valueStart);
      return { ...fieldTerm(name as Field, text.slice(valueStart, end), start, valueStart, end, negate), next: end };
    }
    // An unknown word before a colon is text ("TypeError:"), unless it looks like a misspelt field.
    const near = FIELDS.find((f) => name.length >= 3 && distance(name, f) === 1);
    if (near !== undefined && !text.startsWith('//', valueStart)) {
      const message = `unknown field "${name}:" — did you mean ${near}:? (to search the text, quote it: "${name}:")`;
      return { error: { start: at, end: valueStart, message }, next: wordEnd(text, at) };
    }
  }
  const end = wordEnd(text, at);
  return { term: { start, end, negate, kind: 'word', value: text.slice(at, end) }, next: end };
}

/**
 * Parses a query. Terms are separated by whitespace and must all hold; `-` before a term
 * excludes what it matches. An empty query has no terms (it matches every event).
 */
export function parseQuery(text: string): ParseResult {
  const terms: Term[] = [];
  let i = 0;
  while (i < text.length) {
    if (isSpace(text[i])) {
      i++;
      continue;
    }
    const start = i;
    let negate = false;
    if (text[i] === '-') {
      if (i + 1 >= text.length || isSpace(text[i + 1])) {
        return {
          ok: false,
          error: { start: i, end: i + 1, message: 'a lone "-" excludes nothing: write the term right after it (-type:turn/start)' },
        };
      }
      negate = true;
      i++;
    }
    const parsed = parseTerm(text, i, start, negate);
    if ('error' in parsed) return { ok: false, error: parsed.error };
    terms.push(parsed.term);
    i = parsed.next;
  }
  const query: Query = {
    text,
    terms,
    usesCursor: terms.some((t) => t.kind === 'is' && CURSOR_FLAGS.includes(t.flag)),
  };
  return { ok: true, query };
}

/** A query error as one line: `col 7–12: message`, columns 1-based. */
export function formatQueryError(error: QueryError): string {
  const end = Math.max(error.start + 1, error.end);
  return end - error.start > 1 ? `col ${error.start + 1}–${end}: ${error.message}` : `col ${error.start + 1}: ${error.message}`;
}
