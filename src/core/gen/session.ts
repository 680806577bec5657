/** The generator's session structure: see {@link LogGenerator}. */

import { Compactor } from './compaction';
import type { GenMeta } from './options';
import { STOP, codePointLength, tokensOf } from './parts';
import type { Obj, PlannedBlock, StepVariant, ToolCallBlock } from './parts';
import { FILES, MODELS, PROVIDER, SYSTEM_PROMPT, TOOL_SCHEMAS, TOOL_WEIGHTS, VERBS } from './vocabulary';

/** The session script: turns, steps, the assistant side and tools, driven lazily line by line. */
export class LogGenerator extends Compactor {
  // ----- driver ------------------------------------------------------------------------------

  *run(): Generator<string, GenMeta, undefined> {
    yield this.header;
    try {
      this.prelude();
      yield* this.drain();
      for (;;) {
        if (this.turnNo > 0) {
          this.betweenTurns();
          yield* this.drain();
        }
        for (const _ of this.turn()) yield* this.drain();
        yield* this.drain();
        if (!this.openTail && this.count >= this.target && this.violationSettled()) break;
      }
    } catch (e) {
      if (e !== STOP) throw e;
    }
    yield* this.drain();
    this.meta.events = this.count;
    this.meta.lines = this.lineNo;
    this.meta.openTurn = this.openTurn;
    this.meta.nodes = this.nodes.map((n) => n.seq);
    return this.meta;
  }

  protected *drain(): Generator<string, void, undefined> {
    if (this.out.length === 0) return;
    const lines = this.out;
    this.out = [];
    yield* lines;
  }

  // ----- session structure -------------------------------------------------------------------

  /** Log-only events a session typically starts with. */
  protected prelude(): void {
    if (this.rng.chance(0.5)) this.ev('approval/policy', { policy: 'ask' });
    if (this.rng.chance(0.2)) {
      const id = this.commandId();
      this.ev('command/run', { commandId: id, name: 'permission', args: ' workspace-write', source: { kind: 'user' } });
      this.ev('permission/preset', { preset: 'workspace-write' });
      this.ev('command/done', { commandId: id, kind: 'success', text: 'Permission preset: workspace-write.' });
    }
  }

  /** Log-only plugin events and manual compactions between two turns. */
  protected betweenTurns(): void {
    const rng = this.rng;
    this.time += rng.int(3000, 240000);
    // Log times are not monotonic in real logs (clock adjustments, resumed machines).
    if (rng.chance(0.01)) this.time -= rng.int(1000, 90000);
    if (this.compactionOn && rng.chance(this.manualRate)) this.manualCompact();
    if (rng.chance(0.04)) {
      const id = this.commandId();
      const next = this.model === MODELS[0] ? MODELS[1] : MODELS[0];
      this.ev('command/run', { commandId: id, name: 'model', args: ` ${next}`, source: { kind: 'user' } });
      this.model = next;
      this.headerDue = 'change';
      this.ev('command/done', { commandId: id, kind: 'success', text: `Model: ${PROVIDER}/${next}.` });
    }
    if (rng.chance(0.03)) {
      const id = this.commandId();
      this.planMode = !this.planMode;
      this.ev('command/run', { commandId: id, name: 'plan', args: this.planMode ? '' : ' off', source: { kind: 'user' } });
      this.ev('plan/mode', { active: this.planMode });
      this.ev('command/done', {
        commandId: id,
        kind: 'success',
        text: this.planMode ? 'Plan mode on. Use /plan off to leave.' : 'Plan mode off.',
      });
    }
    if (rng.chance(0.02)) {
      this.sandbox = rng.pick(['read-only', 'workspace-write', 'danger-full-access'] as const);
      this.ev('sandbox/mode', { mode: this.sandbox });
      this.contextDue = true;
    }
    if (rng.chance(0.02)) {
      const id = this.commandId();
      this.ev('command/run', { commandId: id, name: 'status', args: '', source: { kind: 'user' } });
      this.ev('command/done', {
        commandId: id,
        kind: 'success',
        text: `Session ${this.meta.sessionId}\nModel: ${PROVIDER}/${this.model}\nTurns: ${this.turnNo}`,
      });
    }
    if (rng.chance(0.01)) this.ev('feedback/record', { text: this.sentence(rng.int(5, 20)) });
  }

