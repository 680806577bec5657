/**
 * Test-only log surgery for the QA tests: small scripted sessions and edits that keep every seq
 * reference consistent (inserting an event renumbers everything after it).
 */
import { SessionScript } from '../../../src/core/gen/script';

/** A decoded event as the tests edit it. */
export interface Ev {
  type: string;
  seq: number;
  time: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  data: any;
  sourceEventSeqs?: number[];
  surfaceOp?: unknown;
}

/** The events of a script, as editable copies. */
export function eventsOf(script: SessionScript): Ev[] {
  return script.toEvents() as Ev[];
}

/** Apply `f` to every seq and seq reference of the events (in place). */
export function remapSeqs(events: Ev[], f: (seq: number) => number): void {
  const list = (xs: unknown): unknown => (Array.isArray(xs) ? xs.map((x) => (typeof x === 'number' ? f(x) : x)) : xs);
  for (const e of events) {
    e.seq = f(e.seq);
    if (e.sourceEventSeqs) e.sourceEventSeqs = list(e.sourceEventSeqs) as number[];
    const op = e.surfaceOp as { start?: unknown; end?: unknown } | undefined;
    if (op !== null && typeof op === 'object') {
      if (typeof op.start === 'number') op.start = f(op.start);
      if (typeof op.end === 'number') op.end = f(op.end);
    }
    const d = e.data as Record<string, unknown> | null;
    if (d === null || typeof d !== 'object') continue;
    if ('shadowedSeqs' in d) d.shadowedSeqs = list(d.shadowedSeqs);
    const range = d.shadowedRange as { start?: unknown; end?: unknown } | undefined;
    if (range && typeof range === 'object') {
      if (typeof range.start === 'number') range.start = f(range.start);
      if (typeof range.end === 'number') range.end = f(range.end);
    }
    if (typeof d.sourceEventSeq === 'number') d.sourceEventSeq = f(d.sourceEventSeq);
    if ('messageSeqs' in d) d.messageSeqs = list(d.messageSeqs);
  }
}

/** Insert a log-only event at position `at`, renumbering every later seq and reference. */
export function insertEvent(events: Ev[], at: number, type: string, data: unknown): Ev[] {
  const copy = structuredClone(events);
  remapSeqs(copy, (s) => (s >= at ? s + 1 : s));
  const time = copy[at - 1]?.time ?? 0;
  copy.splice(at, 0, { type, seq: at, time, data });
  return copy;
}

/** The index of the only event matching `pred` (throws unless there is exactly one). */
export function only(events: readonly Ev[], pred: (e: Ev) => boolean): number {
  const found = events.flatMap((e, i) => (pred(e) ? [i] : []));
  if (found.length !== 1) throw new Error(`expected one matching event, found ${found.length}`);
  return found[0]!;
}

/** Index of the compaction checkpoint (user/message replacement with a `compact` source) at `n` (0-based). */
export function checkpointIndex(events: readonly Ev[], n = 0): number {
  const found = events.flatMap((e, i) =>
    e.type === 'user/message' && typeof e.surfaceOp === 'object' && e.data?.source?.plugin === 'compact' ? [i] : [],
  );
  const i = found[n];
  if (i === undefined) throw new Error(`no checkpoint #${n}`);
  return i;
}

/** The tool-call text the scripted sessions use: long enough to be worth pruning. */
export const LONG_RESULT = 'line of tool output that is long enough to be pruned later. '.repeat(60);

/**
 * A clean session with a tool call, a prune and a summarizing compaction that covers the whole
 * first turn (both sides of the tool pair), then more conversation.
 */
export function cleanSession(): {
  script: SessionScript;
  prompt: number;
  callMessage: number;
  result: number;
  checkpoint: number;
  copy: number;
} {
  const s = new SessionScript('qa-clean');
  const prompt = s.userTurn('Read the notes and tell me what they say.');
  const first = s.assistant('Reading the notes.', [{ name: 'read_file', args: { path: 'notes.md' }, result: LONG_RESULT }]);
  s.assistant('The notes describe tool output at length; nothing else in them.');
  s.endTurn();
  s.userTurn('Thanks. Anything else worth knowing?');
  const result = first.results[0]!;
  const copy = s.prune(result, 'line of tool output');
  const answer = s.assistant('No, that is all the notes contain.');
  const checkpoint = s.compact(prompt, answer.message, 'The user asked about the notes; they only contain tool output.');
  s.assistant('Let me know if you need more.');
  s.endTurn();
  return { script: s, prompt, callMessage: first.message, result, checkpoint, copy };
}
