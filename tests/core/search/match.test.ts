/**
 * Matching against hand-computed answers: the teaching fixture (answers read off its 54 events),
 * the small real-shaped fixture, and generated logs checked against a plain decoding of the same
 * text (a naive oracle, not the engine's columns).
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import type { SessionAnalysis } from '../../../src/core/analyze/session';
import { generateText } from '../../../src/core/gen/generate';
import { compileQuery, matchSession, parseQuery } from '../../../src/core/search';
import type { Matcher } from '../../../src/core/search';
import { naiveDecode } from '../../support/naive-decode';

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'fixtures');

async function open(name: string, text?: string): Promise<SessionAnalysis> {
  const bytes = text === undefined ? new Uint8Array(readFileSync(join(FIXTURES, name))) : new TextEncoder().encode(text);
  const [session] = (await openBytes(bytes, { name })).sessions;
  if (!session) throw new Error('no session');
  return session;
}

function matcher(text: string): Matcher {
  const parsed = parseQuery(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  return compileQuery(parsed.query);
}

const seqs = (session: SessionAnalysis, query: string, step: number | null = null): number[] =>
  [...matchSession(session, matcher(query), step)].map((h) => h.subject.seq);

const range = (lo: number, hi: number): number[] => Array.from({ length: hi - lo + 1 }, (_, i) => lo + i);

describe('search on the teaching fixture', () => {
  it('matches fields as read off the log', async () => {
    const s = await open('teaching.jsonl');
    expect(seqs(s, 'type:compaction/')).toEqual([29, 41, 42, 44]);
    expect(seqs(s, 'type:tool/result')).toEqual([11, 30]);
    expect(seqs(s, 'is:replace')).toEqual([30, 43]);
    expect(seqs(s, 'is:prune')).toEqual([29, 30]);
    expect(seqs(s, 'is:compaction')).toEqual([29, 41, 42, 43, 44]);
    expect(seqs(s, 'is:error')).toEqual([]);
    expect(seqs(s, 'tool:read_file')).toEqual([9, 10, 11, 30]);
    expect(seqs(s, 'tool:READ_FILE type:tool/result')).toEqual([11, 30]);
    expect(seqs(s, 'seq:10..12')).toEqual([10, 11, 12]);
    expect(seqs(s, 'seq:..2')).toEqual([0, 1, 2]);
    expect(seqs(s, 'seq:52..')).toEqual([52, 53]);
    expect(seqs(s, 'turn:2 step:2')).toEqual(range(45, 52));
    expect(seqs(s, 'turn:1 -type:assistant/chunk')).toEqual([0, 1, 9, 10, 11, 12, 13, 22, 23, 24, 30]);
  });

  it('finds the labels the UI shows, phrases and regexes', async () => {
    const s = await open('teaching.jsonl');
    // The checkpoint's row reads "[compaction summary] …": its label is searchable text.
    expect(seqs(s, '"compaction summary"')).toEqual([43]);
    expect(seqs(s, '"tool-result prune"')).toEqual([30]);
    // The question, then the summary that retells it and the checkpoint that carries the summary.
    expect(seqs(s, 'sunsets')).toEqual([28, 42, 43]);
    expect(seqs(s, '/SUNSETS/')).toEqual([]);
    expect(seqs(s, '/SUNSETS/i')).toEqual([28, 42, 43]);
    expect(seqs(s, '"sunsets are red"')).toEqual([42, 43]);
    expect(seqs(s, 'type:user/message "why are sunsets"')).toEqual([28]);
    // The delta that streamed it, and the block-end that carries the whole text.
    expect(seqs(s, '"far more than long" type:assistant/chunk')).toEqual([17, 20]);
    expect(seqs(s, 'rayleigh -type:assistant/chunk -type:compaction/summary').length).toBeGreaterThan(0);
    expect(seqs(s, 'sky -sky')).toEqual([]);
  });

  it('answers the cursor terms at the cursor', async () => {
    const s = await open('teaching.jsonl');
    expect(seqs(s, 'is:surface', 30)).toEqual([2, 9, 11, 22, 28]);
    expect(seqs(s, 'is:shadowed', 30)).toEqual([]);
    expect(seqs(s, 'is:surface', 31)).toEqual([2, 9, 22, 28, 30]);
    expect(seqs(s, 'is:shadowed', 31)).toEqual([11]);
    expect(seqs(s, 'is:surface', 54)).toEqual([43, 51]);
    expect(seqs(s, 'is:shadowed', 54)).toEqual([2, 9, 11, 22, 28, 30, 39]);
    expect(seqs(s, 'is:log-only seq:..5', 54)).toEqual([0, 1, 3, 4, 5]);
    // Events after the cursor are neither on the surface nor log-only yet.
    expect(seqs(s, 'is:log-only', 2)).toEqual([0, 1]);
    expect(seqs(s, 'is:surface')).toEqual([]);
  });

  it('makes snippets with the match marked', async () => {
    const s = await open('teaching.jsonl');
    const m = matcher('sunsets');
    const [hit] = [...matchSession(s, m, null)]; // seq 28
    if (!hit) throw new Error('no hit');
    const snippet = m.snippet(hit.match, hit.subject);
    expect(snippet.text).toBe('And why are sunsets red?');
    expect(snippet.marks).toEqual([[12, 19]]);
    const fields = matcher('seq:10');
    const [row] = [...matchSession(s, fields, null)];
    if (!row) throw new Error('no row');
    expect(fields.snippet(row.match, row.subject)).toEqual({ text: 'read_file({"path":"notes/sky.md"}) #call-2', marks: [] });
  });
});

describe('search on the small fixture', () => {
  it('finds failures of every kind it holds', async () => {
    const s = await open('small.jsonl');
    // 102: a tool result with isError; 1448: a stream finish with an error; 1449: its retry;
    // 1899: a context-window finish error.
    expect(seqs(s, 'is:error')).toEqual([102, 1448, 1449, 1899]);
    expect(seqs(s, 'is:error type:assistant/chunk')).toEqual([1448, 1899]);
    expect(seqs(s, '"rate limit reached"')).toEqual([1448, 1449]);
  });

  it('marks every hit in a long snippet, whitespace collapsed', async () => {
    const s = await open('small.jsonl');
    const m = matcher('/runtime/i');
    const hits = [...matchSession(s, m, null)];
    const first = hits[0];
    if (!first) throw new Error('no hit');
    const snippet = m.snippet(first.match, first.subject);
    expect(snippet.text).not.toMatch(/\s\s|\n/);
    expect(snippet.marks.length).toBeGreaterThanOrEqual(2);
    for (const [a, b] of snippet.marks) expect(snippet.text.slice(a, b).toLowerCase()).toBe('runtime');
  });
});

describe('search on generated logs', () => {
  for (const seed of [3, 17, 99]) {
    it(`agrees with a plain decoding (seed ${seed})`, async () => {
      const text = generateText({ seed, events: 1500, packChunks: seed !== 17 });
      const s = await open('gen.jsonl', text);
      const events = naiveDecode(text).events as Array<{ seq: number; type: string; surfaceOp?: unknown; data: Record<string, unknown> }>;
      const where = (f: (e: (typeof events)[number]) => boolean): number[] => events.filter(f).map((e) => e.seq);
      expect(seqs(s, 'type:tool/call')).toEqual(where((e) => e.type === 'tool/call'));
      expect(seqs(s, 'type:compaction/')).toEqual(where((e) => e.type.startsWith('compaction/')));
      expect(seqs(s, '-type:assistant/')).toEqual(where((e) => !e.type.startsWith('assistant/')));
      expect(seqs(s, 'is:replace')).toEqual(where((e) => typeof e.surfaceOp === 'object' && e.surfaceOp !== null));
      expect(seqs(s, 'turn:2 step:1..2')).toEqual(where((e) => e.data?.turn === 2 && typeof e.data.step === 'number' && e.data.step <= 2));
      const names = new Map<string, string>();
      for (const e of events) if (e.type === 'tool/call') names.set(String(e.data.callId), String(e.data.name));
      const [name] = [...new Set(names.values())];
      expect(name).toBeDefined();
      expect(seqs(s, `tool:${String(name)} type:tool/call`)).toEqual(where((e) => e.type === 'tool/call' && e.data.name === name));
      const end = s.fold.accepted;
      expect(seqs(s, 'is:surface', end)).toEqual(s.fold.nodes);
      const replaced = new Set(s.fold.replacements.flatMap((r) => r.shadowedSeqs));
      expect(seqs(s, 'is:shadowed', end)).toEqual([...replaced].sort((a, b) => a - b));
      // A word a generated text holds, against a plain substring test of the events' strings.
      const word = 'parser';
      const holds = (x: unknown): boolean =>
        typeof x === 'string' ? x.toLowerCase().includes(word) : x !== null && typeof x === 'object' && Object.values(x).some(holds);
      const expected = where((e) => !e.type.startsWith('assistant/chunk') && holds(e.data));
      expect(expected.length).toBeGreaterThan(0);
      expect(seqs(s, `${word} -type:assistant/chunk`)).toEqual(expected);
    });
  }
});

describe('search on a line too long to parse for it', () => {
  it('matches the raw text in pieces, a match across two pieces included, and says so in the snippet', async () => {
    const header = '{"type":"session","version":0,"id":"h","createdAt":0,"delegationDepth":0}';
    // 5 MiB of text with a marker straddling the 1 MiB piece boundary of the raw line.
    const prefix = '{"type":"user/message","seq":0,"time":0,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"';
    const filler = 'x'.repeat(5 << 20);
    const at = (1 << 20) - prefix.length - 2;
    const text = `${filler.slice(0, at)}Zebra${filler.slice(at + 5)}`;
    const line = `${prefix}${text}"}],"source":{"kind":"user"}},"surfaceOp":"append"}`;
    const next = '{"type":"turn/start","seq":1,"time":0,"data":{"turn":1}}';
    const s = await open('huge.jsonl', `${header}\n${line}\n${next}\n`);
    expect(seqs(s, 'zebra')).toEqual([0]);
    expect(seqs(s, 'zebra -type:user/message')).toEqual([]);
    expect(seqs(s, '-zebra')).toEqual([1]);
    expect(seqs(s, 'type:user/message tool:x')).toEqual([]);
    const m = matcher('zebra');
    const [hit] = [...matchSession(s, m, null)];
    if (!hit) throw new Error('no hit');
    const snippet = m.snippet(hit.match, hit.subject);
    expect(snippet.marks.map(([a, b]) => snippet.text.slice(a, b))).toEqual(['Zebra']);
  });
});