  /** One turn, yielding after every step so the driver can stream its lines. */
  protected *turn(): Generator<void, void, undefined> {
    const rng = this.rng;
    const turn = ++this.turnNo;
    this.meta.stats.turns++;
    const prompt = this.prompt();
    this.ev('agent/inbox/spliced', { target: 'next-turn', start: 0, inserted: [prompt] });
    this.time += rng.int(0, 3);
    this.ev('turn/start', { turn });
    this.openTurn = turn;
    this.ev('agent/inbox/spliced', { target: 'next-turn', start: 0, removedCount: 1, inserted: [] });
    const toolSteps = rng.weighted<number>([
      [0, 22],
      [1, 24],
      [2, 20],
      [3, 13],
      [4, 9],
      [6, 7],
      [9, 5],
    ]);
    let reason: Obj = { kind: 'completed' };
    for (let step = 1; ; step++) {
      this.meta.stats.steps++;
      this.time += rng.int(1, 60);
      this.ev('step/start', { turn, step });
      if (step === 1) this.stepOneInputs(turn, prompt);
      this.pruneCurrent();
      this.maybeCompact(turn, step);
      if (step > 1 && rng.chance(0.03)) this.ev('request/context', { provider: PROVIDER, model: this.model, contextWindow: 128000 });
      const final = step > toolSteps;
      const r = rng.next();
      const variant: StepVariant =
        r < 0.02 ? 'max-tokens-empty' : r < 0.03 && !final ? 'max-tokens-partial' : r < 0.036 && final ? 'cancel' : 'normal';
      if (rng.chance(0.02)) this.failedAttempt(turn, step);
      const calls = this.assistantStep(turn, step, final, variant);
      if (calls.length > 0) this.runTools(turn, step, calls);
      this.ev('step/end', { turn, step });
      yield;
      if (variant === 'max-tokens-empty' || variant === 'max-tokens-partial') {
        reason = { kind: 'max-tokens' };
        break;
      }
      if (variant === 'cancel') {
        reason = { kind: 'aborted', reason: { kind: 'user' } };
        break;
      }
      if (calls.length === 0) break;
    }
    this.ev('turn/end', { turn, reason });
    this.openTurn = null;
  }

  /** A queued user prompt (the same object is spliced from the inbox and appended). */
  protected prompt(): Obj {
    const rng = this.rng;
    let text = `${rng.pick(VERBS).replace(/^./, (c) => c.toUpperCase())} ${this.sentence(rng.int(8, 60))}`;
    if (rng.chance(0.08)) {
      // Pasted material: a stack trace or a code excerpt.
      text += `\n\n\`\`\`\n${this.codeLines(rng.int(10, 60)).join('\n')}\n\`\`\``;
    }
    return { content: [{ type: 'text', text }], source: { kind: 'user' }, role: 'user', id: this.uuid() };
  }

  /** Step 1 inputs: the prompt, injected context, the title and the request header. */
  protected stepOneInputs(turn: number, prompt: Obj): void {
    const rng = this.rng;
    const promptText = ((prompt.content as Obj[])[0] as Obj).text as string;
    const promptSeq = this.ev('user/message', prompt, null, 'append');
    this.appendNode(promptSeq, tokensOf(promptText.length), 0);
    if (this.contextDue || rng.chance(0.08)) {
      this.contextDue = false;
      const sandboxText = `Current DSH file policy: ${this.sandbox}.`;
      const approvalText = 'Approval prompts are enabled: actions outside the policy ask the user first.';
      const text = `Current runtime context. This snapshot supersedes earlier runtime-context snapshots.\n\n${sandboxText}\n\n${approvalText}`;
      const msg = {
        content: [{ type: 'text', text }],
        source: {
          kind: 'plugin',
          plugin: '@deepseek-ai/dsh-system-prompt',
          form: 'snapshot',
          sections: [
            { name: 'sandbox:policy', text: sandboxText },
            { name: 'approval:policy', text: approvalText },
          ],
        },
        role: 'user',
        id: this.uuid(),
      };
      const seq = this.ev('user/message', msg, null, 'append');
      this.appendNode(seq, tokensOf(text.length), 0);
    }
    if (!this.titleDone) {
      this.titleDone = true;
      this.ev('session/title', {
        title: promptText.split(' ').slice(0, 5).join(' '),
        messageSeqs: [promptSeq],
        source: { kind: 'fallback' },
      });
    } else if (turn === 2 && rng.chance(0.6)) {
      this.ev('session/title', {
        title: this.sentence(4).replace(/\.$/, ''),
        messageSeqs: [promptSeq],
        source: { kind: 'provider', provider: PROVIDER, model: { provider: PROVIDER, model: this.model } },
      });
    }
    if (this.headerDue !== null) {
      this.ev('request/header', {
        header: { config: { provider: PROVIDER, model: this.model }, system: SYSTEM_PROMPT, tools: TOOL_SCHEMAS },
        reason: this.headerDue,
      });
      this.headerDue = null;
      this.ev('request/context', { provider: PROVIDER, model: this.model, contextWindow: 128000 });
    }
  }

