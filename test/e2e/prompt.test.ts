/**
 * Interactive help where a person is: a missing required flag is asked for
 * on a terminal (typed text, an enum select, a masked secret), destructive
 * operations ask first, and without a terminal (or with --no-input or CI)
 * nothing is asked and a missing flag fails fast with exit 2.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { BIN, baseEnv, run, tempHome } from '../helpers/cli.js';
import { KEYS, plain, ptyAvailable, spawnPty } from '../helpers/pty.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';

const describePty = ptyAvailable() ? describe : describe.skip;

let server: RecordingServer;
let home: string;
let env: Record<string, string | undefined>;

beforeAll(async () => {
  server = await startRecordingServer();
  home = tempHome('cdpctl-prompt-');
  env = {
    ...baseEnv(home),
    CI: undefined,
    CDP_ACCESS_KEY_ID: 'prompt-test-key',
    CDP_PRIVATE_KEY: randomBytes(32).toString('base64'),
  };
});

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

const requestsTo = (op: string): Array<Record<string, unknown>> =>
  server.requests.filter((r) => r.path.endsWith(`/${op}`)).map((r) => r.json);

const cdpctl = (args: readonly string[]) => spawnPty([process.execPath, BIN, ...args, '--endpoint-url', server.url], { env });

describePty('on a terminal', () => {
  test('asks for missing required flags and sends the typed answers', async () => {
    const s = cdpctl(['iam', 'users', 'create', '--first-name', 'Jane']);
    await s.expect('--identity-provider-user-id');
    s.type('jdoe-typed' + KEYS.enter);
    await s.expect('--email');
    s.type('jdoe@example.com' + KEYS.enter);
    expect(await s.exit()).toBe(0);
    expect(requestsTo('createUser').at(-1)).toEqual({
      identityProviderUserId: 'jdoe-typed',
      email: 'jdoe@example.com',
      firstName: 'Jane',
    });
  });

  test('offers an enum as a select', async () => {
    const s = cdpctl(['iam', 'access-keys', 'update', '--access-key-id', 'k-1']);
    await s.expect('ACTIVE');
    await s.expect('INACTIVE');
    s.type(KEYS.down + KEYS.enter);
    expect(await s.exit()).toBe(0);
    expect(requestsTo('updateAccessKey').at(-1)).toEqual({ accessKeyId: 'k-1', status: 'INACTIVE' });
  });

  test('masks a secret while it is typed, and asks a new password twice until both agree', async () => {
    const s = cdpctl(['iam', 'workload-passwords', 'set']);
    await s.expect('--password');
    s.type('s3cret-Passw0rd!' + KEYS.enter);
    await s.expect('once more');
    s.type('s3cret-Typo!' + KEYS.enter);
    await s.expect(/differ[\s\S]*\? --password/);
    s.type('s3cret-Passw0rd!' + KEYS.enter);
    await s.expect(/differ[\s\S]*once more/);
    s.type('s3cret-Passw0rd!' + KEYS.enter);
    expect(await s.exit()).toBe(0);
    expect(requestsTo('setWorkloadPassword').at(-1)).toMatchObject({ password: 's3cret-Passw0rd!' });
    expect(plain(s.output())).not.toContain('s3cret-Passw0rd!');
  });

  test('asks before a destructive operation; answering no sends nothing and exits 2', async () => {
    const before = requestsTo('deleteUser').length;
    const s = cdpctl(['iam', 'users', 'delete', '--user-id', 'jdoe']);
    // The question names the flags as typed and reads y/N.
    await s.expect('iam users delete --user-id jdoe: this cannot be undone. Continue? (y/N)');
    s.type('n');
    await s.expect(/Continue\? .*no/);
    expect(plain(s.output())).not.toMatch(/true|false/);
    expect(await s.exit()).toBe(2);
    expect(plain(s.output())).toContain('NOT_CONFIRMED');
    expect(requestsTo('deleteUser').length).toBe(before);
  });

  test('yes to the question sends the request', async () => {
    const s = cdpctl(['iam', 'users', 'delete', '--user-id', 'jdoe']);
    await s.expect('Continue?');
    s.type('y');
    expect(await s.exit()).toBe(0);
    expect(requestsTo('deleteUser').at(-1)).toEqual({ userId: 'jdoe' });
  });

  test('--yes skips the question', async () => {
    const s = cdpctl(['iam', 'users', 'delete', '--user-id', 'jdoe-2', '--yes']);
    expect(await s.exit()).toBe(0);
    expect(plain(s.output())).not.toContain('Continue?');
    expect(requestsTo('deleteUser').at(-1)).toEqual({ userId: 'jdoe-2' });
  });

  test('a wrong answer is refused at once, in CLI words, and asked again', async () => {
    const s = cdpctl(['iam', 'machine-users', 'create']);
    await s.expect('--machine-user-name');
    s.type('__bad name' + KEYS.enter);
    await s.expect('--machine-user-name: machine user names use letters');
    for (let i = 0; i < 10; i++) s.type('\u007f');
    s.type('svc-60' + KEYS.enter);
    expect(await s.exit()).toBe(0);
    expect(requestsTo('createMachineUser').at(-1)).toEqual({ machineUserName: 'svc-60' });
  });

  test('a list prompt says how to give a list, and the answer is split at commas', async () => {
    const s = cdpctl(['datahub', 'recipes', 'delete', '--yes', '--form-factor', 'public']);
    await s.expect('separate the values with commas');
    s.type('r-1, r-2' + KEYS.enter);
    const code = await s.exit();
    expect(code === 0 ? '' : plain(s.output()).slice(-300)).toBe('');
    expect(requestsTo('deleteRecipes').at(-1)).toEqual({ recipeNames: ['r-1', 'r-2'] });
  });

  test('Ctrl-C at a prompt sends nothing and exits 130', async () => {
    const before = requestsTo('createUser').length;
    const s = cdpctl(['iam', 'users', 'create']);
    await s.expect('--identity-provider-user-id');
    s.type(KEYS.ctrlC);
    expect(await s.exit()).toBe(130);
    expect(requestsTo('createUser').length).toBe(before);
  });

  test('--no-input never asks: exit 2 naming the flag', async () => {
    const s = cdpctl(['iam', 'users', 'create', '--no-input']);
    expect(await s.exit()).toBe(2);
    const shown = plain(s.output());
    expect(shown).toContain('--identity-provider-user-id');
    expect(shown).not.toContain('?');
  });

  test('CI set never asks', async () => {
    const s = spawnPty([process.execPath, BIN, 'iam', 'users', 'create', '--endpoint-url', server.url], { env: { ...env, CI: 'true' } });
    expect(await s.exit()).toBe(2);
    expect(plain(s.output())).toContain('--identity-provider-user-id is required');
  });
});

describe('without a terminal', () => {
  test('a missing required flag exits 2 at once, without prompting or sending', async () => {
    const before = server.requests.length;
    const r = await run(['iam', 'users', 'create', '--email', 'a@example.com', '--endpoint-url', server.url], {
      home,
      env: { ...env, CI: undefined },
      timeoutMs: 20_000,
    });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--identity-provider-user-id');
    expect(r.stdout).toBe('');
    expect(server.requests.length).toBe(before);
  });

  test('a destructive operation is not asked about (scripts keep working)', async () => {
    const r = await run(['iam', 'users', 'delete', '--user-id', 'script-user', '--endpoint-url', server.url], {
      home,
      env: { ...env, CI: undefined },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('Continue?');
    expect(requestsTo('deleteUser').at(-1)).toEqual({ userId: 'script-user' });
  });
});
