/**
 * The optional relational invariants of events.md §7 as one streaming check: the session,
 * compaction and commands families, each replaying the decoded events in log order and
 * reporting its first violation as `invariant violated by "${package}": ${message}`.
 *
 * Upstream runs these only with a development plugin installed and never refuses a log because
 * of them, so every finding is a warning. Each family keeps O(1) state per open construct
 * (open turn/step, pending call ids, the open compaction, seen command ids), never events.
 */
import type { Diagnostic } from '../model';
import type { EventCheck } from './check';
import { diagnostic, isRecord } from './check';
import { CommandsFamily } from './relational-commands';
import { CompactionFamily } from './relational-compaction';
import type { InvariantFamily } from './relational-family';
import { SessionFamily } from './relational-session';

/** The families, in reporting order. */
export type RelationalFamilyName = 'session' | 'compaction' | 'commands';

/** One family's first violation, with the prefixed upstream message. */
export interface RelationalViolation {
  index: number;
  line: number | null;
  message: string;
}

/** Streaming relational-invariant check over all decoded events (not upgraded, no closers). */
export class RelationalCheck implements EventCheck {
  private readonly session = new SessionFamily();
  private readonly compaction = new CompactionFamily();
  private readonly commands = new CommandsFamily();
  private readonly families: readonly [InvariantFamily, InvariantFamily, InvariantFamily] = [this.session, this.compaction, this.commands];
  private results: (RelationalViolation | null)[] | null = null;

  event(value: unknown, index: number, line: number | null): void {
    const event = isRecord(value) ? value : null;
    if (event !== null && event.type === 'assistant/chunk') {
      this.chunkEvent(event, index, line);
      return;
    }
    // Direct calls, not a loop over the families: each call site then sees one class.
    this.session.event(event, index, line);
    this.compaction.event(event, index, line);
    this.commands.event(event, index, line);
  }

  /**
   * {@link event} for an event the caller knows to be a record of type `assistant/chunk`. The
   * compaction family ignores chunks, so only the other two see it.
   *
   * @param sameTurnStep true when the caller knows the previous event it passed here was a
   *   chunk with the same `data.turn` and `data.step` (the next member of a packed row)
   */
  chunkEvent(event: Record<string, unknown>, index: number, line: number | null, sameTurnStep?: boolean): void {
    if (sameTurnStep === true) this.session.nextChunk(event.seq, index, line);
    else this.session.chunk(event, index, line);
    this.commands.chunk(event, index);
  }

  /**
   * Whether {@link chunkRun} may stand for the next chunk events one by one: events continuing
   * the previous chunk's line (same turn and step), each with seq equal to its position, the
   * first at position `first`.
   */
  canTakeChunkRun(first: number): boolean {
    return this.session.canTakeChunkRun(first) && this.commands.canTakeChunkRun();
  }

  /** {@link chunkEvent} for such a run at positions `first…last` (see {@link canTakeChunkRun}). */
  chunkRun(first: number, last: number): void {
    this.session.chunkRun(last);
    this.commands.chunkRun(first, last);
  }

  /** Each family's first violation (prefixed message), `null` where it found none. */
  violations(): Record<RelationalFamilyName, RelationalViolation | null> {
    const results = this.settle();
    return { session: results[0] ?? null, compaction: results[1] ?? null, commands: results[2] ?? null };
  }

  finish(): Diagnostic[] {
    const results = this.settle();
    const out: Diagnostic[] = [];
    results.forEach((violation, i) => {
      const family = this.families[i];
      if (violation && family) out.push(diagnostic('warning', family.rule, violation.index, violation.line, violation.message));
    });
    return out;
  }

  /** {@link finish} as if the log ended here, changing nothing (a session that grows). */
  provisional(): Diagnostic[] {
    const out: Diagnostic[] = [];
    this.families.forEach((family, i) => {
      const violation = this.results !== null ? (this.results[i] ?? null) : family.provisional ? family.provisional() : family.finish();
      if (violation === null) return;
      const message = this.results !== null ? violation.message : `invariant violated by "${family.packageName}": ${violation.message}`;
      out.push(diagnostic('warning', family.rule, violation.index, violation.line, message));
    });
    return out;
  }

  private settle(): (RelationalViolation | null)[] {
    this.results ??= this.families.map((family) => {
      const violation = family.finish();
      if (violation === null) return null;
      const message = `invariant violated by "${family.packageName}": ${violation.message}`;
      return { index: violation.index, line: violation.line, message };
    });
    return this.results;
  }
}