  /** A failed model attempt followed by a retry (events.md §5, Retry). */
  protected failedAttempt(turn: number, step: number): void {
    const retryId = this.uuid();
    const failure = { message: '429 Too Many Requests: rate limit reached', code: 'RATE_LIMITED', status: 429 };
    this.time += this.rng.int(200, 1500);
    this.ev('assistant/chunk', { turn, step, chunk: { type: 'finish', reason: { kind: 'error', failure } } });
    const delayMs = this.rng.pick([500, 1000, 2000]);
    this.ev('llm/retry', {
      retryId,
      turn,
      step,
      provider: PROVIDER,
      mode: 'normal',
      policyKey: 'rate-limit',
      retry: 1,
      maxRetries: 3,
      delayMs,
      failure,
    });
    this.time += delayMs;
    this.ev('llm/retry-started', { retryId, turn, step, retry: 1 });
    this.meta.stats.retries++;
  }

  // ----- the assistant side ------------------------------------------------------------------

  protected planToolCall(ordinal: number): PlannedBlock {
    const rng = this.rng;
    const name = rng.weighted(TOOL_WEIGHTS);
    let args: Obj;
    switch (name) {
      case 'bash':
        args = {
          command: rng.pick([
            'npm test',
            'npx tsc -p .',
            'git status --short',
            'ls -la src',
            `grep -rn "${this.word()}" src`,
            'npx vitest run',
            `cat ${rng.pick(FILES)}`,
          ]),
          description: this.sentence(rng.int(3, 7)),
        };
        break;
      case 'read':
        args = rng.chance(0.5)
          ? { file_path: rng.pick(FILES) }
          : { file_path: rng.pick(FILES), offset: rng.int(1, 400), limit: rng.pick([50, 100, 200]) };
        break;
      case 'edit':
        args = {
          file_path: rng.pick(FILES),
          old_string: this.codeLines(rng.int(1, 4)).join('\n'),
          new_string: this.codeLines(rng.int(1, 6)).join('\n'),
        };
        break;
      case 'write':
        args = { file_path: rng.pick(FILES), content: this.codeLines(rng.int(8, 40)).join('\n') };
        break;
      case 'grep':
        args = { pattern: `${this.word()}\\(`, path: 'src' };
        break;
      case 'run_code':
        args = {
          code: `const a = await tools.read({ file_path: '${rng.pick(FILES)}' });\nconst b = await tools.grep({ pattern: '${this.word()}' });\nreturn { a, b };`,
        };
        break;
      case 'todo_write':
        args = {
          todos: Array.from({ length: rng.int(2, 5) }, (_, i) => ({
            content: this.sentence(rng.int(3, 8)),
            status: i === 0 ? 'completed' : i === 1 ? 'in_progress' : 'pending',
          })),
        };
        break;
      case 'workflow':
        args = {
          script: "phase('Review')\nconst r = await agent('Review the change and report issues.', { label: 'reviewer' })\nreturn { r }",
          meta: { name: 'review', description: 'Review the change' },
        };
        break;
    }
    const text = JSON.stringify(args);
    return { type: 'tool-call', id: this.callId(ordinal), name, pieces: this.splitArgs(text), args: text, nameOnAll: rng.chance(0.85) };
  }

