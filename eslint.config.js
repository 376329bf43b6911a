import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/** What no part of the emulator imports: the command line. */
const EMULATOR = [{ group: ['@oclif/*', '**/cli/**', '**/commands/**'] }];
const GROUND = 'the engine, the world contracts and the shared builders import no service, world.ts, server, console or control';
/** Outside services/, only the registry loader (services/index.ts) reaches a service's folder. */
const SERVICE_FOLDERS = {
  regex: '(^|/)services/(?!index\\.js$)[a-z]+/',
  message: 'read what a service knows through the world (world/contracts.ts), not its folder',
};
/** From inside services/<topic>/: `../<other>/`, another service's folder. */
const otherService = () => ({
  regex: '^\\.\\./[a-z]+/',
  message: 'a service reads another only through the world (world/contracts.ts); see docs/architecture.md',
});

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
    // So is the bench's floor, which must not pay for that loader either.
    files: ['bin/**/*.js', 'bench/**/*.cjs'],
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
    rules: { 'no-restricted-imports': ['error', { patterns: [...EMULATOR, SERVICE_FOLDERS] }] },
  },
  {
    // The engine stands on the ground floor: it imports no service, nor the world that binds them, the server or the console.
    files: ['src/lib/emulator/engine/**/*.ts', 'src/lib/emulator/world/contracts.ts', 'src/lib/emulator/shared/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [...EMULATOR, { regex: '^\\.\\./(services|console|http)/|^\\.\\./(world|server|control)\\.js$', message: GROUND }],
        },
      ],
    },
  },
  {
    // A service reads another only through the world (world/contracts.ts): no import of another service's folder.
    files: ['src/lib/emulator/services/*/**/*.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [...EMULATOR, otherService()] }] },
  },
);
