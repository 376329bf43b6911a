/**
 * Reads without bounds, and hangs: every file cdpctl or its emulator reads
 * is a regular file within a cap (exit 2 naming the file and the limit), so
 * /dev/zero, a FIFO nobody writes to, or a huge file end at once, before
 * anything is sent. Pipes stay allowed where they are a habit (`--input -`,
 * `<(…)`), within the same cap. --cli-read-timeout bounds the whole answer:
 * a server that drips a byte every half second is cut off.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, rmSync, symlinkSync, truncateSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { join } from 'node:path';
import { BIN, baseEnv, run, tempHome, type RunResult } from '../helpers/cli.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';
import { opsHome } from './helpers.js';

let server: RecordingServer;
const home = opsHome('cdpctl-bounds-');
const scratch = tempHome('cdpctl-bounds-files-');

const fifo = (name: string): string => {
  const path = join(scratch, name);
  expect(spawnSync('mkfifo', [path]).status).toBe(0);
  return path;
};

/** A sparse file of `bytes` (nothing is written to disk). */
const sparse = (name: string, bytes: number): string => {
  const path = join(scratch, name);
  closeSync(openSync(path, 'w'));
  truncateSync(path, bytes);
  return path;
};

beforeAll(async () => {
  server = await startRecordingServer(() => ({ body: { group: { groupName: 'g' } } }));
});
afterAll(async () => {
  await server.close();
  rmSync(scratch, { recursive: true, force: true });
  rmSync(home, { recursive: true, force: true });
});

const cdpctl = (args: readonly string[], env: Record<string, string> = {}): Promise<RunResult> =>
  run([...args, '--profile', 'ops', '--endpoint-url', server.url], { home, env, timeoutMs: 30_000 });

/** A bash command line run without blocking this process (the servers answer from it). */
function shell(line: string): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-c', line], { env: baseEnv(home), stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** Exit 2, one INVALID_INPUT line naming the file (and the limit, when given), nothing sent. */
function expectRefused(r: RunResult, file: string, limit?: string): void {
  expect(r.stderr).toMatch(/^INVALID_INPUT: /);
  expect(r.stderr).toContain(file);
  if (limit) expect(r.stderr).toContain(limit);
  expect(r.stderr).not.toMatch(/\n\s+at /);
  expect(r.code).toBe(2);
}

describe('request input', () => {
  test('--input /dev/zero, a FIFO and a file over 16 MiB are refused; nothing is sent', async () => {
    const before = server.requests.length;
    expectRefused(await cdpctl(['iam', 'create-group', '--input', '/dev/zero']), '/dev/zero');
    const pipe = fifo('input.fifo');
    // A named FIFO with no writer: read as the pipe it is (empty), never waited on.
    const r = await cdpctl(['iam', 'create-group', '--input', pipe]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--group-name is required/);
    const big = sparse('big.json', 17 * 1024 * 1024);
    expectRefused(await cdpctl(['iam', 'create-group', '--input', big]), big, '16 MiB');
    expectRefused(await cdpctl(['iam', 'create-group', '--group-name', 'file:///dev/zero']), '/dev/zero');
    expect(server.requests.length).toBe(before);
  });

  test('--input - reading /dev/zero stops at the cap', async () => {
    const r = await shell(
      `'${process.execPath}' '${BIN}' iam create-group --input - --profile ops --endpoint-url ${server.url} < /dev/zero`,
    );
    expectRefused(r, 'stdin', '16 MiB');
  });

  test('process substitution stays allowed: --input <(…) and file://<(…)', async () => {
    const before = server.requests.length;
    const line = [
      `'${process.execPath}' '${BIN}' iam create-group --profile ops --endpoint-url ${server.url}`,
      `--input <(printf '{"groupName": "from-a-pipe"}') --group-name file://<(printf 'from-file-pipe')`,
    ].join(' ');
    const r = await shell(line);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const sent = server.requests.slice(before).map((q) => q.json);
    // Flags win over --input: both pipes were read.
    expect(sent).toEqual([{ groupName: 'from-file-pipe' }]);
  });

  test('an upload from /dev/zero is refused before the request', async () => {
    const before = server.requests.length;
    expectRefused(await cdpctl(['df', 'flows', 'import', '--file', '/dev/zero', '--name', 'f']), '/dev/zero');
    expect(server.requests.length).toBe(before);
  });
});

describe('credentials and config', () => {
  const envFor = (credentials: string): Record<string, string> => ({ CDP_SHARED_CREDENTIALS_FILE: credentials });

  test('a credentials file that is a symlink to /dev/zero, a FIFO, or over 4 MiB is refused', async () => {
    const link = join(scratch, 'credentials-link');
    symlinkSync('/dev/zero', link);
    expectRefused(await cdpctl(['iam', 'get-user'], envFor(link)), link);
    const pipe = fifo('credentials.fifo');
    expectRefused(await cdpctl(['iam', 'get-user'], envFor(pipe)), pipe);
    const big = sparse('credentials-big', 5 * 1024 * 1024);
    expectRefused(await cdpctl(['iam', 'get-user'], envFor(big)), big, '4 MiB');
    const keyLink = join(scratch, 'a-key-file-that-links-to-dev-zero.pem');
    symlinkSync('/dev/zero', keyLink);
    const keyEnv = { CDP_ACCESS_KEY_ID: 'k', CDP_PRIVATE_KEY: keyLink };
    expectRefused(await run(['iam', 'get-user', '--endpoint-url', server.url], { home, env: keyEnv, timeoutMs: 30_000 }), keyLink);
  });
});

describe('the emulator', () => {
  test('emulator import and start --seed refuse /dev/zero and FIFOs', async () => {
    const dataDir = join(scratch, 'emu');
    mkdirSync(dataDir, { recursive: true });
    const pipe = fifo('state.fifo');
    for (const file of ['/dev/zero', pipe]) {
      expectRefused(await run(['emulator', 'import', '--file', file, '--data-dir', dataDir], { home, timeoutMs: 30_000 }), file);
    }
    const seed = fifo('seed.fifo');
    const r = await run(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--seed', seed, '--detach'], {
      home,
      timeoutMs: 30_000,
    });
    expect(r.stderr).toContain(seed);
    expect(r.code).toBe(2);
    const big = sparse('state-big.json', 257 * 1024 * 1024);
    expectRefused(await run(['emulator', 'import', '--file', big, '--data-dir', dataDir], { home, timeoutMs: 30_000 }), big, '256 MiB');
  });
});

describe('--cli-read-timeout', () => {
  let drip: Server;
  let port = 0;
  beforeAll(async () => {
    // Headers at once, then one byte of the body every half second: never silent long enough for an idle timeout.
    drip = createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100000' });
        const timer = setInterval(() => res.write(' '), 500);
        res.on('close', () => clearInterval(timer));
      });
    });
    await new Promise<void>((r) => drip.listen(0, '127.0.0.1', () => r()));
    port = (drip.address() as { port: number }).port;
  });
  afterAll(async () => {
    drip.closeAllConnections();
    await new Promise<void>((r) => drip.close(() => r()));
  });

  test('bounds the whole answer of a server that drips it', async () => {
    const r = await run(['iam', 'get-user', '--profile', 'ops', '--endpoint-url', `http://127.0.0.1:${port}/`, '--cli-read-timeout', '2'], {
      home,
      timeoutMs: 30_000,
    });
    expect(r.code).toBe(4);
    expect(r.stderr).toMatch(/^TIMEOUT: iam getUser: no complete answer from 127\.0\.0\.1:\d+ within 2000 ms/);
  });
});
