import { describe, expect, it } from 'vitest';
import { SessionScript } from '../../../src/core/gen/script';
import type { Plan, SurfaceState } from '../../../src/core/fold/surface';
import { applyPlan, emptySurfaceState, planEvent } from '../../../src/core/fold/surface';
import { CompactionQaCheck, QA_RULES } from '../../../src/core/qa';
import { byRule, runQa } from './adapter';
import type { Ev } from './logs';
import { LONG_RESULT, checkpointIndex, cleanSession, eventsOf, insertEvent, only, remapSeqs } from './logs';

/** Run the check and insist the fold accepted the whole log (the QA rules are about valid logs). */
function qa(events: readonly Ev[]) {
  const run = runQa(events);
  expect(run.foldError).toBeNull();
  return run;
}

describe('clean scripted session', () => {
  it('produces no qa findings at all', () => {
    const { script } = cleanSession();
    const run = qa(eventsOf(script));
    expect(run.replaceIndices.length).toBe(2);
    expect(run.diagnostics).toEqual([]);
  });

  it('the teaching-style session with both prune and compaction is clean', () => {
    const s = new SessionScript('qa-teaching');
    const q = s.userTurn('Why is the sky blue?');
    const first = s.assistant('Let me read your notes.', [{ name: 'read_file', args: { path: 'sky.md' }, result: LONG_RESULT }]);
    s.assistant('Rayleigh scattering.');
    s.endTurn();
    s.userTurn('And sunsets?');
    s.prune(first.results[0]!, 'Notes on the sky.');
    const a = s.assistant('Longer path through air.');
    s.compact(q, a.message, 'Sky questions answered.');
    s.assistant('Anything else?');
    s.endTurn();
    expect(qa(eventsOf(s)).diagnostics).toEqual([]);
  });
});

describe(QA_RULES.summaryShadowedMismatch, () => {
  const rule = QA_RULES.summaryShadowedMismatch;

  it('flags a summary whose shadowedSeqs miss a node the checkpoint shadowed', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    const summary = events[cp - 1] as Ev;
    const actual = (summary.data.shadowedSeqs as number[]).slice();
    summary.data.shadowedSeqs = actual.slice(0, -1);
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', rule, seq: cp - 1, line: cp + 1 });
    expect(found[0]?.message).toContain(`compaction/summary at seq ${cp - 1} (compactionId "compaction-`);
    expect(found[0]?.message).toContain(`but its checkpoint at seq ${cp} shadowed [${actual.join(', ')}]`);
    expect(found[0]?.message).toContain(`shadowed but not declared: [${actual[actual.length - 1]}]`);
  });

  it('flags a summary whose shadowedRange does not match the shadowed ends', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    const summary = events[cp - 1] as Ev;
    const seqs = summary.data.shadowedSeqs as number[];
    summary.data.shadowedRange = { start: seqs[0], end: seqs[1] };
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain(`shadowedRange ${seqs[0]}..${seqs[1]} is not ${seqs[0]}..${seqs[seqs.length - 1]}`);
  });

  it('flags a compaction/prune that declares another node than its replacement shadowed', () => {
    const { script, result, prompt } = cleanSession();
    const events = eventsOf(script);
    const prune = only(events, (e) => e.type === 'compaction/prune');
    (events[prune] as Ev).data.shadowedSeqs = [prompt];
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', seq: prune });
    expect(found[0]?.message).toBe(
      `compaction/prune at seq ${prune} declares shadowedSeqs [${prompt}] and shadowedRange ${result}..${result}, ` +
        `but the tool/result replacement at seq ${prune + 1} shadowed [${result}] (${result}..${result}): ` +
        `shadowed but not declared: [${result}]; declared but not shadowed: [${prompt}]`,
    );
  });

  it('is silent when declarations match (summary and prune)', () => {
    expect(byRule(qa(eventsOf(cleanSession().script)), rule)).toEqual([]);
  });
});

