/**
 * The generic violations the writer applies to an ordinary event (`LogWriter.ev`): which events
 * suit each kind, how the event is damaged, and the fold's message for it. Replacement, prune
 * and torn-tail violations are placed by their own writers (`compaction.ts`, `writer.ts`).
 */
import type { ViolationKind } from './options';

/** The violations a replace writer places (`Compactor.maybeCompact` forces a replace for them). */
export const REPLACEMENT_KINDS: ReadonlySet<ViolationKind> = new Set<ViolationKind>([
  'invalid-replace-op',
  'replace-start-not-found',
  'replace-end-not-found',
  'replace-start-after-end',
  'replace-missing-shadowed-source',
]);

/** The event about to be written, as `ev` has it. */
export interface EventDraft {
  type: string;
  seq: number;
  /** Events written so far (the seq the fold expects next). */
  count: number;
  sources: unknown;
  surfaceOp: unknown;
}

/** The event with the violation applied, and where and how the fold refuses it. */
export interface AppliedViolation {
  seq: number;
  sources: unknown;
  surfaceOp: unknown;
  /** Write half the line: JSON that does not parse. */
  damage: boolean;
  /** The seq the violation is recorded at. */
  at: number;
  /** The fold's exact message, or null for damage the fold never sees. */
  foldMessage: string | null;
}

/** Applies an armed violation to `draft`, or returns null when this event does not suit it. */
export function eventViolation(kind: ViolationKind, draft: EventDraft): AppliedViolation | null {
  const { type, seq, count, sources, surfaceOp } = draft;
  const eligible = type === 'user/message' || type === 'assistant/message' || type === 'tool/result';
  const isAppend = surfaceOp === 'append';
  const applied = (at: number, foldMessage: string | null, change: Partial<AppliedViolation> = {}): AppliedViolation => ({
    seq,
    sources,
    surfaceOp,
    damage: false,
    at,
    foldMessage,
    ...change,
  });
  switch (kind) {
    case 'seq-gap':
      return applied(seq + 1, `session event seq ${seq + 1} is not contiguous; expected ${count}`, { seq: seq + 1 });
    case 'surfaceop-on-log-only':
      return eligible
        ? null
        : applied(seq, `session event "${type}" is not surface-eligible and cannot carry surfaceOp`, { surfaceOp: 'append' });
    case 'sources-on-log-only':
      return !eligible && seq > 0
        ? applied(seq, `session event "${type}" is not surface-eligible and cannot carry sourceEventSeqs`, { sources: [seq - 1] })
        : null;
    case 'missing-surfaceop':
      return eligible && isAppend
        ? applied(seq, `session event "${type}" is surface-eligible and requires a surfaceOp marker`, { surfaceOp: undefined })
        : null;
    case 'invalid-surfaceop':
      return eligible && isAppend ? applied(seq, `session event "${type}" carries an invalid surfaceOp`, { surfaceOp: 'Append' }) : null;
    case 'sources-empty':
      return type === 'tool/result' && isAppend
        ? applied(seq, 'sourceEventSeqs must not be empty except on assistant/message', { sources: [] })
        : null;
    case 'sources-duplicate':
      return type === 'assistant/message' && Array.isArray(sources) && sources.length > 0
        ? applied(seq, 'sourceEventSeqs must not contain duplicates', { sources: [...(sources as number[]), (sources as number[])[0]] })
        : null;
    case 'sources-not-earlier':
      return type === 'assistant/message' && Array.isArray(sources)
        ? applied(seq, `sourceEventSeqs must reference earlier events: ${seq} >= current seq ${seq}`, {
            sources: [...(sources as number[]), seq],
          })
        : null;
    case 'unparsable-line':
      return applied(seq, null, { damage: true });
    default:
      return null;
  }
}
