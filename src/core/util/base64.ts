/**
 * Base64 (RFC 4648 §4, with padding) for the core, which has neither `btoa` nor `Buffer`: the
 * self-contained HTML export carries its session as base64 text inside the page.
 */
const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
const VALUES = new Int16Array(128).fill(-1);
for (let i = 0; i < ALPHABET.length; i++) VALUES[ALPHABET.charCodeAt(i)] = i;

/** Encode bytes. */
export function encodeBase64(bytes: Uint8Array): string {
  const parts: string[] = [];
  let chunk = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const a = bytes[i]!;
    const b = i + 1 < bytes.length ? bytes[i + 1]! : 0;
    const c = i + 2 < bytes.length ? bytes[i + 2]! : 0;
    const n = (a << 16) | (b << 8) | c;
    chunk +=
      ALPHABET.charAt(n >>> 18) +
      ALPHABET.charAt((n >>> 12) & 63) +
      (i + 1 < bytes.length ? ALPHABET.charAt((n >>> 6) & 63) : '=') +
      (i + 2 < bytes.length ? ALPHABET.charAt(n & 63) : '=');
    // Short pieces joined once: one growing string of megabytes would be rebuilt many times.
    if (chunk.length >= 1 << 16) {
      parts.push(chunk);
      chunk = '';
    }
  }
  parts.push(chunk);
  return parts.join('');
}

/**
 * Decode base64 text; whitespace is skipped.
 * @throws Error on any other character outside the alphabet, or a length that is not whole
 */
export function decodeBase64(text: string): Uint8Array {
  const clean = text.replace(/\s+/g, '');
  if (clean.length % 4 !== 0) throw new Error('base64 text of a length that is not a multiple of 4');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  const out = new Uint8Array((clean.length / 4) * 3 - padding);
  let o = 0;
  for (let i = 0; i < clean.length; i += 4) {
    let n = 0;
    for (let k = 0; k < 4; k++) {
      const code = clean.charCodeAt(i + k);
      const value = code === 61 && i + k >= clean.length - padding ? 0 : code < 128 ? VALUES[code]! : -1;
      if (value < 0) throw new Error(`not base64: ${JSON.stringify(clean.charAt(i + k))} at ${i + k}`);
      n = (n << 6) | value;
    }
    if (o < out.length) out[o++] = n >>> 16;
    if (o < out.length) out[o++] = (n >>> 8) & 255;
    if (o < out.length) out[o++] = n & 255;
  }
  return out;
}
