#!/usr/bin/env node
// Runs jest (ESM mode) and prints the closing `N passed, N failed` line CI reads.
import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';

const out = '.jest-results.json';
rmSync(out, { force: true });
const env = { ...process.env, NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ''} --experimental-vm-modules --no-warnings`.trim() };
delete env.NODE_EXTRA_CA_CERTS; // adds ~80 ms to every spawned node; users do not have it
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
