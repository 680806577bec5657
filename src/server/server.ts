/**
 * The local server of `surface-lens view`: Node's own HTTP server serving the built app and a
 * small read-only JSON API over the user's session store (src/protocol/store-api.ts), with live
 * changes over one server-sent-events stream per tab.
 *
 * Safety: bound to 127.0.0.1 unless told otherwise; every `/api/` request needs the
 * per-process token (the first URL's `?token=` becomes a `SameSite=Strict` cookie) and a `Host`
 * naming this server; requests from other sites' pages are refused by `Origin` and
 * `Sec-Fetch-Site`. Nothing under the store is ever opened for writing.
 */
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { RANGE_HEADERS } from '../protocol/store-api';
import type { StoreChange } from '../protocol/store-api';
import { SessionStore } from './listing';
import { StoreSearch } from './search';
import { RangeError416, readWholeRange } from './ranges';
import { allowedHosts, cookieName, hasToken, hostAllowed, newToken, originAllowed } from './security';
import { COMMON_HEADERS, serveStatic } from './static';
import { errnoReason, nodeFs, readAt } from './store-fs';
import type { StoreFs } from './store-fs';
import { watchStore } from './watch';

/** The port tried first when none is given. */
export const DEFAULT_PORT = 7380;
const PORT_ATTEMPTS = 20;
const MAX_DETAIL_IDS = 500;

/** Options of {@link startViewServer}. */
export interface ViewServerOptions {
  /** Paths to list (roots, project or session directories, files, ZIPs). */
  paths: readonly string[];
  /** The built app's folder (index.html and assets). */
  appDir: string;
  /** Bind address (default 127.0.0.1). */
  host?: string;
  /** The port; when absent, {@link DEFAULT_PORT} or the next free one after it. */
  port?: number;
  /** Default port to start from when `port` is absent (tests pass 0 for any free port). */
  defaultPort?: number;
  /** The token (default: a fresh random one). */
  token?: string;
  fs?: StoreFs;
  /** Polling interval of the watch, ms. */
  pollMs?: number;
  /** Disable `fs.watch` (the polling fallback alone). */
  noWatcher?: boolean;
  /** Where the store-wide search keeps its index (outside the store); null keeps it in memory. */
  cacheDir?: string | null;
}

/** A running server. */
export interface ViewServer {
  /** The URL to open, with the token. */
  url: string;
  port: number;
  host: string;
  token: string;
  store: SessionStore;
  search: StoreSearch;
  close(): Promise<void>;
}

function listen(server: Server, host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const onError = (error: Error): void => {
      server.off('listening', onListening);
      reject(error);
    };
    const onListening = (): void => {
      server.off('error', onError);
      resolve((server.address() as AddressInfo).port);
    };
    server.once('error', onError);
    server.once('listening', onListening);
    server.listen(port, host);
  });
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...COMMON_HEADERS,
    'content-type': 'application/json; charset=utf-8',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  response.end(text);
}

function sendError(response: ServerResponse, status: number, message: string): void {
  sendJson(response, status, { error: message });
}

