/**
 * The memory budget of a load (src/core/util/budget.ts): with a small limit, every input form
 * stops cleanly before the allocation that would exceed it, with a `decode/memory-limit` decode
 * error naming the file, the byte, the line, what reading on would need and the limit; the
 * prefix read before the stop folds exactly as the reference fold of that prefix. (Issue:
 * robustness and security.)
 */
import { describe, expect, it } from 'vitest';
import { gzipSync, zipSync } from 'fflate';
import { openBytes } from '../../src/core/analyze/open';
import type { OpenOptions } from '../../src/core/analyze/open';
import type { SessionAnalysis } from '../../src/core/analyze/session';
import { ZstdFrameStream, initZstd } from '../../src/core/decode/zstd';
import { generateText } from '../../src/core/gen/generate';
import { MEMORY_LIMIT_RULE, MemoryBudget, MemoryLimitError, formatBytePair, formatBytes } from '../../src/core/util/budget';
import { ByteBuffer } from '../../src/core/util/grow';
import { sessionQueries } from '../../src/worker/query';
import { naiveDecode } from '../support/naive-decode';
import { referenceFold } from '../support/reference-fold';
import { zstdFrames } from '../support/zstd-frames';

const enc = (text: string): Uint8Array => new TextEncoder().encode(text);
const dec = (bytes: Uint8Array): string => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

/** 20,000 events (about 1.6 MB, 2,900 lines): big enough to stop in the middle of. */
const TEXT = generateText({ seed: 5, events: 20_000 });
const BYTES = enc(TEXT);
const MIB = 2 ** 20;

/** Small steps, so a limit of a few MB stops well inside the log. */
const options = (name: string, memoryLimitBytes: number): OpenOptions => ({ name, memoryLimitBytes, chunkBytes: 64 * 1024 });

/** Byte offset of the start of 1-based line `line` in `bytes`. */
function lineStart(bytes: Uint8Array, line: number): number {
  let at = 0;
  for (let n = 1; n < line; n++) {
    at = bytes.indexOf(0x0a, at) + 1;
    if (at === 0) return -1;
  }
  return at;
}

const MESSAGE =
  /^stopped reading (\S+) at byte (\d+)( of the decompressed text)? \(line (\d+)\): reading on would need about [\d.]+ (KiB|MiB), over the memory limit of [\d.]+ (KiB|MiB)$/;

/**
 * The session stopped where its message says, at the start of a line of `text`, and what it
 * holds is exactly the reference fold of the text before that line.
 */
function expectCleanStop(session: SessionAnalysis, text: Uint8Array, file: string, decompressed: boolean): number {
  const stop = session.decodeError;
  expect(stop?.rule).toBe(MEMORY_LIMIT_RULE);
  const match = MESSAGE.exec(stop?.message ?? '');
  expect(match, stop?.message).not.toBeNull();
  const [, name, byte, of, line] = match as RegExpExecArray;
  expect(name).toBe(file);
  expect(of !== undefined).toBe(decompressed);
  expect(Number(byte)).toBe(stop?.byte);
  expect(Number(line)).toBe(stop?.line);
  // Somewhere in the middle, at the start of the line it names.
  const at = stop?.byte as number;
  expect(at).toBeGreaterThan(text.length / 10);
  expect(at).toBeLessThan(text.length);
  expect(lineStart(text, stop?.line as number)).toBe(at);
  // The prefix is decoded, folded and indexed exactly as the reference does it.
  const prefix = naiveDecode(dec(text.subarray(0, at)));
  const reference = referenceFold(prefix.events);
  expect(reference.error).toBeNull();
  expect(session.log.length).toBe(prefix.events.length);
  expect(session.fold.accepted).toBe(prefix.events.length);
  expect(session.fold.error).toBeNull();
  expect(session.fold.nodes).toEqual(reference.nodes);
  expect(session.fold.replacements.map(({ seq, start, end, shadowedSeqs }) => ({ seq, start, end, shadowedSeqs }))).toEqual(
    reference.replacements,
  );
  const k = Math.floor(session.fold.accepted / 2);
  expect(Array.from(session.index.nodesAt(k))).toEqual(referenceFold(prefix.events.slice(0, k)).nodes);
  // The stop is not mistaken for damage: no torn line, no zstd torn record.
  const rules = session.diagnostics.map((d) => d.rule);
  expect(rules).not.toContain('loader/torn-line');
  expect(rules).not.toContain('zstd/torn-record');
  // Everything the page asks for still answers; the stop leads the diagnostics.
  const query = sessionQueries(session);
  const all = { families: [], surfaceOnly: false };
  expect(query.diagnostics({ start: 0, count: 1 }).items[0]).toMatchObject({
    rule: MEMORY_LIMIT_RULE,
    line: stop?.line,
    message: stop?.message,
  });
  expect(query.rows({ step: session.fold.accepted, filter: all, start: session.log.length - 5, count: 10 }).rows).toHaveLength(5);
  expect(query.surface({ step: k, start: 0, count: 20 }).step).toBe(k);
  expect(query.detail({ seq: session.log.length - 1 + session.baseSeq, step: session.fold.accepted }).seq).toBe(session.log.length - 1);
  expect(query.navigate({ step: 0, kind: 'next-change' })).not.toBeNull();
  return at;
}

