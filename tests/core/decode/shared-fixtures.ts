/**
 * Locations of the read-only reference material (spec vectors, packaged fixtures). Tests that
 * need it are skipped, with the reason in their name, when the directory is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Root of the shared reference tree; override with SURFACE_LENS_SHARED. */
export const SHARED_DIR = process.env['SURFACE_LENS_SHARED'] ?? '/work/shared';
/** Packaged fixtures (.zstd logs, export ZIP). */
export const PACKAGED_DIR = join(SHARED_DIR, 'fixtures', 'packaged');
/** Upstream plain JSONL logs the packaged fixtures were made from. */
export const UPSTREAM_DIR = join(SHARED_DIR, 'fixtures', 'dsh-upstream');
/** Spec vectors. */
export const VECTORS_DIR = join(SHARED_DIR, 'spec', 'vectors');

/** True when the packaged fixtures and vectors are available. */
export const HAVE_SHARED = existsSync(PACKAGED_DIR) && existsSync(VECTORS_DIR);
/** Suffix for describe names of tests that are skipped without the shared tree. */
export const NEEDS_SHARED = HAVE_SHARED ? '' : ` (skipped: ${SHARED_DIR} is absent)`;

/** Read a file as bytes (a plain Uint8Array, not a Buffer, like the browser gets). */
export function readBytes(path: string): Uint8Array {
  const buffer = readFileSync(path);
  return new Uint8Array(buffer.buffer, buffer.byteOffset, buffer.byteLength);
}

/** Read a file as UTF-8 text. */
export function readText(path: string): string {
  return readFileSync(path, 'utf8');
}
