// `npm start`: builds the app when its sources are newer than dist/, then runs
// `surface-lens view` over the user's session store, or over the bundled sample store when
// there is none. Extra arguments go to `view` (`npm start -- --no-open`, `npm start -- PATH`).
// Plain Node, no dependencies of its own.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function newest(path) {
  if (!existsSync(path)) return 0;
  const stats = statSync(path);
  if (!stats.isDirectory()) return stats.mtimeMs;
  let latest = stats.mtimeMs;
  for (const name of readdirSync(path)) latest = Math.max(latest, newest(join(path, name)));
  return latest;
}

const built = existsSync('dist/index.html') ? statSync('dist/index.html').mtimeMs : 0;
const sources = Math.max(...['src', 'public', 'index.html', 'vite.config.ts', 'package-lock.json'].map(newest));
if (sources > built) {
  console.error('surface-lens: building the app (vite build) …');
  execFileSync(process.execPath, ['node_modules/vite/bin/vite.js', 'build', '--logLevel', 'warn'], { stdio: 'inherit' });
}
const args = process.argv.slice(2);
const child = spawn(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'view', '--or-sample', ...args], { stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
