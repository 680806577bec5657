/**
 * The published package: pack it the way `npm publish` would (app and CLI built, `files` only),
 * install the tarball into an empty folder with no network, and run the installed CLI.
 *
 * The builds go to a staging copy rather than this checkout's dist/ and dist-cli/, which other
 * test files use while this one runs.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { copyFileSync, cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
  name: string;
  version: string;
  private?: boolean;
  files: string[];
  scripts: Record<string, string>;
  engines: { node: string };
  license: string;
  repository: { url: string };
  dependencies?: Record<string, string>;
};
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const vite = join(repo, 'node_modules', 'vite', 'bin', 'vite.js');

/** A port nothing listens on right now (the kernel's pick, released again). */
function freePort(): Promise<number> {
  return new Promise((resolvePromise, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (typeof address === 'object' && address ? resolvePromise(address.port) : reject(new Error('no port'))));
    });
  });
}

describe('the npm package', () => {
  it('is publishable: not private, files, prepack builds app and CLI, engines, licence, repository', () => {
    expect(pkg.private).toBeUndefined();
    expect(pkg.files).toEqual(expect.arrayContaining(['bin/', 'dist/', 'dist-cli/']));
    expect(pkg.scripts['prepack']).toBe('npm run build && npm run build:cli');
    // The app build includes the single-file viewer of `export --html`.
    expect(pkg.scripts['build']).toContain('--config vite.standalone.config.ts');
    expect(pkg.repository.url).toBe('git+https://github.com/surface-lens/surface-lens.git');
    expect(pkg.engines.node).toBe('>=20.19');
    expect(pkg.license).toBe('MIT');
    expect(pkg.repository.url).toMatch(/^git\+https:\/\//);
    // Everything the app and the CLI run is bundled into dist/ and dist-cli/: installing needs no registry.
    expect(pkg.dependencies ?? {}).toEqual({});
  });

  it('packs, installs into an empty folder offline, and runs --version, check, export --html and view', async () => {
    const work = mkdtempSync(join(tmpdir(), 'surface-lens-pack-'));
    const stage = join(work, 'stage');
    mkdirSync(stage);
    for (const file of ['package.json', 'README.md', 'LICENSE']) copyFileSync(join(repo, file), join(stage, file));
    cpSync(join(repo, 'bin'), join(stage, 'bin'), { recursive: true });
    // What `prepack` runs, into the staging copy.
    execFileSync(process.execPath, [vite, 'build', '--logLevel', 'error', '--outDir', join(stage, 'dist'), '--emptyOutDir'], {
      cwd: repo,
      stdio: 'pipe',
    });
    execFileSync(
      process.execPath,
      [vite, 'build', '--logLevel', 'error', '--config', 'vite.standalone.config.ts', '--outDir', join(stage, 'dist')],
      { cwd: repo, stdio: 'pipe' },
    );
    execFileSync(
      process.execPath,
      [vite, 'build', '--logLevel', 'error', '--config', 'vite.cli.config.ts', '--outDir', join(stage, 'dist-cli'), '--emptyOutDir'],
      {
        cwd: repo,
        stdio: 'pipe',
      },
    );
    const packed = JSON.parse(
      execFileSync(npm, ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: stage, encoding: 'utf8' }),
    ) as [{ filename: string; files: { path: string }[] }];
    const paths = packed[0].files.map((f) => f.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'package.json',
        'README.md',
        'LICENSE',
        'bin/surface-lens.mjs',
        'dist/index.html',
        'dist/standalone.html',
        'dist-cli/surface-lens.mjs',
      ]),
    );
    expect(paths.some((p) => p.startsWith('src/') || p.startsWith('tests/'))).toBe(false);

    const app = join(work, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'install-test', private: true }));
    execFileSync(npm, ['install', '--offline', '--no-audit', '--no-fund', join(work, packed[0].filename)], { cwd: app, stdio: 'pipe' });
    expect(existsSync(join(app, 'node_modules', pkg.name, 'dist', 'index.html'))).toBe(true);

    const version = execFileSync(npx, ['--offline', 'surface-lens', '--version'], { cwd: app, encoding: 'utf8' });
    expect(version).toBe(`${pkg.version}\n`);
    const fixture = join(repo, 'tests', 'fixtures', 'small.jsonl.zstd');
    const check = spawnSync(npx, ['--offline', 'surface-lens', 'check', '--json', fixture], { cwd: app, encoding: 'utf8' });
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
    expect(JSON.parse(check.stdout)).toMatchObject({ file: fixture, format: 'jsonl-zstd', surfaceError: null });

    // The installed CLI finds the installed single-file viewer.
    const page = join(work, 'shared.html');
    const exported = spawnSync(npx, ['--offline', 'surface-lens', 'export', fixture, '--html', page, '--step', '3', '--redact'], {
      cwd: app,
      encoding: 'utf8',
    });
    expect(exported.status).toBe(0);
    expect(exported.stderr).toMatch(/^redacted /);
    const html = readFileSync(page, 'utf8');
    expect(html).toContain(`content="default-src 'none'; script-src 'sha256-`);
    expect(html).toContain('<script type="application/gzip+base64" id="surface-lens-session">');

    // `view` serves the installed app: started on a free port without a browser, asked with its token.
    const port = await freePort();
    const bin = join(app, 'node_modules', pkg.name, 'bin', 'surface-lens.mjs');
    const view = spawn(
      process.execPath,
      [bin, 'view', '--no-open', '--port', String(port), join(repo, 'tests', 'fixtures', 'small.jsonl')],
      { cwd: app, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      const url = await new Promise<string>((resolvePromise, reject) => {
        let out = '';
        const timer = setTimeout(() => reject(new Error(`view printed no URL: ${out}`)), 30_000);
        view.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString('utf8');
          const found = /(http:\/\/\S+\?token=\S+)/.exec(out);
          if (found) {
            clearTimeout(timer);
            resolvePromise(found[1] as string);
          }
        });
        view.once('exit', (code) => reject(new Error(`view exited with ${String(code)}: ${out}`)));
      });
      expect(new URL(url).port).toBe(String(port));
      const response = await fetch(url);
      expect(response.status).toBe(200);
      const body = await response.text();
      expect(body).toContain('<div id="root"></div>');
      expect(body).toContain('<title>Surface Lens</title>');
      // The API answers too, with the token in its header.
      const listing = await fetch(new URL('/api/store', url), {
        headers: { 'x-surface-lens-token': new URL(url).searchParams.get('token') ?? '' },
      });
      expect(listing.status).toBe(200);
    } finally {
      view.kill('SIGTERM');
    }
  }, 300_000);
});
