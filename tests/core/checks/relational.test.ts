import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { RelationalCheck } from '../../../src/core/checks/relational';
import { Rng } from '../../../src/core/gen/rng';
import { HAS_SHARED, listFiles, readJson, SHARED_NOTE, SPEC_VECTORS, UPSTREAM_FIXTURES } from '../../support/shared';
import { decodeJsonl } from './helpers';

type Found = { seq: number; message: string } | null;

function run(events: readonly unknown[]) {
  const check = new RelationalCheck();
  events.forEach((value, i) => check.event(value, i, i + 2));
  const v = check.violations();
  const pick = (x: { index: number; message: string } | null): Found => (x === null ? null : { seq: x.index, message: x.message });
  return { session: pick(v.session), compaction: pick(v.compaction), commands: pick(v.commands), diagnostics: check.finish() };
}

const ev = (seq: number, type: string, data: unknown, extra: Record<string, unknown> = {}) => ({ type, seq, time: 0, data, ...extra });
const C = '@deepseek-ai/dsh-compaction';
const cmp = (message: string) => `invariant violated by "${C}": ${message}`;

describe('RelationalCheck families', () => {
  it('reports each family once, as warnings', () => {
    const { diagnostics } = run([ev(0, 'step/start', { turn: 1, step: 1 }), ev(1, 'command/done', { commandId: 'x', kind: 'success' })]);
    expect(diagnostics.map((d) => [d.severity, d.rule, d.seq, d.line])).toEqual([
      ['warning', 'relational/session', 0, 2],
      ['warning', 'relational/commands', 1, 3],
    ]);
    expect(diagnostics[1]?.message).toBe(
      'invariant violated by "@deepseek-ai/dsh-commands": command/done "x" pairs no prior command/run in this log',
    );
  });

  it('lets a stale compaction start cross a turn boundary', () => {
    const log = [
      ev(0, 'turn/start', { turn: 1 }),
      ev(1, 'compaction/start', { compactionId: 'c', turn: 1 }),
      ev(2, 'turn/end', { turn: 1, reason: { kind: 'interrupted' } }),
      ev(3, 'session/end-seed', {}),
    ];
    expect(run(log).compaction).toBeNull();
    expect(run(log.slice(0, 3)).compaction).toEqual({ seq: 2, message: cmp('turn/end cannot cross an open compaction for turn 1') });
  });

  it('reports the boundary when the start is matched before any end-seed', () => {
    const log = [
      ev(0, 'compaction/start', { compactionId: 'c', turn: null }),
      ev(1, 'turn/start', { turn: 1 }),
      ev(2, 'compaction/end', { compactionId: 'c', turn: null, error: 'x' }),
      ev(3, 'session/end-seed', {}),
    ];
    expect(run(log).compaction).toEqual({ seq: 1, message: cmp('turn/start cannot cross an open standalone compaction') });
  });

  it('reports a violation held behind a stale boundary once the start proves stale', () => {
    const log = [
      ev(0, 'turn/start', { turn: 1 }),
      ev(1, 'compaction/start', { compactionId: 'c', turn: 1 }),
      ev(2, 'turn/end', { turn: 1, reason: { kind: 'completed' } }),
      ev(3, 'compaction/summary', { compactionId: 'c', shadowedSeqs: [0], shadowedRange: { start: 0, end: 0 }, shadowedTokenCount: 1 }),
      ev(4, 'session/end-seed', {}),
    ];
    expect(run(log).compaction).toEqual({ seq: 3, message: cmp('compaction/summary for turn 1 appended outside any open turn') });
    expect(run(log.slice(0, 4)).compaction).toEqual({ seq: 2, message: cmp('turn/end cannot cross an open compaction for turn 1') });
  });

  it('checks command/done citations against seqs and command events', () => {
    const run0 = ev(0, 'command/run', { commandId: 'a', name: 'x' });
    const done = (seq: number, source: unknown) => ev(seq, 'command/done', { commandId: 'a', kind: 'success', sourceEventSeq: source });
    const message = (s: unknown) =>
      `invariant violated by "@deepseek-ai/dsh-commands": command/done "a" has invalid sourceEventSeq ${String(s)}`;
    expect(run([run0, ev(1, 'plan/mode', {}), done(2, 1)]).commands).toBeNull();
    expect(run([run0, done(1, 0)]).commands).toEqual({ seq: 1, message: message(0) });
    expect(run([run0, done(1, 1)]).commands).toEqual({ seq: 1, message: message(1) });
    expect(run([run0, done(1, '0')]).commands).toEqual({ seq: 1, message: message('0') });
    // seq runs ahead of the position: the cited position is read when it arrives.
    expect(run([run0, done(5, 2), ev(2, 'plan/mode', {})]).commands).toBeNull();
    expect(run([run0, done(5, 3), ev(2, 'plan/mode', {})]).commands).toEqual({ seq: 1, message: message(3) });
  });
});

