import { join } from 'node:path';
import { Zip, ZipDeflate, ZipPassThrough, unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { readExportZip, unsafeZipPathReason } from '../../../src/core/decode/zip';
import type { ZipFinding } from '../../../src/core/decode/zip';
import { concatBytes } from '../../support/zstd-frames';
import { HAVE_SHARED, NEEDS_SHARED, PACKAGED_DIR, UPSTREAM_DIR, readBytes } from './shared-fixtures';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const header = (id: string): string => `{"type":"session","version":0,"id":"${id}","createdAt":0,"delegationDepth":0}\n`;

/**
 * An archive written the way the dsh exporter writes it: fflate's streaming writer, which sets
 * the data-descriptor flag and leaves the local-header sizes zero. `stored` entries use method 0.
 */
function streamingZip(entries: readonly (readonly [string, Uint8Array, 'stored'?])[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const zip = new Zip((error, data) => {
    if (error) throw error;
    chunks.push(data);
  });
  for (const [name, data, method] of entries) {
    const file = method === 'stored' ? new ZipPassThrough(name) : new ZipDeflate(name, { level: 6 });
    zip.add(file);
    file.push(data, true);
  }
  zip.end();
  return concatBytes(chunks);
}

/** Offset of the central-directory entry for `name`. */
function centralEntry(zip: Uint8Array, name: string): number {
  const wanted = encode(name);
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const length = view.getUint16(at + 28, true);
    if (length === wanted.length && wanted.every((byte, i) => zip[at + 46 + i] === byte)) return at;
  }
  throw new Error(`no central entry for ${name}`);
}

function patchCentral(zip: Uint8Array, name: string, field: 'method' | 'crc' | 'size' | 'originalSize', value: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  const at = centralEntry(out, name);
  if (field === 'method') view.setUint16(at + 10, value, true);
  else view.setUint32(at + { crc: 16, size: 20, originalSize: 24 }[field], value, true);
  return out;
}

const rules = (findings: readonly ZipFinding[]): string[] => findings.map((finding) => finding.rule);

describe.skipIf(!HAVE_SHARED)(`export ZIP fixture${NEEDS_SHARED}`, () => {
  it('lists session.jsonl, then the subagent logs in archive order', () => {
    const { members, findings } = readExportZip(readBytes(join(PACKAGED_DIR, 'advanced-toolchain.export.zip')));
    expect(findings).toEqual([]);
    expect(members.map((member) => member.path)).toEqual([
      'session.jsonl',
      'subagents/22222222-2222-4222-8222-222222222222/session.jsonl',
      'subagents/33333333-3333-4333-8333-333333333333/session.jsonl',
    ]);
    expect(decode(members[0]!.bytes)).toMatch(/^\{"type":"session","version":0,"id":"11111111-1111-4111-8111-111111111111"/);
    expect(members[1]!.bytes).toEqual(
      readBytes(join(UPSTREAM_DIR, 'examples__acp-agent__tests__snapshots__advanced-toolchain__session.1.jsonl')),
    );
    expect(members[2]!.bytes).toEqual(
      readBytes(join(UPSTREAM_DIR, 'examples__acp-agent__tests__snapshots__advanced-toolchain__session.2.jsonl')),
    );
    for (const member of members.slice(1)) {
      expect(JSON.parse(decode(member.bytes).split('\n')[0]!)).toMatchObject({
        parentSession: '11111111-1111-4111-8111-111111111111',
        origin: 'subagent',
      });
    }
  });
});

describe('readExportZip', () => {
  it('reads a streaming archive (data descriptors, zero local sizes) and orders its members', () => {
    const zip = streamingZip([
      ['subagents/b/session.jsonl', encode(header('b'))],
      ['media/img-1.png', Uint8Array.from([0x89, 0x50, 0x4e, 0x47])],
      ['notes/other.jsonl', encode('{"note":1}\n')],
      ['session.jsonl', encode(header('root').repeat(50))],
      ['subagents/a/session.jsonl', encode(header('a')), 'stored'],
      ['subagents/x/y/session.jsonl', encode(header('nested'))],
      ['subagents/', new Uint8Array(0), 'stored'],
    ]);
    // The premise: bit 3 set and zero sizes in the first local header.
    const view = new DataView(zip.buffer, zip.byteOffset);
    expect(view.getUint16(6, true) & 0x08).toBe(0x08);
    expect(view.getUint32(18, true)).toBe(0);
    expect(view.getUint32(22, true)).toBe(0);

    const { members, findings } = readExportZip(zip);
    expect(findings).toEqual([]);
    expect(members.map((member) => member.path)).toEqual([
      'session.jsonl',
      'subagents/b/session.jsonl',
      'subagents/a/session.jsonl',
      'notes/other.jsonl',
      'subagents/x/y/session.jsonl',
    ]);
    expect(decode(members[0]!.bytes)).toBe(header('root').repeat(50));
    expect(decode(members[2]!.bytes)).toBe(header('a'));
  });

  it('refuses unsafe member names, naming each, and keeps the safe members', () => {
    const unsafe = [
      '/abs/session.jsonl',
      '../session.jsonl',
      'subagents/../../x.jsonl',
      'subagents\\a\\session.jsonl',
      'nul\0.jsonl',
      'C:/x.jsonl',
      '/etc/passwd',
    ];
    const zip = zipSync({
      'session.jsonl': encode(header('root')),
      ...Object.fromEntries(unsafe.map((name) => [name, encode(header('evil'))])),
    });
    const { members, findings } = readExportZip(zip);
    expect(members.map((member) => member.path)).toEqual(['session.jsonl']);
    expect(findings).toHaveLength(unsafe.length);
    for (const [i, name] of unsafe.entries()) {
      expect(findings[i]).toMatchObject({ severity: 'error', rule: 'zip/unsafe-path', path: name });
      expect(findings[i]!.message).toContain(JSON.stringify(name));
    }
  });

  it('classifies unsafe paths', () => {
    expect(unsafeZipPathReason('session.jsonl')).toBeNull();
    expect(unsafeZipPathReason('subagents/a..b/session.jsonl')).toBeNull();
    expect(unsafeZipPathReason('/x')).toBe('is absolute');
    expect(unsafeZipPathReason('d:x')).toBe('is absolute');
    expect(unsafeZipPathReason('a/..')).toBe('has a ".." segment');
    expect(unsafeZipPathReason('a\\b')).toBe('contains a backslash');
    expect(unsafeZipPathReason('a\0')).toBe('contains a NUL character');
  });

  it('refuses a high-ratio bomb from its declared sizes, without inflating it', () => {
    const zip = zipSync({
      'session.jsonl': encode(header('root')),
      'subagents/bomb/session.jsonl': new Uint8Array(20_000_000), // ~19.5 KB deflated: ratio ≈ 1024
    });
    const { members, findings } = readExportZip(zip);
    expect(members.map((member) => member.path)).toEqual(['session.jsonl']);
    expect(rules(findings)).toEqual(['zip/bomb']);
    expect(findings[0]!.path).toBe('subagents/bomb/session.jsonl');
    expect(findings[0]!.message).toMatch(/"subagents\/bomb\/session\.jsonl".*ratio 1024:1.*limit of 1000:1/);

    // Had it been inflated, this damaged copy would also have produced a corrupt-member finding.
    const at = centralEntry(zip, 'subagents/bomb/session.jsonl');
    const offset = new DataView(zip.buffer, zip.byteOffset).getUint32(at + 42, true);
    const damaged = zip.slice();
    damaged.fill(0xff, offset + 30 + 28 + 100, offset + 30 + 28 + 2000);
    expect(rules(readExportZip(damaged).findings)).toEqual(['zip/bomb']);
  });

  it('applies per-member and total limits, budgeting the root session first', () => {
    const zip = zipSync({
      'notes/big.jsonl': encode('x'.repeat(600)),
      'subagents/a/session.jsonl': encode('a'.repeat(300)),
      'session.jsonl': encode('r'.repeat(500)),
      'subagents/b/session.jsonl': encode('b'.repeat(1500)),
    });
    const { members, findings } = readExportZip(zip, { maxMemberBytes: 1000, maxTotalBytes: 1000 });
    expect(members.map((member) => member.path)).toEqual(['session.jsonl', 'subagents/a/session.jsonl']);
    expect(findings.map((finding) => [finding.rule, finding.path])).toEqual([
      ['zip/bomb', 'subagents/b/session.jsonl'],
      ['zip/bomb', 'notes/big.jsonl'],
    ]);
    expect(findings[0]!.message).toContain('per-member limit of 1000 bytes');
    expect(findings[1]!.message).toContain('total uncompressed size over the limit of 1000 bytes');
  });

  it('names a member whose data is damaged and keeps the others', () => {
    const zip = streamingZip([
      ['session.jsonl', encode(header('root'))],
      ['subagents/a/session.jsonl', encode(header('a').repeat(200))],
      ['subagents/b/session.jsonl', encode(header('b'))],
    ]);
    const at = centralEntry(zip, 'subagents/a/session.jsonl');
    const view = new DataView(zip.buffer, zip.byteOffset);
    const dataAt = view.getUint32(at + 42, true) + 30 + 'subagents/a/session.jsonl'.length;
    const damaged = zip.slice();
    damaged.fill(0xff, dataAt, dataAt + 8);
    const { members, findings } = readExportZip(damaged);
    expect(members.map((member) => member.path)).toEqual(['session.jsonl', 'subagents/b/session.jsonl']);
    expect(findings).toEqual([expect.objectContaining({ rule: 'zip/corrupt-member', path: 'subagents/a/session.jsonl' })]);
  });

  it('catches declared sizes that do not match the data', () => {
    const text = header('root').repeat(100);
    const zip = streamingZip([['session.jsonl', encode(text)]]);
    const larger = readExportZip(patchCentral(zip, 'session.jsonl', 'originalSize', text.length + 100));
    expect(larger.members).toEqual([]);
    expect(larger.findings[0]).toMatchObject({ rule: 'zip/corrupt-member', path: 'session.jsonl' });
    expect(larger.findings[0]!.message).toContain(
      `inflated to ${text.length} bytes but the central directory declares ${text.length + 100}`,
    );

    // A smaller declared size caps what fflate writes; the CRC-32 exposes the truncation.
    const smaller = readExportZip(patchCentral(zip, 'session.jsonl', 'originalSize', 10));
    expect(smaller.members).toEqual([]);
    expect(smaller.findings[0]).toMatchObject({ rule: 'zip/corrupt-member', path: 'session.jsonl' });
    expect(smaller.findings[0]!.message).toContain('CRC-32');
    expect(rules(smaller.findings)).toEqual(['zip/corrupt-member', 'zip/no-session']);
  });

  it('detects a wrong CRC-32 on intact-looking data', () => {
    const zip = zipSync({ 'session.jsonl': encode(header('root')) });
    const { findings } = readExportZip(patchCentral(zip, 'session.jsonl', 'crc', 0x12345678));
    expect(rules(findings)).toEqual(['zip/corrupt-member', 'zip/no-session']);
  });

  it('still checks CRC-32s when a damaged directory entry garbles the entries after it', () => {
    const root = header('root').repeat(20);
    const child = header('child').repeat(20);
    const zip = streamingZip([
      ['session.jsonl', encode(root), 'stored'],
      ['subagents/c/session.jsonl', encode(child), 'stored'],
      ['notes.txt', encode('hello')],
    ]);
    const damaged = zip.slice();
    damaged[centralEntry(damaged, 'subagents/c/session.jsonl') + 32] = 1; // comment length 0 -> 1: the next entry is read one byte off
    const needle = encode('"id":"child"');
    const data = zip.findIndex((_, at) => needle.every((byte, i) => zip[at + i] === byte)); // inside the child's stored data
    expect(data).toBeGreaterThan(0);
    damaged[data + 7] = damaged[data + 7]! ^ 0x20; // "child" -> "cHild"
    // fflate itself hands the damaged data over; before the fix the directory re-walk gave up
    // at the garbled entry and no member's CRC-32 was checked.
    const raw = unzipSync(damaged, { filter: (file) => file.name === 'subagents/c/session.jsonl' });
    expect(decode(raw['subagents/c/session.jsonl']!)).toContain('"cHild"');
    const { members, findings } = readExportZip(damaged);
    expect(members.map((m) => m.path)).toEqual(['session.jsonl']);
    expect(decode(members[0]!.bytes)).toBe(root);
    expect(findings).toContainEqual(
      expect.objectContaining({
        rule: 'zip/corrupt-member',
        path: 'subagents/c/session.jsonl',
        message: expect.stringContaining('CRC-32'),
      }),
    );
  });

  it('reports a missing root session', () => {
    const { members, findings } = readExportZip(zipSync({ 'subagents/a/session.jsonl': encode(header('a')) }));
    expect(members.map((member) => member.path)).toEqual(['subagents/a/session.jsonl']);
    expect(findings).toEqual([{ severity: 'error', rule: 'zip/no-session', message: 'ZIP has no session.jsonl', path: null }]);
    expect(readExportZip(zipSync({})).findings).toEqual([
      { severity: 'error', rule: 'zip/no-session', message: 'ZIP has no session.jsonl', path: null },
    ]);
  });

  it('reports a refused root session as unusable', () => {
    const { findings } = readExportZip(zipSync({ 'session.jsonl': encode('r'.repeat(100)) }), { maxMemberBytes: 10 });
    expect(rules(findings)).toEqual(['zip/bomb', 'zip/no-session']);
    expect(findings[1]!.message).toBe('ZIP has no usable session.jsonl: the member was refused or damaged');
  });

  it('refuses duplicate names (keeping the first) and unsupported methods', () => {
    const duplicated = streamingZip([
      ['session.jsonl', encode(header('first'))],
      ['session.jsonl', encode(header('second'))],
    ]);
    const { members, findings } = readExportZip(duplicated);
    expect(members.map((member) => decode(member.bytes))).toEqual([header('first')]);
    expect(findings).toEqual([expect.objectContaining({ rule: 'zip/duplicate', path: 'session.jsonl' })]);

    const lzma = patchCentral(
      zipSync({ 'session.jsonl': encode(header('r')), 'subagents/a/session.jsonl': encode(header('a')) }),
      'subagents/a/session.jsonl',
      'method',
      14,
    );
    const result = readExportZip(lzma);
    expect(result.members.map((member) => member.path)).toEqual(['session.jsonl']);
    expect(result.findings).toEqual([expect.objectContaining({ rule: 'zip/unsupported-compression', path: 'subagents/a/session.jsonl' })]);
  });

  it('reports an unreadable archive instead of throwing', () => {
    const zip = zipSync({ 'session.jsonl': encode(header('root')) });
    for (const bytes of [zip.subarray(0, zip.length - 30), encode('PK\u0003\u0004 not really a zip'), new Uint8Array(0)]) {
      const { members, findings } = readExportZip(bytes);
      expect(members).toEqual([]);
      expect(rules(findings)).toEqual(['zip/corrupt']);
    }
  });
});
