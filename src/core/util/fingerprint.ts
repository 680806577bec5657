/**
 * A cheap content fingerprint: FNV-1a over the size and up to 64 KiB from each end. Good enough
 * to warn that a deep link was made on another file; not a cryptographic hash.
 */

/** Bytes read from each end of the input. */
export const FINGERPRINT_EDGE = 1 << 16;

export function fingerprint(bytes: Uint8Array): string {
  const size = bytes.length;
  return fingerprintEdges(size, bytes.subarray(0, FINGERPRINT_EDGE), bytes.subarray(Math.max(FINGERPRINT_EDGE, size - FINGERPRINT_EDGE)));
}

/**
 * The same fingerprint from the input's size and its two ends only, for an input that is not
 * held whole (a file read as a stream, whose load may stop before its end).
 * @param head the first `min(size, FINGERPRINT_EDGE)` bytes
 * @param tail the bytes from `max(FINGERPRINT_EDGE, size - FINGERPRINT_EDGE)` to the end
 */
export function fingerprintEdges(size: number, head: Uint8Array, tail: Uint8Array): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < 8; i++) h = Math.imul(h ^ (Math.floor(size / 2 ** (8 * i)) & 0xff), 0x01000193) >>> 0;
  // The mixing step written out in each loop, not a closure: a closure's captured `h` lives in
  // its context object, which made this ten times slower (a followed session is fingerprinted
  // after every append).
  for (let i = 0; i < head.length; i++) h = Math.imul(h ^ head[i]!, 0x01000193) >>> 0;
  for (let i = 0; i < tail.length; i++) h = Math.imul(h ^ tail[i]!, 0x01000193) >>> 0;
  return `${size.toString(36)}-${h.toString(36)}`;
}
