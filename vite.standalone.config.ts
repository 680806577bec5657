import { createHash } from 'node:crypto';
import { defineConfig } from 'vite';
import type { Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { viteSingleFile } from 'vite-plugin-singlefile';

const hash = (text: string): string => `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * After the bundle and the styles are inlined: a Content-Security-Policy that allows exactly the
 * page's inline script and styles by hash and nothing else (no network, no workers, no frames).
 * The session is added later as data blocks, which are never executed, so the policy holds.
 */
function strictCsp(): Plugin {
  return {
    name: 'surface-lens-standalone-csp',
    enforce: 'post',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const asset of Object.values(bundle)) {
          if (asset.type !== 'asset' || !asset.fileName.endsWith('.html')) continue;
          const html = String(asset.source);
          const moduleScript = /<script type="module"[^>]*>([\s\S]*?)<\/script>/g;
          const scripts = [...html.matchAll(moduleScript)].map((m) => hash(m[1] ?? ''));
          // Styles are looked for outside the scripts, whose code may spell "<style>" in a string.
          const outsideScripts = html.replace(moduleScript, '');
          const styles = [...outsideScripts.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((m) => hash(m[1] ?? ''));
          if (scripts.length === 0) throw new Error('standalone build: no inline module script to allow');
          const markup = outsideScripts.replace(/<style[^>]*>[\s\S]*?<\/style>/g, '');
          if (/<script[^>]+src=|<link[^>]+href=/.test(markup)) throw new Error('standalone build: an asset was left outside the page');
          const policy = [
            "default-src 'none'",
            `script-src ${scripts.join(' ')}`,
            `style-src ${styles.join(' ') || "'none'"}`,
            'img-src data: blob:',
            "base-uri 'none'",
            "form-action 'none'",
          ].join('; ');
          const slot = '<!--surface-lens-csp-->';
          if (!html.includes(slot)) throw new Error('standalone build: standalone.html lost its CSP slot');
          asset.source = html.replace(slot, `<meta http-equiv="Content-Security-Policy" content="${policy}" />`);
        }
      },
    },
  };
}

// Builds the self-contained viewer as one file, dist/standalone.html, next to the app (run after
// `vite build`, which empties dist/). The CLI's `export --html` and the app's export fill it.
export default defineConfig({
  plugins: [react(), viteSingleFile({ removeViteModuleLoader: true }), strictCsp()],
  // The app's build already copied public/ into dist/.
  publicDir: false,
  build: {
    target: 'es2022',
    outDir: 'dist',
    emptyOutDir: false,
    sourcemap: false,
    rollupOptions: { input: 'standalone.html' },
  },
});
