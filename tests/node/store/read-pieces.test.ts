/**
 * `openLogFile` reads a file in pieces into one allocation while the core scans what has arrived.
 * Whatever the piece size, each form must open as its whole bytes open (`openBytes` of
 * `readRegularFile`): the same records, the text kept without a copy.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { openBytes } from '../../../src/core/analyze/open';
import { toJsonRecord } from '../../../src/core/analyze/report';
import { generateText } from '../../../src/core/gen/generate';
import { Rng } from '../../../src/core/gen/rng';
import { ByteBuffer } from '../../../src/core/util/grow';
import { openLogFile, readRegularFile } from '../../../src/node/store';

const records = (result: Awaited<ReturnType<typeof openBytes>>) => ({
  bytes: result.bytes,
  findings: result.findings,
  sessions: result.sessions.map((s) => ({ record: toJsonRecord(s), events: s.log.length, diagnostics: s.diagnostics })),
});

describe('openLogFile in pieces', () => {
  const dir = mkdtempSync(join(tmpdir(), 'surface-lens-pieces-'));
  for (const seed of [1, 2, 3, 4]) {
    it(`seed ${seed}: raw JSONL, a truncated last line, a BOM, a JSON array and a ZIP open as their whole bytes`, async () => {
      const rng = new Rng(seed);
      const text = generateText({ seed, events: rng.int(50, 400) });
      const forms: [string, Uint8Array][] = [
        ['log.jsonl', strToU8(text)],
        ['torn.jsonl', strToU8(text.slice(0, Math.floor(text.length * 0.7)))],
        ['bom.jsonl', strToU8(`\ufeff${text}`)],
        ['array.json', strToU8(`[${text.trim().split('\n').join(',')}]`)],
        ['export.zip', zipSync({ 'session.jsonl': strToU8(text) })],
      ];
      for (const [name, bytes] of forms) {
        const path = join(dir, `${seed}-${name}`);
        writeFileSync(path, bytes);
        const whole = records(await openBytes(readRegularFile(path), { name: path }));
        for (const piece of [1, 7, rng.int(8, 4096), bytes.length + 1]) {
          expect(records(await openLogFile(path, {}, piece)), `${name}, pieces of ${piece}`).toEqual(whole);
        }
      }
    });
  }

  it('keeps the reader’s allocation as the text: appends of the next bytes in place are not copies', () => {
    const storage = new Uint8Array(10);
    const text = ByteBuffer.over(storage, null);
    storage.set([1, 2, 3], 0);
    text.append(storage.subarray(0, 3));
    storage.set([4, 5], 3);
    text.append(storage.subarray(3, 5));
    expect(text.view().buffer).toBe(storage.buffer);
    expect([...text.view()]).toEqual([1, 2, 3, 4, 5]);
    // Bytes from elsewhere are copied in, as into any buffer.
    text.append(new Uint8Array([6]));
    expect([...text.view()]).toEqual([1, 2, 3, 4, 5, 6]);
    expect(text.view().buffer).toBe(storage.buffer);
  });
});