  /**
   * Stream one model call and append its `assistant/message`. Returns the tool-call blocks that
   * must be executed.
   */
  protected assistantStep(turn: number, step: number, final: boolean, variant: StepVariant): ToolCallBlock[] {
    const rng = this.rng;
    const blocks: PlannedBlock[] = [];
    if (variant === 'max-tokens-empty') {
      // The output limit hit before any block completed: the message only reports usage.
      if (rng.chance(0.5)) blocks.push({ type: 'reasoning', pieces: this.pieces(rng.int(5, 60)) });
    } else {
      if (rng.chance(final ? 0.6 : 0.75)) blocks.push({ type: 'reasoning', pieces: this.pieces(rng.int(12, final ? 110 : 70)) });
      if (final || variant === 'cancel') blocks.push({ type: 'text', pieces: this.pieces(rng.int(15, 230)) });
      else {
        if (rng.chance(0.25) || variant === 'max-tokens-partial') blocks.push({ type: 'text', pieces: this.pieces(rng.int(5, 30)) });
        const n = rng.weighted<number>([
          [1, 70],
          [2, 20],
          [3, 10],
        ]);
        for (let i = 0; i < n; i++) blocks.push(this.planToolCall(i));
      }
    }

    const chunkSeqs: number[] = [];
    const chunk = (c: Obj): void => {
      chunkSeqs.push(this.ev('assistant/chunk', { turn, step, chunk: c }));
    };
    const completed: Obj[] = [];
    let outputChars = 0;
    this.time += rng.int(300, 2500);
    // Some providers close every block at the end of the stream, others right after it.
    const deferEnds = rng.chance(0.4);
    const ends: Obj[] = [];
    for (let index = 0; index < blocks.length; index++) {
      const block = blocks[index] as PlannedBlock;
      // Where an interrupted stream stops: inside the cancelled text, inside the first tool call
      // of a cut-off step (so no tool call completes and none is left without a result), or
      // inside the first block of an empty max-tokens step.
      const stopsHere =
        (variant === 'cancel' && block.type === 'text') ||
        (variant === 'max-tokens-partial' && block.type === 'tool-call') ||
        variant === 'max-tokens-empty';
      chunk({ type: 'block-start', index, blockType: block.type });
      const pieces = stopsHere ? block.pieces.slice(0, Math.max(1, block.pieces.length >> 1)) : block.pieces;
      for (let k = 0; k < pieces.length; k++) {
        const piece = pieces[k] as string;
        const seq =
          block.type === 'tool-call'
            ? this.delta('tool', turn, step, index, piece, block.id, block.nameOnAll || k === 0 ? block.name : undefined)
            : this.delta(block.type, turn, step, index, piece);
        chunkSeqs.push(seq);
      }
      if (stopsHere) {
        // A cancelled message keeps the text received so far; a cut-off block is dropped.
        if (variant === 'cancel') completed.push({ type: 'text', text: pieces.join('') });
        break;
      }
      const assembled: Obj =
        block.type === 'tool-call'
          ? { type: 'tool-call', id: block.id, name: block.name, arguments: block.args }
          : { type: block.type, text: block.pieces.join('') };
      outputChars += block.type === 'tool-call' ? block.args.length : (assembled.text as string).length;
      completed.push(assembled);
      if (deferEnds) ends.push({ type: 'block-end', index, block: assembled });
      else chunk({ type: 'block-end', index, block: assembled });
    }
    for (const end of ends) chunk(end);

    const usage: Obj = { inputTokens: this.contextTokens + 2900, outputTokens: Math.max(1, tokensOf(outputChars)) };
    if (rng.chance(0.7)) usage.cacheReadTokens = Math.floor(this.contextTokens * 0.8);
    const firstBlock = blocks[0];
    if (firstBlock?.type === 'reasoning') usage.reasoningTokens = firstBlock.pieces.length;
    if (variant !== 'cancel') {
      chunk({ type: 'usage', usage });
      const calls = completed.filter((b) => b.type === 'tool-call');
      const reason = variant.startsWith('max-tokens')
        ? { kind: 'max-tokens' }
        : calls.length > 0
          ? { kind: 'tool-calls' }
          : { kind: 'stop' };
      chunk({ type: 'finish', reason });
    }

    const message = {
      role: 'assistant',
      content: completed,
      source: { kind: 'model', provider: PROVIDER, model: this.model },
      id: this.uuid(),
    };
    const data: Obj = { turn, step, message };
    if (variant === 'cancel') {
      data.interrupted = true;
      this.meta.stats.interruptedMessages++;
    } else data.usage = usage;
    // An empty (usage-only) message may cite its chunks or nothing at all; both are legal.
    const sources = completed.length === 0 && rng.chance(0.5) ? [] : chunkSeqs;
    const seq = this.ev('assistant/message', data, sources, 'append');
    if (completed.length === 0) this.meta.stats.emptyAssistantMessages++;

    const toolCalls: ToolCallBlock[] = [];
    if (variant === 'normal') for (const b of blocks) if (b.type === 'tool-call') toolCalls.push(b);
    let chars = 0;
    for (const b of completed) chars += ((b.text ?? b.arguments) as string).length;
    this.appendNode(seq, tokensOf(chars), toolCalls.length);
    this.meta.stats.toolCalls += toolCalls.length;
    return toolCalls;
  }

