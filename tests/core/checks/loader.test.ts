import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkHeaderLine } from '../../../src/core/checks/header';
import { LoaderCheck } from '../../../src/core/checks/loader';
import type { Diagnostic } from '../../../src/core/model';
import { HAS_SHARED, listFiles, readJson, SHARED_NOTE, SPEC_VECTORS, UPSTREAM_FIXTURES } from '../../support/shared';
import type { Decoded } from './helpers';
import { decodeJsonl, scannerPrefix, FoldStepper } from './helpers';

const HEADER = '{"type":"session","version":0,"id":"s1","createdAt":0,"delegationDepth":0}';

function load(events: readonly unknown[], headerLine = HEADER) {
  const fold = new FoldStepper();
  const check = new LoaderCheck(checkHeaderLine(headerLine, true), { surface: fold.step });
  events.forEach((value, i) => check.event(value, i, i + 2));
  const diagnostics = check.finish();
  return { check, fold, diagnostics, result: check.loaderResult() };
}

const ev = (seq: number, type: string, data: unknown, extra: Record<string, unknown> = {}) => ({
  type,
  seq,
  time: 1000 + seq,
  data,
  ...extra,
});
const rules = (diagnostics: Diagnostic[]) => diagnostics.map((d) => `${d.severity} ${d.rule} ${String(d.seq)}`);

describe('LoaderCheck', () => {
  it('reports the L3 scans in their fixed order, not by position', () => {
    const { diagnostics, result } = load([ev(0, 'mode/set', {}), ev(1, 'request/header-delta', {}), ev(2, 'mode/set', {})]);
    expect(result.loadError).toBe(
      'stored session "s1" failed validation: Error: session "s1" contains unsupported legacy request/header-delta event at seq 1',
    );
    expect(rules(diagnostics).filter((r) => r.includes('legacy-unsupported'))).toEqual([
      'error loader/legacy-unsupported 1',
      'error loader/legacy-unsupported 0',
    ]);
  });

  it('refuses a malformed legacy event with the exact text (L4 before L5)', () => {
    const { diagnostics, result } = load([ev(0, 'example/new', {}), ev(1, 'turn/start', { turn: 1, trigger: {} })]);
    expect(result.loadError).toBe(
      'stored session "s1" failed validation: Error: session "s1" contains malformed pre-react-loop turn/start at seq 1',
    );
    expect(rules(diagnostics)).toContain('error loader/legacy-malformed 1');
    expect(rules(diagnostics)).toContain('error loader/unknown-type 0');
  });

  it.each([
    [{ kind: 'completed', extra: 1 }, null],
    [{ kind: 'disposed' }, { kind: 'aborted', reason: { kind: 'disposed' } }],
    [
      { kind: 'error', step: 1, message: 'boom' },
      { kind: 'error', error: { message: 'boom', code: 'UNKNOWN' } },
    ],
    [
      { kind: 'error', step: 1, failure: { message: 'm', code: 'C', status: 500 } },
      { kind: 'error', error: { message: 'm', code: 'C', status: 500 } },
    ],
    [{ kind: 'error', step: -1, message: 'boom' }, null],
    [{ kind: 'future' }, { kind: 'future' }],
  ])('upgrades turn/end reason %j', (reason, upgraded) => {
    const { fold, result } = load([ev(0, 'turn/start', { turn: 1 }), ev(1, 'turn/end', { turn: 1, reason })]);
    if (upgraded === null) {
      expect(result.loadError).toBe(
        'stored session "s1" failed validation: Error: session "s1" contains malformed pre-react-loop turn/end at seq 1',
      );
    } else {
      expect(result.loadError).toBeNull();
      expect((fold.events[1] as { data: { reason: unknown } }).data.reason).toEqual(upgraded);
    }
  });

  it('gives a legacy tool/result replacement the message id of its target', () => {
    const call = { type: 'tool-call', id: 'c1', name: 'read', arguments: '{}' };
    const { fold, result, diagnostics } = load([
      ev(0, 'assistant/message', { turn: 1, step: 1, content: [call], provenance: { provider: 'p', model: 'm' } }, { surfaceOp: 'append' }),
      ev(1, 'tool/call', { turn: 1, step: 1, callId: 'c1', name: 'read', arguments: '{}' }),
      ev(
        2,
        'tool/result',
        { turn: 1, step: 1, callId: 'c1', content: [{ type: 'text', text: 'long' }], isError: false },
        { surfaceOp: 'append', sourceEventSeqs: [1] },
      ),
      ev(
        3,
        'tool/result',
        { turn: 1, step: 1, callId: 'c1', content: [{ type: 'text', text: 'short' }], isError: false },
        { surfaceOp: { op: 'replace', start: 2, end: 2 }, sourceEventSeqs: [2] },
      ),
    ]);
    expect(result).toEqual({ loadError: null, appended: ['session/end-seed'] });
    expect(fold.messageIds()).toEqual(['legacy-message:s1:0', 'legacy-message:s1:2']);
    expect(rules(diagnostics)).toEqual(['info loader/legacy-upgrade 0', 'info loader/legacy-upgrade 2', 'info loader/legacy-upgrade 3']);
  });

  it('keeps ignorable unknown types, noting each type once', () => {
    const { diagnostics, result } = load([
      ev(0, 'x/note', {}, { ignorable: true }),
      ev(1, 'x/note', {}, { ignorable: true }),
      ev(2, 'session/end-seed', {}),
    ]);
    expect(result).toEqual({ loadError: null, appended: [] });
    expect(rules(diagnostics)).toEqual(['info loader/ignorable-type 0']);
  });

  it('passes header refusals through unwrapped', () => {
    const { result } = load([], '{"type":"session","version":3,"id":"s9","createdAt":0,"delegationDepth":0}');
    expect(result.loadError).toBe(
      'session "s9" uses log format v3, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it',
    );
  });

  it('wraps a restore-time header failure', () => {
    const { result } = load([], '{"type":"session","version":0,"id":"s1","createdAt":0,"delegationDepth":0,"cwd":"rel"}');
    expect(result.loadError).toBe('stored session "s1" failed validation: Error: session header cwd must be an absolute path, got "rel"');
  });
});