describe(QA_RULES.checkpointSources, () => {
  const rule = QA_RULES.checkpointSources;

  it('flags a checkpoint that does not cite its compaction/start', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    const e = events[cp] as Ev;
    e.sourceEventSeqs = (e.sourceEventSeqs as number[]).filter((s) => s !== cp - 2);
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'error', seq: cp });
    expect(found[0]?.message).toMatch(
      new RegExp(`^compaction checkpoint at seq ${cp} \\(compactionId "compaction-\\d+", sourceEventSeqs \\[`),
    );
    expect(found[0]?.message).toContain(`its compaction/start (seq ${cp - 2}) is not cited`);
    expect(found[0]?.message).not.toContain('compaction/summary');
  });

  it('flags a checkpoint citing neither start nor summary', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    const e = events[cp] as Ev;
    e.sourceEventSeqs = (e.sourceEventSeqs as number[]).slice(2);
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain(
      `its compaction/start (seq ${cp - 2}) is not cited; its compaction/summary (seq ${cp - 1}) is not cited`,
    );
  });

  it('flags a checkpoint whose compactionId has no bracket', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    (events[cp] as Ev).data.source.compactionId = 'elsewhere';
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toContain('(compactionId "elsewhere", sourceEventSeqs [');
    expect(found[0]?.message).toContain(
      'no compaction/start with its compactionId precedes it; no compaction/summary with its compactionId precedes it',
    );
  });

  it('is silent for checkpoints citing both', () => {
    expect(byRule(qa(eventsOf(cleanSession().script)), rule)).toEqual([]);
  });

  it('ignores user/message replacements that are not compaction checkpoints', () => {
    // A plain replace (surface.md E2) has no compact source: not a checkpoint.
    const events: Ev[] = [
      {
        type: 'user/message',
        seq: 0,
        time: 0,
        data: { id: 'a', role: 'user', content: [{ type: 'text', text: 'a' }], source: { kind: 'user' } },
        surfaceOp: 'append',
      },
      {
        type: 'user/message',
        seq: 1,
        time: 0,
        data: { id: 'b', role: 'user', content: [{ type: 'text', text: 'b' }], source: { kind: 'user' } },
        surfaceOp: 'append',
      },
      {
        type: 'user/message',
        seq: 2,
        time: 0,
        data: { id: 'c', role: 'user', content: [{ type: 'text', text: 's' }], source: { kind: 'plugin', plugin: 'notes' } },
        sourceEventSeqs: [0, 1],
        surfaceOp: { op: 'replace', start: 0, end: 1 },
      },
    ];
    expect(qa(events).diagnostics).toEqual([]);
  });
});

