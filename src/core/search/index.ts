/**
 * The search query language: parse a query, compile it, match events, make snippets. Shared
 * by the engine (search in a session), the CLI (`grep`) and the store-wide search.
 */
export { parseQuery, formatQueryError } from './parse';
export { compileQuery, Matcher } from './match';
export { eventFacts } from './subject';
export type { Query, QueryError, Term } from './query';
export { sessionSubject, matchSession } from './session';
