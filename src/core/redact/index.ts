/** Redaction of secrets, home-directory paths and e-mail addresses in session records. */
export { REDACT_KINDS } from './patterns';
export type { RedactKind } from './patterns';
export { Redactor, formatRedactReport } from './redactor';
export { PRUNE_MARKER, redactRecord } from './event';
