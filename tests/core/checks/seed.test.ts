import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { combineSeedError, SeedCheck, seedEventProblem } from '../../../src/core/checks/seed';
import { isLosslessJson } from '../../../src/core/checks/lossless';
import { HAS_SHARED, listFiles, readJson, SHARED_NOTE, SPEC_VECTORS } from '../../support/shared';
import { referenceFold } from '../../support/reference-fold';
import { decodeJsonl, FoldStepper } from './helpers';

const ok = { type: 'turn/start', seq: 0, time: 1, data: { turn: 1 } };
const user = (seq: number, data: unknown) => ({ type: 'user/message', seq, time: 0, data, surfaceOp: 'append' });
const header = (h: unknown) => ({ type: 'request/header', seq: 0, time: 0, data: { header: h, reason: 'initial' } });
const config = { provider: 'deepseek', model: 'v4' };

describe('isLosslessJson (S1)', () => {
  it.each([
    ['-0 at the top', -0, false],
    ['-0 nested', { a: [1, { b: -0 }] }, false],
    ['Infinity from 1e400', JSON.parse('{"x":[1e400]}'), false],
    ['-Infinity', JSON.parse('[-1e400]'), false],
    ['ordinary values', { a: [0, 1.5, -2, 'x', null, true, { b: [] }] }, true],
    ['a string "-0"', { a: '-0' }, true],
  ])('%s', (_name, value, expected) => {
    expect(isLosslessJson(value)).toBe(expected);
  });

  it('walks 100,000 nested arrays without recursion', () => {
    const deep = JSON.parse('['.repeat(100_000) + '-0' + ']'.repeat(100_000));
    expect(isLosslessJson(deep)).toBe(false);
    const clean = JSON.parse('['.repeat(100_000) + '1' + ']'.repeat(100_000));
    expect(isLosslessJson(clean)).toBe(true);
  });
});

describe('seedEventProblem (S1–S7)', () => {
  it.each<[string, unknown, string | null]>([
    ['a valid log-only event', ok, null],
    ['-0 in create mode', { ...ok, data: { turn: -0 } }, 'seed event at index 0 is not losslessly JSON-serializable'],
    [
      'request/header-delta',
      { type: 'request/header-delta', seq: 0, time: 0, data: {} },
      'seed event at index 0 uses unsupported legacy request/header-delta format',
    ],
    ['an extra envelope key', { ...ok, extra: 1 }, 'seed event at index 0 has an invalid event envelope'],
    ['a string seq', { ...ok, seq: '0' }, 'seed event at index 0 has an invalid event envelope'],
    ['a fractional time', { ...ok, time: 1.5 }, 'seed event at index 0 has an invalid event envelope'],
    ['a missing data key', { type: 'turn/start', seq: 0, time: 0 }, 'seed event at index 0 has an invalid event envelope'],
    ['ignorable: false', { ...ok, ignorable: false }, 'seed event at index 0 has an invalid event envelope'],
    ['a non-object event', [1], 'seed event at index 0 has an invalid event envelope'],
    ['null data is a valid envelope', { ...ok, data: null }, null],
    ['a header without model', header({ config: { provider: 'p' } }), 'seed request/header at index 0 lacks provider/model'],
    [
      'an empty reasoningEffort',
      header({ config: { ...config, reasoningEffort: '' } }),
      'seed request/header at index 0 has an invalid reasoningEffort',
    ],
    [
      'adapterDefaults for an absent field',
      header({ config, adapterDefaults: { maxTokens: true } }),
      'seed request/header at index 0 has invalid adapterDefaults',
    ],
    [
      'adapterDefaults with a false value',
      header({ config: { ...config, maxTokens: 9 }, adapterDefaults: { maxTokens: false } }),
      'seed request/header at index 0 has invalid adapterDefaults',
    ],
    ['a valid header', header({ config: { ...config, maxTokens: 9 }, adapterDefaults: { maxTokens: true } }), null],
    [
      'a fallback header',
      { ...header({ config }), data: { header: { config }, reason: 'fallback' } },
      'seed event at index 0 uses unsupported legacy request/header reason "fallback"',
    ],
    [
      'a user message without id',
      user(0, { role: 'user', content: [], source: { kind: 'user' } }),
      'seed user/message at index 0 lacks an identified message',
    ],
    [
      'a user message with the wrong role',
      user(0, { id: 'u', role: 'assistant', content: [], source: { kind: 'user' } }),
      'seed user/message at index 0 message must have role "user"',
    ],
    [
      'a tool result with mismatched ids',
      {
        type: 'tool/result',
        seq: 0,
        time: 0,
        surfaceOp: 'append',
        data: {
          message: {
            id: 't',
            role: 'user',
            source: { kind: 'tool', callId: 'c1' },
            content: [{ type: 'tool-result', toolCallId: 'c2', content: [] }],
          },
        },
      },
      'seed tool/result at index 0 message has mismatched tool call ids',
    ],
    [
      'an assistant message without model source',
      {
        type: 'assistant/message',
        seq: 0,
        time: 0,
        surfaceOp: 'append',
        data: { message: { id: 'a', role: 'assistant', source: { kind: 'model', provider: 'p' }, content: [] } },
      },
      'seed assistant/message at index 0 message must have model source',
    ],
    ['a seq gap', { ...ok, seq: 3 }, 'seed event at index 0 has seq 3 (expected 0); seed must be contiguous from 0'],
  ])('%s', (_name, event, expected) => {
    expect(seedEventProblem(event, 0, 'create')?.message ?? null).toBe(expected);
  });

  it('skips S1 in restore mode', () => {
    expect(seedEventProblem({ ...ok, data: { turn: -0 } }, 0, 'restore')).toBeNull();
  });
});

