/**
 * Refusals said out loud: an archive none of whose members can be read is one session holding
 * the refusal (rule, member, limit); a refused event without a valid seq reports `seq: null`;
 * the header refusal names the failing field; one damaged line has one line number.
 */
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../src/core/analyze/open';
import { toJsonRecord } from '../../src/core/analyze/report';

const enc = (t: string): Uint8Array => new TextEncoder().encode(t);
const HEADER = '{"type":"session","version":0,"id":"r","createdAt":0,"delegationDepth":0}';
const user = (seq: number | null): string =>
  `{"type":"user/message",${seq === null ? '' : `"seq":${seq},`}"time":0,"data":{"id":"u${String(seq)}","role":"user","content":[],"source":{"kind":"user"}},"surfaceOp":"append"}`;

async function only(bytes: Uint8Array, name = 'x.zip') {
  const result = await openBytes(bytes, { name });
  expect(result.sessions).toHaveLength(1);
  return result.sessions[0]!;
}

describe('archives that cannot be read', () => {
  it('a ZIP without session.jsonl is one refused session', async () => {
    const s = await only(zipSync({ 'notes.txt': enc('x') }));
    expect(s.decodeError).toMatchObject({ rule: 'zip/no-session', message: 'ZIP has no session.jsonl' });
    expect(toJsonRecord(s)).toMatchObject({ file: 'x.zip', events: 0, decodeError: { rule: 'zip/no-session' } });
  });

  it('only unsafe member paths: the rule and the member are named', async () => {
    const s = await only(zipSync({ '../session.jsonl': enc(`${HEADER}\n`) }));
    expect(s.decodeError?.rule).toBe('zip/unsafe-path');
    expect(s.decodeError?.message).toContain('"../session.jsonl"');
  });

  it('a decompression bomb: the rule, the member and the limit are named', async () => {
    // 16 MiB of zeros deflate over 1,000:1, past the ratio limit for members over 1 MiB.
    const s = await only(zipSync({ 'session.jsonl': new Uint8Array(16 * 1024 * 1024) }, { level: 9 }));
    expect(s.decodeError?.rule).toBe('zip/bomb');
    expect(s.decodeError?.message).toMatch(/refused ZIP member "session\.jsonl": compression ratio \d+:1 .* exceeds the limit of 1000:1/);
    expect(s.log.length).toBe(0);
  });
});

describe('surface errors without a valid seq', () => {
  it('seq is null, never absent, when the refused event has none', async () => {
    const s = await only(enc(`${HEADER}\n${user(0)}\n${user(null)}\n`), 'noseq.jsonl');
    expect(s.fold.error).toMatchObject({ index: 1, seq: null, line: 3 });
    const record = JSON.parse(JSON.stringify(toJsonRecord(s))) as { surfaceError: Record<string, unknown> };
    expect(record.surfaceError).toHaveProperty('seq', null);
  });

  it('a seq that is not a number is reported as decoded (surface.md §4)', async () => {
    const s = await only(enc(`${HEADER}\n${user(0)}\n${user(0).replace('"seq":0', '"seq":"1"')}\n`), 'str.jsonl');
    expect(s.fold.error?.seq).toBe('1');
  });
});

describe('loader view wording', () => {
  it("a header without delegationDepth names the field after upstream's message", async () => {
    const s = await only(enc(`{"type":"session","version":0,"id":"r","createdAt":0}\n${user(0)}\n`), 'old.jsonl');
    const d = s.diagnostics.find((x) => x.rule === 'loader/not-header');
    expect(d?.message).toBe(
      'corrupt session log: first line is not a session header ("delegationDepth" is missing: it must be a non-negative safe integer)',
    );
    // The refusal itself is upstream's message alone.
    expect(s.diagnostics.find((x) => x.rule === 'loader/result')?.message).toBe(
      "upstream's loader refuses this log: corrupt session log: first line is not a session header",
    );
  });

  it('one damaged line is one line number: the loader message is followed by the file line', async () => {
    const lines = [HEADER, user(0), 'not json', '{"type":"turn/end","seq":2,"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}', ''];
    const s = await only(enc(lines.join('\n')), 'bad.jsonl');
    expect(s.decodeError?.line).toBe(3);
    const fatal = s.diagnostics.find((d) => d.rule === 'loader/fatal-damage');
    expect(fatal?.line).toBe(3);
    expect(fatal?.message).toBe(
      'corrupt session log: unparsable committed event at line 2 — line 3 of the file (dsh counts the lines after the header)',
    );
  });
});

describe("the loader verdict (a banner of its own, upstream's exact message)", () => {
  const turnStart = '{"type":"turn/start","seq":1,"time":0,"data":{"turn":1}}';
  const turnEnd = (seq: number) => `{"type":"turn/end","seq":${seq},"time":0,"data":{"turn":1,"reason":{"kind":"completed"}}}`;
  const verdictOf = async (text: string) => {
    const { loaderVerdict } = await import('../../src/core/analyze/loader-verdict');
    return loaderVerdict((await only(enc(text), 'v.jsonl')).diagnostics);
  };

  it('a log upstream loads as is has none', async () => {
    expect(await verdictOf(`${HEADER}\n${user(0)}\n${turnStart}\n${turnEnd(2)}\n`)).toBeNull();
  });
  it("a future format version is refused with upstream's message", async () => {
    const v = await verdictOf(`${HEADER.replace('"version":0', '"version":3')}\n${user(0)}\n`);
    expect(v).toMatchObject({ kind: 'refuses', rule: 'loader/version' });
    expect(v?.message).toBe(
      'session "r" uses log format v3, but this harness reads only v0: the log was written by a newer harness — upgrade the harness to open it',
    );
  });
  it('an unknown event type is refused', async () => {
    const v = await verdictOf(`${HEADER}\n${user(0)}\n{"type":"brand/new","seq":1,"time":0,"data":{}}\n`);
    expect(v).toMatchObject({ kind: 'refuses', rule: 'loader/unknown-type' });
    expect(v?.message).toContain('contains event type "brand/new" (seq 1) unknown to this harness');
  });
  it('a header failing validation names the field', async () => {
    const v = await verdictOf(`{"type":"session","version":0,"id":"r","createdAt":0}\n${user(0)}\n`);
    expect(v).toMatchObject({
      kind: 'refuses',
      rule: 'loader/not-header',
      message: 'corrupt session log: first line is not a session header',
    });
  });
  it('fatal damage before the last turn/end is refused; after it, a torn tail is truncated', async () => {
    const fatal = await verdictOf(`${HEADER}\n${user(0)}\nnot json\n${turnEnd(1)}\n`);
    expect(fatal).toMatchObject({ kind: 'refuses', rule: 'loader/fatal-damage' });
    const torn = await verdictOf(`${HEADER}\n${user(0)}\nnot json\n`);
    expect(torn).toMatchObject({ kind: 'truncates', rule: 'loader/torn-tail' });
    const line = await verdictOf(`${HEADER}\n${user(0)}\n{"type":`);
    expect(line).toMatchObject({ kind: 'truncates', rule: 'loader/torn-line' });
  });
  it('an interrupted turn is repaired with crash-repair closers', async () => {
    const v = await verdictOf(`${HEADER}\n${user(0)}\n${turnStart}\n`);
    expect(v).toMatchObject({ kind: 'repairs', rule: 'loader/interrupted-turn' });
    expect(v?.message).toContain('crash repair appends');
  });
});