describe(QA_RULES.toolPairing, () => {
  const rule = QA_RULES.toolPairing;

  function toolSession() {
    const s = new SessionScript('qa-tools');
    const prompt = s.userTurn('List the files.');
    const call = s.assistant('Listing.', [{ name: 'ls', args: {}, result: 'a.txt\nb.txt' }]);
    const final = s.assistant('There are two files, a.txt and b.txt, in the directory.');
    return { s, prompt, call, final };
  }

  it('flags a compaction that shadows the calling assistant message but keeps its result', () => {
    const { s, prompt, call } = toolSession();
    const cp = s.compact(prompt, call.message, 'The user asked for the files.');
    s.endTurn();
    const found = byRule(qa(eventsOf(s)), rule);
    expect(found).toEqual([
      {
        severity: 'error',
        rule,
        seq: cp,
        line: cp + 2,
        message:
          `replacement at seq ${cp} splits tool call "call-2": the assistant/message at seq ${call.message} that made ` +
          `the call is shadowed, but its tool/result at seq ${call.results[0]} stays on the surface`,
      },
    ]);
  });

  it('flags a compaction that shadows the result but keeps the calling assistant message', () => {
    const { s, call, final } = toolSession();
    const result = call.results[0]!;
    const cp = s.compact(result, final.message, 'The directory has two files.');
    s.endTurn();
    const found = byRule(qa(eventsOf(s)), rule);
    expect(found).toHaveLength(1);
    expect(found[0]?.message).toBe(
      `replacement at seq ${cp} splits tool call "call-2": its tool/result at seq ${result} is shadowed, ` +
        `but the assistant/message at seq ${call.message} that made the call stays on the surface`,
    );
  });

  it('reports every split call of a multi-call message', () => {
    const s = new SessionScript('qa-multi');
    const prompt = s.userTurn('Read both.');
    const call = s.assistant('Reading both.', [
      { name: 'read', args: { p: 1 }, result: 'one' },
      { name: 'read', args: { p: 2 }, result: 'two' },
    ]);
    s.compact(prompt, call.message, 'x');
    expect(byRule(qa(eventsOf(s)), rule).map((d) => d.message.match(/"call-\d+"/)?.[0])).toEqual(['"call-2"', '"call-3"']);
  });

  it('is silent when the range holds both sides, and for prunes (the copy keeps the call id)', () => {
    const { s, prompt, call, final } = toolSession();
    s.prune(call.results[0]!, 'a.txt');
    s.compact(prompt, final.message, 'Two files.');
    s.endTurn();
    expect(byRule(qa(eventsOf(s)), rule)).toEqual([]);
  });

  it('flags a call shadowed before its result arrives (the result lands without its message)', () => {
    const text = (t: string) => ({ id: t, role: 'user', content: [{ type: 'text', text: t }], source: { kind: 'user' } });
    const events: Ev[] = [
      { type: 'user/message', seq: 0, time: 0, data: text('Run it.'), surfaceOp: 'append' },
      {
        type: 'assistant/message',
        seq: 1,
        time: 0,
        data: {
          turn: 1,
          step: 1,
          message: {
            id: 'a',
            role: 'assistant',
            content: [{ type: 'tool-call', id: 'c1', name: 'run', arguments: '{}' }],
            source: { kind: 'model', provider: 'p', model: 'm' },
          },
        },
        sourceEventSeqs: [],
        surfaceOp: 'append',
      },
      { type: 'tool/call', seq: 2, time: 0, data: { turn: 1, step: 1, callId: 'c1', name: 'run', arguments: '{}' } },
      { type: 'compaction/start', seq: 3, time: 0, data: { compactionId: 'k', turn: 1 } },
      {
        type: 'compaction/summary',
        seq: 4,
        time: 0,
        data: {
          compactionId: 'k',
          summary: [],
          shadowedRange: { start: 0, end: 1 },
          shadowedSeqs: [0, 1],
          shadowedTokenCount: 1,
          provider: 'p',
          model: 'm',
        },
      },
      {
        type: 'user/message',
        seq: 5,
        time: 0,
        data: {
          content: [{ type: 'text', text: 's' }],
          source: { kind: 'plugin', plugin: 'compact', compactionId: 'k' },
          role: 'user',
          id: 'cp',
        },
        sourceEventSeqs: [3, 4, 0, 1],
        surfaceOp: { op: 'replace', start: 0, end: 1 },
      },
      { type: 'compaction/end', seq: 6, time: 0, data: { compactionId: 'k', turn: 1 } },
      {
        type: 'tool/result',
        seq: 7,
        time: 0,
        data: {
          turn: 1,
          step: 1,
          message: {
            id: 'r',
            role: 'user',
            content: [{ type: 'tool-result', toolCallId: 'c1', content: [{ type: 'text', text: 'ok' }] }],
            source: { kind: 'tool', callId: 'c1' },
          },
        },
        sourceEventSeqs: [2],
        surfaceOp: 'append',
      },
    ];
    const run = qa(events);
    expect(byRule(run, rule)).toEqual([
      {
        severity: 'error',
        rule,
        seq: 5,
        line: 7,
        message:
          'replacement at seq 5 splits tool call "c1": the assistant/message at seq 1 that made the call is shadowed, ' +
          'and its tool/result arrives afterwards at seq 7',
      },
    ]);
    // Without the late result there is nothing to report.
    expect(byRule(qa(events.slice(0, 7)), rule)).toEqual([]);
  });

  it('does not blame a replace for a call that never had a result on the surface', () => {
    const s = new SessionScript('qa-dangling');
    const prompt = s.userTurn('Go.');
    const call = s.assistant('Calling.', [{ name: 'x', args: {}, result: 'r' }]);
    const events = eventsOf(s);
    // Drop the tool/call and tool/result (the last three events are tool/call, tool/result, step/end).
    const trimmed = events.slice(0, events.length - 3);
    const s2: Ev[] = [
      ...trimmed,
      {
        type: 'user/message',
        seq: trimmed.length,
        time: 0,
        data: { id: 'cp', role: 'user', content: [{ type: 'text', text: 's' }], source: { kind: 'plugin', plugin: 'notes' } },
        sourceEventSeqs: [prompt, call.message],
        surfaceOp: { op: 'replace', start: prompt, end: call.message },
      },
    ];
    expect(byRule(qa(s2), rule)).toEqual([]);
  });
});