describe('memory limit: a load stops cleanly before it would exceed it', () => {
  it('plain JSONL: stops at a line, names file, byte, line, need and limit; the prefix folds as the reference', async () => {
    const result = await openBytes(BYTES, options('log.jsonl', BYTES.length + 1.5 * MIB));
    expect(result.sessions).toHaveLength(1);
    const s = result.sessions[0] as SessionAnalysis;
    expectCleanStop(s, BYTES, 'log.jsonl', false);
    // Without a limit the same bytes load whole.
    const whole = await openBytes(BYTES, { name: 'log.jsonl', chunkBytes: 64 * 1024 });
    expect(whole.sessions[0]?.decodeError).toBeNull();
    expect(whole.sessions[0]?.log.length).toBeGreaterThan(s.log.length);
  });

  it('a limit the input alone exceeds stops at byte 0, line 1, without throwing', async () => {
    const s = (await openBytes(BYTES, options('log.jsonl', 1000))).sessions[0] as SessionAnalysis;
    expect(s.decodeError).toMatchObject({ rule: MEMORY_LIMIT_RULE, byte: 0, line: 1 });
    expect(s.decodeError?.message).toMatch(
      /^stopped reading log\.jsonl at byte 0 \(line 1\): reading on would need about 1\.\d+ MiB, over the memory limit of 1000 bytes$/,
    );
    expect(s.log.length).toBe(0);
  });

  it('Zstandard: stops between frames or inside one, at a line of the decompressed text', async () => {
    const lines = TEXT.split('\n');
    const texts = [`${lines[0]}\n`];
    for (let i = 1; i < lines.length - 1; i += 150) texts.push(`${lines.slice(i, Math.min(i + 150, lines.length - 1)).join('\n')}\n`);
    const bytes = await zstdFrames(texts);
    const s = (await openBytes(bytes, options('log.jsonl.zstd', bytes.length + 2.5 * MIB))).sessions[0] as SessionAnalysis;
    expect(s.format).toBe('jsonl-zstd');
    expectCleanStop(s, BYTES, 'log.jsonl.zstd', true);
    expect(s.diagnostics.map((d) => d.rule)).not.toContain('zstd/empty');
  });

  it('Zstandard: a frame whose output might not fit is not decompressed; the frames before it are kept', async () => {
    await initZstd();
    const bytes = await zstdFrames(['a\n', 'b'.repeat(300_000)]);
    const budget = new MemoryBudget(100_000);
    const stream = new ZstdFrameStream({ budget });
    const frames = stream.push(bytes);
    expect(frames.map((f) => dec(f))).toEqual(['a\n']);
    expect(stream.error).toBeNull();
    expect(stream.memoryError).toBeInstanceOf(MemoryLimitError);
    expect(stream.memoryError?.limit).toBe(100_000);
    expect(stream.memoryError?.needed).toBeGreaterThan(300_000);
    expect(() => stream.end()).toThrow(MemoryLimitError);
  });

  it('Zstandard: the frames a push decoded count until they are appended', async () => {
    // Few long lines (13 user messages of 270 KB): the text, not the events, fills the budget.
    const lines = generateText({ seed: 5, events: 3000 })
      .split('\n')
      .map((line, n) => {
        if (!line.startsWith('{"type":"user/message"')) return line;
        const event = JSON.parse(line) as { data: { content: { text: string }[] } };
        event.data.content[0]!.text = `${n} ${'lorem ipsum dolor '.repeat(15_000)}`;
        return JSON.stringify(event);
      });
    const text = enc(lines.join('\n'));
    const texts = [`${lines[0]}\n`];
    for (let i = 1; i < lines.length - 1; i += 20) texts.push(`${lines.slice(i, Math.min(i + 20, lines.length - 1)).join('\n')}\n`);
    const bytes = await zstdFrames(texts);
    // Pushed whole, every frame is decoded before the first is appended. The text buffer must
    // then grow beside the plaintexts still waiting; counted only while each frame was decoded
    // (as before), this log loaded whole within 7,723,008 bytes.
    const s = (await openBytes(bytes, { name: 'long-lines.jsonl.zstd', memoryLimitBytes: 7_840_000 })).sessions[0] as SessionAnalysis;
    expectCleanStop(s, text, 'long-lines.jsonl.zstd', true);
    const whole = (await openBytes(bytes, { name: 'long-lines.jsonl.zstd', memoryLimitBytes: 8_100_000 })).sessions[0] as SessionAnalysis;
    expect(whole.decodeError).toBeNull();
    expect(whole.log.length).toBe(naiveDecode(dec(text)).events.length);
  });

  it('Zstandard: the stream holds what it returns in the budget until the caller releases it', async () => {
    await initZstd();
    const bytes = await zstdFrames(['a\n', `${'b'.repeat(40_000)}\n`, `${'c'.repeat(40_000)}\n`], { mode: 'raw' });
    const budget = new MemoryBudget(70_000);
    const stream = new ZstdFrameStream({ budget });
    // The third frame does not fit beside the second, still held.
    const frames = stream.push(bytes);
    expect(frames.map((f) => f.length)).toEqual([2, 40_001]);
    expect(stream.memoryError).toMatchObject({ needed: 2 + 40_001 + 40_001, limit: 70_000 });
    expect(budget.held).toBe(40_003);
    // Copying the second frame while it is alive does not fit either; once it is released it does.
    const buffer = new ByteBuffer(16, budget);
    buffer.append(frames[0]!);
    budget.release(frames[0]!.length);
    expect(() => buffer.append(frames[1]!)).toThrow(MemoryLimitError);
    budget.release(frames[1]!.length);
    expect(budget.held).toBe(16);
    buffer.append(frames[1]!);
    expect(buffer.length).toBe(40_003);
  });

  it('gzip: stops while inflating, at a line of the decompressed text', async () => {
    const bytes = gzipSync(BYTES);
    const s = (await openBytes(bytes, options('log.jsonl.gz', bytes.length + 3 * MIB))).sessions[0] as SessionAnalysis;
    expect(s.format).toBe('jsonl-gzip');
    expectCleanStop(s, BYTES, 'log.jsonl.gz', true);
  });

  it('ZIP: a member that fits is inflated and read until the limit', async () => {
    const zip = zipSync({ 'session.jsonl': BYTES });
    const result = await openBytes(zip, options('export.zip', zip.length + BYTES.length + 1.5 * MIB));
    const s = result.sessions[0] as SessionAnalysis;
    expect(s.path).toBe('export.zip!session.jsonl');
    expectCleanStop(s, BYTES, 'export.zip!session.jsonl', false);
  });

  it('ZIP: a member whose declared size does not fit is never inflated; the others are read', async () => {
    const child = enc(generateText({ seed: 6, events: 300 }));
    const zip = zipSync({ 'session.jsonl': BYTES, 'subagents/c1/session.jsonl': child });
    const result = await openBytes(zip, { name: 'export.zip', memoryLimitBytes: zip.length + child.length + 500_000 });
    expect(result.sessions.map((s) => s.path)).toEqual(['export.zip!session.jsonl', 'export.zip!subagents/c1/session.jsonl']);
    const [root, sub] = result.sessions as [SessionAnalysis, SessionAnalysis];
    expect(root.log.length).toBe(0);
    expect(root.decodeError).toMatchObject({ rule: MEMORY_LIMIT_RULE, byte: 0, line: null });
    expect(root.decodeError?.message).toMatch(
      /^stopped reading export\.zip!session\.jsonl at byte 0: inflating it would need about [\d.]+ MiB, over the memory limit of [\d.]+ KiB$/,
    );
    expect(sub.decodeError).toBeNull();
    expect(sub.fold.nodes).toEqual(referenceFold(naiveDecode(dec(child)).events).nodes);
    expect(result.findings.map((f) => f.rule)).toContain('zip/no-session');
  });

  it('a JSON array that might not fit is not parsed', async () => {
    const array = enc(`[${TEXT.split('\n').slice(1, 50).join(',')}]`);
    const s = (await openBytes(array, { name: 'log.json', memoryLimitBytes: array.length * 2 })).sessions[0] as SessionAnalysis;
    expect(s.format).toBe('json-array');
    expect(s.log.length).toBe(0);
    expect(s.decodeError).toMatchObject({ rule: MEMORY_LIMIT_RULE, byte: 0 });
    expect(s.decodeError?.message).toMatch(/^stopped reading log\.json at byte 0: parsing the JSON array would need about/);
    const fits = (await openBytes(array, { name: 'log.json', memoryLimitBytes: array.length * 5 })).sessions[0];
    expect(fits?.decodeError).toBeNull();
  });

  it('a memory stop after damage is reported beside the decode error, which stays first', async () => {
    const lines = TEXT.split('\n');
    lines.splice(5, 0, '{"not json');
    const bytes = gzipSync(enc(lines.join('\n')));
    // After the damage no event is kept, but the inflated text still grows until it cannot.
    const s = (await openBytes(bytes, options('bad.jsonl.gz', bytes.length + MIB))).sessions[0] as SessionAnalysis;
    expect(s.decodeError?.line).toBe(6);
    expect(s.decodeError?.rule).toBeUndefined();
    const stop = s.diagnostics.find((d) => d.rule === MEMORY_LIMIT_RULE);
    expect(stop?.severity).toBe('error');
    expect(stop?.message).toMatch(
      /^stopped reading bad\.jsonl\.gz at byte \d+ of the decompressed text \(line \d+\): reading on would need/,
    );
    expect(
      sessionQueries(s)
        .diagnostics({ start: 0, count: 10 })
        .items.map((d) => d.rule)
        .slice(0, 1),
    ).toEqual(['decode/error']);
  });

  it('names the limit as the caller asks', async () => {
    const s = (await openBytes(BYTES, { ...options('log.jsonl', BYTES.length + MIB), memoryLimitName: "this tab's memory limit" }))
      .sessions[0];
    expect(s?.decodeError?.message).toMatch(/, over this tab's memory limit of [\d.]+ MiB$/);
  });
});

describe('the budget and the buffers it guards', () => {
  it('accounts, checks before allocating, and refuses with what would be needed', () => {
    const budget = new MemoryBudget(1000);
    budget.hold(600);
    expect(budget.available).toBe(400);
    expect(budget.fits(400)).toBe(true);
    expect(() => budget.check(401)).toThrow(MemoryLimitError);
    try {
      budget.check(500);
    } catch (error) {
      expect(error).toMatchObject({ needed: 1100, limit: 1000, message: 'would need about 1.1 KiB, over the memory limit of 1000 bytes' });
    }
    budget.release(600);
    expect(budget.held).toBe(0);
  });

  it('ByteBuffer grows within the budget, then refuses without changing', () => {
    const budget = new MemoryBudget(10_000);
    const buffer = new ByteBuffer(1 << 16, budget);
    // The first allocation takes at most a quarter of what is left.
    expect(budget.held).toBe(2500);
    buffer.append(new Uint8Array(3000).fill(1));
    expect(buffer.length).toBe(3000);
    expect(budget.held).toBeLessThanOrEqual(10_000);
    expect(() => buffer.append(new Uint8Array(8000))).toThrow(MemoryLimitError);
    expect(buffer.length).toBe(3000);
    expect(buffer.view().every((b) => b === 1)).toBe(true);
    buffer.truncate(10);
    expect(buffer.length).toBe(10);
  });

  it('ByteBuffer: when not even the bytes needed fit, the refusal names them, not a doubled capacity', () => {
    const budget = new MemoryBudget(10_000);
    const buffer = new ByteBuffer(1 << 16, budget);
    buffer.append(new Uint8Array(2000));
    expect(budget.held).toBe(2500);
    // 11,000 bytes needed (doubling would ask for 20,000): 2,500 held + 11,000.
    expect(() => buffer.append(new Uint8Array(9000))).toThrow(expect.objectContaining({ needed: 13_500, limit: 10_000 }) as Error);
    expect(buffer.length).toBe(2000);
    expect(budget.held).toBe(2500);
  });

  it('formats sizes so that need and limit read differently', () => {
    expect(formatBytes(512)).toBe('512 bytes');
    expect(formatBytes(1536)).toBe('1.5 KiB');
    expect(formatBytes(734 * MIB)).toBe('734 MiB');
    expect(formatBytes(2.1 * 2 ** 30)).toBe('2.1 GiB');
    expect(formatBytePair(2 ** 31 + 20 * MIB, 2 ** 31)).toEqual(['2.02 GiB', '2.00 GiB']);
  });
});
