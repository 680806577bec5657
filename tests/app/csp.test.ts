/**
 * The page's Content-Security-Policy and what the built app may do: no inline script, no eval,
 * styles from files only, nothing framed or embedded; and no code path that fetches anything but
 * a URL the user asked for.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const html = readFileSync(join(root, 'index.html'), 'utf8');
const policy = /http-equiv="Content-Security-Policy"\s+content="([^"]+)"/.exec(html)?.[1] ?? '';
const directives = new Map(
  policy
    .split(';')
    .map((d) => d.trim().split(/\s+/))
    .filter((parts) => parts[0])
    .map(([name, ...values]) => [name as string, values]),
);

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : /\.(ts|tsx)$/.test(name) ? [path] : [];
  });
}

describe('content security policy', () => {
  it('is strict', () => {
    expect(directives.get('default-src')).toEqual(["'self'"]);
    expect(directives.get('script-src')).toEqual(["'self'", "'wasm-unsafe-eval'"]);
    expect(directives.get('style-src')).toEqual(["'self'"]);
    expect(directives.get('object-src')).toEqual(["'none'"]);
    expect(directives.get('base-uri')).toEqual(["'none'"]);
    expect(directives.get('form-action')).toEqual(["'none'"]);
    for (const values of directives.values()) {
      expect(values).not.toContain("'unsafe-inline'");
      expect(values).not.toContain("'unsafe-eval'");
    }
  });

  it('has no inline script or style in the page', () => {
    const markup = html.replace(/<!--[\s\S]*?-->/g, '');
    const scripts = [...markup.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)];
    for (const [, attributes, body] of scripts) {
      expect(attributes).toMatch(/\bsrc=/);
      expect(body?.trim()).toBe('');
    }
    expect(markup).not.toMatch(/<style\b/);
    expect(markup).not.toMatch(/\son[a-z]+=/i);
  });

  it('fetches only where a user asks for it: a URL to open (engine), a bundled sample (store), the store API of the server that served the page (sessions, store search), the built viewer for an HTML export (exports)', () => {
    const fetchers = sources(join(root, 'src'))
      .filter((path) => /\bfetch\(/.test(readFileSync(path, 'utf8')))
      .map((path) => path.slice(root.length + 1))
      .sort();
    expect(fetchers).toEqual([
      'src/store/deps.ts',
      'src/store/slices/exports.ts',
      'src/store/slices/load.ts',
      'src/store/slices/sessions.ts',
      'src/store/slices/storeSearch.ts',
      'src/worker/engine.ts',
    ]);
    // The sessions and store-search slices ask only their own origin's `/api/store…` paths.
    for (const slice of ['src/store/slices/sessions.ts', 'src/store/slices/storeSearch.ts']) {
      const text = readFileSync(join(root, slice), 'utf8');
      expect(text.match(/['`]\/api\/store[^'`]*['`]/g)?.length, slice).toBeGreaterThan(0);
      expect(text, slice).not.toMatch(/https?:\/\//);
    }
    // The export slice asks only for the viewer page shipped beside the app.
    expect(readFileSync(join(root, 'src/store/slices/exports.ts'), 'utf8').match(/fetch\(([^)]*)\)/g)).toEqual([
      'fetch(ctx.deps.viewerUrl)',
    ]);
    for (const path of sources(join(root, 'src'))) {
      const text = readFileSync(path, 'utf8');
      expect(text, path).not.toMatch(/\beval\(|new Function\(|sendBeacon|XMLHttpRequest|WebSocket\(/);
    }
  });
});
