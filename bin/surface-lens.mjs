#!/usr/bin/env node
// Thin launcher: the CLI is bundled into dist-cli/ by `npm run build:cli` (run by `prepare`).
import('../dist-cli/surface-lens.mjs').catch((error) => {
  process.stderr.write(`surface-lens: the CLI is not built (${error.message}); run \`npm run build:cli\`\n`);
  process.exit(2);
});
