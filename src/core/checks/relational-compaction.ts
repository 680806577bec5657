/**
 * Compaction family of the relational invariants (events.md §7.2, package
 * `@deepseek-ai/dsh-compaction`): compaction brackets pair up, name their owner turn, carry a
 * consistent summary and never straddle a turn boundary — unless the bracket is a **stale
 * start**, a `compaction/start` still unmatched when a later `session/end-seed` occurs (it
 * belonged to a process that ended; its resumed successor legitimately moves on).
 *
 * Upstream computes the stale starts in a pre-pass over the whole log. Streaming, we note that a
 * start is stale exactly when the first `compaction/start`, `compaction/end` or
 * `session/end-seed` after it is a `session/end-seed`; and while a bracket is open in the replay
 * no such event has happened yet (a nested start fails, an end closes or fails, an end-seed
 * closes). So the staleness of the open bracket is always undecided when a turn boundary meets
 * it: we hold that first boundary violation as *pending*, keep replaying as if it passed, and
 * decide at the next start/end/end-seed (or at the end of the log, where no end-seed came). A
 * definite violation met while one is pending is held too, and replay stops behind it.
 */
import { isCheckpointSource } from '../util/checkpoint';
import { isRecord } from './check';
import type { InvariantFamily, Violation } from './relational-family';
import { dataOf } from './relational-family';

/** The open compaction bracket. */
interface OpenCompaction {
  compactionId: unknown;
  sourceCommandId: unknown;
  turn: unknown;
  summarized: boolean;
}

type CompactionType = 'compaction/start' | 'compaction/summary' | 'compaction/end';

/** `${label} must be a non-empty string` unless `value` is one. */
function idProblem(value: unknown, label: string): string | null {
  return typeof value === 'string' && value.length > 0 ? null : `${label} must be a non-empty string`;
}

/** The optional `sourceCommandId` is well formed and equals the start's (absent prints `undefined`). */
function commandProblem(type: string, value: unknown, expected: unknown): string | null {
  if (value !== undefined) {
    const problem = idProblem(value, `${type} sourceCommandId`);
    if (problem !== null) return problem;
  }
  if (value !== expected) {
    return `${type} sourceCommandId ${String(value)} does not match compaction/start sourceCommandId ${String(expected)}`;
  }
  return null;
}

/** A numbered bracket lies inside its own open turn; a standalone one (`null`) between turns. */
function ownerProblem(owner: unknown, openTurn: unknown, type: CompactionType): string | null {
  if (owner === null) return openTurn === null ? null : `${type} is standalone but turn ${String(openTurn)} is open`;
  if (openTurn === null) return `${type} for turn ${String(owner)} appended outside any open turn`;
  if (owner !== openTurn) return `${type} names turn ${String(owner)} but open turn is ${String(openTurn)}`;
  return null;
}

/** Streaming replay of the compaction family. */
export class CompactionFamily implements InvariantFamily {
  readonly packageName = '@deepseek-ai/dsh-compaction';
  readonly rule = 'relational/compaction';
  private openTurn: unknown = null;
  private open: OpenCompaction | null = null;
  /** The first turn-boundary violation against the open bracket, while its staleness is undecided. */
  private pending: Violation | null = null;
  /** The first definite violation met while `pending` was undecided; replay stops behind it. */
  private held: Violation | null = null;
  private result: Violation | null = null;
  private done = false;

  event(event: Record<string, unknown> | null, index: number, line: number | null): void {
    if (this.done || event === null) return;
    const type = event.type;
    // A chunk neither settles a pending violation nor touches a bracket or the open turn.
    if (type === 'assistant/chunk') return;
    if (this.pending !== null) {
      if (type === 'compaction/start' || type === 'compaction/end') return this.settle(this.pending);
      if (type === 'session/end-seed') {
        // The open bracket's start is stale: its boundary violations never happened.
        this.pending = null;
        if (this.held !== null) return this.settle(this.held);
      }
    }
    if (this.held !== null) return;
    const data = dataOf(event);
    if (this.open !== null && (type === 'turn/start' || type === 'turn/end')) {
      const owner = this.open.turn === null ? 'standalone compaction' : `compaction for turn ${String(this.open.turn)}`;
      this.pending ??= { index, line, message: `${type} cannot cross an open ${owner}` };
    }
    const message = this.check(event, type, data);
    if (message !== null) {
      const violation = { index, line, message };
      if (this.pending === null) return this.settle(violation);
      this.held = violation;
      return;
    }
    if (type === 'turn/start') this.openTurn = data.turn;
    else if (type === 'turn/end') this.openTurn = null;
  }

  finish(): Violation | null {
    // No end-seed followed the open bracket, so it was not stale: its boundary violation stands.
    if (!this.done && this.pending !== null) this.settle(this.pending);
    return this.result;
  }

  provisional(): Violation | null {
    return !this.done && this.pending !== null ? this.pending : this.result;
  }

