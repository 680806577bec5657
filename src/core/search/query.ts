/**
 * The search query language, as parsed: a list of terms that must all hold (AND), each
 * optionally negated with a leading `-`. Text terms look at what a person reads of an event
 * (see `subject.ts`); field terms look at its type, tool, turn, step, seq and state.
 */

/** Where a term or an error sits in the query text: `[start, end)` in UTF-16 code units. */
export interface Span {
  start: number;
  end: number;
}

/** A closed range of integers; either end may be open (`seq:10..`, `seq:..200`). */
export interface IntRange {
  lo: number;
  hi: number;
}

/** The `is:` flags. The last three depend on the cursor. */
export const IS_FLAGS = ['error', 'replace', 'prune', 'compaction', 'surface', 'shadowed', 'log-only'] as const;
export type IsFlag = (typeof IS_FLAGS)[number];
/** Flags whose answer depends on the cursor (the state of an event at a step). */
export const CURSOR_FLAGS: readonly IsFlag[] = ['surface', 'shadowed', 'log-only'];

/** One term of a query. */
export type Term = Span & { negate: boolean } & (
    | { kind: 'word'; value: string }
    | { kind: 'phrase'; value: string }
    | { kind: 'regex'; source: string; flags: string }
    | { kind: 'type'; value: string; prefix: boolean }
    | { kind: 'tool'; value: string }
    | { kind: 'turn' | 'step' | 'seq'; range: IntRange }
    | { kind: 'is'; flag: IsFlag }
  );

/** Kinds of term that match text (and so give match offsets for snippets). */
export type TextTerm = Extract<Term, { kind: 'word' | 'phrase' | 'regex' }>;

/** A parsed query. */
export interface Query {
  text: string;
  terms: Term[];
  /** True when a term depends on the cursor (the answer changes when the step does). */
  usesCursor: boolean;
}

/** What is wrong with a query, and where. */
export interface QueryError extends Span {
  message: string;
}

export type ParseResult = { ok: true; query: Query } | { ok: false; error: QueryError };

/** The field names a query may use before a colon. */
export const FIELDS = ['type', 'tool', 'turn', 'step', 'seq', 'is'] as const;
