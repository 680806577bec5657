/**
 * The search query language: parse a query, compile it, match events, make snippets. Shared
 * by the engine (search in a session), the CLI (`grep`) and the store-wide search.
 */
export { parseQuery, formatQueryError } from './parse';
export { compileQuery, Matcher } from './match';
export type { Hit, Match, SearchSubject, Snippet } from './match';
export { eventFacts, reportsError } from './subject';
export type { EventFacts } from './subject';
export { FIELDS, IS_FLAGS, CURSOR_FLAGS } from './query';
export type { IntRange, IsFlag, ParseResult, Query, QueryError, Span, Term } from './query';
export { sessionSubject, matchSession } from './session';
export type { EventRead, SessionHit } from './session';
