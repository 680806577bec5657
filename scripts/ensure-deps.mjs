// Run before `npm start` and `npm test`: install the pinned dependencies on a fresh clone, so
// the two README commands work right after `git clone`. Plain Node, no dependencies of its own.
import { existsSync } from 'node:fs';
import { execSync } from 'node:child_process';

if (!existsSync('node_modules/.package-lock.json')) {
  console.error('surface-lens: installing dependencies (npm ci) …');
  execSync('npm ci --no-audit --no-fund', { stdio: 'inherit' });
}
