/**
 * The loader view as one streaming check: what upstream's persistence `load` would do with the
 * decoded events of a stored log (log-format.md §11, steps L3–L7) — refuse legacy vocabulary,
 * upgrade legacy shapes, check message shapes, refuse unknown types, append crash-repair closers
 * and restore the session — reported as diagnostics plus the final `loadError` text.
 *
 * Decoding (L1: header and line scanner, torn tail vs fatal damage) happens before this check;
 * it receives the header result and the successfully decoded events, in order. Each event is
 * upgraded and checked while it is alive and then dropped; the only per-log state is a handful
 * of first failures, the crash-repair tracker and the message ids of `tool/result` events.
 */
import type { Diagnostic } from '../model';
import type { EventCheck, SurfaceStep } from './check';
import { diagnostic, forkStep, isRecord } from './check';
import { InterruptedTurnTracker } from './closers';
import type { HeaderLineResult } from './header';
import { NOT_HEADER, checkSessionHeader } from './header';
import type { LegacyContext } from './legacy';
import { LegacyMalformedError, upgradeLegacyEvent } from './legacy';
import { SeedCheck } from './seed';
import { messageShapeProblem } from './shapes';

/** `KNOWN_SESSION_EVENT_TYPES` (log-format.md §6): the 48 types this harness interprets. */
export const KNOWN_SESSION_EVENT_TYPES: ReadonlySet<unknown> = new Set([
  'agent-preset/selected',
  'agent/inbox/spliced',
  'approval/asked',
  'approval/decided',
  'approval/policy',
  'assistant/chunk',
  'assistant/message',
  'command/done',
  'command/run',
  'compaction/end',
  'compaction/prune',
  'compaction/start',
  'compaction/summary',
  'feedback/record',
  'goal/change',
  'hook/invoked',
  'hook/result',
  'llm/retry',
  'llm/retry-started',
  'permission/preset',
  'plan/mode',
  'request/context',
  'request/header',
  'sandbox/mode',
  'schedule/change',
  'session/end-seed',
  'session/title',
  'session/title-llm-request',
  'step/end',
  'step/start',
  'subagent/descriptor',
  'team/member',
  'team/message/delivered',
  'team/message/queued',
  'team/task',
  'todo/write',
  'tool-workflow/agent-end',
  'tool-workflow/agent-start',
  'tool-workflow/run-end',
  'tool-workflow/run-start',
  'tool/call',
  'tool/code-dispatch',
  'tool/code-dispatch-start',
  'tool/result',
  'turn/end',
  'turn/start',
  'user/message',
  'web/deepseek-search-llm-request',
]);

/** The known types grouped by length: a test compares with a few strings and hashes none. */
const KNOWN_BY_LENGTH: string[][] = [];
for (const type of KNOWN_SESSION_EVENT_TYPES as ReadonlySet<string>) (KNOWN_BY_LENGTH[type.length] ??= []).push(type);

/**
 * `KNOWN_SESSION_EVENT_TYPES.has(type)`, without the Set: a type string fresh from `JSON.parse`
 * would be hashed for every lookup.
 */
export function isKnownSessionEventType(type: unknown): boolean {
  if (typeof type !== 'string') return false;
  const bucket = KNOWN_BY_LENGTH[type.length];
  if (bucket === undefined) return false;
  for (let i = 0; i < bucket.length; i++) if (bucket[i] === type) return true;
  return false;
}

/** What upstream's `load` ends with. */
export interface LoaderResult {
  /** The exact error `load` would throw (wrapped per §11), or `null` when it loads. */
  loadError: string | null;
  /** Types of the events the load appends: crash-repair closers, then `session/end-seed`. */
  appended: string[];
}

