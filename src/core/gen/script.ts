/**
 * A small scripted-session builder: write a session as a few calls ("the user asks", "the model
 * calls a tool", "compact these nodes") and get a valid dsh log with correct seqs, provenance
 * and surface ops. Used for the short teaching sample and the guided demos, where every event
 * should be there for a reason (the random generator is for volume).
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Event = { type: string; seq: number; time: number; data: Json; sourceEventSeqs?: number[]; surfaceOp?: Json };

const MODEL = { kind: 'model', provider: 'deepseek', model: 'deepseek-chat' } as const;

/** A tool call the assistant makes in a scripted step. */
export interface ScriptToolCall {
  name: string;
  args: Json;
  /** The tool's text output. */
  result: string;
  isError?: boolean;
}

/** Builds one scripted session. */
export class SessionScript {
  private readonly events: Event[] = [];
  private readonly nodes: number[] = [];
  private time: number;
  private turn = 0;
  private step = 0;
  private stepOpen = false;
  private turnOpen = false;
  private ids = 0;
  readonly id: string;

  constructor(id: string, startTime = 1785400000000) {
    this.id = id;
    this.time = startTime;
  }

  private push(event: Omit<Event, 'seq' | 'time'>): number {
    const seq = this.events.length;
    this.time += 250;
    const full: Event = { type: event.type, seq, time: this.time, data: event.data };
    if (event.sourceEventSeqs) full.sourceEventSeqs = event.sourceEventSeqs;
    if (event.surfaceOp !== undefined) full.surfaceOp = event.surfaceOp;
    this.events.push(full);
    if (event.surfaceOp === 'append') this.nodes.push(seq);
    return seq;
  }

  private nextId(prefix: string): string {
    this.ids += 1;
    return `${prefix}-${this.ids}`;
  }

  /** The current surface (node seqs), as the fold will have it. */
  surface(): readonly number[] {
    return this.nodes;
  }