describe(QA_RULES.summaryLarger, () => {
  const rule = QA_RULES.summaryLarger;

  it('flags a checkpoint larger than the one short message it replaced', () => {
    const s = new SessionScript('qa-larger');
    const prompt = s.userTurn('Hi.');
    const cp = s.compact(prompt, prompt, 'A long summary of a two-letter greeting. '.repeat(5));
    s.endTurn();
    const events = eventsOf(s);
    const size = JSON.stringify((events[cp] as Ev).data).length;
    const before = JSON.stringify((events[prompt] as Ev).data).length;
    const found = byRule(qa(events), rule);
    expect(found).toEqual([
      {
        severity: 'error',
        rule,
        seq: cp,
        line: cp + 2,
        message: `compaction checkpoint at seq ${cp} is larger than the 1 message(s) it replaced [${prompt}]: ${size} > ${before} characters of message JSON`,
      },
    ]);
  });

  it('sums earlier checkpoints and empty assistant messages (size 0) over a nested range', () => {
    const build = (summary: string) => {
      const s = new SessionScript('qa-nested-size');
      const prompt = s.userTurn('Tell me a story about compaction, in detail, with many words in it. '.repeat(4));
      const a = s.assistant('Once upon a time a log grew too long for its context window, so it was summarized. '.repeat(4));
      const cp1 = s.compact(prompt, a.message, 'A story about compaction.');
      const empty = s.assistant(''); // content [] derives no message
      const b = s.assistant('And it grew again.');
      const cp2 = s.compact(cp1, b.message, summary);
      return { events: eventsOf(s), cp1, empty: empty.message, b: b.message, cp2 };
    };
    const small = build('A story about compaction that kept going and going.');
    const sizes = (x: typeof small) => ({
      cp1: JSON.stringify((x.events[x.cp1] as Ev).data).length,
      b: JSON.stringify((x.events[x.b] as Ev).data.message).length,
      cp2: JSON.stringify((x.events[x.cp2] as Ev).data).length,
    });
    const s1 = sizes(small);
    // Larger than the earlier checkpoint alone, smaller than the whole range: silent.
    expect(s1.cp2).toBeGreaterThan(s1.cp1);
    expect(s1.cp2).toBeLessThan(s1.cp1 + s1.b);
    expect(byRule(qa(small.events), rule)).toEqual([]);
    // Larger than the whole range: flagged, with the exact total (the empty message counts 0).
    const big = build('A story about compaction that kept going and going. '.repeat(6));
    const s2 = sizes(big);
    expect(byRule(qa(big.events), rule).map((d) => d.message)).toEqual([
      `compaction checkpoint at seq ${big.cp2} is larger than the 3 message(s) it replaced [${big.cp1}, ${big.empty}, ${big.b}]: ` +
        `${s2.cp2} > ${s2.cp1 + s2.b} characters of message JSON`,
    ]);
  });

  it('is silent for a checkpoint smaller than what it replaced', () => {
    expect(byRule(qa(eventsOf(cleanSession().script)), rule)).toEqual([]);
  });
});

