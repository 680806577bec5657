/**
 * The playground: a small log you grow by hand. Every candidate is validated by the same fold
 * (`SurfaceManager.validateNext`) before it enters the log; a refusal returns the exact rule
 * message and leaves everything as it was. Undo and redo move whole events.
 */
import { SurfaceManager } from '../fold/manager';
import { describeFoldError } from '../fold/surface';

/** Outcome of offering a candidate. */
export type TryResult = { ok: true; seq: number } | { ok: false; message: string; rule: string };

/** A session log under construction. */
export class Playground {
  private events: unknown[];
  private manager: SurfaceManager;
  private readonly redoStack: unknown[] = [];
  readonly sessionId: string;

  /**
   * @param seed events to start from (a valid prefix, e.g. the first k events of a loaded log)
   * @throws the fold's error when the seed itself is not a valid prefix
   */
  constructor(seed: readonly unknown[] = [], sessionId = 'playground') {
    this.sessionId = sessionId;
    this.events = [];
    this.manager = new SurfaceManager(this.events);
    for (const event of seed) {
      this.manager.validateNext(event);
      this.events.push(event);
    }
  }

  /** The events so far (do not mutate). */
  get log(): readonly unknown[] {
    return this.events;
  }

  /** The seq the next event must carry. */
  get nextSeq(): number {
    return this.events.length;
  }

  /** The current surface. */
  get nodes(): readonly number[] {
    return this.manager.nodes;
  }

  get canUndo(): boolean {
    return this.events.length > 0;
  }

  get canRedo(): boolean {
    return this.redoStack.length > 0;
  }

  /** Validate a candidate and append it when the fold accepts it. */
  offer(candidate: unknown): TryResult {
    try {
      this.manager.validateNext(candidate);
    } catch (error) {
      return { ok: false, ...describeFoldError(error) };
    }
    this.events.push(candidate);
    this.redoStack.length = 0;
    return { ok: true, seq: this.events.length - 1 };
  }

  /** Remove the last event (the fold is rebuilt: playground logs are small). */
  undo(): boolean {
    if (this.events.length === 0) return false;
    this.redoStack.push(this.events.pop());
    this.rebuild();
    return true;
  }

  /** Put back the last undone event. */
  redo(): boolean {
    if (this.redoStack.length === 0) return false;
    const event = this.redoStack.pop();
    this.manager.validateNext(event);
    this.events.push(event);
    return true;
  }

  private rebuild(): void {
    const events = this.events;
    this.events = [];
    this.manager = new SurfaceManager(this.events);
    for (const event of events) {
      this.manager.validateNext(event);
      this.events.push(event);
    }
  }

  /** The log as session JSONL (header, events, final LF). */
  toJsonl(createdAt = 0): string {
    const header = { type: 'session', version: 0, id: this.sessionId, createdAt, delegationDepth: 0 };
    return [header, ...this.events].map((event) => JSON.stringify(event)).join('\n') + '\n';
  }
}
