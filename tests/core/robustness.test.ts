/**
 * Bad input: every case ends with a result or a clean error that names where it stopped, and
 * everything valid before the damage stays usable. (Issue: robustness and security.)
 */
import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { openBytes } from '../../src/core/analyze/open';
import type { SessionAnalysis } from '../../src/core/analyze/session';
import { generateText } from '../../src/core/gen/generate';
import { DETAIL_RAW_LIMIT } from '../../src/protocol/protocol';
import { sessionQueries } from '../../src/worker/query';
import { DETAIL_EVENT_LIMIT } from '../../src/worker/query/detail';
import { searchNow } from '../../src/worker/query/search';
import { zstdFrames } from '../support/zstd-frames';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const HEADER = '{"type":"session","version":0,"id":"r","createdAt":0,"delegationDepth":0}';
const user = (seq: number, text = 'hi'): string =>
  JSON.stringify({
    type: 'user/message',
    seq,
    time: 0,
    data: { id: `u${seq}`, role: 'user', content: [{ type: 'text', text }], source: { kind: 'user' } },
    surfaceOp: 'append',
  });

async function one(bytes: Uint8Array, name = 'x.jsonl'): Promise<SessionAnalysis> {
  const result = await openBytes(bytes, { name });
  expect(result.sessions.length).toBeGreaterThanOrEqual(1);
  return result.sessions[0] as SessionAnalysis;
}

/** Everything the UI would ask for must answer without throwing. */
function exercise(session: SessionAnalysis): void {
  const query = sessionQueries(session);
  const filter = { families: [], surfaceOnly: false };
  query.rows({ step: session.fold.accepted, filter, start: 0, count: 50 });
  query.surface({ step: session.fold.accepted, start: 0, count: 50 });
  query.replacements({ step: session.fold.accepted, start: 0, count: 2000 });
  query.brackets({ step: session.fold.accepted, lo: 0, hi: 1e9 });
  query.diagnostics({ start: 0, count: 100 });
  for (let i = 0; i < Math.min(session.log.length, 20); i++) query.detail({ seq: i + session.baseSeq, step: session.fold.accepted });
  searchNow(query.query, { session: 0, text: 'x', filter, fromRow: -1, direction: 1, step: 0 });
}

const rules = (s: SessionAnalysis): string[] => s.diagnostics.map((d) => d.rule);