describe(QA_RULES.pruneNotSmaller, () => {
  const rule = QA_RULES.pruneNotSmaller;

  it('flags a prune copy that is not smaller than the original result', () => {
    const s = new SessionScript('qa-prune-big');
    s.userTurn('Read it.');
    const call = s.assistant('Reading.', [{ name: 'read', args: {}, result: 'short output' }]);
    const result = call.results[0]!;
    const copy = s.prune(result, 'a kept head that is longer than the original output ever was');
    s.endTurn();
    const events = eventsOf(s);
    const after = JSON.stringify((events[copy] as Ev).data.message).length;
    const before = JSON.stringify((events[result] as Ev).data.message).length;
    expect(after).toBeGreaterThan(before);
    expect(byRule(qa(events), rule)).toEqual([
      {
        severity: 'error',
        rule,
        seq: copy,
        line: copy + 2,
        message: `tool/result replacement at seq ${copy} is not smaller than the result it replaces (seq ${result}): ${after} >= ${before} characters of message JSON`,
      },
    ]);
  });

  it('compares a second prune with the first copy (cached size)', () => {
    const s = new SessionScript('qa-prune-twice');
    s.userTurn('Read it.');
    const call = s.assistant('Reading.', [{ name: 'read', args: {}, result: LONG_RESULT }]);
    const copy = s.prune(call.results[0]!, 'line of tool output');
    const copy2 = s.prune(copy, 'line of tool output');
    s.endTurn();
    const found = byRule(qa(eventsOf(s)), rule);
    expect(found.map((d) => d.seq)).toEqual([copy2]);
    expect(found[0]?.message).toContain(`(seq ${copy}): `);
  });

  it('is silent for a real shortening', () => {
    expect(byRule(qa(eventsOf(cleanSession().script)), rule)).toEqual([]);
  });
});

describe(QA_RULES.repeatedCompaction, () => {
  const rule = QA_RULES.repeatedCompaction;

  it('flags a checkpoint compacted again before anything new was appended', () => {
    const s = new SessionScript('qa-repeat');
    const prompt = s.userTurn('Explain the surface fold in detail, please, with all the steps. '.repeat(3));
    const a = s.assistant('The fold replays events and keeps the nodes the model sees. '.repeat(5));
    const cp1 = s.compact(prompt, a.message, 'The fold was explained.');
    const cp2 = s.compact(cp1, cp1, 'Fold explained.');
    s.endTurn();
    const found = byRule(qa(eventsOf(s)), rule);
    expect(found).toEqual([
      {
        severity: 'error',
        rule,
        seq: cp2,
        line: cp2 + 2,
        message: `compaction checkpoint at seq ${cp2} compacts checkpoint ${cp1} again with no new surface node appended in between`,
      },
    ]);
  });

  it('flags it even when other old nodes are in the second range', () => {
    const s = new SessionScript('qa-repeat-2');
    const prompt = s.userTurn('First question with enough words to be worth summarizing at all. '.repeat(3));
    const a = s.assistant('First answer with enough words to be worth summarizing at all. '.repeat(3));
    const b = s.assistant('Second part of the answer, also long enough to matter here. '.repeat(3));
    const cp1 = s.compact(prompt, a.message, 'First Q and A.');
    const cp2 = s.compact(cp1, b.message, 'All of it.');
    expect(byRule(qa(eventsOf(s)), rule).map((d) => d.seq)).toEqual([cp2]);
  });

  it('is silent for nested compaction after the surface grew', () => {
    const s = new SessionScript('qa-nested');
    const prompt = s.userTurn('First question with enough words to be worth summarizing at all. '.repeat(3));
    const a = s.assistant('First answer with enough words to be worth summarizing at all. '.repeat(3));
    const cp1 = s.compact(prompt, a.message, 'First Q and A.');
    const b = s.assistant('Another long answer that makes the surface grow past the checkpoint. '.repeat(3));
    s.compact(cp1, b.message, 'Everything so far.');
    s.endTurn();
    expect(byRule(qa(eventsOf(s)), rule)).toEqual([]);
  });
});