interface RelExpected {
  session: Found;
  compaction: Found;
}

describe.skipIf(!HAS_SHARED)(`relational-expected.json vectors${SHARED_NOTE}`, () => {
  const expected = HAS_SHARED ? readJson<Record<string, RelExpected>>(join(SPEC_VECTORS, 'relational-expected.json')) : {};
  const vectors = listFiles(SPEC_VECTORS, (name) => name.endsWith('.jsonl'));

  it('covers every JSONL vector', () => {
    expect(vectors).toEqual(Object.keys(expected).sort());
  });

  it.each(vectors)('%s', (name) => {
    const want = expected[name] as RelExpected;
    const { events } = decodeJsonl(readFileSync(join(SPEC_VECTORS, name), 'utf8'));
    const got = run(events.map((e) => e.value));
    expect({ session: got.session, compaction: got.compaction }).toEqual(want);
    expect(got.commands).toBeNull();
  });
});

describe.skipIf(!HAS_SHARED)(`upstream fixtures${SHARED_NOTE}`, () => {
  it.each(listFiles(UPSTREAM_FIXTURES, (name) => name.endsWith('.jsonl')))('%s does not crash', (name) => {
    const { events } = decodeJsonl(readFileSync(join(UPSTREAM_FIXTURES, name), 'utf8'));
    const { diagnostics } = run(events.map((e) => e.value));
    for (const d of diagnostics) {
      expect(d.severity).toBe('warning');
      expect(d.message).toMatch(/^invariant violated by "@deepseek-ai\/dsh-(session|compaction|commands)": /);
    }
  });
});

// --- Oracle: the compaction and commands families written as upstream's batch replay (a
// stale-start pre-pass over the whole array, direct `events[source]` reads), compared with the
// streaming check on seeded random logs.

/* eslint-disable @typescript-eslint/no-explicit-any -- the oracle reads arbitrary events */
function batchCompaction(events: any[]): Found {
  const stale = new Set<number>();
  let openStart: number | undefined;
  for (const e of events) {
    if (e.type === 'compaction/start') openStart = e.seq;
    else if (e.type === 'compaction/end') openStart = undefined;
    else if (e.type === 'session/end-seed') {
      if (openStart !== undefined) stale.add(openStart);
      openStart = undefined;
    }
  }
  let openTurn: any = null;
  let open: any;
  const owner = (o: any, t: string): string | null => {
    if (o === null) return openTurn === null ? null : `${t} is standalone but turn ${openTurn} is open`;
    if (openTurn === null) return `${t} for turn ${o} appended outside any open turn`;
    return o !== openTurn ? `${t} names turn ${o} but open turn is ${openTurn}` : null;
  };
  for (const e of events) {
    const d = e.data;
    const fail = (m: string): Found => ({ seq: e.seq, message: m });
    if ((open === undefined || !stale.has(open.startSeq)) && open && (e.type === 'turn/start' || e.type === 'turn/end')) {
      return fail(`${e.type} cannot cross an open ${open.turn === null ? 'standalone compaction' : `compaction for turn ${open.turn}`}`);
    }
    if (e.type === 'session/end-seed') open = undefined;
    else if (e.type === 'compaction/start') {
      if (open)
        return fail(`compaction/start while ${open.turn === null ? 'standalone compaction' : `turn ${open.turn}`} is still compacting`);
      const o = owner(d.turn, e.type);
      if (o) return fail(o);
      open = { id: d.compactionId, turn: d.turn, startSeq: e.seq, summarized: false };
    } else if (e.type === 'compaction/summary') {
      if (!open) return fail('compaction/summary has no matching compaction/start');
      if (d.compactionId !== open.id) return fail(`compaction/summary id ${d.compactionId} does not match compaction/start id ${open.id}`);
      const o = owner(open.turn, e.type);
      if (o) return fail(o);
      if (open.summarized) return fail('compaction/summary repeated within one compaction');
      open.summarized = true;
    } else if (e.type === 'compaction/end') {
      if (!open) return fail('compaction/end has no matching compaction/start');
      if (d.compactionId !== open.id) return fail(`compaction/end id ${d.compactionId} does not match compaction/start id ${open.id}`);
      if (d.turn !== open.turn) return fail(`compaction/end owner ${d.turn} does not match compaction/start owner ${open.turn}`);
      const o = owner(open.turn, e.type);
      if (o) return fail(o);
      if (d.error === undefined && !open.summarized) return fail('successful compaction/end requires one compaction/summary');
      open = undefined;
    }
    if (e.type === 'turn/start') openTurn = d.turn;
    if (e.type === 'turn/end') openTurn = null;
  }
  return null;
}

