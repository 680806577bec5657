/**
 * The built app (the `vite build` output), served as static files: public, like any static
 * host; only session data needs the token. Paths never leave the app's folder.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { extname, join, normalize, sep } from 'node:path';

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.map': 'application/json; charset=utf-8',
  '.jsonl': 'application/x-ndjson',
  '.zstd': 'application/zstd',
  '.txt': 'text/plain; charset=utf-8',
};

/**
 * The policy of index.html's meta tag, sent as a header too, plus `frame-ancestors` (which a
 * meta tag cannot set) and `connect-src 'self'` only: the page served here talks to this server.
 */
export const SERVED_CSP =
  "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self'; img-src 'self' data: blob:; connect-src 'self' blob: data:; worker-src 'self' blob:; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/** Headers every response carries. */
export const COMMON_HEADERS: Record<string, string> = {
  'x-content-type-options': 'nosniff',
  // The first URL carries the token: never send it on as a referrer.
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** Serves `pathname` from `root` (index.html for `/`); false when there is no such file. */
export async function serveStatic(root: string, pathname: string, response: ServerResponse, method: string): Promise<boolean> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    return false;
  }
  if (decoded.includes('\0')) return false;
  const relativePath = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const path = normalize(join(root, relativePath));
  if (!path.startsWith(root.endsWith(sep) ? root : root + sep)) return false;
  let size: number;
  try {
    const stats = await stat(path);
    if (!stats.isFile()) return false;
    size = stats.size;
  } catch {
    return false;
  }
  const type = TYPES[extname(path)] ?? 'application/octet-stream';
  const headers: Record<string, string> = { ...COMMON_HEADERS, 'content-type': type, 'content-length': String(size) };
  if (type.startsWith('text/html')) {
    headers['content-security-policy'] = SERVED_CSP;
    headers['cache-control'] = 'no-store';
  } else if (relativePath.startsWith('assets/')) headers['cache-control'] = 'public, max-age=31536000, immutable';
  response.writeHead(200, headers);
  if (method === 'HEAD') {
    response.end();
    return true;
  }
  createReadStream(path).pipe(response);
  return true;
}
