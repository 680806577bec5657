/**
 * A leading UTF-8 byte-order mark (log-format.md §1.1). Upstream's loader does not strip one, so
 * the header line fails to parse there; this tool drops it before detection and decoding, and
 * says so with a warning.
 */
import type { Diagnostic } from '../model';

/** `EF BB BF`: the UTF-8 encoding of U+FEFF. */
export const BOM_BYTES = 3;

/** Whether `bytes` start with a UTF-8 byte-order mark. */
export function startsWithBom(bytes: Uint8Array): boolean {
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
}

/** The warning reported for a dropped byte-order mark (exact text of log-format.md §1.1). */
export function bomDiagnostic(): Diagnostic {
  return {
    severity: 'warning',
    rule: 'decode/bom',
    seq: null,
    line: 1,
    message:
      "file starts with a UTF-8 byte-order mark; dsh's loader refuses such a log (corrupt session log: header line is not valid JSON)",
  };
}