/** Options of {@link LoaderCheck}. */
export interface LoaderCheckOptions {
  /**
   * The fold step S8 of the restore (L7), fed the upgraded events and then the closers. Without
   * it the restore checks S2–S7 only.
   */
  surface?: SurfaceStep;
  /**
   * The raw fold's verdict on event `index` of the log as decoded (a {@link SurfaceStep} of the
   * un-upgraded events). While the upgrade has changed no event, the restore folds exactly the
   * raw events, so its verdicts are these and `surface` is not called. `surface` is then first
   * called at the first upgraded event (or the first closer), at some index `i`, and must fold
   * the log's events `0…i-1` itself before that one — they are the decoded events, unchanged.
   */
  rawSurface?: SurfaceStep;
  /**
   * A create-mode {@link SeedCheck} fed the same events just before this check, with `rawSurface`
   * (when given) as its fold step: for the events the upgrade leaves unchanged the restore takes
   * its S2–S7 verdicts instead of recomputing them, and while no event has changed, an event it
   * passed passes the restore too.
   */
  seed?: SeedCheck;
}

/** A recorded failure: where, and upstream's message. */
interface Failure {
  rule: string;
  /** Position of the event in the loaded array (`null` for the header). */
  seq: number | null;
  line: number | null;
  message: string;
}

/** Streaming loader view (log-format.md §11 L3–L7). */
export class LoaderCheck implements EventCheck {
  /** The id in the messages: the header's id (empty when the header has none). */
  readonly sessionId: string;
  private readonly legacy: LegacyContext;
  private readonly headerResult: HeaderLineResult;
  private readonly restore: SeedCheck;
  private readonly repair = new InterruptedTurnTracker();
  private readonly notes: Diagnostic[] = [];
  /** First hit of each L3 scan, in their fixed reporting order: header-delta, mode/set, fallback. */
  private readonly legacyFound: (Failure | null)[] = [null, null, null];
  private upgradeFailure: Failure | null = null;
  private unknownType: Failure | null = null;
  private restoreHeader: Failure | null = null;
  private readonly ignorableTypes = new Set<string>();
  /** Message ids of `tool/result` events by seq: a legacy replacement inherits its target's id. */
  private readonly toolResultIds = new Map<number, string>();
  private count = 0;
  private lastIsEndSeed = false;
  private currentIndex = 0;
  private currentLine: number | null = null;
  private closerEvents: Record<string, unknown>[] | null = null;
  private finished: Diagnostic[] | null = null;
  private readonly seed: SeedCheck | null;
  /** True once the restore's events differ from the raw log: an upgrade, or the closers. */
  private diverged = false;
  /** The restore's own fold step, taken over from the raw verdicts at the divergence. */
  private readonly ownSurface: SurfaceStep | undefined;
  /** Whether the restore's S8 is the raw fold's verdict (until the divergence). */
  private readonly rawSurfaceUsed: boolean;
  /** The index after the last event given to the restore (it skips events that pass anyway). */
  private restoreNext = 0;

  /**
   * @param header the result of `checkHeaderLine` for this log
   */
  constructor(header: HeaderLineResult, options: LoaderCheckOptions = {}) {
    this.headerResult = header;
    // Without a usable header upstream never reaches these steps; the empty id only keeps the
    // messages well formed for the diagnostics we still report.
    this.sessionId = header.sessionId ?? '';
    // One long-lived context for the upgrades, so upgrading allocates nothing per event.
    this.legacy = {
      sessionId: this.sessionId,
      messageIdAt: (seq) => this.toolResultIds.get(seq),
      upgraded: (seq, description) => this.noteUpgrade(seq, description),
    };
    this.seed = options.seed ?? null;
    const surface = options.surface;
    this.ownSurface = surface !== undefined && options.rawSurface !== undefined ? surface : undefined;
    this.rawSurfaceUsed = this.ownSurface !== undefined;
    const step = surface === undefined ? undefined : (options.rawSurface ?? surface);
    this.restore = new SeedCheck(step ? { mode: 'restore', surface: step } : { mode: 'restore' });
    if (header.header !== null) {
      // Restore validates the session header before any event (§5.3). An error refuses the log;
      // a warning (the `{{cwd}}` fixture placeholder) is only reported.
      for (const d of checkSessionHeader(header.header, this.sessionId, 'restore')) {
        if (d.severity === 'error') this.restoreHeader = { rule: 'loader/restore', seq: null, line: 1, message: d.message };
        else this.notes.push(d);
      }
    }
  }