describe(QA_RULES.checkpointNotAdjacent, () => {
  const rule = QA_RULES.checkpointNotAdjacent;

  it('warns when an event sits between the summary and its checkpoint', () => {
    const events = insertEvent(eventsOf(cleanSession().script), checkpointIndex(eventsOf(cleanSession().script)), 'hook/invoked', {
      turn: 2,
      point: 'x',
      dialect: 'codex',
      handlerId: 'h',
    });
    const cp = checkpointIndex(events);
    const found = byRule(qa(events), rule);
    expect(found).toEqual([
      {
        severity: 'warning',
        rule,
        seq: cp,
        line: cp + 2,
        message: `compaction checkpoint at seq ${cp} does not immediately follow its compaction/summary at seq ${cp - 2} (1 events in between)`,
      },
    ]);
    // The inserted event does not disturb the other rules.
    expect(qa(events).diagnostics).toEqual(found);
  });

  it('warns when an event sits between a compaction/prune and its replacement', () => {
    const base = eventsOf(cleanSession().script);
    const prune = only(base, (e) => e.type === 'compaction/prune');
    const events = insertEvent(base, prune + 1, 'plan/mode', { active: false });
    const found = byRule(qa(events), rule);
    expect(found).toEqual([
      {
        severity: 'warning',
        rule,
        seq: prune,
        line: prune + 2,
        message: `compaction/prune at seq ${prune} is not immediately followed by its tool/result replacement (seq ${prune + 1} is "plan/mode")`,
      },
    ]);
    // Still paired with its replacement for the declaration check.
    expect(qa(events).diagnostics).toEqual(found);
  });

  it('warns about a tool/result replacement with no compaction/prune before it', () => {
    const events = eventsOf(cleanSession().script);
    const prune = only(events, (e) => e.type === 'compaction/prune');
    (events[prune] as Ev).type = 'compaction/prune-draft';
    const found = byRule(qa(events), rule);
    expect(found).toEqual([
      {
        severity: 'warning',
        rule,
        seq: prune + 1,
        line: prune + 3,
        message: `tool/result replacement at seq ${prune + 1} does not follow a compaction/prune declaring it`,
      },
    ]);
  });

  it('warns about a compaction/prune that is the last event', () => {
    const s = new SessionScript('qa-prune-last');
    s.userTurn('x');
    const call = s.assistant('y', [{ name: 'r', args: {}, result: LONG_RESULT }]);
    const events = eventsOf(s);
    const r = call.results[0]!;
    events.push({
      type: 'compaction/prune',
      seq: events.length,
      time: 0,
      data: { shadowedRange: { start: r, end: r }, shadowedSeqs: [r], shadowedTokenCount: 1 },
    });
    const found = byRule(qa(events), rule);
    expect(found.map((d) => d.message)).toEqual([
      `compaction/prune at seq ${events.length - 1} is the last event: its tool/result replacement is missing`,
    ]);
  });

  it('warns about a summary with no checkpoint before a successful compaction/end', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    (events[cp] as Ev).data.source.compactionId = 'other';
    const found = byRule(qa(events), rule);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'warning', seq: cp - 1 });
    expect(found[0]?.message).toMatch(
      new RegExp(
        `^compaction/summary at seq ${cp - 1} \\(compactionId "compaction-\\d+"\\) has no checkpoint, yet its compaction/end at seq ${cp + 1} reports success$`,
      ),
    );
  });

  it('accepts a summary left by a failed commit (compaction/end with error)', () => {
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    (events[cp] as Ev).data.source.compactionId = 'other';
    (events[cp + 1] as Ev).data.error = 'CompactionError: the replacement was rejected';
    expect(byRule(qa(events), rule)).toEqual([]);
  });

  it('is silent for back-to-back summary/checkpoint and prune/replacement', () => {
    expect(byRule(qa(eventsOf(cleanSession().script)), rule)).toEqual([]);
  });
});

