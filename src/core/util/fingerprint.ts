/**
 * A cheap content fingerprint: FNV-1a over the size and up to 64 KiB from each end. Good enough
 * to warn that a deep link was made on another file; not a cryptographic hash.
 */
export function fingerprint(bytes: Uint8Array): string {
  let h = 0x811c9dc5;
  const mix = (b: number): void => {
    h ^= b;
    h = Math.imul(h, 0x01000193) >>> 0;
  };
  const size = bytes.length;
  for (let i = 0; i < 8; i++) mix(Math.floor(size / 2 ** (8 * i)) & 0xff);
  const edge = 1 << 16;
  for (let i = 0; i < Math.min(edge, size); i++) mix(bytes[i] as number);
  for (let i = Math.max(edge, size - edge); i < size; i++) mix(bytes[i] as number);
  return `${size.toString(36)}-${h.toString(36)}`;
}
