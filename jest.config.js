/** jest on Node 20 with ESM TypeScript: @swc/jest transform, run with --experimental-vm-modules. */
export default {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: { '^.+\\.ts$': ['@swc/jest', { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } }] },
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  setupFiles: ['<rootDir>/test/helpers/setup-console.ts'],
  setupFilesAfterEnv: ['<rootDir>/test/helpers/after-env.ts'],
  testTimeout: 60_000,
  // Two at a time: most files now run in process, and CI has two cores.
  maxWorkers: 2,
};
