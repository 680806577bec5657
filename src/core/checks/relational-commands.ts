/**
 * Commands family of the relational invariants (events.md §7.3, package
 * `@deepseek-ai/dsh-commands`): every `command/done` pairs an earlier `command/run` of the same
 * id, ids are not reused, and a success may cite the event that carries its result.
 *
 * The citation check reads the event at position `sourceEventSeq` and requires it to carry that
 * seq and not be a command event. Instead of keeping events we keep (a) the positions of command
 * events, few in any log, and (b) the positions where "seq equals position" flips, which is O(1)
 * for a contiguous log and for one that starts at an offset. A citation of a position not seen
 * yet (possible only when seqs run ahead of positions) is decided when that position arrives.
 */
import type { InvariantFamily, Violation } from './relational-family';
import { dataOf } from './relational-family';

/** A citation of a position not decoded yet; `bad` once decided invalid. */
interface Deferred extends Violation {
  source: number;
  decided: boolean;
  bad: boolean;
}

/** Streaming replay of the commands family. */
export class CommandsFamily implements InvariantFamily {
  readonly packageName = '@deepseek-ai/dsh-commands';
  readonly rule = 'relational/commands';
  private readonly runIds = new Set<unknown>();
  private readonly commandPositions = new Set<number>();
  /** Ascending positions at which `seq === position` toggles; it holds before the first one. */
  private readonly flips: number[] = [];
  private aligned = true;
  private count = 0;
  private readonly deferred: Deferred[] = [];
  /** A definite violation that waits only for earlier deferred citations to be decided. */
  private held: Violation | null = null;
  private result: Violation | null = null;

  event(event: Record<string, unknown> | null, index: number, line: number | null): void {
    if (this.result !== null) return;
    const type = event?.type;
    const seq = event?.seq;
    const isCommand = type === 'command/run' || type === 'command/done';
    this.record(index, seq, isCommand);
    if (this.deferred.length > 0) this.decideDeferred(index, seq, isCommand);
    if (this.result !== null || this.held !== null || event === null || !isCommand) return;
    const message = this.check(event, type, seq, index, line);
    if (message === null) return;
    const violation = { index, line, message };
    if (this.deferred.length === 0) this.result = violation;
    else this.held = violation;
  }

  /** {@link event} for a record of type `assistant/chunk` (not a command event). */
  chunk(event: Record<string, unknown>, index: number): void {
    if (this.result !== null) return;
    const seq = event.seq;
    this.record(index, seq, false);
    if (this.deferred.length > 0) this.decideDeferred(index, seq, false);
  }

  /**
   * Whether {@link chunkRun} may stand for the next chunk events one by one: nothing is waiting
   * for a position to arrive (or the family has already stopped).
   */
  canTakeChunkRun(): boolean {
    return this.result !== null || this.deferred.length === 0;
  }

  /**
   * {@link chunk} for the events at positions `first…last`, all chunks whose seq equals their
   * position, when {@link canTakeChunkRun} said so just before them.
   */
  chunkRun(first: number, last: number): void {
    if (this.result !== null) return;
    this.record(first, first, false);
    this.count = last + 1;
  }

  finish(): Violation | null {
    this.result ??= this.provisional();
    return this.result;
  }

  provisional(): Violation | null {
    if (this.result !== null) return this.result;
    // Citations of positions past the end read `undefined`: invalid.
    for (const d of this.deferred) {
      if (!d.decided || d.bad) return { index: d.index, line: d.line, message: d.message };
    }
    return this.held;
  }

  private record(index: number, seq: unknown, isCommand: boolean): void {
    this.count = index + 1;
    if (isCommand) this.commandPositions.add(index);
    const aligned = seq === index;
    if (aligned !== this.aligned) {
      this.flips.push(index);
      this.aligned = aligned;
    }
  }

  /** Whether the event at an already-seen position carries `seq === position`. */
  private alignedAt(position: number): boolean {
    let lo = 0;
    let hi = this.flips.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.flips[mid]! <= position) lo = mid + 1;
      else hi = mid;
    }
    return lo % 2 === 0;
  }

  private check(event: Record<string, unknown>, type: unknown, seq: unknown, index: number, line: number | null): string | null {
    const data = dataOf(event);
    const id = data.commandId;
    if (type === 'command/run') {
      if (this.runIds.has(id)) return `command/run repeats commandId ${JSON.stringify(id)}`;
      this.runIds.add(id);
      return null;
    }
    if (!this.runIds.has(id)) return `command/done ${JSON.stringify(id)} pairs no prior command/run in this log`;
    const source = data.sourceEventSeq;
    if (source === undefined) return null;
    const message = `command/done ${JSON.stringify(id)} has invalid sourceEventSeq ${String(source)}`;
    if (data.kind !== 'success' || typeof source !== 'number' || !Number.isSafeInteger(source) || source < 0 || source >= (seq as number)) {
      return message;
    }
    if (source < this.count) {
      return this.alignedAt(source) && !this.commandPositions.has(source) ? null : message;
    }
    this.deferred.push({ index, line, message, source, decided: false, bad: false });
    return null;
  }

  /** Decide citations of this position, then settle whatever is now decided in order. */
  private decideDeferred(index: number, seq: unknown, isCommand: boolean): void {
    for (const d of this.deferred) {
      if (!d.decided && d.source === index) {
        d.decided = true;
        d.bad = seq !== index || isCommand;
      }
    }
    while (this.deferred.length > 0) {
      const head = this.deferred[0] as Deferred;
      if (!head.decided) return;
      if (head.bad) {
        this.result = { index: head.index, line: head.line, message: head.message };
        return;
      }
      this.deferred.shift();
    }
    if (this.held !== null) this.result = this.held;
  }
}
