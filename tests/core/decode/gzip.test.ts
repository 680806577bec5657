import { gzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { crc32, gunzip, GunzipStream, GzipError } from '../../../src/core/decode/gzip';
import { concatBytes } from '../../support/zstd-frames';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);
const decode = (bytes: Uint8Array): string => new TextDecoder().decode(bytes);
const LOG =
  '{"type":"session","version":0,"id":"gz","createdAt":0,"delegationDepth":0}\n' +
  '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}\n'.repeat(2000);

function streamed(bytes: Uint8Array, chunkSize: number, maxOutputBytes?: number): Uint8Array {
  const stream = new GunzipStream(maxOutputBytes === undefined ? {} : { maxOutputBytes });
  const parts: Uint8Array[] = [];
  for (let at = 0; at < bytes.length; at += chunkSize) parts.push(...stream.push(bytes.subarray(at, at + chunkSize)));
  parts.push(...stream.end());
  return concatBytes(parts);
}

function gzipError(run: () => unknown): GzipError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(GzipError);
    return error as GzipError;
  }
  throw new Error('expected a GzipError');
}

describe('gunzip', () => {
  it('round-trips text, including an empty file and non-ASCII', () => {
    for (const text of [LOG, '', 'é…😀\n']) {
      expect(decode(gunzip(gzipSync(encode(text))))).toBe(text);
    }
  });

  it('the stream gives the same bytes whatever the chunking, with output as it goes', () => {
    const gz = gzipSync(encode(LOG), { level: 9 });
    for (const size of [1, 7, 100, 4096, gz.length]) expect(decode(streamed(gz, size)), `chunks of ${size}`).toBe(LOG);
    const stream = new GunzipStream();
    expect(stream.push(gz.subarray(0, gz.length - 8)).length).toBeGreaterThan(0);
    expect(stream.outputBytes).toBe(LOG.length);
  });

  it('decodes concatenated members (gzip a >> f; gzip b >> f), which gunzipSync would stop after the first of', () => {
    const gz = concatBytes([gzipSync(encode('first\n')), gzipSync(encode('second\n')), gzipSync(encode('third\n'))]);
    expect(decode(gunzip(gz))).toBe('first\nsecond\nthird\n');
    expect(decode(streamed(gz, 5))).toBe('first\nsecond\nthird\n');
  });

  it('verifies the trailer of every member, not only the last', () => {
    const first = gzipSync(encode('{"a":1}\n'), { level: 0 }); // stored: a flipped data byte still inflates
    const gz = concatBytes([first, gzipSync(encode(LOG)), gzipSync(encode('third\n'))]);
    expect(decode(gunzip(gz))).toBe(`{"a":1}\n${LOG}third\n`);
    for (const size of [1, 5, 4096, gz.length]) expect(decode(streamed(gz, size)), `chunks of ${size}`).toBe(`{"a":1}\n${LOG}third\n`);
    const damaged = gz.slice();
    damaged[first.length - 8 - 3] = damaged[first.length - 8 - 3]! ^ 1; // '1' -> '0' in the first member
    const message = `corrupt gzip data: the CRC-32 or length in the trailer of the member ending at byte ${first.length} does not match (damaged file)`;
    expect(gzipError(() => gunzip(damaged)).message).toBe(message);
    for (const size of [1, 5, 4096]) expect(() => streamed(damaged, size), `chunks of ${size}`).toThrow(message);
    const wrongSize = gz.slice();
    wrongSize[first.length - 4] = wrongSize[first.length - 4]! ^ 1; // ISIZE of the first member
    expect(gzipError(() => gunzip(wrongSize)).message).toBe(message);
  });

  it('enforces the output limit while inflating', () => {
    const bomb = gzipSync(new Uint8Array(20_000_000)); // ~20 KB
    const error = gzipError(() => gunzip(bomb, { maxOutputBytes: 1_000_000 }));
    expect(error.message).toBe('gzip data inflates to more than 1000000 bytes (the output limit); refusing to decompress further');
    expect(() => streamed(bomb, 1 << 20, 1_000_000)).toThrow('the output limit');
    expect(gunzip(bomb, { maxOutputBytes: 20_000_000 })).toHaveLength(20_000_000);
  });

  it('does not trust the trailer’s size field (gunzipSync would allocate it)', () => {
    const gz = gzipSync(encode('tiny\n'));
    gz.set([0xf0, 0xff, 0xff, 0xff], gz.length - 4); // claims ~4 GiB
    expect(gzipError(() => gunzip(gz)).message).toMatch(/^corrupt gzip data: the CRC-32 or length/);
  });

  it('refuses truncated, damaged and foreign input', () => {
    const gz = gzipSync(encode(LOG));
    expect(gzipError(() => gunzip(gz.subarray(0, gz.length - 4))).message).toMatch(/^corrupt gzip data/); // trailer cut
    expect(gzipError(() => gunzip(gz.subarray(0, gz.length >> 1))).message).toMatch(/^corrupt gzip data/); // deflate cut
    const flipped = gz.slice();
    flipped[gz.length - 6] = flipped[gz.length - 6]! ^ 1; // CRC byte
    expect(() => gunzip(flipped)).toThrow(GzipError);
    expect(gzipError(() => gunzip(encode('{"type":"session"}\n'))).message).toBe('not gzip data: the input does not start with 1F 8B');
    expect(gzipError(() => gunzip(new Uint8Array(0))).message).toBe('empty gzip data');
    expect(() => gunzip(concatBytes([gz, encode('trailing garbage')]))).toThrow(GzipError);
  });

  it('keeps failing after an error and rejects use after end', () => {
    const stream = new GunzipStream();
    expect(() => stream.push(encode('nope'))).toThrow(GzipError);
    expect(() => stream.push(new Uint8Array(1))).toThrow('not gzip data');
    const done = new GunzipStream();
    done.push(gzipSync(encode('x')));
    done.end();
    expect(() => done.push(new Uint8Array(1))).toThrow('push after end');
  });

  it('crc32 matches the standard check value', () => {
    expect(crc32(encode('123456789'))).toBe(0xcbf43926);
    expect(crc32(encode('6789'), crc32(encode('12345')))).toBe(0xcbf43926);
  });
});
