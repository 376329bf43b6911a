/**
 * The wire as the real control plane sees it: bin/run.js against a loopback
 * recording server, checking paths, headers, bodies, paging, and that a
 * rejected input sends nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { createPublicKey, verify } from 'node:crypto';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { canonicalString, fromB64url } from '../../src/lib/core/signing.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';

let server: RecordingServer;
const key = issueKey('V2');
const home = tempHome();
const env = { CDP_ACCESS_KEY_ID: 'test-key-id', CDP_PRIVATE_KEY: key.privateKey };
const cli = (args: string[], input?: string) => runCli([...args, '--endpoint-url', server.url], { home, env, input });

const USERS = Array.from({ length: 5 }, (_, i) => ({ userId: `u${i}`, crn: `crn:u${i}`, email: `u${i}@x` }));

beforeAll(async () => {
  server = await startRecordingServer((req) => {
    if (req.path === '/iam/listUsers') {
      const start = Number(req.json.startingToken ?? 0);
      const size = Number(req.json.pageSize ?? 100);
      const end = Math.min(start + Math.min(size, 2), USERS.length);
      return { body: { users: USERS.slice(start, end), ...(end < USERS.length ? { nextToken: String(end) } : {}) } };
    }
    if (req.path === '/iam/createUser') return { body: { user: { userId: 'new', crn: 'crn:new', email: req.json.email } } };
    if (req.path === '/iam/getUser')
      return { status: 404, body: { code: 'NOT_FOUND', message: 'user nobody not found' }, headers: { 'x-altus-request-id': 'req-42' } };
    return { body: {} };
  });
});
afterAll(async () => server.close());

describe('wire format', () => {
  it('sends iam users create as POST /iam/createUser with a signed JSON body', async () => {
    const r = await cli([
      'iam',
      'users',
      'create',
      '--identity-provider-user-id',
      'jdoe',
      '--email',
      'j@x',
      '--groups',
      'a,b',
      '--groups',
      'c',
    ]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ user: { userId: 'new', crn: 'crn:new', email: 'j@x' } });
    const req = server.requests.at(-1);
    expect(req?.method).toBe('POST');
    expect(req?.path).toBe('/iam/createUser');
    expect(req?.headers['content-type']).toBe('application/json');
    // As cdp reads it: a comma is part of the value; a repeated list flag adds its values.
    expect(req?.json).toEqual({ identityProviderUserId: 'jdoe', email: 'j@x', groups: ['a,b', 'c'] });
    const auth = String(req?.headers['x-altus-auth']);
    const [head, sig] = auth.split('.');
    expect(fromB64url(head ?? '').toString()).toBe('{"access_key_id": "test-key-id", "auth_method": "ed25519v1"}');
    const date = String(req?.headers['x-altus-date']);
    expect(date).toMatch(/^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    const data = Buffer.from(canonicalString('POST', 'application/json', date, '/iam/createUser', 'ed25519v1'));
    expect(verify(null, data, createPublicKey(key.publicKey), fromB64url(sig ?? ''))).toBe(true);
  });

  it('sends iam groups add-user with the wire field names', async () => {
    const r = await cli(['iam', 'groups', 'add-user', '--group-name', 'ops', '--user-id', 'jdoe']);
    expect(r.code).toBe(0);
    expect(server.requests.at(-1)).toMatchObject({ path: '/iam/addUserToGroup', json: { groupName: 'ops', userId: 'jdoe' } });
  });

  it('pages list-users with --max-items across pages and prints the token to resume', async () => {
    const before = server.requests.length;
    const r = await cli(['iam', 'list-users', '--max-items', '3']);
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { users: Array<{ userId: string }>; nextToken?: string };
    expect(out.users.map((u) => u.userId)).toEqual(['u0', 'u1', 'u2']);
    expect(out.nextToken).toBe('3');
    const sent = server.requests.slice(before).map((q) => q.json);
    expect(sent).toEqual([{ pageSize: 3 }, { pageSize: 1, startingToken: '2' }]);
    // Resume where it stopped; all pages are merged.
    const rest = await cli(['iam', 'users', 'list', '--starting-token', '3', '--output', 'jsonl']);
    expect(
      rest.stdout
        .trim()
        .split('\n')
        .map((l) => (JSON.parse(l) as { userId: string }).userId),
    ).toEqual(['u3', 'u4']);
  });

  it('asks for --max-items per page up to the largest page the service takes, as cdp does', async () => {
    const before = server.requests.length;
    // Default page size 100, listUsers pageSize at most 500.
    const r = await cli(['iam', 'users', 'list', '--max-items', '300']);
    expect(r.code).toBe(0);
    expect(server.requests.slice(before).map((q) => q.json.pageSize)).toEqual([300, 298, 296]);
    const more = server.requests.length;
    expect((await cli(['iam', 'users', 'list', '--max-items', '1000'])).code).toBe(0);
    expect(server.requests.slice(more).map((q) => q.json.pageSize)).toEqual([500, 500, 500]);
    const sized = server.requests.length;
    expect((await cli(['iam', 'users', 'list', '--max-items', '300', '--page-size', '50'])).code).toBe(0);
    expect(server.requests.slice(sized).map((q) => q.json.pageSize)).toEqual([50, 50, 50]);
  });

  it('sends the official page size by default and follows nextToken to the end', async () => {
    const before = server.requests.length;
    const r = await cli(['iam', 'users', 'list', '--output', 'text']);
    expect(r.stdout.trim().split('\n')).toHaveLength(5);
    expect(server.requests.slice(before).map((q) => q.json.pageSize)).toEqual([100, 100, 100]);
  });

  it('reads the whole request from --input (JSON or YAML on stdin); flags override it', async () => {
    const r = await cli(['iam', 'create-user', '--input', '-', '--email', 'flag@x'], 'identityProviderUserId: yaml\nemail: yaml@x\n');
    expect(r.code).toBe(0);
    expect(server.requests.at(-1)?.json).toEqual({ identityProviderUserId: 'yaml', email: 'flag@x' });
  });

  it('sends nothing for an invalid input and exits 2 naming the flag', async () => {
    const before = server.requests.length;
    const bad = [
      ['iam', 'users', 'create', '--email', 'x'],
      ['iam', 'access-keys', 'create', '--type', 'V9'],
      ['iam', 'machine-users', 'create', '--machine-user-name', '__x'],
      ['iam', 'users', 'list', '--page-size', '0'],
      ['iam', 'users', 'list', '--page-size', '501'],
      ['iam', 'users', 'update', '--user', 'u'],
      ['iam', 'ssh-keys', 'add', '--public-key', 'ssh-dss AAAA'],
    ];
    for (const args of bad) {
      const r = await cli(args);
      expect({ args, code: r.code }).toEqual({ args, code: 2 });
      expect(r.stderr).toMatch(/^INVALID_INPUT: /);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
    expect(server.requests.length).toBe(before);
  });

  it('maps service errors to exit 1 with code: message and what support needs, or a JSON error with --output json', async () => {
    const r = await cli(['iam', 'users', 'get', '--user-id', 'nobody']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(
      'NOT_FOUND: user nobody not found\n' +
        '  (Status Code: 404; Error Code: NOT_FOUND; Service: iam; Operation: getUser; Request ID: req-42)\n',
    );
    const j = await cli(['iam', 'users', 'get', '--user-id', 'nobody', '--output', 'json']);
    expect(JSON.parse(j.stderr)).toEqual({
      error: {
        code: 'NOT_FOUND',
        message: 'user nobody not found',
        status: 404,
        service: 'iam',
        operation: 'getUser',
        requestId: 'req-42',
      },
    });
  });

  it('redacts secrets in --debug output', async () => {
    const r = await cli(['iam', 'workload-passwords', 'set', '--password', 'S3cret-Passw0rd!', '--debug']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('debug: >   x-altus-auth: <redacted>');
    expect(r.stderr).not.toContain('S3cret-Passw0rd!');
    expect(r.stderr).not.toContain(key.privateKey);
  });

  it('suggests the nearest command for a typo and exits 2, without prompting in scripts', async () => {
    const before = server.requests.length;
    const r = await cli(['iam', 'usrs', 'list']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('INVALID_INPUT: "iam usrs list" is not a cdpctl command (did you mean "iam users list"?)');
    const alias = await cli(['iam', 'list-user']);
    expect(alias.stderr).toContain('(did you mean "iam list-users", ');
    // The longer names a cdp user half-remembers come before a verb that merely looks alike (cdp lists up to three too).
    const key = await cli(['iam', 'create-access-key']);
    expect([key.code, key.stderr.split('\n')[0]]).toEqual([
      2,
      'INVALID_INPUT: "iam create-access-key" is not a cdpctl command (did you mean "iam create-user-access-key", "iam create-machine-user-access-key" or "iam get-access-key"?)',
    ]);
    expect(server.requests.length).toBe(before);
  });
});
