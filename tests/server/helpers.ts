/** Helpers of the server tests: temporary stores, raw HTTP requests, tree snapshots. */
import { createHash } from 'node:crypto';
import { lstatSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { StoreSessionSpec } from '../support/store-builder';

/** A fresh temporary directory; removed by the returned function. */
export function tempDir(prefix = 'sl-store-'): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A folder standing in for the built app. */
export function fakeApp(): { dir: string; remove: () => void } {
  const app = tempDir('sl-app-');
  writeFileSync(join(app.dir, 'index.html'), '<!doctype html><title>Surface Lens</title>');
  return app;
}

/** A parent with a child and a grandchild, plus a second project: a small tree store. */
export function treeSpecs(encoding: 'zstd' | 'jsonl' = 'zstd'): StoreSessionSpec[] {
  return [
    { id: 'parent-1', cwd: '/home/dev/alpha', gen: { seed: 11, events: 200 }, encoding },
    {
      id: 'child-1',
      cwd: '/home/dev/alpha',
      gen: { seed: 12, events: 120, startTime: 1785400100000 },
      encoding,
      parent: { id: 'parent-1', depth: 1 },
    },
    {
      id: 'grandchild-1',
      cwd: '/home/dev/alpha/sub',
      gen: { seed: 13, events: 80, startTime: 1785400200000 },
      encoding,
      parent: { id: 'child-1', depth: 2 },
    },
    { id: 'other-1', cwd: '/home/dev/beta', gen: { seed: 14, events: 150, startTime: 1785400300000 }, encoding },
  ];
}

/** A raw HTTP GET (or other method) with exactly the given headers (fetch cannot set Host). */
export function http(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, method, headers: { host: `127.0.0.1:${port}`, ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Every entry under `dir`: type, mode, size, mtime, link target or content hash. */
export function snapshotTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (path: string, rel: string): void => {
    const stats = lstatSync(path);
    let what = `${stats.mode}:${stats.size}:${stats.mtimeMs}:${stats.ctimeMs}`;
    if (stats.isSymbolicLink()) what += `:link:${readlinkSync(path)}`;
    else if (stats.isFile()) what += `:${createHash('sha256').update(readFileSync(path)).digest('hex')}`;
    out.set(rel, what);
    if (stats.isDirectory()) for (const name of readdirSync(path).sort()) walk(join(path, name), `${rel}/${name}`);
  };
  walk(dir, '.');
  return out;
}

/** Waits until `check` returns a value, polling. */
export async function until<T>(check: () => T | null | undefined | false, timeoutMs = 8000, what = 'condition'): Promise<T> {
  const start = Date.now();
  for (;;) {
    const value = check();
    if (value) return value;
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
