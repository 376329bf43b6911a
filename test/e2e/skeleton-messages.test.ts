/**
 * The --generate-skeleton workflow and messages in CLI words, through the
 * binary against a recording server: an edited skeleton sends only what was
 * filled in, a skeleton with required fields still empty is refused before
 * anything is sent with every one of them named at once as flags, an empty
 * answer prints nothing (as cdp does), and a CDP_PRIVATE_KEY that names a
 * missing file says so.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runCli, tempHome } from '../helpers/cli.js';
import { startRecordingServer, type RecordingServer } from '../helpers/recording-server.js';

let server: RecordingServer;
const home = tempHome('cdpctl-skeleton-');
const env = { CDP_ACCESS_KEY_ID: 'skeleton-key', CDP_PRIVATE_KEY: randomBytes(32).toString('base64') };
const cli = (args: readonly string[], e: Record<string, string> = env) => runCli([...args, '--endpoint-url', server.url], { home, env: e });
const sentTo = (op: string) => server.requests.filter((r) => r.path.endsWith(`/${op}`)).map((r) => r.json);

beforeAll(async () => {
  server = await startRecordingServer();
});
afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
});

describe('--generate-skeleton, edited and fed back with --input', () => {
  it('placeholders left as they are are not sent; what was filled in is', async () => {
    const sk = await cli(['iam', 'users', 'create', '--generate-skeleton']);
    expect(sk.code).toBe(0);
    const doc = JSON.parse(sk.stdout) as Record<string, unknown>;
    expect(doc).toMatchObject({ identityProviderUserId: '', email: '' });
    const file = join(home, 'user.json');
    writeFileSync(file, JSON.stringify({ ...doc, identityProviderUserId: 'jdoe', email: 'jdoe@example.com' }, null, 2));
    const r = await cli(['iam', 'users', 'create', '--input', `file://${file}`]);
    expect(r.code).toBe(0);
    expect(sentTo('createUser').at(-1)).toEqual({ identityProviderUserId: 'jdoe', email: 'jdoe@example.com' });
  });

  it('required fields still empty are all reported at once, as flags, and nothing is sent', async () => {
    const sk = await cli(['iam', 'users', 'create', '--generate-skeleton']);
    const file = join(home, 'blank.json');
    writeFileSync(file, sk.stdout);
    const before = server.requests.length;
    const r = await cli(['iam', 'users', 'create', '--input', `file://${file}`, '--no-input']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--identity-provider-user-id is required');
    expect(r.stderr).toContain('--email is required');
    expect(r.stderr).not.toContain('missing required field');
    expect(server.requests.length).toBe(before);
  });
});

describe("cdp's --cli-input-json", () => {
  it('sends the document as cdp does, "" included; cdpctl --input leaves an unfilled placeholder out', async () => {
    const doc = JSON.stringify({ clusterId: 'env-abc', name: 'sales-dbc', imageVersion: '' });
    expect((await cli(['dw', 'create-dbc', '--cli-input-json', doc])).code).toBe(0);
    expect(sentTo('createDbc').at(-1)).toEqual({ clusterId: 'env-abc', name: 'sales-dbc', imageVersion: '' });
    expect((await cli(['dw', 'create-dbc', '--input', doc])).code).toBe(0);
    expect(sentTo('createDbc').at(-1)).toEqual({ clusterId: 'env-abc', name: 'sales-dbc' });
  });

  it('an error names the flag that was typed', async () => {
    const before = server.requests.length;
    const r = await cli(['iam', 'create-group', '--cli-input-json', '{"groupName": ']);
    expect([r.code, r.stderr.split('\n')[0]]).toEqual([
      2,
      expect.stringMatching(/^INVALID_INPUT: --cli-input-json \{"groupName": +is not valid JSON/),
    ]);
    const missing = await cli(['iam', 'create-group', '--cli-input-json', 'file:///no/such/req.json']);
    expect(missing.stderr).toContain('INVALID_INPUT: --cli-input-json: cannot read /no/such/req.json: no such file');
    expect(server.requests.length).toBe(before);
  });
});

describe('messages in CLI words', () => {
  it('an empty answer prints nothing', async () => {
    const r = await cli(['iam', 'groups', 'delete', '--group-name', 'g1', '--yes']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
  });

  it('a CDP_PRIVATE_KEY naming a missing file says "no such file", and nothing is sent', async () => {
    const before = server.requests.length;
    const missing = join(home, 'keys', 'dev.pem');
    const r = await cli(['iam', 'users', 'get'], { CDP_ACCESS_KEY_ID: 'k', CDP_PRIVATE_KEY: missing });
    expect(r.code).toBe(3);
    expect(r.stderr).toContain(`CDP_PRIVATE_KEY names the key file ${missing}: no such file`);
    expect(r.stderr).not.toMatch(/DECODER|error:[0-9A-F]{8}/);
    expect(server.requests.length).toBe(before);
  });
});