describe('context and streaming contract', () => {
  function mutated(): Ev[] {
    // A log with several findings, to compare runs.
    const events = eventsOf(cleanSession().script);
    const cp = checkpointIndex(events);
    (events[cp - 1] as Ev).data.shadowedSeqs = [];
    (events[cp] as Ev).sourceEventSeqs = ((events[cp] as Ev).sourceEventSeqs as number[]).slice(1);
    return events;
  }

  it('gives the same findings whether log-only events get a plan or null', () => {
    const events = mutated();
    const a = runQa(events);
    const b = runQa(events, { logOnlyAsNull: true });
    expect(a.diagnostics.length).toBeGreaterThan(1);
    expect(b.diagnostics).toEqual(a.diagnostics);
  });

  it('re-parses earlier events only at replace events', () => {
    const clean = runQa(mutated());
    for (const call of clean.eventAtCalls) expect(clean.replaceIndices).toContain(call.index);
    // A checkpoint about as large as what it replaced needs the exact sizes.
    const s = new SessionScript('qa-reparse');
    const prompt = s.userTurn('Hi.');
    s.compact(prompt, prompt, 'A longer summary than the greeting.');
    s.endTurn();
    const run = runQa(eventsOf(s));
    expect(run.eventAtCalls.map((c) => c.seq)).toEqual([prompt]);
    for (const call of run.eventAtCalls) expect(run.replaceIndices).toContain(call.index);
  });

  it('reports event seqs in a window that starts after seq 0', () => {
    const events = mutated();
    const base = runQa(events).diagnostics;
    const shifted = structuredClone(events);
    remapSeqs(shifted, (s) => s + 1000);
    const run = runQa(shifted, { baseSeq: 1000 });
    expect(run.foldError).toBeNull();
    expect(run.diagnostics.map((d) => d.seq)).toEqual(base.map((d) => (d.seq as number) + 1000));
    expect(run.diagnostics.map((d) => d.rule)).toEqual(base.map((d) => d.rule));
  });

  it('stops at the fold refusal: nothing after it is checked', () => {
    const s = new SessionScript('qa-refused');
    const prompt = s.userTurn('Hi.');
    s.userTurn('Hi again.');
    const events = eventsOf(s);
    // A refused event (invalid surfaceOp), then a checkpoint-like replace that would be flagged.
    events.push({
      type: 'user/message',
      seq: events.length,
      time: 0,
      data: { id: 'u', role: 'user', content: [], source: { kind: 'user' } },
      surfaceOp: 'Append',
    });
    events.push({
      type: 'user/message',
      seq: events.length,
      time: 0,
      data: {
        id: 'c',
        role: 'user',
        content: [{ type: 'text', text: 'x'.repeat(500) }],
        source: { kind: 'plugin', plugin: 'compact', compactionId: 'none' },
      },
      sourceEventSeqs: [prompt],
      surfaceOp: { op: 'replace', start: prompt, end: prompt },
    });
    const run = runQa(events);
    expect(run.foldError?.index).toBe(events.length - 2);
    expect(run.diagnostics).toEqual([]);
    expect(runQa(events, { logOnlyAsNull: true }).diagnostics).toEqual([]);
  });

  it('says so and stops when it is not fed every event the fold applies', () => {
    const events = eventsOf(cleanSession().script);
    const state: SurfaceState = emptySurfaceState();
    let plan: Plan | null = null;
    const check = new CompactionQaCheck({ planAt: () => plan, nodes: () => state.nodes, eventAt: (seq) => events[seq] });
    events.forEach((event, i) => {
      plan = planEvent(event, i, state.nodes, (seq) => events[seq]);
      applyPlan(state, plan);
      if (i !== 2) check.event(event, i, null); // event 2 (the first prompt) is skipped
    });
    const found = check.finish();
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ severity: 'info', rule: QA_RULES.stopped });
    expect(found[0]?.message).toMatch(/^compaction QA stopped at seq \d+: its copy of the surface no longer matches the fold's/);
    expect(check.finish()).toBe(found);
  });

  it('caps the findings listed per rule and counts the rest', () => {
    const s = new SessionScript('qa-cap');
    for (let i = 0; i < 5; i++) {
      const p = s.userTurn(`Q${i}`);
      s.compact(p, p, 'A much longer summary than the question itself ever was.');
      s.endTurn();
    }
    const run = runQa(eventsOf(s), { maxPerRule: 2 });
    const larger = byRule(run, QA_RULES.summaryLarger);
    expect(larger).toHaveLength(3);
    expect(larger[2]).toEqual({
      severity: 'error',
      rule: QA_RULES.summaryLarger,
      seq: null,
      line: null,
      message: '3 more qa/summary-larger findings not listed (first 2 shown)',
    });
  });
});