  /** `text`: the event's line, as for {@link EventCheck.event} (it only saves work). */
  event(value: unknown, index: number, line: number | null, text?: string): void {
    const raw = isRecord(value) ? value : null;
    if (raw !== null && raw.type === 'assistant/chunk') {
      this.chunkEvent(raw, index, line, text);
      return;
    }
    this.count++;
    this.scanLegacy(raw, index, line);
    this.currentIndex = index;
    this.currentLine = line;
    let upgraded: unknown = value;
    try {
      upgraded = upgradeLegacyEvent(value, this.legacy);
    } catch (error) {
      if (!(error instanceof LegacyMalformedError)) throw error;
      this.failUpgrade('loader/legacy-malformed', index, line, error.message);
    }
    const event = isRecord(upgraded) ? upgraded : null;
    const type = event?.type;
    // The create check's S2–S7 verdict on this very event, when it has one (see `seed`).
    const verdict = upgraded === value && this.seed !== null ? this.seed.shapeVerdict(index) : undefined;
    // An event that passed S2–S7 passed S6, the same message shape check.
    const shape = verdict === null ? null : messageShapeProblem(type, event?.data);
    if (shape !== null) {
      this.failUpgrade('loader/message-shape', index, line, `session event at seq ${String(event?.seq)} ${shape}`);
    }
    if (type === 'tool/result') this.rememberToolResult(event);
    this.checkType(event, index, line);
    this.repair.event(upgraded, index, line);
    const isEndSeed = type === 'session/end-seed';
    if (upgraded !== value) this.diverge();
    if (this.restoreFollowsSeed() && (this.seed as SeedCheck).passed(index)) {
      // The restore passes it too (see restoreFollowsSeed); its counts are not used.
    } else {
      if (verdict !== undefined) this.restore.judgedEvent(upgraded, isEndSeed, index, line, verdict);
      else this.restore.event(upgraded, index, line, upgraded === value ? this.restoreText(index, text) : undefined);
      this.restoreNext = index + 1;
    }
    this.lastIsEndSeed = isEndSeed;
  }

  /**
   * {@link event} for an event the caller knows to be a record of type `assistant/chunk`: no
   * legacy scan, upgrade, message shape or type check applies to it.
   */
  chunkEvent(event: Record<string, unknown>, index: number, line: number | null, text?: string): void {
    this.count++;
    this.repair.chunk(event);
    if (!this.restoreFollowsSeed() || !(this.seed as SeedCheck).passed(index)) {
      const verdict = this.seed !== null ? this.seed.shapeVerdict(index) : undefined;
      if (verdict !== undefined) this.restore.judgedEvent(event, false, index, line, verdict);
      else this.restore.chunkEvent(event, index, line, this.restoreText(index, text));
      this.restoreNext = index + 1;
    }
    this.lastIsEndSeed = false;
  }

  /**
   * Whether {@link chunkRun} may stand for the next chunk events one by one: events continuing the
   * line of the previous event (at `first - 1`), each with seq equal to its position and accepted
   * by the raw fold. The seed check passes them all when it passed that previous event (see
   * `SeedCheck`), and then so does the restore, which follows it.
   */
  canTakeChunkRun(first: number): boolean {
    return this.restoreFollowsSeed() && (this.seed as SeedCheck).passed(first - 1);
  }

  /** {@link chunkEvent} for such a run of `count` chunks, the last with this seq and time. */
  chunkRun(count: number, lastSeq: number, lastTime: number): void {
    this.count += count;
    this.repair.chunkRun(lastSeq, lastTime);
    this.lastIsEndSeed = false;
  }

  /**
   * Whether the restore's verdict on an event the seed check passed is known to be a pass: the
   * restore then runs S2–S7 on the same object (the upgrade left every event so far unchanged)
   * and its S8 is the same raw fold verdict, so it passes too.
   */
  private restoreFollowsSeed(): boolean {
    return this.diverged === false && this.rawSurfaceUsed === true && this.seed !== null;
  }

  /**
   * The text to pass the restore with event `index`: none when the restore did not see the
   * previous event (it shares a line's work only between consecutive events).
   */
  private restoreText(index: number, text: string | undefined): string | undefined {
    return index === this.restoreNext ? text : undefined;
  }