/** Starts the server and its watch; resolves once it listens. */
export async function startViewServer(options: ViewServerOptions): Promise<ViewServer> {
  const fs = options.fs ?? nodeFs;
  const host = options.host ?? '127.0.0.1';
  const token = options.token ?? newToken();
  const store = new SessionStore({ fs, paths: options.paths });
  await store.refresh();
  const search = new StoreSearch({ store, fs, cacheDir: options.cacheDir ?? null });
  void search.start();
  const streams = new Set<ServerResponse>();
  let port = 0;
  let allowed = new Set<string>();

  const push = (changes: StoreChange[]): void => {
    search.update(changes);
    for (const change of changes) {
      const message = `event: change\ndata: ${JSON.stringify(change)}\n\n`;
      for (const stream of streams) stream.write(message);
    }
  };

  const api = async (request: IncomingMessage, response: ServerResponse, url: URL): Promise<void> => {
    if (!originAllowed(request, allowed)) return sendError(response, 403, 'Requests from other sites are refused.');
    if (!hasToken(request, token, port)) return sendError(response, 401, 'This server needs its token: open the URL it printed.');
    if (request.method !== 'GET' && request.method !== 'HEAD') return sendError(response, 405, 'The store is read-only.');
    const path = url.pathname;
    if (path === '/api/store') return sendJson(response, 200, store.current());
    if (path === '/api/store/search') return sendJson(response, 200, await search.search(url.searchParams.get('q') ?? ''));
    if (path === '/api/store/details') {
      const ids = (url.searchParams.get('ids') ?? '').split(',').filter(Boolean).slice(0, MAX_DETAIL_IDS);
      return sendJson(response, 200, await store.detailsOf(ids));
    }
    if (path === '/api/store/events') {
      response.writeHead(200, {
        ...COMMON_HEADERS,
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
      });
      response.write('retry: 2000\n\n');
      streams.add(response);
      const keepAlive = setInterval(() => response.write(': keep-alive\n\n'), 15_000);
      request.on('close', () => {
        clearInterval(keepAlive);
        streams.delete(response);
      });
      return;
    }
    // `/file/<name>` may end with the file's name: the page shows what it opened.
    const match = /^\/api\/store\/session\/([A-Za-z0-9_-]{1,64})\/(file|bytes)(?:\/[A-Za-z0-9._-]{1,255})?$/.exec(path);
    if (!match) return sendError(response, 404, 'No such API.');
    const id = match[1] as string;
    let target;
    try {
      target = await store.pathOf(id);
    } catch (error) {
      return sendError(response, 404, `The session file ${errnoReason(error)}.`);
    }
    if (!target) return sendError(response, 404, 'No session with this id in the listing (or its file left the root).');
    try {
      if (match[2] === 'file') return await sendFile(request, response, target.path);
      const from = Number(url.searchParams.get('from') ?? '0');
      if (!Number.isSafeInteger(from) || from < 0) return sendError(response, 400, '`from` must be a byte offset.');
      const range = await readWholeRange(fs, target.path, target.row.format, from);
      response.writeHead(200, {
        ...COMMON_HEADERS,
        'content-type': 'application/octet-stream',
        'cache-control': 'no-store',
        'content-length': range.bytes.length,
        [RANGE_HEADERS.size]: String(range.size),
        [RANGE_HEADERS.end]: String(range.end),
        [RANGE_HEADERS.head]: range.head,
        'access-control-expose-headers': Object.values(RANGE_HEADERS).join(', '),
      });
      response.end(range.bytes);
    } catch (error) {
      if (error instanceof RangeError416) return sendError(response, 416, error.message);
      return sendError(response, 404, `The session file ${errnoReason(error)}.`);
    }
  };

  /**
   * A session file as it is now, whole or by one `Range: bytes=A-[B]` (a follower asks for what
   * is past the size it has); `ETag` from size and mtime answers an unchanged file with 304.
   */
  const sendFile = async (request: IncomingMessage, response: ServerResponse, path: string): Promise<void> => {
    const stats = await fs.stat(path);
    const size = stats.size;
    const etag = `"${size.toString(36)}-${Math.floor(stats.mtimeMs).toString(36)}"`;
    const headers = {
      ...COMMON_HEADERS,
      'content-type': 'application/octet-stream',
      'cache-control': 'no-cache',
      'accept-ranges': 'bytes',
      etag,
    };
    if (request.headers['if-none-match'] === etag) {
      response.writeHead(304, headers);
      response.end();
      return;
    }
    const range = /^bytes=(\d{1,15})-(\d{0,15})$/.exec(request.headers.range ?? '');
    let start = 0;
    let end = size;
    if (range) {
      start = Number(range[1]);
      end = range[2] === '' ? size : Math.min(size, Number(range[2]) + 1);
      if (start >= size || end <= start) {
        response.writeHead(416, { ...headers, 'content-range': `bytes */${size}` });
        response.end();
        return;
      }
    }
    // Read into memory: the length sent is that of one moment, however the file grows meanwhile.
    const bytes = await readAt(fs, path, start, end - start);
    response.writeHead(range ? 206 : 200, {
      ...headers,
      'content-length': bytes.length,
      ...(range ? { 'content-range': `bytes ${start}-${start + bytes.length - 1}/${size}` } : {}),
    });
    response.end(bytes);
  };

  const handle = async (request: IncomingMessage, response: ServerResponse): Promise<void> => {
    if (!hostAllowed(request, allowed)) {
      response.writeHead(421, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
      response.end('This server answers only to its own address (Host header refused).\n');
      return;
    }
    const url = new URL(request.url ?? '/', `http://${request.headers.host}`);
    if (url.pathname.startsWith('/api/')) return api(request, response, url);
    const given = url.searchParams.get('token');
    if (given !== null) {
      // The printed URL: keep the token as a same-site cookie and drop it from the address bar.
      if (given !== token) {
        response.writeHead(401, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
        response.end('Wrong token: open the URL the server printed.\n');
        return;
      }
      url.searchParams.delete('token');
      response.writeHead(303, {
        ...COMMON_HEADERS,
        'set-cookie': `${cookieName(port)}=${token}; Path=/; HttpOnly; SameSite=Strict`,
        location: `${url.pathname}${url.search}`,
      });
      response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      response.writeHead(405, COMMON_HEADERS);
      response.end();
      return;
    }
    if (await serveStatic(options.appDir, url.pathname, response, request.method)) return;
    response.writeHead(404, { ...COMMON_HEADERS, 'content-type': 'text/plain; charset=utf-8' });
    response.end('Not found.\n');
  };

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      if (!response.headersSent) sendError(response, 500, error instanceof Error ? error.message : String(error));
      else response.destroy();
    });
  });

  if (options.port !== undefined) port = await listen(server, host, options.port);
  else {
    const first = options.defaultPort ?? DEFAULT_PORT;
    for (let attempt = 0; ; attempt++) {
      try {
        port = await listen(server, host, first === 0 ? 0 : first + attempt);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt + 1 >= PORT_ATTEMPTS) throw error;
      }
    }
  }
  allowed = allowedHosts(host, port);
  const stopWatch = watchStore(
    store,
    { roots: store.current().roots, pollMs: options.pollMs ?? 1000, noWatcher: options.noWatcher ?? false },
    push,
  );
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

  return {
    url: `http://${shownHost}:${port}/?token=${token}`,
    port,
    host,
    token,
    store,
    search,
    close: () =>
      new Promise<void>((resolve) => {
        stopWatch();
        search.stop();
        for (const stream of streams) stream.end();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
