// Lint rules, including the layering: which folders may import which. The layers are
// core <- protocol <- worker/client <- store <- ui; node (store walker) uses core; cli uses core and node.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';

const restrict = (patterns) => ({
  'no-restricted-imports': [
    'error',
    {
      patterns: patterns.map((group) => ({ group: Array.isArray(group) ? group : [group], message: 'layering: see docs/ARCHITECTURE.md' })),
    },
  ],
});
// The app's zustand store (src/store), not the Node session-store walker (src/node/store).
const APP_STORE = ['**/store/**', '!**/node/store', '!**/node/store/**'];

export default tseslint.config(
  { ignores: ['dist/**', 'dist-cli/**', 'node_modules/**', 'public/**', 'coverage/**', 'bench/out/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-eval': 'error',
      'no-implied-eval': 'error',
      'no-new-func': 'error',
    },
  },
  {
    // Rules that need types: the programs of the four tsconfigs (every source, test, bench and script).
    files: ['src/**/*.{ts,tsx}', 'tests/**/*.{ts,tsx}', 'bench/**/*.ts', 'scripts/**/*.ts'],
    languageOptions: {
      parserOptions: {
        project: ['./tsconfig.json', './tsconfig.node.json', './src/core/tsconfig.json', './src/worker/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
    },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}', 'src/store/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    rules: { ...reactHooks.configs.recommended.rules },
  },
  {
    files: ['src/ui/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "JSXAttribute[name.name='dangerouslySetInnerHTML']", message: 'log content is rendered as text only' },
        { selector: "MemberExpression[property.name='innerHTML']", message: 'log content is rendered as text only' },
      ],
    },
  },
  {
    files: ['src/core/**/*.ts'],
    rules: restrict([
      'react',
      'react-*',
      'zustand',
      'node:*',
      '**/protocol/**',
      '**/worker/**',
      '**/client/**',
      '**/store/**',
      '**/ui/**',
      '**/cli/**',
      '**/node/**',
    ]),
  },
  {
    files: ['src/protocol/**/*.ts'],
    rules: restrict(['react', 'zustand', 'node:*', '**/worker/**', '**/client/**', '**/store/**', '**/ui/**', '**/cli/**', '**/node/**']),
  },
  {
    files: ['src/worker/**/*.ts'],
    rules: restrict(['react', 'zustand', 'node:*', '**/client/**', '**/store/**', '**/ui/**', '**/cli/**', '**/node/**']),
  },
  { files: ['src/client/**/*.ts'], rules: restrict(['react', 'zustand', 'node:*', '**/store/**', '**/ui/**', '**/cli/**', '**/node/**']) },
  {
    files: ['src/store/**/*.ts'],
    rules: restrict(['react-dom', 'node:*', '**/core/**', '**/worker/**', '**/ui/**', '**/cli/**', '**/node/**']),
  },
  { files: ['src/ui/**/*.{ts,tsx}'], rules: restrict(['node:*', '**/core/**', '**/worker/**', '**/cli/**', '**/node/**']) },
  { files: ['src/cli/**/*.ts'], rules: restrict(['react', 'zustand', '**/worker/**', '**/client/**', APP_STORE, '**/ui/**']) },
  {
    files: ['src/node/**/*.ts'],
    rules: restrict(['react', 'zustand', '**/protocol/**', '**/worker/**', '**/client/**', '**/ui/**', '**/cli/**']),
  },
);