describe('combineSeedError', () => {
  it('takes the earlier index and prefers S1–S7 at the same index', () => {
    const seed = { index: 3, message: 'seed event at index 3 has an invalid event envelope' };
    expect(combineSeedError(seed, { index: 2, message: 'm' })).toEqual({ index: 2, message: 'invalid seed event at index 2: m' });
    expect(combineSeedError(seed, { index: 3, message: 'm' })).toEqual(seed);
    expect(combineSeedError(null, null)).toBeNull();
  });

  it('stops at the first failure and reports it once', () => {
    const check = new SeedCheck();
    check.event({ ...ok, seq: 1 }, 0, 2);
    check.event({ ...ok, extra: true }, 1, 3);
    expect(check.firstError()?.index).toBe(0);
    expect(check.finish()).toEqual([
      {
        severity: 'error',
        rule: 'seed/contiguity',
        seq: 0,
        line: 2,
        message: 'seed event at index 0 has seq 1 (expected 0); seed must be contiguous from 0',
      },
    ]);
    expect(check.sessionLength()).toBeNull();
  });
});

interface SeedExpected {
  seedError: string | null;
  events?: number;
  messages?: string[];
}

describe.skipIf(!HAS_SHARED)(`seed-expected.json vectors${SHARED_NOTE}`, () => {
  const expected = HAS_SHARED ? readJson<Record<string, SeedExpected>>(join(SPEC_VECTORS, 'seed-expected.json')) : {};
  const vectors = listFiles(SPEC_VECTORS, (name) => name.endsWith('.jsonl'));

  it('covers every JSONL vector', () => {
    expect(vectors).toEqual(Object.keys(expected).sort());
  });

  it.each(vectors)('%s (streaming, fold as surface step)', (name) => {
    const want = expected[name] as SeedExpected;
    const { events } = decodeJsonl(readFileSync(join(SPEC_VECTORS, name), 'utf8'));
    const fold = new FoldStepper();
    const check = new SeedCheck({ surface: fold.step });
    events.forEach(({ value, line }, i) => check.event(value, i, line));
    const diagnostics = check.finish();
    expect(check.seedError()?.message ?? null).toBe(want.seedError);
    expect(diagnostics.map((d) => d.message)).toEqual(want.seedError === null ? [] : [want.seedError]);
    if (want.seedError === null) {
      expect(check.sessionLength()).toBe(want.events);
      expect(fold.messageIds()).toEqual(want.messages);
    }
  });

  it.each(vectors)('%s (combineSeedError with the whole reference fold)', (name) => {
    const want = expected[name] as SeedExpected;
    const { events } = decodeJsonl(readFileSync(join(SPEC_VECTORS, name), 'utf8'));
    const check = new SeedCheck();
    events.forEach(({ value, line }, i) => check.event(value, i, line));
    const { error } = referenceFold(events.map((e) => e.value));
    expect(combineSeedError(check.firstError(), error)?.message ?? null).toBe(want.seedError);
  });
});