  private settle(violation: Violation): void {
    this.result = violation;
    this.done = true;
    this.pending = null;
    this.held = null;
  }

  /** The compaction checks of one event; applies its bracket transition when it passes. */
  private check(event: Record<string, unknown>, type: unknown, data: Record<string, unknown>): string | null {
    switch (type) {
      case 'session/end-seed':
        this.open = null;
        return null;
      case 'user/message':
        return this.checkpoint(event, data);
      case 'compaction/start':
        return this.start(data);
      case 'compaction/summary':
        return this.summary(data);
      case 'compaction/end':
        return this.end(data);
      default:
        return null;
    }
  }

  private checkpoint(event: Record<string, unknown>, data: Record<string, unknown>): string | null {
    const op = event.surfaceOp;
    const source = data.source;
    if (op === undefined || op === 'append' || !isCheckpointSource(source)) {
      return null;
    }
    const id = source.compactionId;
    const command = source.sourceCommandId;
    const problem =
      idProblem(id, 'compaction checkpoint compactionId') ??
      (command === undefined ? null : idProblem(command, 'compaction checkpoint sourceCommandId'));
    if (problem !== null) return problem;
    const open = this.open;
    if (open === null) return 'compaction checkpoint has no matching compaction/start';
    if (id !== open.compactionId) {
      return `compaction checkpoint id ${String(id)} does not match compaction/start id ${String(open.compactionId)}`;
    }
    return commandProblem('compaction checkpoint', command, open.sourceCommandId);
  }

  private start(data: Record<string, unknown>): string | null {
    const type = 'compaction/start';
    const problem =
      idProblem(data.compactionId, `${type} compactionId`) ??
      (data.sourceCommandId === undefined ? null : idProblem(data.sourceCommandId, `${type} sourceCommandId`));
    if (problem !== null) return problem;
    if (this.open !== null) {
      const owner = this.open.turn === null ? 'standalone compaction' : `turn ${String(this.open.turn)}`;
      return `compaction/start while ${owner} is still compacting`;
    }
    const owner = ownerProblem(data.turn, this.openTurn, type);
    if (owner !== null) return owner;
    this.open = { compactionId: data.compactionId, sourceCommandId: data.sourceCommandId, turn: data.turn, summarized: false };
    return null;
  }

  /** The checks summary and end share: ids, a matching open bracket, its command and owner. */
  private matchOpen(type: CompactionType, data: Record<string, unknown>): string | null {
    const problem =
      idProblem(data.compactionId, `${type} compactionId`) ??
      (data.sourceCommandId === undefined ? null : idProblem(data.sourceCommandId, `${type} sourceCommandId`));
    if (problem !== null) return problem;
    const open = this.open;
    if (open === null) return `${type} has no matching compaction/start`;
    if (data.compactionId !== open.compactionId) {
      return `${type} id ${String(data.compactionId)} does not match compaction/start id ${String(open.compactionId)}`;
    }
    return commandProblem(type, data.sourceCommandId, open.sourceCommandId);
  }

  private summary(data: Record<string, unknown>): string | null {
    const type = 'compaction/summary';
    const problem = this.matchOpen(type, data) ?? ownerProblem(this.open?.turn, this.openTurn, type);
    if (problem !== null) return problem;
    const open = this.open as OpenCompaction;
    if (open.summarized) return 'compaction/summary repeated within one compaction';
    const seqs = data.shadowedSeqs;
    // Upstream reads `.length` and indexes directly; a non-array would make it throw, which we
    // report as the nearest violation instead.
    if (!Array.isArray(seqs) || seqs.length === 0) return 'compaction/summary shadowedSeqs must be non-empty';
    const range = data.shadowedRange;
    const start = isRecord(range) ? range.start : undefined;
    const end = isRecord(range) ? range.end : undefined;
    if (seqs[0] !== start || seqs[seqs.length - 1] !== end) {
      return 'compaction/summary shadowedRange must match the first and last shadowedSeqs';
    }
    const tokens = data.shadowedTokenCount;
    if (typeof tokens !== 'number' || !Number.isSafeInteger(tokens) || tokens < 0) {
      return 'compaction/summary shadowedTokenCount must be a non-negative safe integer';
    }
    open.summarized = true;
    return null;
  }

  private end(data: Record<string, unknown>): string | null {
    const type = 'compaction/end';
    const problem = this.matchOpen(type, data);
    if (problem !== null) return problem;
    const open = this.open as OpenCompaction;
    if (data.turn !== open.turn) {
      return `compaction/end owner ${String(data.turn)} does not match compaction/start owner ${String(open.turn)}`;
    }
    const owner = ownerProblem(open.turn, this.openTurn, type);
    if (owner !== null) return owner;
    if (data.error === undefined && !open.summarized) return 'successful compaction/end requires one compaction/summary';
    this.open = null;
    return null;
  }
}
