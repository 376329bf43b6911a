/**
 * docs/library.md is true: its script runs, as a user runs it (node, the
 * package by its name), against an emulator, and its jest test passes under
 * jest. Each is the code block that starts with its marker comment, compiled
 * from TypeScript as written.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ts from 'typescript';
import { startEmulator, type RunningEmulator } from '../../../src/lib/sdk/emulator.js';
import { ROOT, baseEnv } from '../../helpers/cli.js';

const DOC = readFileSync(join(ROOT, 'docs', 'library.md'), 'utf8');

/** The ```ts block of the doc that begins with `// docs/library.md: <name>`. */
function block(name: string): string {
  const blocks = [...DOC.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  const found = blocks.find((b) => b.startsWith(`// docs/library.md: ${name}\n`));
  if (!found) throw new Error(`docs/library.md has no block "${name}"`);
  return found;
}

const toJs = (source: string): string =>
  ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;

let emu: RunningEmulator;
let home: string;
let work: string;

beforeAll(async () => {
  emu = await startEmulator({ timeScale: 1000 });
  home = mkdtempSync(join(tmpdir(), 'cdpctl-docs-home-'));
  // A project of the user's: `cdpctl` in its node_modules is this package (its exports map decides what may be imported).
  work = mkdtempSync(join(tmpdir(), 'cdpctl-docs-'));
  mkdirSync(join(work, 'node_modules'));
  symlinkSync(ROOT, join(work, 'node_modules', 'cdpctl'), 'dir');
  writeFileSync(join(work, 'package.json'), JSON.stringify({ name: 'uses-cdpctl', private: true, type: 'module' }));
});

afterAll(async () => {
  await emu?.stop();
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('docs/library.md', () => {
  test('the script runs against an emulator through a profile, as written', async () => {
    await emu.writeProfile('docs', { HOME: home });
    writeFileSync(join(work, 'script.mjs'), toJs(block('script')));
    // Asynchronously: the emulator answering it runs in this process.
    const r = await new Promise<{ status: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      execFile(
        process.execPath,
        [join(work, 'script.mjs')],
        { env: { ...baseEnv(home), PROFILE: 'docs' }, timeout: 60_000 },
        (err, stdout, stderr) =>
          err && typeof err.code !== 'number' ? reject(err) : resolve({ status: err ? Number(err.code) : 0, stdout, stderr }),
      );
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(
      /^signed in as admin@example\.com\n1 account admins\n(orders: \w+\n)+orders is AVAILABLE\nno such user \(request [0-9a-f-]{36}\)\n$/,
    );
  });

  test('the jest test passes under jest', () => {
    writeFileSync(join(work, 'library.test.ts'), block('jest test'));
    const config = {
      rootDir: work,
      testEnvironment: 'node',
      extensionsToTreatAsEsm: ['.ts'],
      transform: {
        '^.+\\.ts$': [
          join(ROOT, 'node_modules', '@swc', 'jest'),
          { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'es6' } },
        ],
      },
      testMatch: ['<rootDir>/*.test.ts'],
    };
    const r = spawnSync(
      process.execPath,
      [join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'), '--config', JSON.stringify(config), '--ci'],
      {
        cwd: work,
        env: { ...baseEnv(home), NODE_OPTIONS: '--experimental-vm-modules --no-warnings' },
        encoding: 'utf8',
        timeout: 120_000,
      },
    );
    expect(r.stdout + r.stderr).toMatch(/Tests: {7}3 passed, 3 total/);
    expect(r.status).toBe(0);
  });
});
