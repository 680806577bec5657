/**
 * The log generator: determinism, well-formedness after decoding, realism features, a clean
 * fold against the independent reference fold, violation placement, speed and size.
 */
import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decompress } from 'fzstd';
import { Rng } from '../../src/core/gen/rng';
import { VIOLATION_KINDS, generateLines, generateLog, generateText, type GenMeta, type GenOptions } from '../../src/core/gen/generate';
import { expandPackedRow, isPackedRow, validatePackedRow } from '../../src/core/decode/packed';
import { referenceFold } from '../support/reference-fold';
import { HAS_SHARED, SHARED_NOTE, SPEC_VECTORS, listFiles, readJson } from '../support/shared';

type Obj = Record<string, unknown>;

interface Decoded {
  header: Obj | null;
  events: Obj[];
  /** 1-based logical line of each event. */
  lines: number[];
  packedRows: number;
  decodeError: { line: number; message: string } | null;
  /** True when the text did not end with LF (the last piece was ignored). */
  tornTail: boolean;
}

/** Fold-input decoding of logical JSONL (log-format.md §1.2), small and literal. */
function decode(text: string): Decoded {
  const pieces = text.split('\n');
  const tail = pieces.pop() ?? '';
  const out: Decoded = { header: null, events: [], lines: [], packedRows: 0, decodeError: null, tornTail: tail !== '' };
  for (let i = 0; i < pieces.length; i++) {
    const raw = pieces[i] as string;
    if (raw.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (e) {
      out.decodeError = { line: i + 1, message: String(e) };
      break;
    }
    if (i === 0 && (value as Obj | null)?.type === 'session') {
      out.header = value as Obj;
      continue;
    }
    if (isPackedRow(value)) {
      out.packedRows++;
      for (const e of expandPackedRow(validatePackedRow(value))) {
        out.events.push(e);
        out.lines.push(i + 1);
      }
    } else if (Array.isArray(value)) {
      for (const e of value) {
        out.events.push(e as Obj);
        out.lines.push(i + 1);
      }
    } else {
      out.events.push(value as Obj);
      out.lines.push(i + 1);
    }
  }
  return out;
}

function gen(opts: GenOptions): { text: string; meta: GenMeta; d: Decoded } {
  const { lines, meta } = generateLog(opts);
  let text = Array.from(lines).join('\n');
  if (meta.finalNewline) text += '\n';
  return { text, meta, d: decode(text) };
}

const data = (e: Obj): Obj => e.data as Obj;
const msgOf = (e: Obj): Obj => (e.type === 'user/message' ? data(e) : (data(e).message as Obj));
const isReplace = (e: Obj): boolean => typeof e.surfaceOp === 'object' && e.surfaceOp !== null;
const isCheckpoint = (e: Obj): boolean => e.type === 'user/message' && isReplace(e) && (data(e).source as Obj).plugin === 'compact';

/** A 20k-event log shared by the realism tests (generation is cheap, decoding a bit less). */
const big = gen({ seed: 20, events: 20_000 });

describe('Rng', () => {
  it('seed 1: is deterministic and forks are independent of parent consumption', () => {
    const a = new Rng(1);
    const b = new Rng(1);
    const xs = Array.from({ length: 50 }, () => a.u32());
    expect(Array.from({ length: 50 }, () => b.u32())).toEqual(xs);
    expect(new Rng(2).u32()).not.toBe(new Rng(1).u32());
    const p = new Rng(1);
    const f1 = p.fork('x').u32();
    p.u32();
    p.u32();
    expect(p.fork('x').u32()).toBe(f1);
    expect(p.fork('y').u32()).not.toBe(f1);
  });

  it('seed 3: helpers stay in range', () => {
    const r = new Rng(3);
    for (let i = 0; i < 2000; i++) {
      const n = r.int(-3, 5);
      expect(n).toBeGreaterThanOrEqual(-3);
      expect(n).toBeLessThanOrEqual(5);
      expect(Number.isInteger(n)).toBe(true);
      const f = r.next();
      expect(f >= 0 && f < 1).toBe(true);
    }
    expect(['a', 'b', 'c']).toContain(r.pick(['a', 'b', 'c']));
    expect(r.chance(0)).toBe(false);
    expect(r.chance(1)).toBe(true);
    expect(() => r.pick([])).toThrow();
  });
});

describe('generateLog: determinism and shape', () => {
  it('seed 7: same seed gives identical text; other seeds differ', () => {
    const a = generateText({ seed: 7, events: 3000 });
    expect(generateText({ seed: 7, events: 3000 })).toBe(a);
    expect(generateText({ seed: 8, events: 3000 })).not.toBe(a);
    // generateLines yields the same lines and returns the meta.
    const it7 = generateLines({ seed: 7, events: 3000 });
    const lines: string[] = [];
    let r = it7.next();
    while (!r.done) {
      lines.push(r.value);
      r = it7.next();
    }
    expect(lines.join('\n') + '\n').toBe(a);
    expect(r.value.lines).toBe(lines.length);
  });

  it('seed 7: header first, then contiguous seqs after expanding packed rows; stops at a turn boundary', () => {
    const { meta, d } = gen({ seed: 7, events: 5000, sessionId: 's-7' });
    expect(d.decodeError).toBeNull();
    expect(d.tornTail).toBe(false);
    expect(d.header).toEqual({
      type: 'session',
      version: 0,
      id: 's-7',
      createdAt: 1785400000000,
      cwd: '/home/dev/surface-lens',
      delegationDepth: 0,
    });
    expect(d.packedRows).toBeGreaterThan(0);
    d.events.forEach((e, i) => expect(e.seq).toBe(i));
    expect(meta.events).toBe(d.events.length);
    expect(meta.events).toBeGreaterThanOrEqual(5000);
    expect(d.events[d.events.length - 1]?.type).toBe('turn/end');
    expect(meta.openTurn).toBeNull();
    for (const e of d.events) {
      expect(typeof e.type === 'string' && e.type.includes('/')).toBe(true);
      expect(Number.isSafeInteger(e.time)).toBe(true);
      expect(Object.keys(e).every((k) => ['type', 'seq', 'time', 'data', 'sourceEventSeqs', 'surfaceOp'].includes(k))).toBe(true);
    }
  });

  it('seed 5: packed and unpacked logs decode to the same events', () => {
    const packed = gen({ seed: 5, events: 6000 });
    const plain = gen({ seed: 5, events: 6000, packChunks: false });
    expect(plain.d.packedRows).toBe(0);
    expect(packed.d.packedRows).toBeGreaterThan(0);
    expect(plain.d.events).toEqual(packed.d.events);
    expect(plain.text.length).toBeGreaterThan(packed.text.length);
  });

  it('seed 20: packed rows follow the writer rules (runs of 3+, one kind/turn/step/index/id/name)', () => {
    for (const line of big.text.split('\n')) {
      if (
        !line.startsWith('{"type":"text-chunks"') &&
        !line.startsWith('{"type":"reasoning-chunks"') &&
        !line.startsWith('{"type":"tool-call-chunks"')
      )
        continue;
      const row = JSON.parse(line) as Obj;
      const members = (data(row).texts ?? data(row).args) as string[];
      expect(members.length).toBeGreaterThanOrEqual(3);
      expect((data(row).dt as number[]).every((x) => Number.isSafeInteger(x))).toBe(true);
    }
  });

  it('seed 20: every surface-eligible event has a surfaceOp, log-only events have no markers', () => {
    for (const e of big.d.events) {
      const eligible = e.type === 'user/message' || e.type === 'assistant/message' || e.type === 'tool/result';
      if (eligible) expect(e.surfaceOp).toBeDefined();
      else {
        expect(e.surfaceOp).toBeUndefined();
        expect(e.sourceEventSeqs).toBeUndefined();
      }
    }
  });
});

describe('generateLog: realism', () => {
  const events = big.d.events;
  const bySeq = (s: number): Obj => events[s] as Obj;

  it('seed 20: folds with no surface error and matches the generator surface', () => {
    const fold = referenceFold(events);
    expect(fold.error).toBeNull();
    expect(fold.nodes).toEqual(big.meta.nodes);
    expect(fold.replacements.length).toBe(big.meta.stats.compactions + big.meta.stats.prunes);
  });

  it('seed 20: compactions, nested compactions, start>end ranges, failures, manual /compact, prunes and empty messages occur', () => {
    const checkpoints = events.filter(isCheckpoint);
    const prunes = events.filter((e) => e.type === 'tool/result' && isReplace(e));
    const cpSeqs = new Set(checkpoints.map((e) => e.seq));
    const nested = checkpoints.filter((e) => (e.sourceEventSeqs as number[]).some((s) => cpSeqs.has(s)));
    const backwards = checkpoints.filter((e) => ((e.surfaceOp as Obj).start as number) > ((e.surfaceOp as Obj).end as number));
    const failed = events.filter((e) => e.type === 'compaction/end' && data(e).error !== undefined);
    const manual = events.filter((e) => e.type === 'compaction/start' && data(e).turn === null);
    const empty = events.filter((e) => e.type === 'assistant/message' && (msgOf(e).content as unknown[]).length === 0);
    expect(checkpoints.length).toBeGreaterThanOrEqual(3);
    expect(nested.length).toBeGreaterThanOrEqual(1);
    expect(backwards.length).toBeGreaterThanOrEqual(1);
    expect(failed.length).toBeGreaterThanOrEqual(1);
    expect(manual.length).toBeGreaterThanOrEqual(1);
    expect(prunes.length).toBeGreaterThanOrEqual(1);
    expect(empty.length).toBeGreaterThanOrEqual(1);
    expect(big.meta.stats).toMatchObject({
      compactions: checkpoints.length,
      nestedCompactions: nested.length,
      startAfterEndRanges: backwards.length,
      failedCompactions: failed.length,
      prunes: prunes.length,
      emptyAssistantMessages: empty.length,
    });
    for (const type of [
      'approval/asked',
      'hook/invoked',
      'todo/write',
      'llm/retry',
      'session/title',
      'request/header',
      'request/context',
      'command/run',
      'tool/code-dispatch',
    ]) {
      expect(
        events.some((e) => e.type === type),
        type,
      ).toBe(true);
    }
  });

  it('seed 20: compaction brackets are complete and checkpoints cite start, summary and the shadowed nodes (§6.1)', () => {
    const fold = referenceFold(events);
    const replacementBySeq = new Map(fold.replacements.map((r) => [r.seq, r]));
    for (const cp of events.filter(isCheckpoint)) {
      const seq = cp.seq as number;
      const summary = bySeq(seq - 1);
      const start = events.find((e) => e.type === 'compaction/start' && data(e).compactionId === data(summary).compactionId) as Obj;
      const end = bySeq(seq + 1);
      expect(summary.type).toBe('compaction/summary');
      expect(end.type).toBe('compaction/end');
      expect(data(end).error).toBeUndefined();
      const shadowed = data(summary).shadowedSeqs as number[];
      expect(replacementBySeq.get(seq)?.shadowedSeqs).toEqual(shadowed);
      expect(data(summary).shadowedRange).toEqual({ start: shadowed[0], end: shadowed[shadowed.length - 1] });
      expect(cp.surfaceOp).toEqual({ op: 'replace', start: shadowed[0], end: shadowed[shadowed.length - 1] });
      expect(cp.sourceEventSeqs).toEqual([start.seq, summary.seq, ...shadowed]);
      expect((data(cp).source as Obj).compactionId).toBe(data(summary).compactionId);
      expect(data(start).turn).toBe(data(end).turn);
    }
    // Manual compactions: command/run … command/done with the summary seq.
    for (const start of events.filter((e) => e.type === 'compaction/start' && data(e).turn === null)) {
      const cmd = data(start).sourceCommandId;
      expect(events.some((e) => e.type === 'command/run' && data(e).commandId === cmd && data(e).name === 'compact')).toBe(true);
      const done = events.find((e) => e.type === 'command/done' && data(e).commandId === cmd) as Obj;
      expect(done).toBeDefined();
    }
  });

  it('seed 20: compacted ranges never split a tool call from its result (balanced cuts, §6.4)', () => {
    const balance = new Map<number, number>();
    const nodes: number[] = [];
    let checked = 0;
    for (const e of events) {
      const seq = e.seq as number;
      if (e.type === 'assistant/message') balance.set(seq, (msgOf(e).content as Obj[]).filter((b) => b.type === 'tool-call').length);
      else if (e.type === 'tool/result') balance.set(seq, -1);
      else if (e.type === 'user/message') balance.set(seq, 0);
      else continue;
      if (e.surfaceOp === 'append') {
        nodes.push(seq);
        continue;
      }
      const op = e.surfaceOp as { start: number; end: number };
      const a = nodes.indexOf(op.start);
      const b = nodes.indexOf(op.end);
      // Prunes swap one tool result for another (balance unchanged); only checkpoints cut ranges.
      if (e.type === 'user/message') {
        let before = 0;
        for (let i = 0; i < a; i++) before += balance.get(nodes[i]!) as number;
        let through = before;
        for (let i = a; i <= b; i++) through += balance.get(nodes[i]!) as number;
        expect(before).toBe(0);
        expect(through).toBe(0);
        checked++;
      }
      nodes.splice(a, b - a + 1, seq);
    }
    expect(checked).toBeGreaterThan(3);
  });

  it('seed 20: prunes copy the original verbatim except the first block content (§6.3)', () => {
    const marker = '\n\n[... tool result middle pruned ...]\n\n';
    for (const copy of events.filter((e) => e.type === 'tool/result' && isReplace(e))) {
      const s = (copy.sourceEventSeqs as number[])[0]!;
      const original = bySeq(s);
      expect(copy.sourceEventSeqs).toEqual([s]);
      expect(copy.surfaceOp).toEqual({ op: 'replace', start: s, end: s });
      const prune = bySeq((copy.seq as number) - 1);
      expect(prune.type).toBe('compaction/prune');
      expect(data(prune)).toMatchObject({ shadowedRange: { start: s, end: s }, shadowedSeqs: [s] });
      const text = (((msgOf(original).content as Obj[])[0] as Obj).content as Obj[])[0]?.text as string;
      const cut = (((msgOf(copy).content as Obj[])[0] as Obj).content as Obj[])[0]?.text as string;
      expect([...text].length).toBeGreaterThan(8192);
      expect(cut).toBe([...text].slice(0, 4096).join('') + marker + [...text].slice(-1024).join(''));
      const mask = (e: Obj): unknown => ({
        ...data(e),
        message: { ...msgOf(e), content: [{ ...((msgOf(e).content as Obj[])[0] as Obj), content: null }] },
      });
      expect(mask(copy)).toEqual(mask(original));
    }
  });

  it('seed 20: assistant messages cite their chunks; tool results cite their call; message ids are unique', () => {
    const ids = new Set<string>();
    for (const e of events) {
      if ((e.type === 'user/message' || e.type === 'assistant/message' || e.type === 'tool/result') && e.surfaceOp === 'append') {
        const id = msgOf(e).id as string;
        expect(ids.has(id)).toBe(false);
        ids.add(id);
      }
      if (e.type === 'assistant/message') {
        const src = e.sourceEventSeqs as number[];
        for (const s of src) {
          const chunk = bySeq(s);
          expect(chunk.type).toBe('assistant/chunk');
          expect([data(chunk).turn, data(chunk).step]).toEqual([data(e).turn, data(e).step]);
        }
        expect(msgOf(e).source).toMatchObject({ kind: 'model', provider: 'deepseek-official' });
      }
      if (e.type === 'tool/result' && e.surfaceOp === 'append') {
        const call = bySeq((e.sourceEventSeqs as number[])[0]!);
        expect(call.type).toBe('tool/call');
        const m = msgOf(e);
        expect(m.role).toBe('user');
        expect(m.source).toEqual({ kind: 'tool', callId: data(call).callId });
        expect(m.content).toHaveLength(1);
        expect(((m.content as Obj[])[0] as Obj).toolCallId).toBe(data(call).callId);
      }
    }
  });

  it('seed 20: turns and steps are well nested (relational session checks, §7.1)', () => {
    let openTurn: number | null = null;
    let openStep: number | null = null;
    let nextTurn = 1;
    let nextStep = 1;
    let pending = new Set<string>();
    for (const e of events) {
      const d = data(e);
      switch (e.type) {
        case 'turn/start':
          expect(openTurn).toBeNull();
          expect(d.turn).toBe(nextTurn);
          openTurn = d.turn as number;
          nextStep = 1;
          break;
        case 'turn/end':
          expect(d.turn).toBe(openTurn);
          expect(openStep).toBeNull();
          openTurn = null;
          nextTurn++;
          break;
        case 'step/start':
          expect(d.turn).toBe(openTurn);
          expect(openStep).toBeNull();
          expect(d.step).toBe(nextStep);
          openStep = d.step as number;
          break;
        case 'step/end':
          expect([d.turn, d.step]).toEqual([openTurn, openStep]);
          pending = new Set();
          openStep = null;
          nextStep++;
          break;
        case 'assistant/chunk':
        case 'assistant/message':
        case 'tool/call':
          expect([d.turn, d.step]).toEqual([openTurn, openStep]);
          if (e.type === 'tool/call') pending.add(d.callId as string);
          break;
        case 'tool/result':
          expect(openTurn).not.toBeNull();
          if (e.surfaceOp === 'append') {
            const callId = (msgOf(e).source as Obj).callId as string;
            expect(pending.has(callId)).toBe(true);
            pending.delete(callId);
          }
          break;
        case 'todo/write':
        case 'request/header':
        case 'request/context':
          expect(openTurn).not.toBeNull();
          break;
        default:
          break;
      }
    }
  });

  it('seed 9: openTail ends inside an open turn and still folds cleanly', () => {
    const { meta, d } = gen({ seed: 9, events: 4000, openTail: true });
    expect(d.decodeError).toBeNull();
    expect(meta.openTurn).not.toBeNull();
    const starts = d.events.filter((e) => e.type === 'turn/start').length;
    const ends = d.events.filter((e) => e.type === 'turn/end').length;
    expect(starts).toBe(ends + 1);
    expect(meta.openTurn).toBe(starts);
    expect(referenceFold(d.events).error).toBeNull();
    expect(referenceFold(d.events).nodes).toEqual(meta.nodes);
  });

  it('seed 4: compaction can be disabled and pruning turned off', () => {
    const { meta, d } = gen({ seed: 4, events: 8000, compaction: false, pruneThreshold: Infinity });
    expect(d.events.some((e) => String(e.type).startsWith('compaction/'))).toBe(false);
    expect(meta.stats.compactions + meta.stats.prunes).toBe(0);
    expect(referenceFold(d.events).error).toBeNull();
  });

  it('seeds 1–6: small logs with aggressive compaction fold cleanly', () => {
    for (let seed = 1; seed <= 6; seed++) {
      const { meta, d } = gen({
        seed,
        events: 3000,
        compaction: { thresholdTokens: 1500, manualRate: 0.2, failureRate: 0.3 },
        pruneThreshold: 600,
        longToolResultRate: 0.3,
      });
      const fold = referenceFold(d.events);
      expect(fold.error, `seed ${seed}`).toBeNull();
      expect(fold.nodes).toEqual(meta.nodes);
      expect(meta.stats.compactions).toBeGreaterThan(0);
      expect(meta.stats.prunes).toBeGreaterThan(0);
    }
  });
});

describe('generateLog: violations', () => {
  it.each(VIOLATION_KINDS.map((kind, i) => [kind, 30 + i] as const))('%s (seed %i): exactly one, located where meta says', (kind, seed) => {
    const violationAt = 1500;
    const { text, meta, d } = gen({ seed, events: 4000, violation: kind, violationAt });
    const v = meta.violation;
    expect(v).not.toBeNull();
    if (v === null) return;
    expect(v.kind).toBe(kind);
    expect(v.index).toBeGreaterThanOrEqual(violationAt);
    const rawLines = text.split('\n');
    if (kind === 'unparsable-line') {
      expect(d.decodeError?.line).toBe(v.line);
      expect(d.events.length).toBe(v.index);
      expect(referenceFold(d.events).error).toBeNull();
      // The lines after it are intact and carry on the numbering.
      expect(JSON.parse(rawLines[v.line] as string).seq ?? JSON.parse(rawLines[v.line] as string).seq0).toBe(v.seq + 1);
      return;
    }
    if (kind === 'torn-tail') {
      expect(meta.finalNewline).toBe(false);
      expect(text.endsWith('\n')).toBe(false);
      expect(d.tornTail).toBe(true);
      expect(rawLines.length).toBe(v.line);
      expect(d.decodeError).toBeNull();
      expect(d.events.length).toBe(v.index);
      expect(meta.openTurn).not.toBeNull();
      expect(referenceFold(d.events).error).toBeNull();
      return;
    }
    expect(d.decodeError).toBeNull();
    const fold = referenceFold(d.events);
    expect(fold.error).toEqual({ index: v.index, seq: v.seq, message: v.foldMessage });
    expect(d.lines[v.index]).toBe(v.line);
    // The log before the violation folds cleanly.
    expect(referenceFold(d.events.slice(0, v.index)).error).toBeNull();
  });

  it('seed 2: a clean log and a violated one share their prefix (generic kinds)', () => {
    const clean = generateText({ seed: 2, events: 3000 }).split('\n');
    const { meta, lines } = (() => {
      const g = generateLog({ seed: 2, events: 3000, violation: 'sources-not-earlier', violationAt: 1000 });
      return { lines: Array.from(g.lines), meta: g.meta };
    })();
    const line = meta.violation?.line ?? 0;
    expect(line).toBeGreaterThan(1);
    expect(lines.slice(0, line - 1)).toEqual(clean.slice(0, line - 1));
    expect(lines[line - 1]).not.toBe(clean[line - 1]);
  });
});

describe('generateLog: speed and size', () => {
  it('seed 1: 200k events stream quickly', () => {
    const t0 = performance.now();
    let n = 0;
    const g = generateLines({ seed: 1, events: 200_000 });
    let r = g.next();
    while (!r.done) {
      n += r.value.length + 1;
      r = g.next();
    }
    const ms = performance.now() - t0;
    expect(r.value.events).toBeGreaterThanOrEqual(200_000);
    expect(n).toBeGreaterThan(0);
    expect(ms).toBeLessThan(10_000);
  });

  it('seed 1: size report for 100k events', () => {
    const t0 = performance.now();
    let bytes = 0;
    const encoder = new TextEncoder();
    const g = generateLines({ seed: 1, events: 100_000 });
    let r = g.next();
    while (!r.done) {
      bytes += encoder.encode(r.value).length + 1;
      r = g.next();
    }
    const ms = performance.now() - t0;
    const meta = r.value;
    const perEvent = bytes / meta.events;
    console.log(
      `gen size report: ${meta.events} events, ${meta.lines} lines, ${bytes} bytes, ${perEvent.toFixed(1)} bytes/event, ` +
        `${Math.round(ms)} ms; stats ${JSON.stringify(meta.stats)}`,
    );
    expect(perEvent).toBeGreaterThan(70);
    expect(perEvent).toBeLessThan(100);
  });
});

describe.skipIf(!HAS_SHARED)(`referenceFold against the spec vectors${SHARED_NOTE}`, () => {
  type Expected = { nodes: number[]; replacements: unknown[]; error: { seq: unknown; message: string } | null };
  const expected = HAS_SHARED ? readJson<Record<string, Expected>>(join(SPEC_VECTORS, 'expected.json')) : {};
  const files = listFiles(SPEC_VECTORS, (n) => n.endsWith('.jsonl') || n.endsWith('.zstd'));

  it.each(files)('%s', (file) => {
    const bytes = readFileSync(join(SPEC_VECTORS, file));
    const text = file.endsWith('.zstd') ? new TextDecoder().decode(decompress(bytes)) : bytes.toString('utf8');
    const d = decode(text);
    const fold = referenceFold(d.events);
    const want = expected[file];
    expect(want).toBeDefined();
    expect({
      nodes: fold.nodes,
      replacements: fold.replacements,
      error: fold.error && { seq: fold.error.seq, message: fold.error.message },
    }).toEqual(want);
  });
});
