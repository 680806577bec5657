/** Redaction of secrets, home-directory paths and e-mail addresses in session records. */
export { REDACT_KINDS, REDACT_PATTERNS } from './patterns';
export type { RedactKind, RedactPattern } from './patterns';
export { Redactor, formatRedactReport } from './redactor';
export type { RedactCount, RedactReport } from './redactor';
export { PRUNE_MARKER, redactRecord } from './event';
