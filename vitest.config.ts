import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';
import { playwright } from '@vitest/browser-playwright';
import { followServer } from './tests/support/follow-server';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export default defineConfig({
  // The follow server only answers under /__follow/ (browser tests of live follow).
  plugins: [react(), followServer()],
  worker: { format: 'es' },
  // The binary fixtures (an export ZIP, Zstandard files) are imported as data URLs by the tests
  // that open them on the in-process engine (`tests/support/test-engine.ts`).
  assetsInclude: ['**/*.zip', '**/*.zstd'],
  server: { fs: { allow: ['..'] } },
  // Pre-bundle every dependency the browser tests reach, so a cold cache (a fresh clone in CI)
  // does not make Vite discover one mid-run and reload the page under the tests.
  optimizeDeps: {
    include: [
      'react',
      'react/jsx-runtime',
      'react/jsx-dev-runtime',
      'react-dom',
      'react-dom/client',
      'zustand',
      'zustand/vanilla',
      'zustand/middleware',
      'zustand/react/shallow',
      'comlink',
      'fflate',
      'fzstd',
      'xxhash-wasm',
      'diff',
      '@tanstack/react-virtual',
      '@testing-library/react',
    ],
  },
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'node',
          environment: 'node',
          // The store is vanilla zustand: its tests need no DOM.
          include: [
            'tests/core/**/*.test.ts',
            'tests/cli/**/*.test.ts',
            'tests/node/**/*.test.ts',
            'tests/gen/**/*.test.ts',
            'tests/worker/**/*.test.ts',
            'tests/app/**/*.test.ts',
            'tests/server/**/*.test.ts',
            'tests/store/**/*.test.ts',
          ],
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'jsdom',
          environment: 'jsdom',
          include: ['tests/ui/**/*.test.tsx', 'tests/client/**/*.test.ts'],
          setupFiles: ['tests/support/jsdom-setup.ts'],
          testTimeout: 20_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          // Tests read the project's fixtures and ../shared (conformance material) from disk.
          include: ['tests/browser/**/*.test.ts', 'tests/browser/**/*.test.tsx'],
          testTimeout: 120_000,
          browser: {
            enabled: true,
            headless: true,
            provider: playwright({
              launchOptions: {
                executablePath: chromium,
                args: [
                  '--no-sandbox',
                  '--disable-gpu',
                  '--disable-quic',
                  '--no-first-run',
                  '--disable-background-networking',
                  '--disable-component-update',
                  '--disable-sync',
                ],
              },
            }),
            instances: [{ browser: 'chromium' }],
          },
        },
      },
    ],
  },
});
