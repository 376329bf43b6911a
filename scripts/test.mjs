#!/usr/bin/env node
// Runs jest (ESM mode) and prints the closing `N passed, N failed` line CI reads.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const out = '.jest-results.json';
rmSync(out, { force: true });
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim() };
// Adds ~80 ms to every spawned node, and users do not have it; npm, run by the packaging test, may need it
// to reach the registry through a proxy, so it is kept aside for npm alone.
if (env.NODE_EXTRA_CA_CERTS) env.CDPCTL_TEST_NPM_CA_CERTS = env.NODE_EXTRA_CA_CERTS;
delete env.NODE_EXTRA_CA_CERTS;
const res = spawnSync(process.execPath, ['node_modules/jest/bin/jest.js', '--json', `--outputFile=${out}`, ...process.argv.slice(2)], {
  stdio: 'inherit',
  env,
});
let passed = 0;
let failed = 0;
try {
  const r = JSON.parse(readFileSync(out, 'utf8'));
  passed = r.numPassedTests;
  failed = r.numFailedTests + (r.numRuntimeErrorTestSuites ?? 0);
} catch {
  failed = 1;
}
console.log(`jest: ${passed} passed, ${failed} failed`);
process.exit(res.status === 0 && failed === 0 ? 0 : 1);
