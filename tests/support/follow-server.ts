/**
 * Test helper (browser tests): a Vite plugin serving files that grow, as a static host with
 * Range support would. `GET /__follow/<name>` answers with ETag, `Accept-Ranges`, 206 for a
 * `Range: bytes=a-[b]`, 416 past the end and 304 for a matching `If-None-Match`;
 * `POST /__follow/<name>` appends its body, `POST /__follow/<name>?reset` replaces the file.
 * Files live in memory only.
 */
import type { Plugin } from 'vite';

export function followServer(): Plugin {
  const files = new Map<string, { bytes: Buffer; version: number }>();
  return {
    name: 'follow-test-server',
    configureServer(server) {
      server.middlewares.use('/__follow/', (req, res) => {
        const url = new URL(req.url ?? '/', 'http://localhost');
        const name = decodeURIComponent(url.pathname.replace(/^\//, ''));
        if (req.method === 'POST') {
          const chunks: Buffer[] = [];
          req.on('data', (chunk: Buffer) => chunks.push(chunk));
          req.on('end', () => {
            const body = Buffer.concat(chunks);
            const old = files.get(name);
            const bytes = url.searchParams.has('reset') || !old ? body : Buffer.concat([old.bytes, body]);
            files.set(name, { bytes, version: (old?.version ?? 0) + 1 });
            res.statusCode = 204;
            res.end();
          });
          return;
        }
        const file = files.get(name);
        if (!file) {
          res.statusCode = 404;
          res.end();
          return;
        }
        const etag = `"${file.version}-${file.bytes.length}"`;
        res.setHeader('ETag', etag);
        res.setHeader('Accept-Ranges', 'bytes');
        res.setHeader('Cache-Control', 'no-store');
        if (req.headers['if-none-match'] === etag) {
          res.statusCode = 304;
          res.end();
          return;
        }
        const range = /^bytes=(\d+)-(\d*)$/.exec(req.headers.range ?? '');
        const size = file.bytes.length;
        if (range === null) {
          res.statusCode = 200;
          res.end(file.bytes);
          return;
        }
        const from = Number(range[1]);
        if (from >= size) {
          res.statusCode = 416;
          res.setHeader('Content-Range', `bytes */${size}`);
          res.end();
          return;
        }
        const to = range[2] === '' ? size - 1 : Math.min(size - 1, Number(range[2]));
        res.statusCode = 206;
        res.setHeader('Content-Range', `bytes ${from}-${to}/${size}`);
        res.end(file.bytes.subarray(from, to + 1));
      });
    },
  };
}