  /** From now on the restore's events are not the raw ones: it folds them itself. */
  private diverge(): void {
    if (this.diverged) return;
    this.diverged = true;
    if (this.ownSurface !== undefined) this.restore.setSurface(this.ownSurface);
  }

  /** L3: remember the first seq of each refused legacy kind; the verdict waits for the whole log. */
  private scanLegacy(event: Record<string, unknown> | null, index: number, line: number | null): void {
    if (event === null) return;
    const type = event.type;
    let kind = -1;
    if (type === 'request/header-delta') kind = 0;
    else if (type === 'mode/set') kind = 1;
    else if (type === 'request/header' && isRecord(event.data) && event.data.reason === 'fallback') kind = 2;
    if (kind < 0 || this.legacyFound[kind] !== null) return;
    const seq = String(event.seq);
    const message =
      kind === 0
        ? `session "${this.sessionId}" contains unsupported legacy request/header-delta event at seq ${seq}`
        : kind === 1
          ? `session "${this.sessionId}" contains unsupported legacy mode/set event at seq ${seq}`
          : `session "${this.sessionId}" contains unsupported legacy request/header reason "fallback" at seq ${seq}`;
    this.legacyFound[kind] = { rule: 'loader/legacy-unsupported', seq: index, line, message };
  }

  private failUpgrade(rule: string, index: number, line: number | null, message: string): void {
    this.upgradeFailure ??= { rule, seq: index, line, message };
  }

  private rememberToolResult(event: Record<string, unknown> | null): void {
    const data = event?.data;
    const message = isRecord(data) ? data.message : undefined;
    const id = isRecord(message) ? message.id : undefined;
    const seq = event?.seq;
    if (typeof id === 'string' && typeof seq === 'number') this.toolResultIds.set(seq, id);
  }

  /** L5: the first unknown, non-ignorable type refuses the log; ignorable ones are noted once per type. */
  private checkType(event: Record<string, unknown> | null, index: number, line: number | null): void {
    if (event === null) return;
    const type = event.type;
    if (isKnownSessionEventType(type)) return;
    const seq = String(event.seq);
    if (event.ignorable === true) {
      const name = String(type);
      if (this.ignorableTypes.has(name)) return;
      this.ignorableTypes.add(name);
      const message = `session event type "${name}" (first at seq ${seq}) is unknown to this harness but marked ignorable; kept as an opaque log-only event`;
      this.notes.push(diagnostic('info', 'loader/ignorable-type', index, line, message));
      return;
    }
    this.unknownType ??= {
      rule: 'loader/unknown-type',
      seq: index,
      line,
      message: `session "${this.sessionId}" contains event type "${String(type)}" (seq ${seq}) unknown to this harness and not marked ignorable; refusing to interpret the log — it was likely written by a newer harness`,
    };
  }

  /** One info diagnostic per applied upgrade. */
  private noteUpgrade(seq: unknown, description: string): void {
    const message = `seq ${String(seq)}: upgraded ${description}`;
    this.notes.push(diagnostic('info', 'loader/legacy-upgrade', this.currentIndex, this.currentLine, message));
  }

  /**
   * The synthetic events crash repair appends after the log (§13): `tool/result` closers for
   * pending calls, `step/end`, `turn/end` interrupted; empty for a log that ends between turns.
   * Computed even when an earlier step refuses the log, since they describe the log's tail.
   */
  closers(): unknown[] {
    return this.closerEvents ?? this.repair.closers();
  }

  finish(): Diagnostic[] {
    if (this.finished !== null) return this.finished;
    const closers = this.repair.closers();
    this.closerEvents = closers;
    this.diverge();
    let index = this.count;
    for (const closer of closers) this.restore.event(closer, index++, null);
    const out: Diagnostic[] = [...this.notes];
    for (const found of this.legacyFound) if (found !== null) out.push(toError(found));
    if (this.upgradeFailure !== null) out.push(toError(this.upgradeFailure));
    if (this.unknownType !== null) out.push(toError(this.unknownType));
    if (closers.length > 0) out.push(this.interruptedDiagnostic(closers));
    const restoreFailure = this.restoreFailure();
    if (restoreFailure !== null) out.push(toError(restoreFailure));
    this.finished = out;
    return out;
  }