function batchCommands(events: any[]): Found {
  const runs = new Set<unknown>();
  for (const [i, e] of events.entries()) {
    const d = e.data;
    const fail = (m: string): Found => ({ seq: i, message: m });
    if (e.type === 'command/run') {
      if (runs.has(d.commandId)) return fail(`command/run repeats commandId ${JSON.stringify(d.commandId)}`);
      runs.add(d.commandId);
    } else if (e.type === 'command/done') {
      if (!runs.has(d.commandId)) return fail(`command/done ${JSON.stringify(d.commandId)} pairs no prior command/run in this log`);
      const s = d.sourceEventSeq;
      const target = s === undefined ? undefined : events[s];
      if (
        s !== undefined &&
        (d.kind !== 'success' ||
          !Number.isSafeInteger(s) ||
          s < 0 ||
          s >= e.seq ||
          target?.seq !== s ||
          target.type === 'command/run' ||
          target.type === 'command/done')
      ) {
        return fail(`command/done ${JSON.stringify(d.commandId)} has invalid sourceEventSeq ${s}`);
      }
    }
  }
  return null;
}
/* eslint-enable @typescript-eslint/no-explicit-any */

function randomCompactionLog(rng: Rng): unknown[] {
  const out: unknown[] = [];
  let turn = 0;
  let openTurn: number | null = null;
  const n = rng.int(1, 14);
  for (let seq = 0; seq < n; seq++) {
    const t = rng.pick(['turn/start', 'turn/end', 'start', 'start', 'summary', 'end', 'end', 'end-seed', 'plan/mode']);
    const id = rng.pick(['a', 'b']);
    const owner = rng.chance(0.7) ? openTurn : rng.pick([null, 1, 2]);
    if (t === 'turn/start') {
      turn += 1;
      openTurn = turn;
      out.push(ev(seq, t, { turn }));
    } else if (t === 'turn/end') {
      out.push(ev(seq, t, { turn: openTurn ?? turn, reason: { kind: 'completed' } }));
      openTurn = null;
    } else if (t === 'start') out.push(ev(seq, 'compaction/start', { compactionId: id, turn: owner }));
    else if (t === 'summary')
      out.push(
        ev(seq, 'compaction/summary', { compactionId: id, shadowedSeqs: [0], shadowedRange: { start: 0, end: 0 }, shadowedTokenCount: 3 }),
      );
    else if (t === 'end')
      out.push(ev(seq, 'compaction/end', { compactionId: id, turn: owner, ...(rng.chance(0.5) ? { error: 'e' } : {}) }));
    else if (t === 'end-seed') out.push(ev(seq, 'session/end-seed', {}));
    else out.push(ev(seq, t, {}));
  }
  return out;
}

function randomCommandsLog(rng: Rng): unknown[] {
  // Seqs often run ahead of positions, so citations of positions not decoded yet are common.
  const out: unknown[] = [ev(0, 'command/run', { commandId: 'a' })];
  let seq = 0;
  const n = rng.int(1, 10);
  for (let i = 1; i < n; i++) {
    seq += rng.chance(0.35) ? rng.int(2, 4) : 1;
    if (rng.chance(0.1)) seq = i;
    const id = rng.pick(['a', 'a', 'b']);
    const t = rng.weighted([
      ['command/run', 1],
      ['command/done', 2],
      ['plan/mode', 2],
    ] as const);
    const source = rng.chance(0.8) ? rng.int(0, Math.max(0, seq - 1)) : rng.int(0, n + 3);
    const data =
      t === 'command/done'
        ? { commandId: id, kind: rng.chance(0.9) ? 'success' : 'error', ...(rng.chance(0.8) ? { sourceEventSeq: source } : {}) }
        : { commandId: id };
    out.push(ev(seq, t, data));
  }
  return out;
}

describe('streaming families agree with the batch replay (seeded)', () => {
  it.each(Array.from({ length: 20 }, (_, k) => k))('compaction, seed block %i', (block) => {
    for (let k = 0; k < 200; k++) {
      const seed = `compaction-${block}-${k}`;
      const log = randomCompactionLog(new Rng(seed));
      expect(run(log).compaction, seed).toEqual(oraclePrefixed(batchCompaction(log as never[]), C));
    }
  });

  it.each(Array.from({ length: 20 }, (_, k) => k))('commands, seed block %i', (block) => {
    for (let k = 0; k < 200; k++) {
      const seed = `commands-${block}-${k}`;
      const log = randomCommandsLog(new Rng(seed));
      expect(run(log).commands, seed).toEqual(oraclePrefixed(batchCommands(log as never[]), '@deepseek-ai/dsh-commands'));
    }
  });
});

function oraclePrefixed(found: Found, pkg: string): Found {
  return found === null ? null : { seq: found.seq, message: `invariant violated by "${pkg}": ${found.message}` };
}
