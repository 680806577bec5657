/**
 * `surface-lens view [PATH...] [--port N] [--host H] [--no-open]`: serves the app over the
 * user's session store on a local server (src/server) and opens it in the browser.
 */
import { spawn } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { resolveSessionRoot } from '../node/store';
import { startViewServer } from '../server/server';
import type { ViewServer } from '../server/server';
import type { CliIo } from './run';

export const VIEW_USAGE = `usage: surface-lens view [PATH...] [--port N] [--host H] [--no-open] [--cache-dir DIR]

Serve the app over a dsh session store on a local server and open it in the browser.
PATH is a session root, a project directory, a session directory, a log file or an export
ZIP; without one, the root is $DSH_SESSION_ROOT, else $DSH_HOME/sessions, else ~/.dsh/sessions.

  --port N      listen on port N (default: 7380, or the next free port after it)
  --host H      listen on H instead of 127.0.0.1 (anyone who can reach it and has the
                token can read the sessions)
  --no-open     do not open a browser
  --or-sample   without PATH and without a store, serve the bundled sample store
  --cache-dir DIR  keep the search index in DIR (default: $XDG_CACHE_HOME/surface-lens, else
                ~/.cache/surface-lens); never inside the store; rebuilt when missing
  --help        show this help

Read-only: nothing under the store is created, written, locked or deleted.
`;

/** Where the search index is kept without `--cache-dir`: the user's cache folder, not the store. */
export function defaultCacheDir(env: Record<string, string | undefined>, home: string): string {
  const xdg = env.XDG_CACHE_HOME;
  return xdg && xdg.startsWith('/') ? join(xdg, 'surface-lens') : join(home, '.cache', 'surface-lens');
}

/** The folder holding `package.json` of this project (from src/cli or from dist-cli). */
export function projectDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'index.html'))) return dir;
    dir = dirname(dir);
  }
  return resolve(dirname(fileURLToPath(import.meta.url)), '..');
}

/** The session root of session-store.md §1 when no PATH is given (the store walker's rule). */
export function defaultRoot(env: NodeJS.ProcessEnv = process.env, home = homedir()): string {
  return resolveSessionRoot(undefined, { env, home }).path;
}

const isDirectory = (path: string): boolean => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
};

/** How the browser is opened; tests replace it. */
export type BrowserOpener = (url: string) => Promise<string | null>;

/** Opens `url` with the platform's opener; resolves to why it could not, or null. */
export const openBrowser: BrowserOpener = (url) => {
  if (process.platform === 'linux' && !process.env.DISPLAY && !process.env.WAYLAND_DISPLAY) {
    return Promise.resolve('there is no display (DISPLAY and WAYLAND_DISPLAY are unset)');
  }
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  return new Promise((resolvePromise) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true });
    child.once('error', (error: NodeJS.ErrnoException) => resolvePromise(`${command} failed (${error.code ?? error.message})`));
    child.once('spawn', () => {
      child.unref();
      resolvePromise(null);
    });
  });
};

/** Options the tests pass in place of the process's. */
export interface ViewDeps {
  open?: BrowserOpener;
  env?: NodeJS.ProcessEnv;
  home?: string;
  /** Called with the running server (tests close it). */
  onServer?: (server: ViewServer) => void;
  /** The default port (tests pass 0). */
  defaultPort?: number;
  /** The built app's folder (default: `dist/` of this project). */
  appDir?: string;
}

/**
 * Runs `view`. Resolves once the server listens (with 0), or with 2 for a usage error; the
 * server keeps the process alive until it is stopped.
 */
export async function runView(argv: readonly string[], io: CliIo, deps: ViewDeps = {}): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: {
        port: { type: 'string' },
        host: { type: 'string' },
        'no-open': { type: 'boolean' },
        'or-sample': { type: 'boolean' },
        'cache-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (error) {
    io.stderr.write(`surface-lens view: ${(error as Error).message}\n\n${VIEW_USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    io.stdout.write(VIEW_USAGE);
    return 0;
  }
  let port: number | undefined;
  if (values.port !== undefined) {
    port = Number(values.port);
    if (!/^\d+$/.test(values.port) || port < 1 || port > 65535) {
      io.stderr.write(`surface-lens view: --port needs a port number from 1 to 65535, got ${JSON.stringify(values.port)}\n\n${VIEW_USAGE}`);
      return 2;
    }
  }
  const host = values.host ?? '127.0.0.1';
  if (!['127.0.0.1', 'localhost', '::1'].includes(host)) {
    io.stderr.write(
      `surface-lens view: warning: listening on ${host}, not only this machine's loopback: anyone who can reach it and has the token can read these sessions\n`,
    );
  }
  const base = projectDir();
  const appDir = deps.appDir ?? join(base, 'dist');
  if (!existsSync(join(appDir, 'index.html'))) {
    io.stderr.write(`surface-lens view: the app is not built (no ${join(appDir, 'index.html')}); run \`npm run build\`\n`);
    return 2;
  }
  let paths = positionals.map((path) => resolve(path));
  let what = paths.join(', ');
  if (paths.length === 0) {
    const root = defaultRoot(deps.env ?? process.env, deps.home ?? homedir());
    if (isDirectory(root) || !values['or-sample']) {
      paths = [root];
      what = root;
      if (!isDirectory(root))
        io.stderr.write(`surface-lens view: no session store at ${root} yet; it is watched, sessions appear when dsh writes them\n`);
    } else {
      paths = [join(base, 'sample-store')];
      what = `the bundled sample store (no session store at ${root})`;
    }
  }
  let server: ViewServer;
  try {
    server = await startViewServer({
      paths,
      appDir,
      host,
      ...(port === undefined ? {} : { port }),
      ...(deps.defaultPort === undefined ? {} : { defaultPort: deps.defaultPort }),
      cacheDir:
        values['cache-dir'] !== undefined ? resolve(values['cache-dir']) : defaultCacheDir(deps.env ?? process.env, deps.home ?? homedir()),
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    io.stderr.write(
      `surface-lens view: cannot listen on ${host}${port === undefined ? '' : `:${port}`}: ${code === 'EADDRINUSE' ? 'the port is in use' : (code ?? (error as Error).message)}\n`,
    );
    return 2;
  }
  deps.onServer?.(server);
  const count = server.store.current().sessions.length;
  io.stdout.write(`Surface Lens: ${count} session${count === 1 ? '' : 's'} from ${what} at ${server.url}\n`);
  if (!values['no-open']) {
    const failure = await (deps.open ?? openBrowser)(server.url);
    if (failure !== null) io.stderr.write(`surface-lens view: not opening a browser: ${failure}; open the URL above\n`);
  }
  return 0;
}