  /**
   * What {@link finish} and {@link loaderResult} would say if the log ended here, for a session
   * that grows: a copy of this check finishes (the crash-repair closers go to a copy of the
   * restore and of its fold), so this one can take more events.
   */
  provisionalResult(): { diagnostics: Diagnostic[]; result: LoaderResult } {
    if (this.finished !== null) return { diagnostics: this.finished, result: this.loaderResult() };
    const copy = Object.assign(Object.create(LoaderCheck.prototype) as LoaderCheck, this);
    const fields = copy as unknown as { ownSurface: SurfaceStep | undefined; restore: SeedCheck };
    // Diverged, the restore's step is `ownSurface` and its copy forks it; otherwise `finish`
    // hands the copy of `ownSurface` to the restore's copy.
    fields.ownSurface = forkStep(this.ownSurface);
    fields.restore = this.restore.fork();
    return { diagnostics: copy.finish(), result: copy.loaderResult() };
  }

  private interruptedDiagnostic(closers: Record<string, unknown>[]): Diagnostic {
    const parts = closers.map((closer) => {
      const data = closer.data as Record<string, unknown>;
      if (closer.type === 'tool/result') {
        const error = data.error as { code: string };
        const message = data.message as { source: { callId: unknown } };
        return `seq ${String(closer.seq)} tool/result for ${String(message.source.callId)} (${error.code})`;
      }
      if (closer.type === 'step/end') return `seq ${String(closer.seq)} step/end (step ${String(data.step)})`;
      return `seq ${String(closer.seq)} turn/end (interrupted)`;
    });
    const message = `turn ${String(this.repair.turn)} is still open at the end of the log; crash repair appends ${closers.length} closer event(s): ${parts.join(', ')}`;
    return diagnostic('warning', 'loader/interrupted-turn', this.repair.turnStartIndex, this.repair.turnStartLine, message);
  }

  /** L7: the session header first, then the per-event restore checks (incl. the closers). */
  private restoreFailure(): Failure | null {
    if (this.restoreHeader !== null) return this.restoreHeader;
    const error = this.restore.seedError();
    if (error === null) return null;
    return { rule: 'loader/restore', seq: error.index, line: null, message: error.message };
  }

  /** What upstream's `load` ends with (call after {@link finish}; it calls it when needed). */
  loaderResult(): LoaderResult {
    if (this.finished === null) this.finish();
    const loadError = this.loadError();
    if (loadError !== null) return { loadError, appended: [] };
    const closers = this.closerEvents ?? [];
    const appended = closers.map((closer) => String(closer.type));
    const endsWithEndSeed = closers.length === 0 ? this.lastIsEndSeed : false;
    if (!endsWithEndSeed) appended.push('session/end-seed');
    return { loadError: null, appended };
  }

  private loadError(): string | null {
    // L1: header failures are decode errors and refusals, reported as given (unwrapped).
    const headerError = this.headerResult.findings.find((d) => d.severity === 'error');
    // The not-header finding adds the failing field after upstream's exact message; the
    // refusal itself is upstream's message alone.
    if (headerError !== undefined) return headerError.rule === 'loader/not-header' ? NOT_HEADER : headerError.message;
    const wrap = (failure: Failure): string => `stored session "${this.sessionId}" failed validation: Error: ${failure.message}`;
    const legacy = this.legacyFound.find((found) => found !== null);
    if (legacy) return wrap(legacy);
    if (this.upgradeFailure !== null) return wrap(this.upgradeFailure);
    // L5 is a format refusal: upstream does not wrap it.
    if (this.unknownType !== null) return this.unknownType.message;
    const restore = this.restoreFailure();
    return restore === null ? null : wrap(restore);
  }
}

function toError(failure: Failure): Diagnostic {
  return diagnostic('error', failure.rule, failure.seq, failure.line, failure.message);
}
