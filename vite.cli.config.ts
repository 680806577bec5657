import { defineConfig } from 'vite';

// Bundles the Node CLI (src/cli) with the core into one ES module under dist-cli/.
export default defineConfig({
  build: {
    ssr: 'src/cli/main.ts',
    outDir: 'dist-cli',
    target: 'node20',
    emptyOutDir: true,
    sourcemap: false,
    rollupOptions: { output: { entryFileNames: 'surface-lens.mjs' } },
  },
  ssr: { noExternal: true },
});