describe('bad input', () => {
  it('an empty file: no events, the header rule says why', async () => {
    const s = await one(new Uint8Array(0));
    expect(s.log.length).toBe(0);
    expect(s.diagnostics[0]).toMatchObject({ rule: 'loader/header-empty', message: 'empty or header-less session log' });
    exercise(s);
  });

  it('binary garbage: a decode error at line 1, byte 0', async () => {
    const bytes = new Uint8Array(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 73 + 11) & 0xff;
    const s = await one(bytes);
    expect(s.decodeError).toMatchObject({ line: 1, byte: 0 });
    exercise(s);
  });

  it('a UTF-8 BOM is dropped and said; the loader view still sees it (as upstream: the header line does not parse)', async () => {
    const s = await one(enc(`\ufeff${HEADER}\n${user(0)}\n`));
    expect(s.decodeError).toBeNull();
    expect(s.fold.nodes).toEqual([0]);
    expect(rules(s)).toEqual(expect.arrayContaining(['decode/bom', 'loader/header-json']));
  });

  it('CRLF line ends fold like LF', async () => {
    const s = await one(enc(`${HEADER}\r\n${user(0)}\r\n${user(1)}\r\n`));
    expect(s.fold.nodes).toEqual([0, 1]);
    expect(s.decodeError).toBeNull();
  });

  it('a truncated last line is ignored and reported', async () => {
    const s = await one(enc(`${HEADER}\n${user(0)}\n${user(1).slice(0, 30)}`));
    expect(s.fold.nodes).toEqual([0]);
    expect(rules(s)).toContain('loader/torn-line');
  });

  it('an unparsable line before the last turn/end is fatal for the loader; the prefix stays', async () => {
    const text = generateText({ seed: 8, events: 600 });
    const lines = text.split('\n');
    lines.splice(10, 0, '{"not json');
    const s = await one(enc(lines.join('\n')));
    expect(s.decodeError?.line).toBe(11);
    expect(s.log.length).toBeGreaterThan(0);
    expect(rules(s)).toContain('loader/fatal-damage');
    exercise(s);
  });

  it('an unparsable line after the last turn/end is a torn tail for the loader', async () => {
    const s = await one(enc(`${HEADER}\n${user(0)}\n{"not json\n${user(2)}\n`));
    expect(s.decodeError?.line).toBe(3);
    expect(rules(s)).toContain('loader/torn-tail');
    expect(s.fold.nodes).toEqual([0]);
  });

  it('a single 20 MB line is decoded without trouble', async () => {
    const big = 'x'.repeat(20 * 1024 * 1024);
    const s = await one(enc(`${HEADER}\n${user(0, big)}\n${user(1)}\n`));
    expect(s.fold.nodes).toEqual([0, 1]);
    const query = sessionQueries(s);
    expect(
      query.rows({ step: 2, filter: { families: [], surfaceOnly: false }, start: 0, count: 2 }).rows[0]!.summary.length,
    ).toBeLessThanOrEqual(160);
  });

  it('a header with another version is refused by the loader view but still folded', async () => {
    const s = await one(enc(`${HEADER.replace('"version":0', '"version":3')}\n${user(0)}\n`));
    expect(s.fold.nodes).toEqual([0]);
    expect(s.diagnostics[0]!.message).toBe(
      'session "r" uses log format v3, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it',
    );
  });

  it('a header-less log is folded and diagnosed', async () => {
    const s = await one(enc(`${user(0)}\n${user(1)}\n`));
    expect(s.format).toBe('headerless-jsonl');
    expect(s.fold.nodes).toEqual([0, 1]);
    expect(rules(s)).toContain('extra/missing-header');
  });

  it('unknown types are refused by the loader unless ignorable, and never change the fold', async () => {
    const unknown = '{"type":"future/thing","seq":1,"time":0,"data":{}}';
    const ignorable = '{"type":"future/thing","seq":1,"time":0,"data":{},"ignorable":true}';
    const a = await one(enc(`${HEADER}\n${user(0)}\n${unknown}\n`));
    const b = await one(enc(`${HEADER}\n${user(0)}\n${ignorable}\n`));
    expect(a.fold.nodes).toEqual([0]);
    expect(b.fold.nodes).toEqual([0]);
    expect(rules(a)).toContain('loader/unknown-type');
    expect(rules(b)).toContain('loader/ignorable-type');
  });

  it('a malformed packed row stops decoding with the row message', async () => {
    const row = '{"type":"text-chunks","seq0":1,"time0":0,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b","c"]}}';
    const s = await one(enc(`${HEADER}\n${user(0)}\n${row}\n`));
    expect(s.decodeError).toMatchObject({ line: 3, message: 'malformed text-chunks storage row: dt length 1 does not match 3 members' });
    expect(s.fold.nodes).toEqual([0]);
  });

  it('zstd: a bad checksum in the middle keeps the frames before it', async () => {
    const frames = [`${HEADER}\n`, `${user(0)}\n`, `${user(1)}\n`, `${user(2)}\n`];
    const bytes = await zstdFrames(frames);
    const third = (await zstdFrames(frames.slice(0, 3))).length;
    const damaged = bytes.slice();
    damaged[third - 1] = damaged[third - 1]! ^ 0xff; // checksum byte of frame 3
    const s = await one(damaged, 'x.jsonl.zstd');
    expect(s.fold.nodes).toEqual([0]);
    expect(s.decodeError?.message).toMatch(/^corrupt Zstandard session log: frame at byte \d+ failed validation$/);
    exercise(s);
  });

  it('zstd: a wrong magic after the first frame is reported with its byte', async () => {
    const good = await zstdFrames([`${HEADER}\n`, `${user(0)}\n`]);
    const bytes = new Uint8Array(good.length + 8);
    bytes.set(good);
    bytes.set([1, 2, 3, 4, 5, 6, 7, 8], good.length);
    const s = await one(bytes, 'x.jsonl.zstd');
    expect(s.fold.nodes).toEqual([0]);
    expect(s.decodeError?.message).toBe(`corrupt Zstandard session log: invalid frame magic at byte ${good.length}`);
  });

  it('ZIP: no session.jsonl, a path-traversal member and a bomb are refused with clear findings', async () => {
    const zeros = new Uint8Array(20 * 1024 * 1024);
    const zip = zipSync({ '../evil/session.jsonl': enc(`${HEADER}\n`), 'subagents/a/session.jsonl': zeros, 'notes.txt': enc('hi') });
    const result = await openBytes(zip, { name: 'x.zip' });
    const messages = result.findings.map((f) => `${f.rule}: ${f.message}`).join('\n');
    expect(messages).toMatch(/zip\/unsafe-path/);
    expect(messages).toMatch(/zip\/bomb/);
    expect(messages).toMatch(/zip\/no-session/);
  });

  it('JSON nesting 100,000 deep does not overflow the stack anywhere', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const event = `{"type":"user/message","seq":0,"time":0,"data":{"id":"u","role":"user","content":${deep},"source":{"kind":"user"}},"surfaceOp":"append"}`;
    const s = await one(enc(`${HEADER}\n${event}\n${user(1)}\n`));
    expect(s.log.length).toBe(2);
    exercise(s);
  });

  it('numbers beyond safe integers and -0 are diagnosed, not crashed on', async () => {
    const big = '{"type":"turn/start","seq":1,"time":12345678901234567890,"data":{"turn":1}}';
    const negZero = '{"type":"turn/end","seq":2,"time":-0,"data":{"turn":1,"reason":{"kind":"completed"}}}';
    const s = await one(enc(`${HEADER}\n${user(0)}\n${big}\n${negZero}\n`));
    expect(s.fold.nodes).toEqual([0]);
    expect(rules(s)).toContain('seed/envelope');
    exercise(s);
  });

  it('a null event and scalar events fail the fold with engine-level messages, not crashes', async () => {
    const s = await one(enc(`${HEADER}\n${user(0)}\nnull\n`));
    expect(s.fold.error).toMatchObject({ index: 1, message: "Cannot read properties of null (reading 'seq')" });
    const t = await one(enc(`${HEADER}\n${user(0)}\n42\n`));
    expect(t.fold.error?.message).toBe('session event seq undefined is not contiguous; expected 1');
    exercise(s);
    exercise(t);
  });

  it('gzip-wrapped JSON arrays are detected after inflating', async () => {
    const { gzipSync } = await import('fflate');
    const s = await one(gzipSync(enc(`[\n${user(0)}\n]\n`)), 'x.json.gz');
    expect(s.format).toBe('json-array');
    expect(s.fold.nodes).toEqual([0]);
  });

  it('only line 1 can be the header: after a blank first line the session record is an event', async () => {
    const s = await one(enc(`\n${HEADER}\n${user(0)}\n`));
    expect(s.header).toBeNull();
    expect(s.fold.error?.message).toBe('session event seq undefined is not contiguous; expected 0');
    expect(rules(s)).toContain('loader/header-json');
  });

  it('a single 200 MB line: decoded and folded; rows stay one short line, details and search never handle it whole', async () => {
    // The bytes are built in place (no 200 MB string in the test): a user/message whose text
    // is 200 MB of "x", with a marker that straddles a 1 MiB search piece, then normal lines.
    const SIZE = 200 * 1024 * 1024;
    const head = enc(
      `${HEADER}\n{"type":"user/message","seq":0,"time":0,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"`,
    );
    const tail = enc(`"}],"source":{"kind":"user"}},"surfaceOp":"append"}\n${user(1, 'after the big one')}\n${user(2)}\n`);
    const bytes = new Uint8Array(head.length + SIZE + tail.length);
    bytes.set(head);
    bytes.fill(0x78, head.length, head.length + SIZE);
    const rowStart = HEADER.length + 1;
    bytes.set(enc('Zebra'), rowStart + 3 * 2 ** 20 - 2);
    bytes.set(tail, head.length + SIZE);
    const rowLength = head.length + SIZE + tail.indexOf(0x0a) - rowStart;

    const result = await openBytes(bytes, { name: 'big.jsonl' });
    const s = result.sessions[0] as SessionAnalysis;
    expect(s.decodeError).toBeNull();
    expect(s.log.length).toBe(3);
    expect(s.fold.nodes).toEqual([0, 1, 2]);
    expect(s.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);

    const query = sessionQueries(s);
    const all = { families: [], surfaceOnly: false };
    const rows = query.rows({ step: 3, filter: all, start: 0, count: 10 }).rows;
    expect(rows.map((r) => r.summary.length <= 160)).toEqual([true, true, true]);
    expect(rows[0]!.summary).toMatch(/^x+…$/);
    expect(query.surface({ step: 3, start: 0, count: 10 }).nodes[0]!.preview.length).toBeLessThanOrEqual(160);

    // The detail carries the start of the line and a bounded event, and says how long the line is.
    const big = query.detail({ seq: 0, step: 3 });
    expect(big.raw.length).toBe(DETAIL_RAW_LIMIT);
    expect(big.raw.startsWith('{"type":"user/message","seq":0')).toBe(true);
    expect(big.clipped).toEqual({ rawLength: rowLength, eventClipped: true });
    // The raw start, plus the event's copy (cut to about DETAIL_EVENT_LIMIT characters) with its markers.
    expect(JSON.stringify(big).length).toBeLessThan(DETAIL_RAW_LIMIT + 2 * DETAIL_EVENT_LIMIT);
    const event = big.event as { type: string; surfaceOp: string; data: { content: { text: string }[] } };
    expect(event.type).toBe('user/message');
    expect(event.surfaceOp).toBe('append');
    expect(event.data.content[0]!.text).toMatch(/^x+… \[clipped: \d+ of 209715200 characters\]$/);
    expect(query.detail({ seq: 1, step: 3 }).clipped).toBeUndefined();

    // Search reads the line piece by piece (a match across two pieces included), case-folded.
    expect(searchNow(query.query, { session: 0, text: 'zebra', filter: all, fromRow: -1, direction: 1, step: 0 })).toMatchObject({
      row: 0,
      seq: 0,
    });
    expect(searchNow(query.query, { session: 0, text: 'after the big', filter: all, fromRow: -1, direction: 1, step: 0 })).toMatchObject({
      row: 1,
    });
    expect(searchNow(query.query, { session: 0, text: 'not there', filter: all, fromRow: -1, direction: 1, step: 0 }).row).toBeNull();

    // Exports other than the event itself stay small; the event's export is the whole line.
    expect(query.exportText({ kind: 'surface', step: 3 }).text.length).toBeLessThan(10_000);
    expect(query.exportText({ kind: 'report-json', step: 3 }).text.length).toBeLessThan(100_000);
    expect(query.exportText({ kind: 'report-markdown', step: 3 }).text.length).toBeLessThan(100_000);
    const whole = query.exportEvent({ seq: 0 });
    expect(whole.text.length).toBe(rowLength + 1);
    expect(whole.text.endsWith(`xxxx${dec(tail.subarray(0, tail.indexOf(0x0a) + 1))}`)).toBe(true);
  }, 120_000);

  it('a long line arriving in many small chunks decodes the same', async () => {
    const text = `${HEADER}\n${user(0, 'y'.repeat(1_000_000))}\n${user(1)}\n`;
    const result = await openBytes(enc(text), { name: 'x.jsonl', chunkBytes: 1024 });
    expect(result.sessions[0]!.fold.nodes).toEqual([0, 1]);
  });
});
