/**
 * The analyzer takes a packed row's members in one call (`SessionAnalyzer.packedRow`) and builds
 * only the member events a check needs. That must change nothing: every analysis here is made
 * twice, once as shipped and once with the fast path removed (the scanner then builds every
 * member and calls `event` for each), and the two must agree on everything the analysis holds.
 * Inputs: generated logs with each injected violation, logs whose packed rows were damaged in
 * ways that reach the fast path's fallbacks (seq gaps at a row, a row that opens the log, rows
 * that do not start with `{`), and the project's and upstream's fixtures. Seeds are in the names.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import type { LoadResult } from '../../../src/core/analyze/open';
import { SessionAnalyzer } from '../../../src/core/analyze/session';
import type { SessionAnalysis } from '../../../src/core/analyze/session';
import { Rng } from '../../../src/core/gen/rng';
import { VIOLATION_KINDS, generateLog, generateText } from '../../../src/core/gen/generate';
import { HAS_SHARED, PACKAGED_FIXTURES, UPSTREAM_FIXTURES, listFiles } from '../../support/shared';

const proto = SessionAnalyzer.prototype as { packedRow?: unknown };
const fastPath = proto.packedRow;

afterEach(() => {
  proto.packedRow = fastPath;
});

async function open(bytes: Uint8Array, name: string, fast: boolean): Promise<LoadResult> {
  proto.packedRow = fast ? fastPath : undefined;
  try {
    return await openBytes(bytes, { name, checkpointEvery: 64 });
  } finally {
    proto.packedRow = fastPath;
  }
}

/** Everything an analysis holds, as plain data (typed arrays as arrays). */
function snapshot(s: SessionAnalysis): unknown {
  const steps = s.index.steps;
  const probes = [0, 1, Math.floor(steps / 3), Math.floor(steps / 2), steps - 1, steps].filter((k) => k >= 0 && k <= steps);
  const events: unknown[] = [];
  for (let i = 0; i < s.log.length; i += Math.max(1, Math.floor(s.log.length / 50))) events.push(s.log.event(i));
  return {
    path: s.path,
    format: s.format,
    baseSeq: s.baseSeq,
    length: s.log.length,
    events,
    origins: Array.from({ length: Math.min(s.log.length, 400) }, (_, i) => s.log.origin(i)),
    columns: {
      typeId: Array.from(s.columns.typeId),
      types: s.columns.types,
      time: Array.from(s.columns.time),
      op: Array.from(s.columns.op),
      citing: Array.from(s.columns.citing),
      sourceOffset: Array.from(s.columns.sourceOffset),
      sources: Array.from(s.columns.sources),
    },
    fold: s.fold,
    decodeError: s.decodeError,
    diagnostics: s.diagnostics,
    index: {
      steps,
      nodeCount: s.index.nodeCount,
      at: probes.map((k) => [k, s.index.nodesAt(k), s.index.replaceGenerationAt(k), s.index.messagesAt(k)]),
    },
  };
}

async function expectSame(bytes: Uint8Array, name: string): Promise<LoadResult> {
  const fast = await open(bytes, name, true);
  const plain = await open(bytes, name, false);
  expect(fast.findings).toEqual(plain.findings);
  expect(fast.sessions.map(snapshot)).toEqual(plain.sessions.map(snapshot));
  return fast;
}

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const isPackedLine = (line: string): boolean => /^\s*\{"type":"(text|reasoning|tool-call)-chunks"/.test(line);

describe('packed rows through the fast path', () => {
  for (const [n, kind] of VIOLATION_KINDS.entries()) {
    it(`seed ${40 + n}: a log with an injected ${kind} analyses the same with and without it`, async () => {
      const log = generateLog({ seed: 40 + n, events: 1500, violation: kind });
      const text = Array.from(log.lines).join('\n') + (log.meta.finalNewline ? '\n' : '');
      const result = await expectSame(enc(text), 'gen.jsonl');
      // The input really had packed rows for the fast path to take.
      expect(result.sessions[0]!.log.length).toBeGreaterThan(text.split('\n').length);
    });
  }

  for (const seed of [60, 61, 62, 63, 64, 65]) {
    it(`seed ${seed}: damaged packed rows analyse the same with and without it`, async () => {
      const rng = new Rng(`packed-fast-path:${seed}`);
      const lines = generateText({ seed, events: 1200, compaction: { thresholdTokens: 3000 } }).split('\n');
      const packed = lines.map((line, i) => (isPackedLine(line) ? i : -1)).filter((i) => i >= 0);
      expect(packed.length).toBeGreaterThan(3);
      const target = packed[rng.int(0, packed.length - 1)]!;
      const row = JSON.parse(lines[target] as string) as { seq0: number };
      switch (seed % 6) {
        case 0: // a seq gap at the row: the fold stops at its first member
          row.seq0 += 1;
          lines[target] = JSON.stringify(row);
          break;
        case 1: // a row that repeats earlier seqs
          row.seq0 -= 2;
          lines[target] = JSON.stringify(row);
          break;
        case 2: // rows that do not start with `{`
          for (const i of packed) lines[i] = ` ${lines[i] as string}`;
          break;
        case 3: // a header-less log that opens with a packed row
          lines.splice(0, target);
          break;
        case 4: // the row's line is duplicated
          lines.splice(target, 0, lines[target] as string);
          break;
        default: // a gap just before the row, so the row follows a refusal
          lines.splice(target - 1, 1);
          break;
      }
      await expectSame(enc(lines.join('\n')), 'damaged.jsonl');
    });
  }

  it('a packed row right after a compaction/prune, and one that opens a log, reach the QA check', async () => {
    const header = '{"type":"session","version":0,"id":"r","createdAt":0,"delegationDepth":0}';
    const user = JSON.stringify({
      type: 'user/message',
      seq: 0,
      time: 0,
      surfaceOp: 'append',
      data: { id: 'u0', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } },
    });
    const prune = JSON.stringify({ type: 'compaction/prune', seq: 1, time: 1, data: { shadowedSeqs: [0] } });
    const row = (seq0: number): string =>
      JSON.stringify({ type: 'text-chunks', seq0, time0: 2, data: { turn: 0, step: 0, index: 0, dt: [1, 1], texts: ['a', 'b', 'c'] } });
    const result = await expectSame(enc(`${header}\n${user}\n${prune}\n${row(2)}\n`), 'prune.jsonl');
    const messages = result.sessions[0]!.diagnostics.map((d) => d.message);
    expect(messages).toContain(
      'compaction/prune at seq 1 is not immediately followed by its tool/result replacement (seq 2 is "assistant/chunk")',
    );
    await expectSame(enc(`${row(0)}\n${user.replace('"seq":0', '"seq":3')}\n`), 'opens.jsonl');
    await expectSame(enc(`${header}\n${row(0)}\n${row(3)}\n`), 'rows.jsonl');
  });

  it('the project fixtures analyse the same with and without it', async () => {
    const dir = join(import.meta.dirname, '..', '..', 'fixtures');
    const names = listFiles(dir, () => true);
    expect(names.length).toBeGreaterThan(3);
    for (const name of names) await expectSame(new Uint8Array(readFileSync(join(dir, name))), name);
  });

  it.skipIf(!HAS_SHARED)('the upstream and packaged fixtures analyse the same with and without it', async () => {
    for (const dir of [UPSTREAM_FIXTURES, PACKAGED_FIXTURES]) {
      for (const name of listFiles(dir, () => true)) await expectSame(new Uint8Array(readFileSync(join(dir, name))), name);
    }
  });
});
