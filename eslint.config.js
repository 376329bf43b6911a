import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'bench/results/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  {
    // The entry points are CommonJS (bin/package.json): a plain call never starts node's ES module loader.
    files: ['bin/**/*.js'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', __dirname: 'readonly', module: 'writable' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    // core knows nothing of oclif; the model imports nothing of the program.
    files: ['src/lib/core/**/*.ts', 'src/lib/model/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@oclif/*', '**/cli/**', '**/emulator/**', '**/commands/**'] }] },
  },
  {
    // Service customizations call through the core client; they render nothing.
    files: ['src/lib/customizations/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@oclif/*', '**/cli/**', '**/emulator/**', '**/commands/**'] }] },
  },
  {
    // The library (`cdpctl`, `cdpctl/emulator`) stands on core, the model and the emulator: no oclif, nothing of the command line.
    files: ['src/lib/sdk/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@oclif/*', '**/cli/**', '**/commands/**'] }] },
  },
  {
    files: ['src/lib/emulator/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: ['@oclif/*', '**/cli/**', '**/commands/**'] }] },
  },
);
