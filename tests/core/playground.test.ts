/**
 * The playground: candidates are validated before they enter the log, a refusal carries the
 * exact rule message and leaves the state unchanged, undo/redo, export.
 */
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { Playground } from '../../src/core/playground/playground';
import {
  assistantMessage,
  logOnly,
  pendingToolCalls,
  pruneReplace,
  summaryReplace,
  toolResult,
  userMessage,
} from '../../src/core/playground/templates';

describe('playground', () => {
  it('builds a valid session from templates and exports it', async () => {
    const p = new Playground();
    expect(p.offer(logOnly({ seq: 0 }, 'turn/start', { turn: 1 }))).toEqual({ ok: true, seq: 0 });
    expect(p.offer(userMessage({ seq: 1 }, 'list files')).ok).toBe(true);
    expect(p.offer(assistantMessage({ seq: 2 }, 'ok', [{ name: 'ls', arguments: '{}' }])).ok).toBe(true);
    const [pending] = pendingToolCalls(p.log);
    expect(pending).toMatchObject({ callId: 'call-2-0', name: 'ls', messageSeq: 2, callSeq: null });
    expect(p.offer(logOnly({ seq: 3 }, 'tool/call', { turn: 1, step: 1, callId: 'call-2-0', name: 'ls', arguments: '{}' })).ok).toBe(true);
    expect(pendingToolCalls(p.log)[0]!.callSeq).toBe(3);
    expect(p.offer(toolResult({ seq: 4 }, 'call-2-0', 'a\nb\nc'.repeat(50), 3)).ok).toBe(true);
    expect(pendingToolCalls(p.log)).toEqual([]);
    expect(p.offer(pruneReplace({ seq: 5 }, p.log[4] as { seq: number; data: never }, 'a…')).ok).toBe(true);
    expect(p.offer(summaryReplace({ seq: 6 }, 1, 5, [1, 2, 5], 'summary')).ok).toBe(true);
    expect(p.nodes).toEqual([6]);
    const [s] = (await openBytes(new TextEncoder().encode(p.toJsonl()), { name: 'p.jsonl' })).sessions;
    expect(s!.fold.error).toBeNull();
    expect(s!.fold.nodes).toEqual([6]);
  });

  it('refuses a bad candidate with the exact message and leaves the state unchanged', () => {
    const p = new Playground();
    p.offer(userMessage({ seq: 0 }, 'a'));
    p.offer(userMessage({ seq: 1 }, 'b'));
    const before = { log: [...p.log], nodes: [...p.nodes], next: p.nextSeq };
    const refused = p.offer(summaryReplace({ seq: 2 }, 0, 1, [0], 'forgot one'));
    expect(refused).toEqual({
      ok: false,
      message: 'surface replace: sourceEventSeqs must include every shadowed surface node; missing 1',
      rule: 'surface/missing-shadowed-source',
    });
    expect(p.offer(userMessage({ seq: 5 }, 'wrong seq'))).toMatchObject({ message: 'session event seq 5 is not contiguous; expected 2' });
    expect({ log: [...p.log], nodes: [...p.nodes], next: p.nextSeq }).toEqual(before);
  });

  it('undoes and redoes whole events', () => {
    const p = new Playground();
    p.offer(userMessage({ seq: 0 }, 'a'));
    p.offer(userMessage({ seq: 1 }, 'b'));
    p.offer(summaryReplace({ seq: 2 }, 0, 1, [0, 1], 's'));
    expect(p.nodes).toEqual([2]);
    expect(p.undo()).toBe(true);
    expect(p.nodes).toEqual([0, 1]);
    expect(p.canRedo).toBe(true);
    expect(p.redo()).toBe(true);
    expect(p.nodes).toEqual([2]);
    p.undo();
    p.offer(userMessage({ seq: 2 }, 'c'));
    expect(p.canRedo).toBe(false);
    expect(p.undo() && p.undo() && p.undo()).toBe(true);
    expect(p.undo()).toBe(false);
  });

  it('starts from a valid prefix of a loaded log and refuses an invalid one', () => {
    const seed = [userMessage({ seq: 0 }, 'a'), userMessage({ seq: 1 }, 'b')];
    expect(new Playground(seed).nodes).toEqual([0, 1]);
    expect(() => new Playground([userMessage({ seq: 1 }, 'x')])).toThrow('session event seq 1 is not contiguous; expected 0');
  });
});
