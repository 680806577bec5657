/**
 * Literal extraction reads each text's URLs and paths in one pass (match and blank together), its
 * lines only when the text holds a prompt or an error, and skips a pattern when the text lacks a
 * character every match of it holds. A reference written the plain way — `matchAll`, then
 * `replace` with the same pattern; every pattern over every text; every line tested — must give
 * the same items in the same order, on seeded texts built from the pieces the patterns care about.
 */
import { describe, expect, it } from 'vitest';
import { extractLiterals } from '../../../src/core/analysis/literals';
import type { MessageTexts } from '../../../src/core/analysis/literals';
import { Rng } from '../../../src/core/gen/rng';

const URL = /\bhttps?:\/\/[^\s<>"'`()[\]{}]+/g;
const PATH =
  /(?<![\w.@+~/-])(?:~|\.{1,2})?\/?(?:[\w.@+-]+\/)+[\w.@+-]+|\b[\w-]+\.(?:tsx?|jsx?|mjs|cjs|jsonl?|md|py|rs|go|java|c|h|cc|cpp|hpp|css|html|ya?ml|toml|sh|txt|lock|zip|zst|gz|sql|rb|php|swift|kt)\b/g;
const NUMBER_UNIT =
  /(?<![\w.])\d+(?:[.,]\d+)?\s?(?:ms|µs|us|ns|s|secs?|seconds?|mins?|minutes?|h|hrs?|hours?|days?|B|KB|KiB|MB|MiB|GB|GiB|TB|bytes?|%|px|tokens?|lines?|files?|chars?|characters?|x)(?![\w%])/g;
const SYMBOLS = [
  /\b[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+\b/g,
  /\b[A-Z][a-z0-9]+(?:[A-Z][a-z0-9]*)+\b/g,
  /\b[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)+\b/g,
  /\b[A-Za-z_$][\w$]{2,}(?=\()/g,
  /\b[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\b/gi,
  /\b(?=[0-9a-f]*[a-f])(?=[0-9a-f]*\d)[0-9a-f]{7,40}\b/g,
  /(?<![\w#])#\d+\b/g,
];
const COMMAND_WORDS = new Set(
  'npm npx yarn pnpm node git ls cat grep rg cd sed awk find rm mv cp mkdir touch curl wget make cargo go python python3 pip pip3 docker kubectl tsc vitest jest pytest bash sh chmod tar unzip echo export'.split(
    ' ',
  ),
);
const ERROR_LINE = /\b(?:[A-Z]\w*(?:Error|Exception)|Error|ERROR|ERR!|FAIL(?:ED)?|fatal|panic)\b|\berror(?:\s*\[[\w-]+\])?:/;

function isPath(token: string): boolean {
  if (!/[A-Za-z]/.test(token) || token.length < 3) return false;
  if (!token.includes('/')) return true;
  if (/^(?:~|\.{1,2})?\//.test(token)) return true;
  const last = token.slice(token.lastIndexOf('/') + 1);
  return /\.[A-Za-z][\w]{0,5}$/.test(last) || token.split('/').length >= 3;
}

/** The reference: every category but constraints, read the plain way (every pattern over every text). */
function reference(texts: string[]): Record<'paths' | 'commands' | 'numbers' | 'identifiers' | 'errors', string[]> {
  const out = {
    paths: new Set<string>(),
    commands: new Set<string>(),
    numbers: new Set<string>(),
    identifiers: new Set<string>(),
    errors: new Set<string>(),
  };
  const add = (set: Set<string>, item: string) => {
    const t = item.trim();
    if (t.length > 0) set.add(t);
  };
  for (const raw of texts) {
    for (const m of raw.matchAll(URL)) add(out.identifiers, m[0].replace(/[.,;:!?]+$/, ''));
    let text = raw.replace(URL, ' ');
    for (const m of text.matchAll(PATH)) {
      const path = m[0].replace(/[.,;:!?]+$/, '');
      if (isPath(path)) add(out.paths, path);
    }
    text = text.replace(PATH, (p) => (isPath(p.replace(/[.,;:!?]+$/, '')) ? ' ' : p));
    for (const m of text.matchAll(NUMBER_UNIT)) add(out.numbers, m[0].replace(/\s+/g, ''));
    for (const pattern of SYMBOLS) for (const m of text.matchAll(pattern)) add(out.identifiers, m[0]);
    for (const line of raw.split('\n')) {
      const t = line.trim();
      if (t.startsWith('$ ')) add(out.commands, t.slice(2));
      if (ERROR_LINE.test(t)) add(out.errors, t.slice(0, 160));
    }
    for (const m of raw.matchAll(/`([^`\n]+)`/g)) {
      const code = (m[1] as string).trim();
      if (COMMAND_WORDS.has(code.split(/\s+/)[0] as string)) add(out.commands, code);
    }
  }
  return {
    paths: [...out.paths],
    commands: [...out.commands],
    numbers: [...out.numbers],
    identifiers: [...out.identifiers],
    errors: [...out.errors],
  };
}

const PIECES = [
  'src/core/fold.ts',
  './a/b',
  '../x.md',
  '~/notes/todo.txt',
  '/etc/hosts',
  'a/b',
  'a/b/c',
  'v1.2',
  'file.ts',
  'x-y.json',
  'README.md,',
  'https://example.com/a/b.ts?q=1.',
  'http://h/x',
  'see https://a.b/c/d.',
  'foo',
  'bar.',
  'Baz',
  'camelCase',
  'snake_case',
  'TypeError: boom',
  'error: bad',
  'error [E0308]: mismatched',
  'errors',
  'FAILED',
  'fatal',
  'panic!',
  '$ npm test',
  '  $ ls -la',
  '$x',
  'tot $ y',
  '`git status`',
  '12 ms',
  'a/12ms',
  'x/y/3 s',
  '3x.md',
  'useFoo(',
  'MyClass',
  'a_b_c',
  'FOO_BAR',
  '0a1b2c3d',
  '123e4567-e89b-12d3-a456-426614174000',
  'ABCDEF12-AAAA-BBBB-CCCC-1234567890AB',
  '#7',
  'x#8',
  '$fn(',
  '5%',
  '#42',
  'deadbeef1',
  '@scope/pkg',
  'a+b/c',
  'path/./to',
  'x//y',
  '.',
  '/',
  '-',
  '~',
  ' ',
  ' ',
  '\n',
  '\n\n',
  '\t',
  ',',
  ':',
  '(',
  ')',
  '"',
  "'",
  '\u00a0',
  '\u2028',
  '日志/文件.md',
  'Ошибка',
  'ERR!',
  'Exception',
  'MyException thrown',
];

/** A text of random pieces, run together or spaced. */
function text(rng: Rng): string {
  return Array.from({ length: rng.int(0, 40) }, () => rng.pick(PIECES)).join(rng.chance(0.5) ? '' : ' ');
}

describe('literal extraction in one pass', () => {
  for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
    it(`seed ${seed}: every item, in order, as the plain reading finds it`, () => {
      const rng = new Rng(seed);
      for (let round = 0; round < 300; round++) {
        const part: MessageTexts = {
          texts: Array.from({ length: rng.int(1, 3) }, () => text(rng)),
          commands: [],
          errors: [],
          userTexts: [],
        };
        const { constraints: _constraints, ...got } = extractLiterals([part]);
        expect(got).toEqual(reference(part.texts));
      }
    });
  }
});