  // ----- tools -------------------------------------------------------------------------------

  protected runTools(turn: number, step: number, calls: ToolCallBlock[]): void {
    const callSeqs = calls.map((c) => this.ev('tool/call', { turn, step, callId: c.id, name: c.name, arguments: c.args }));
    calls.forEach((call, i) => this.runTool(turn, step, call, callSeqs[i]!));
  }

  protected runTool(turn: number, step: number, call: ToolCallBlock, callSeq: number): void {
    const rng = this.rng;
    let text: string;
    let isError = false;
    let error: Obj | null = null;
    let meta: Obj | null = null;
    const forceLong = this.armed() === 'tool-result-changes-meta';
    // Only read/bash/grep produce long output; they are about 2/3 of the calls, so scale the
    // per-call chance to make `longRate` the share over all tool results.
    const long = forceLong || ((call.name === 'read' || call.name === 'bash' || call.name === 'grep') && rng.chance(this.longRate * 1.5));
    const longChars =
      this.longChars !== null
        ? rng.int(this.longChars[0], this.longChars[1])
        : Number.isFinite(this.pruneThreshold)
          ? this.pruneThreshold + rng.int(200, Math.max(400, this.pruneThreshold >> 1))
          : rng.int(9000, 16000);

    let rejected = false;
    if ((call.name === 'bash' || call.name === 'write' || call.name === 'edit') && rng.chance(0.06)) {
      const id = this.uuid();
      this.ev('approval/asked', {
        id,
        toolName: call.name,
        callId: call.id,
        reason: `escalate sandbox to danger-full-access: ${this.sentence(rng.int(5, 14))}`,
      });
      this.time += rng.int(800, 20000);
      rejected = rng.chance(0.25);
      this.ev('approval/decided', { id, outcome: rejected ? 'rejected' : 'allowed-once' });
    }
    let blocked = false;
    if (!rejected && rng.chance(0.05)) {
      const handlerId = `claude-code:PreToolUse:${rng.int(1, 3)}`;
      this.ev('hook/invoked', { turn, point: 'PreToolUse', dialect: 'claude-code', handlerId, matcher: call.name });
      blocked = rng.chance(0.2);
      this.ev(
        'hook/result',
        blocked
          ? {
              turn,
              point: 'PreToolUse',
              handlerId,
              decision: 'block',
              exitCode: 2,
              stderrSummary: `${call.name} is disabled by policy in this session`,
              durationMs: rng.int(1000, 9000) / 1000,
            }
          : { turn, point: 'PreToolUse', handlerId, decision: 'allow', exitCode: 0, durationMs: rng.int(1000, 9000) / 1000 },
      );
    }

    this.time += rng.int(5, 400);
    if (rejected) {
      text = 'The user rejected this tool call.';
      isError = true;
    } else if (blocked) {
      text = `Error: ${call.name} is disabled by policy in this session`;
      isError = true;
    } else {
      switch (call.name) {
        case 'bash': {
          const exitCode = rng.chance(0.15) ? 1 : 0;
          const size = long ? longChars : this.normalSize(150, 7000);
          text = `${this.sizedText(size, () => (rng.chance(0.5) ? `${rng.pick(FILES)}:${rng.int(1, 500)}: ${this.sentence(rng.int(3, 10))}` : ` ✓ ${this.sentence(rng.int(2, 6))} (${rng.int(1, 90)} ms)`))}\n[exit code: ${exitCode}]`;
          meta = { exitCode };
          this.time += rng.int(100, 8000);
          break;
        }
        case 'read': {
          const first = rng.int(1, 200);
          const size = long ? longChars : this.normalSize(500, 7500);
          const code = this.sizedText(size, (i) => `${String(first + i).padStart(6, ' ')}\t${this.codeLines(1)[0] as string}`);
          if (rng.chance(0.06)) {
            text = `File not found: ${rng.pick(FILES)}`;
            isError = true;
            error = { name: 'FsError', code: 'FS_NOT_FOUND' };
          } else text = code;
          break;
        }
        case 'edit': {
          const path = rng.pick(FILES);
          text = `Edited ${path}: replaced 1 occurrence.`;
          meta = { diffs: [{ path, oldText: this.codeLines(1)[0] as string, newText: this.codeLines(1)[0] as string }] };
          break;
        }
        case 'write':
          text = `Wrote ${rng.int(200, 4000)} bytes to ${rng.pick(FILES)}.`;
          break;
        case 'grep': {
          const size = long ? longChars : this.normalSize(200, 6000);
          text = this.sizedText(size, () => `${rng.pick(FILES)}:${rng.int(1, 900)}:${this.codeLines(1)[0] as string}`);
          meta = { shape: 'matches', truncated: long };
          break;
        }
        case 'run_code': {
          for (let k = 1; k <= rng.int(1, 2); k++) {
            const base = {
              rootCallId: call.id,
              parentCallId: call.id,
              subCallId: `${call.id}:code:${k}`,
              name: k === 1 ? 'read' : 'grep',
              arguments: { file_path: rng.pick(FILES) },
            };
            this.ev('tool/code-dispatch-start', base);
            this.time += rng.int(2, 40);
            this.ev('tool/code-dispatch', { ...base, isError: false, content: [{ type: 'text', text: this.sentence(rng.int(5, 20)) }] });
          }
          text = JSON.stringify({ a: this.sentence(rng.int(5, 20)), b: this.sentence(rng.int(3, 10)) }, null, 2);
          break;
        }
        case 'todo_write': {
          const todos = (JSON.parse(call.args) as { todos: unknown[] }).todos;
          this.ev('todo/write', { todos });
          text = `Todo list updated (${todos.length} items).`;
          break;
        }
        case 'workflow': {
          const runId = this.uuid();
          this.ev('tool-workflow/run-start', { runId, name: 'review' });
          this.ev('tool-workflow/agent-start', { runId, seq: 1, label: 'reviewer', phase: 'Review', childId: this.uuid() });
          this.time += rng.int(2000, 30000);
          this.ev('tool-workflow/agent-end', { runId, seq: 1, outcome: 'completed' });
          this.ev('tool-workflow/run-end', { runId, stopReason: 'completed' });
          text = `workflow "review" completed (1 agent).\nReturn value:\n{\n  "r": ${JSON.stringify(this.sentence(rng.int(10, 40)))}\n}`;
          break;
        }
      }
    }

    const message = {
      source: { kind: 'tool', callId: call.id },
      content: [{ type: 'tool-result', toolCallId: call.id, content: [{ type: 'text', text }], isError }],
      role: 'user',
      id: this.uuid(),
    };
    const data: Obj = { turn, step, message };
    if (error !== null) data.error = error;
    if (meta !== null) data.meta = meta;
    const seq = this.ev('tool/result', data, [callSeq], 'append');
    const prunable = forceLong || codePointLength(text) > this.pruneThreshold ? data : null;
    this.appendNode(seq, tokensOf(text.length), -1, prunable);
  }

  /** Size of an ordinary tool output: uniform in [lo, hi], kept clearly under the prune threshold. */
  protected normalSize(lo: number, hi: number): number {
    const cap = Math.max(lo, Math.min(hi, this.pruneThreshold - 600));
    return this.rng.int(Math.min(lo, cap), cap);
  }
}