interface LoaderExpected {
  loadError: string | null;
  events?: number;
  appended?: string[];
  nodes?: number[];
  messages?: string[];
}

describe.skipIf(!HAS_SHARED)(`loader-expected.json vectors${SHARED_NOTE}`, () => {
  const expected = HAS_SHARED ? readJson<Record<string, LoaderExpected>>(join(SPEC_VECTORS, 'loader-expected.json')) : {};
  const vectors = listFiles(SPEC_VECTORS, (name) => name.endsWith('.jsonl'));

  it('covers every JSONL vector', () => {
    expect(vectors).toEqual(Object.keys(expected).sort());
  });

  // The scanner (§4) is not this check's job: it receives the scanner's accepted prefix. The
  // test emulates that prefix, which matters for the seq-gap vectors (err-contiguity,
  // order-contiguity-first, order-string-seq: the gap and everything after it is a torn tail)
  // and torn-tail (its unterminated last line is ignored).
  it.each(vectors)('%s', (name) => {
    const want = expected[name] as LoaderExpected;
    const text = readFileSync(join(SPEC_VECTORS, name), 'utf8');
    const { headerLine, rawHasLf } = decodeJsonl(text);
    const events: Decoded[] = scannerPrefix(text);
    const fold = new FoldStepper();
    const check = new LoaderCheck(checkHeaderLine(headerLine, rawHasLf), { surface: fold.step });
    events.forEach(({ value, line }, i) => check.event(value, i, line));
    check.finish();
    const result = check.loaderResult();
    expect(result.loadError).toBe(want.loadError);
    if (want.loadError !== null) return;
    expect(result.appended).toEqual(want.appended);
    expect(events.length + result.appended.length).toBe(want.events);
    expect(fold.nodes).toEqual(want.nodes);
    expect(fold.messageIds()).toEqual(want.messages);
  });

  it('builds the §13 closers for repair-open-turn exactly', () => {
    const text = readFileSync(join(SPEC_VECTORS, 'repair-open-turn.jsonl'), 'utf8');
    const { headerLine, rawHasLf, events } = decodeJsonl(text);
    const check = new LoaderCheck(checkHeaderLine(headerLine, rawHasLf));
    events.forEach(({ value, line }, i) => check.event(value, i, line));
    const diagnostics = check.finish();
    const closers = check.closers() as Record<string, unknown>[];
    // Key order is the crash-repair writer's (log-format.md §2).
    expect(closers.map((c) => [c.type, c.seq, c.time, Object.keys(c).join()])).toEqual([
      ['tool/result', 5, 1004, 'type,seq,time,data,surfaceOp,sourceEventSeqs'],
      ['tool/result', 6, 1004, 'type,seq,time,data,surfaceOp'],
      ['step/end', 7, 1004, 'type,seq,time,data'],
      ['turn/end', 8, 1004, 'type,seq,time,data'],
    ]);
    expect(closers[0]).toEqual({
      type: 'tool/result',
      seq: 5,
      time: 1004,
      data: {
        turn: 1,
        step: 1,
        message: {
          id: 'interrupted-tool-result-c1-5',
          role: 'user',
          source: { kind: 'tool', callId: 'c1' },
          content: [
            {
              type: 'tool-result',
              toolCallId: 'c1',
              isError: true,
              content: [
                {
                  type: 'text',
                  text: 'The tool call was interrupted after it was recorded, but no result was durably recorded. Its outcome is unknown. Decide whether to retry from the tool semantics: retry only if the operation is read-only or idempotent; if it may have side effects, first verify external state or ask the user. Do not retry blindly.',
                },
              ],
            },
          ],
        },
        error: { name: 'ToolOutcomeUnknownError', code: 'TOOL_OUTCOME_UNKNOWN' },
      },
      surfaceOp: 'append',
      sourceEventSeqs: [4],
    });
    expect((closers[1]?.data as { error: unknown }).error).toEqual({ name: 'ToolNotStartedError', code: 'TOOL_NOT_STARTED' });
    expect(closers[3]?.data).toEqual({ turn: 1, reason: { kind: 'interrupted' } });
    expect(diagnostics.filter((d) => d.rule === 'loader/interrupted-turn')).toEqual([
      {
        severity: 'warning',
        rule: 'loader/interrupted-turn',
        seq: 0,
        line: 2,
        message:
          'turn 1 is still open at the end of the log; crash repair appends 4 closer event(s): seq 5 tool/result for c1 (TOOL_OUTCOME_UNKNOWN), seq 6 tool/result for c2 (TOOL_NOT_STARTED), seq 7 step/end (step 1), seq 8 turn/end (interrupted)',
      },
    ]);
  });
});

describe.skipIf(!HAS_SHARED)(`upstream fixtures through the loader view${SHARED_NOTE}`, () => {
  it.each(listFiles(UPSTREAM_FIXTURES, (name) => name.endsWith('.jsonl')))('%s does not crash', (name) => {
    const text = readFileSync(join(UPSTREAM_FIXTURES, name), 'utf8');
    const { headerLine, rawHasLf, events } = decodeJsonl(text);
    const check = new LoaderCheck(checkHeaderLine(headerLine, rawHasLf));
    events.forEach(({ value, line }, i) => check.event(value, i, line));
    const diagnostics = check.finish();
    for (const d of diagnostics) {
      expect(d.rule).toMatch(/^(loader\/|seed\/header$)/);
      // The normalised `{{cwd}}` placeholder is reported, never a refusal.
      if (d.rule === 'seed/header') expect([d.severity, d.message]).toEqual(['warning', expect.stringContaining('"{{cwd}}')]);
    }
    const { loadError } = check.loaderResult();
    expect(loadError === null || typeof loadError === 'string').toBe(true);
  });
});
