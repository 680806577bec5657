/**
 * Byte-level container detection (log-format.md §1.1 rows 1–3). Only the magic numbers are
 * looked at; telling the text forms apart (rows 4–8) needs the decoded text and happens later.
 */

/** The container an input is wrapped in; `text` means "not a container: decode as UTF-8". */
export type ContainerKind = 'zip' | 'zstd' | 'gzip' | 'text';

function startsWith(bytes: Uint8Array, magic: readonly number[]): boolean {
  return bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);
}

/**
 * Detect the container from the first bytes of an input (4 are enough; fewer simply fail to
 * match). First match wins: ZIP local header `50 4B 03 04` or empty-archive end record
 * `50 4B 05 06`, then Zstandard `28 B5 2F FD`, then gzip `1F 8B`; anything else is `text`.
 */
export function detectContainer(first: Uint8Array): ContainerKind {
  if (startsWith(first, [0x50, 0x4b, 0x03, 0x04]) || startsWith(first, [0x50, 0x4b, 0x05, 0x06])) return 'zip';
  if (startsWith(first, [0x28, 0xb5, 0x2f, 0xfd])) return 'zstd';
  if (startsWith(first, [0x1f, 0x8b])) return 'gzip';
  return 'text';
}
