/**
 * The playground inside the engine: a {@link Playground} plus the analysis of its current log,
 * so every ordinary view (timeline, surface, inspector, …) works on it as one more session.
 */
import { openBytes } from '../core/analyze/open';
import { Playground } from '../core/playground/playground';
import {
  assistantMessage,
  logOnly,
  pendingToolCalls,
  pruneReplace,
  summaryReplace,
  toolResult,
  userMessage,
} from '../core/playground/templates';
import type { ExportFile, PlaygroundResult, PlaygroundState, PlaygroundTemplate, SessionSummary } from '../protocol/protocol';
import { QuerySession } from './query';

type Summarize = (query: QuerySession, id: number, index: number, fingerprint: string) => SessionSummary;

/* eslint-disable @typescript-eslint/no-explicit-any */
export class PlaygroundHost {
  private readonly playground: Playground;
  private query: QuerySession | null = null;

  /**
   * @param handle the playground's session handle (its summary's `id`)
   * @param publish makes the analysis of the current log the session under `handle`
   */
  constructor(
    readonly handle: number,
    seed: unknown[],
    private readonly summarize: Summarize,
    private readonly publish: (query: QuerySession) => void,
  ) {
    this.playground = new Playground(seed);
  }

  /** Re-analyse the (small) log after a change. */
  async refresh(): Promise<PlaygroundState> {
    const text = this.playground.toJsonl();
    const [session] = (await openBytes(new TextEncoder().encode(text), { name: 'playground.jsonl' })).sessions;
    if (!session) throw new Error('the playground log did not decode');
    this.query = new QuerySession(session);
    this.publish(this.query);
    return this.state();
  }

  state(): PlaygroundState {
    const query = this.query as QuerySession;
    return {
      session: this.handle,
      summary: { ...this.summarize(query, this.handle, 0, `playground-${this.playground.nextSeq}`) },
      nextSeq: this.playground.nextSeq,
      canUndo: this.playground.canUndo,
      canRedo: this.playground.canRedo,
      pendingCalls: pendingToolCalls(this.playground.log).map(({ callId, name, callSeq }) => ({ callId, name, callSeq })),
    };
  }

  /** Turn a template into a candidate event for the next seq. */
  private candidate(template: PlaygroundTemplate): unknown {
    const log = this.playground.log;
    const seq = this.playground.nextSeq;
    const last = [...log].reverse().find((e: any) => typeof e?.data?.turn === 'number') as any;
    const slot = { seq, turn: last?.data?.turn ?? 1, step: last?.data?.step ?? 1 };
    switch (template.kind) {
      case 'user':
        return userMessage(slot, template.text);
      case 'assistant':
        return assistantMessage(slot, template.text, template.toolCalls);
      case 'tool-result': {
        const call = pendingToolCalls(log).find((p) => p.callId === template.callId);
        return toolResult(slot, template.callId, template.text, call?.callSeq ?? null, template.isError);
      }
      case 'log-only':
        return logOnly(slot, template.type, template.data.trim() === '' ? {} : JSON.parse(template.data));
      case 'summary': {
        const nodes = this.playground.nodes;
        const from = nodes.indexOf(template.start);
        const to = nodes.indexOf(template.end);
        // Cite the range when it is a valid one; otherwise let the fold say what is wrong.
        const shadowed = from >= 0 && to >= from ? nodes.slice(from, to + 1) : [];
        return summaryReplace(slot, template.start, template.end, shadowed, template.text);
      }
      case 'prune': {
        const original = log[template.target] as any;
        return pruneReplace(slot, { seq: template.target, data: original?.data ?? null }, template.text);
      }
      case 'raw': {
        const value = JSON.parse(template.json);
        if (value !== null && typeof value === 'object' && !Array.isArray(value) && !('seq' in value)) value.seq = seq;
        return value;
      }
    }
  }

  async offer(template: PlaygroundTemplate): Promise<PlaygroundResult> {
    let candidate: unknown;
    try {
      candidate = this.candidate(template);
    } catch (error) {
      return { ok: false, message: `not valid JSON: ${(error as Error).message}`, rule: 'playground/json', state: this.state() };
    }
    const result = this.playground.offer(candidate);
    if (!result.ok) return { ...result, state: this.state() };
    return { ok: true, seq: result.seq, state: await this.refresh() };
  }

  async undo(): Promise<PlaygroundState> {
    this.playground.undo();
    return this.refresh();
  }

  async redo(): Promise<PlaygroundState> {
    this.playground.redo();
    return this.refresh();
  }

  export(): ExportFile {
    return { name: 'playground.session.jsonl', mime: 'application/x-ndjson', text: this.playground.toJsonl() };
  }
}
/* eslint-enable @typescript-eslint/no-explicit-any */
