/** Compaction-loss extraction rules on hand-made messages (docs/ANALYSIS.md, What a compaction lost). */
import { describe, expect, it } from 'vitest';
import { extractLiterals, keptTester, messageTexts } from '../../../src/core/analysis/literals';
import { measureLoss } from '../../../src/core/analysis/loss';

const user = (text: string, source: unknown = { kind: 'user' }) => ({ role: 'user', content: [{ type: 'text', text }], source });
const assistant = (blocks: unknown[]) => ({ role: 'assistant', content: blocks });
const tool = (text: string, isError = false) => ({
  role: 'tool',
  content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text }], ...(isError ? { isError: true } : {}) }],
});

describe('literal extraction', () => {
  const items = extractLiterals(
    [
      user(
        'Fix the flaky test in src/core/fold/surface.ts. Do not touch package.json! Please keep the public API stable.\nIt took 350 ms and 1.5 GB.',
      ),
      assistant([
        { type: 'text', text: 'Calling `npm test` then I will read ~/notes/todo.md and https://example.com/docs/page.html.' },
        { type: 'tool-call', id: 'c1', name: 'bash', arguments: JSON.stringify({ command: 'git log --oneline -3' }) },
      ]),
      tool(
        'TypeError: Cannot read properties of undefined (reading "nodes")\n    at planEvent (surface.ts:182)\ncommit 3f9a2c1d in #42, id 123e4567-e89b-12d3-a456-426614174000; see MAX_STEPS and foldSurface() and the_replace_index',
        true,
      ),
      user('A plugin notice: never do this', { kind: 'plugin', plugin: 'x' }),
      user('Always follow AGENTS.md when applicable.', { kind: 'agent-instructions' }),
    ].map(messageTexts),
  );

  it('paths: rooted, with an extension, or three segments; not URLs', () => {
    expect(items.paths).toEqual(['src/core/fold/surface.ts', 'package.json', '~/notes/todo.md', 'surface.ts', 'AGENTS.md']);
  });
  it('commands: tool-call `command`, backticked commands, `$ ` lines', () => {
    expect(items.commands).toEqual(['git log --oneline -3', 'npm test']);
    expect(extractLiterals([messageTexts(user('run this:\n$ npx tsc -p .\nand `not a command`'))]).commands).toEqual(['npx tsc -p .']);
  });
  it('numbers with units, spacing ignored', () => {
    expect(items.numbers).toEqual(['350ms', '1.5GB']);
  });
  it('identifiers: URLs, code symbols, calls, hashes, issue numbers, UUIDs', () => {
    expect(items.identifiers).toEqual(
      expect.arrayContaining([
        'https://example.com/docs/page.html',
        'planEvent',
        'foldSurface',
        'MAX_STEPS',
        'the_replace_index',
        '3f9a2c1d',
        '#42',
        '123e4567-e89b-12d3-a456-426614174000',
        'TypeError',
      ]),
    );
    expect(items.identifiers).not.toContain('the');
  });
  it('errors: the first line of an error result and error-looking lines', () => {
    expect(items.errors).toEqual(['TypeError: Cannot read properties of undefined (reading "nodes")']);
  });
  it("constraints: imperatives in the user's own messages only", () => {
    expect(items.constraints).toEqual(['Do not touch package.json!', 'Please keep the public API stable.']);
  });
});

describe('what counts as kept', () => {
  const kept = keptTester([
    'Summary: edited src/core/fold/surface.ts (took 350ms). The user said never to modify package.json and to keep the public API stable. Last error: typeerror: cannot read properties of undefined (reading "nodes") in planEvent.',
  ]);
  it('verbatim items', () => {
    expect(kept.kept('paths', 'src/core/fold/surface.ts')).toBe(true);
    expect(kept.kept('paths', 'src/core/fold/manager.ts')).toBe(false);
    expect(kept.kept('identifiers', 'planEvent')).toBe(true);
  });
  it('numbers ignore the space before the unit', () => {
    expect(kept.kept('numbers', '350ms')).toBe(true);
    expect(kept.kept('numbers', '35ms')).toBe(false);
  });
  it('errors by their first 60 characters, case ignored', () => {
    expect(kept.kept('errors', 'TypeError: Cannot read properties of undefined (reading "nodes") and more text after')).toBe(true);
    expect(kept.kept('errors', 'RangeError: Maximum call stack size exceeded')).toBe(false);
  });
  it('constraints by 60% of their content words', () => {
    expect(kept.kept('constraints', 'Please keep the public API stable.')).toBe(true);
    expect(kept.kept('constraints', 'Do not touch package.json!')).toBe(true); // package, json present; touch not: 2 of 3
    expect(kept.kept('constraints', 'Never rewrite the lockfile by hand.')).toBe(false); // rewrite, lockfile, hand: none
  });
});

describe('measureLoss', () => {
  it('counts kept and total per category and lists what was dropped', () => {
    const loss = measureLoss(
      [messageTexts(user('Always run `npm test` before committing. Edit src/a.ts and src/b.ts.'))],
      messageTexts(user('<compacted-summary>Edited src/a.ts.</compacted-summary>', { kind: 'plugin', plugin: 'compact' })),
    );
    expect(loss.kept.paths).toEqual([1, 2]);
    expect(loss.dropped.paths).toEqual(['src/b.ts']);
    expect(loss.kept.commands).toEqual([0, 1]);
    expect(loss.kept.constraints).toEqual([0, 1]);
    expect(loss.dropped.constraints).toEqual(['Always run `npm test` before committing.']);
  });
});

describe('usageByTurn', () => {
  it('sums recorded counts per step, turn and session; a missing count adds nothing', async () => {
    const { usageByTurn } = await import('../../../src/core/analysis/usage');
    const u = (input: number, cacheRead: number | null) => ({ input, output: 1, cacheRead, cacheWrite: null, reasoning: null });
    const req = (turn: number, step: number, usage: ReturnType<typeof u> | null, model: string | null = 'm') =>
      ({ turn, step, usage, model }) as never;
    const { turns, total } = usageByTurn([req(1, 1, u(100, 80)), req(1, 1, null), req(1, 2, u(50, null), 'n'), req(2, 1, u(10, 5), null)]);
    expect(turns.map((t) => [t.turn, t.requests, t.input, t.cacheRead, t.steps.length])).toEqual([
      [1, 3, 150, 80, 2],
      [2, 1, 10, 5, 1],
    ]);
    expect(turns[0]!.steps.map((s) => [s.step, s.requests, s.input])).toEqual([
      [1, 2, 100],
      [2, 1, 50],
    ]);
    const { models, ...sums } = total;
    expect(sums).toEqual({ requests: 4, input: 160, output: 3, cacheRead: 85, cacheWrite: 0, reasoning: 0 });
    // Per model, for prices: in first-request order, a request naming no model under null.
    expect(models.map((m) => [m.model, m.requests, m.input])).toEqual([
      ['m', 2, 100],
      ['n', 1, 50],
      [null, 1, 10],
    ]);
    expect(turns[0]!.models.map((m) => [m.model, m.requests])).toEqual([
      ['m', 2],
      ['n', 1],
    ]);
  });
});