  /** Start a turn with the user's prompt. Returns the prompt's seq. */
  userTurn(text: string): number {
    this.turn += 1;
    this.step = 0;
    this.turnOpen = true;
    this.push({ type: 'turn/start', data: { turn: this.turn } });
    this.beginStep();
    return this.push({
      type: 'user/message',
      data: { id: this.nextId('user'), role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
      surfaceOp: 'append',
    });
  }

  private beginStep(): void {
    this.step += 1;
    this.stepOpen = true;
    this.push({ type: 'step/start', data: { turn: this.turn, step: this.step } });
  }

  private endStep(): void {
    this.stepOpen = false;
    this.push({ type: 'step/end', data: { turn: this.turn, step: this.step } });
  }

  /**
   * The model answers: streamed chunks, then the assistant/message citing them; each tool call
   * gets its tool/call and tool/result, and a next step begins. Returns the message seq and the
   * result seqs.
   */
  assistant(text: string, calls: ScriptToolCall[] = []): { message: number; results: number[] } {
    if (!this.stepOpen) this.beginStep();
    const chunks: number[] = [];
    const chunk = (data: Json): void => {
      chunks.push(this.push({ type: 'assistant/chunk', data: { turn: this.turn, step: this.step, chunk: data } }));
    };
    const content: Json[] = [];
    if (text) {
      chunk({ type: 'block-start', index: 0, blockType: 'text' });
      const words = text.split(/(?<= )/);
      for (let i = 0; i < words.length; i += 4) chunk({ type: 'text-delta', index: 0, text: words.slice(i, i + 4).join('') });
      chunk({ type: 'block-end', index: 0, block: { type: 'text', text } });
      content.push({ type: 'text', text });
    }
    const callIds = calls.map(() => this.nextId('call'));
    calls.forEach((call, i) => {
      const block = { type: 'tool-call', id: callIds[i] as string, name: call.name, arguments: JSON.stringify(call.args) };
      chunk({ type: 'block-end', index: content.length, block });
      content.push(block);
    });
    chunk({ type: 'finish', reason: { kind: calls.length > 0 ? 'tool-calls' : 'stop' } });
    const message = this.push({
      type: 'assistant/message',
      data: {
        turn: this.turn,
        step: this.step,
        message: { id: this.nextId('assistant'), role: 'assistant', content, source: MODEL },
        usage: { inputTokens: 100 * this.nodes.length + 50, outputTokens: 20 + text.length },
      },
      sourceEventSeqs: chunks,
      surfaceOp: 'append',
    });
    const results: number[] = [];
    calls.forEach((call, i) => {
      const callId = callIds[i] as string;
      const callSeq = this.push({
        type: 'tool/call',
        data: { turn: this.turn, step: this.step, callId, name: call.name, arguments: JSON.stringify(call.args) },
      });
      results.push(
        this.push({
          type: 'tool/result',
          data: {
            turn: this.turn,
            step: this.step,
            message: {
              id: this.nextId('result'),
              role: 'user',
              content: [
                { type: 'tool-result', toolCallId: callId, isError: call.isError === true, content: [{ type: 'text', text: call.result }] },
              ],
              source: { kind: 'tool', callId },
            },
          },
          sourceEventSeqs: [callSeq],
          surfaceOp: 'append',
        }),
      );
    });
    this.endStep();
    return { message, results };
  }

  /** Close the current turn. */
  endTurn(): void {
    this.turnOpen = false;
    this.push({ type: 'turn/end', data: { turn: this.turn, reason: { kind: 'completed' } } });
  }

  /**
   * A summarizing compaction (events.md §6.1; standalone between turns, §6.2) replacing the current nodes
   * from `start` to `end` (by position) with a checkpoint carrying `summary`. Returns its seq.
   */
  compact(start: number, end: number, summary: string): number {
    const from = this.nodes.indexOf(start);
    const to = this.nodes.indexOf(end);
    if (from < 0 || to < from) throw new Error(`cannot compact ${start}…${end}: not a surface range`);
    const shadowed = this.nodes.slice(from, to + 1);
    const compactionId = this.nextId('compaction');
    // Inside a turn a compaction belongs to it; between turns it is standalone (turn null).
    const turn = this.turnOpen ? this.turn : null;
    const startSeq = this.push({ type: 'compaction/start', data: { compactionId, turn } });
    const summarySeq = this.push({
      type: 'compaction/summary',
      data: {
        compactionId,
        summary: [{ type: 'text', text: summary }],
        shadowedRange: { start, end },
        shadowedSeqs: shadowed,
        shadowedTokenCount: 40 * shadowed.length,
        provider: MODEL.provider,
        model: MODEL.model,
      },
    });
    const checkpoint = this.push({
      type: 'user/message',
      data: {
        content: [
          { type: 'text', text: 'Earlier conversation, summarized:\n\n<compacted-summary>' },
          { type: 'text', text: summary },
          { type: 'text', text: '</compacted-summary>' },
        ],
        source: { kind: 'plugin', plugin: 'compact', compactionId },
        role: 'user',
        id: this.nextId('checkpoint'),
      },
      sourceEventSeqs: [startSeq, summarySeq, ...shadowed],
      surfaceOp: { op: 'replace', start, end },
    });
    this.nodes.splice(from, to - from + 1, checkpoint);
    this.push({ type: 'compaction/end', data: { compactionId, turn } });
    return checkpoint;
  }

  /** Prune a current tool result (events.md §6.3): same data, shortened content. */
  prune(resultSeq: number, keep: string): number {
    const original = this.events[resultSeq];
    const index = this.nodes.indexOf(resultSeq);
    if (!original || original.type !== 'tool/result' || index < 0) throw new Error(`${resultSeq} is not a current tool result`);
    this.push({
      type: 'compaction/prune',
      data: { shadowedRange: { start: resultSeq, end: resultSeq }, shadowedSeqs: [resultSeq], shadowedTokenCount: 500 },
    });
    const data = JSON.parse(JSON.stringify(original.data)) as { message: { content: { content: Json }[] } };
    const block = data.message.content[0] as { content: Json };
    block.content = [{ type: 'text', text: `${keep}\n\n[... tool result middle pruned ...]\n\n` }];
    const copy = this.push({
      type: 'tool/result',
      data: data,
      sourceEventSeqs: [resultSeq],
      surfaceOp: { op: 'replace', start: resultSeq, end: resultSeq },
    });
    this.nodes.splice(index, 1, copy);
    return copy;
  }

  /** Append a log-only event. */
  logOnly(type: string, data: Json): number {
    return this.push({ type, data });
  }

  /** The log as JSONL text: header line, events, final LF. */
  toJsonl(): string {
    const header = { type: 'session', version: 0, id: this.id, createdAt: this.events[0]?.time ?? 0, delegationDepth: 0 };
    return [header, ...this.events].map((line) => JSON.stringify(line)).join('\n') + '\n';
  }

  /** The events (copies). */
  toEvents(): unknown[] {
    return JSON.parse(JSON.stringify(this.events)) as unknown[];
  }
}

/** The short teaching session bundled as the `teaching` sample (about 40 events). */
export function teachingSession(): SessionScript {
  const s = new SessionScript('teaching-sample');
  const question = s.userTurn('Why is the sky blue? Check my notes file first.');
  const first = s.assistant('Let me read your notes.', [
    {
      name: 'read_file',
      args: { path: 'notes/sky.md' },
      result:
        'Notes on the sky: sunlight is a mix of wavelengths. Air molecules are much smaller than the ' +
        'wavelength of visible light. Scattering strength grows as the inverse fourth power of the ' +
        'wavelength, so blue light scatters about five times more than red. '.repeat(4),
    },
  ]);
  s.assistant('Rayleigh scattering: air molecules scatter short (blue) wavelengths far more than long ones, so the sky looks blue.');
  s.endTurn();
  s.logOnly('session/title', { title: 'Why the sky is blue', messageSeqs: [question], source: { kind: 'fallback' } });
  s.userTurn('And why are sunsets red?');
  s.prune(first.results[0]!, 'Notes on the sky: sunlight is a mix of wavelengths.');
  const answer = s.assistant('At sunset light crosses much more air, so most blue is scattered away before it reaches you.');
  s.compact(
    question,
    answer.message,
    'The user asked why the sky is blue (Rayleigh scattering) and why sunsets are red (long path through air).',
  );
  s.assistant('Anything else about the sky?');
  s.endTurn();
  return s;
}
