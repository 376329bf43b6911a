/**
 * What a plain call loads before its request leaves (issue 16, item 10),
 * checked by what node loaded, never by timing. bin/run.js and the bundled
 * fast path are CommonJS, so a signed call or a help page never starts node's
 * ES module loader; the call reads no stdin stream, resolves no host name for
 * localhost, loads no TLS for an http endpoint, and loads no package from
 * node_modules (the INI reader is our own; yaml, JMESPath, enquirer and oclif load only
 * when a run needs them).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
let probe: string;

beforeAll(async () => {
  em = await startEmulator();
  // Preloaded into the CLI: on exit, the builtins node loaded (its own list) and the files require() loaded, written
  // straight to descriptor 2 (process.stderr would load node:net for the pipe).
  probe = join(em.home, 'probe.cjs');
  writeFileSync(
    probe,
    "process.on('exit', () => require('node:fs').writeSync(2, 'PROBE ' + JSON.stringify({ builtins: process.moduleLoadList, files: Object.keys(require.cache) }) + '\\n'));\n",
  );
}, 60_000);

afterAll(async () => {
  await em?.stop();
});

interface Loaded {
  builtins: string[];
  files: string[];
}

function loaded(stderr: string): Loaded {
  const line = stderr.split('\n').find((l) => l.startsWith('PROBE '));
  if (!line) throw new Error(`no probe line in stderr: ${stderr}`);
  return JSON.parse(line.slice('PROBE '.length)) as Loaded;
}

const has = (l: Loaded, builtin: string): boolean => l.builtins.includes(`NativeModule ${builtin}`);

describe('a plain call loads only what it uses', () => {
  test('a signed call to the emulator: no ES module loader, stdin stream, resolver, TLS or package', async () => {
    const r = await em.cli(['iam', 'users', 'list', '--max-items', '1'], { env: { NODE_OPTIONS: `--require ${probe}` } });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ users: [expect.objectContaining({ userId: expect.any(String) })] });
    const l = loaded(r.stderr);
    // It did sign and send: the probe sees the modules that do it.
    expect(has(l, 'crypto')).toBe(true);
    expect(has(l, 'net')).toBe(true);
    const unwanted = [
      'internal/modules/esm/loader',
      // HTTP is cdpctl's own on node's sockets (core/http1.ts): node:http and its parser cost ~6 ms to load.
      'http',
      '_http_client',
      'internal/fs/streams',
      'internal/fs/promises',
      'dns',
      'tls',
      'https',
      'child_process',
      'readline',
      // Its terminals are pipes: nothing asks node:tty (io.ts isTerminal asks fstat first).
      'tty',
    ];
    expect(unwanted.filter((m) => has(l, m))).toEqual([]);
    expect(l.files.filter((f) => f.includes('node_modules'))).toEqual([]);
    expect(l.files.some((f) => f.endsWith('.cjs') && f.includes(join('dist', 'fast')))).toBe(true);
  });

  test('help for an operation: no ES module loader, no package', async () => {
    const r = await em.raw(['iam', 'users', 'create', '--help'], { env: { NODE_OPTIONS: `--require ${probe}` } });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('API: iam createUser');
    const l = loaded(r.stderr);
    expect(has(l, 'internal/modules/esm/loader')).toBe(false);
    expect(l.files.filter((f) => f.includes('node_modules'))).toEqual([]);
    // Help signs nothing, sends nothing and streams nothing: the bundle loads those builtins when first used.
    expect(['crypto', 'net', 'stream', 'tty'].filter((m) => has(l, m))).toEqual([]);
  });

  test('the oclif path still runs from the CommonJS entry (CDPCTL_NO_FAST_PATH=1)', async () => {
    const r = await em.cli(['iam', 'users', 'list', '--max-items', '1'], { env: { CDPCTL_NO_FAST_PATH: '1' } });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ users: [expect.any(Object)] });
  });
});
