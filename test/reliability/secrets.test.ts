/**
 * Secrets: the credentials and token cache files are 0600, cdpctl warns about
 * a credentials file others can read, and neither --debug output nor error
 * messages carry a private key, a signature, a bearer token, a workload
 * password or any request/response field the model marks secret.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chmodSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { readIni } from '../../src/lib/core/config.js';
import { environmentCrns, run, startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

let T: TestEmulator;
let privateKey = '';
const checked = { outputs: 0, secrets: 0 };

beforeAll(async () => {
  T = await startEmulator();
  const creds = readIni(join(T.home, '.cdp', 'credentials')).emulator as Record<string, string>;
  privateKey = String(creds.cdp_private_key);
});

afterAll(async () => {
  await T?.stop();
  console.log(`reliability: secrets: ${checked.outputs} outputs searched for ${checked.secrets} secret values; none found`);
});

/** Signed-header and token shapes that must never be printed. */
const AUTH_HEAD = 'eyJhY2Nlc3Nfa2V5X2lk'; // base64url of `{"access_key_id`
const LONG_B64 = /[A-Za-z0-9+/_-]{80,}={0,2}/;

function expectClean(text: string, secrets: readonly string[], what: string): void {
  checked.outputs++;
  for (const s of secrets) {
    if (!s) continue;
    checked.secrets++;
    if (text.includes(s)) throw new Error(`${what} shows a secret (${s.slice(0, 6)}…)`);
    // PEM keys: no line of the body either.
    for (const line of s.replace(/\\n/g, '\n').split('\n')) {
      if (line.length >= 40 && !line.startsWith('-----') && text.includes(line)) throw new Error(`${what} shows part of a secret`);
    }
  }
  expect(text).not.toContain(AUTH_HEAD);
  const long = LONG_B64.exec(text);
  if (long) throw new Error(`${what} shows a long base64 value: ${long[0].slice(0, 12)}…`);
}

describe('files', () => {
  test('credentials and the token cache are 0600; a readable credentials file draws a warning', async () => {
    const credPath = join(T.home, '.cdp', 'credentials');
    expect(statSync(credPath).mode & 0o777).toBe(0o600);
    expect(statSync(join(T.home, '.cdp', 'config')).mode & 0o777).toBe(0o600);
    // A workload call caches its bearer token.
    const env = (await environmentCrns(T))['sales-env'] ?? '';
    const df = await T.cli(['dataflow', 'parameter-groups', 'list', '--environment-crn', env, '--debug']);
    expect(df.stderr).not.toMatch(/INTERNAL_ERROR|\n\s+at /);
    const cachePath = join(T.home, '.cdpctl', 'cache', 'workload-tokens.json');
    expect(statSync(cachePath).mode & 0o777).toBe(0o600);
    const cache = JSON.parse(readFileSync(cachePath, 'utf8')) as Record<string, { token: string }>;
    const tokens = Object.values(cache).map((e) => e.token);
    expect(tokens.length).toBeGreaterThan(0);
    expectClean(df.stderr, [...tokens, privateKey], 'dataflow --debug');

    chmodSync(credPath, 0o644);
    try {
      const r = await T.cli(['iam', 'users', 'get']);
      expect(r.code).toBe(0);
      expect(r.stderr).toMatch(/readable by other users.*chmod 600/);
    } finally {
      chmodSync(credPath, 0o600);
    }
    const quiet = await T.cli(['iam', 'users', 'get']);
    expect(quiet.stderr).not.toMatch(/readable by other users/);
  });
});

describe('--debug and error output', () => {
  test('requests and responses with secret fields', async () => {
    const password = 'Rel1ability-Pa55word-never-shown!';
    const bindPassword = 'bind-SECRET-9d0c1f2e3a4b5c6d';
    const runs: Array<[string, RunResult]> = [];
    const cli = async (args: string[]): Promise<RunResult> => {
      const r = await T.cli([...args, '--debug']);
      runs.push([args.slice(0, 3).join(' '), r]);
      return r;
    };
    await cli(['iam', 'users', 'get']);
    const key = await cli(['iam', 'access-keys', 'create', '--output', 'json']);
    expect(key.code).toBe(0);
    const issued = String((JSON.parse(key.stdout) as { privateKey?: string }).privateKey ?? '');
    expect(issued.length).toBeGreaterThan(20);
    await cli(['iam', 'workload-passwords', 'set', '--password', password]);
    await cli([
      'iam',
      'ldap-providers',
      'create',
      '--ldap-provider-name',
      'rel',
      '--url',
      'ldaps://ldap.example.com:636',
      '--bind-dn',
      'cn=svc,dc=example,dc=com',
      '--bind-password',
      bindPassword,
      '--user-search-base',
      'ou=people',
      '--user-search-filter',
      '(uid={0})',
      '--group-search-base',
      'ou=groups',
      '--group-search-filter',
      '(member={0})',
      '--username-mapping-attribute',
      'uid',
    ]);
    // Errors: a service error, a rejected input, an unusable key.
    await cli(['iam', 'users', 'get', '--user-id', 'no-such-user']);
    await cli(['iam', 'workload-passwords', 'set', '--password', password, '--actor-crn', 'not-a-crn']);
    const badKeyEnv = { CDP_ACCESS_KEY_ID: 'rel-key', CDP_PRIVATE_KEY: `${privateKey.slice(0, 40)}Zz==` };
    const badKey = await T.raw(['iam', 'users', 'get', '--debug', '--endpoint-url', `http://localhost:${T.port}/`], { env: badKeyEnv });
    expect(badKey.code).toBe(3);
    runs.push(['bad key', badKey]);
    const secrets = [privateKey, issued, password, bindPassword, badKeyEnv.CDP_PRIVATE_KEY];
    for (const [what, r] of runs) {
      expect(r.stderr).not.toMatch(/\n\s+at /);
      expectClean(r.stderr, secrets, `${what} stderr`);
    }
    // The debug log did show the requests (with the secrets replaced).
    const all = runs.map(([, r]) => r.stderr).join('\n');
    expect(all).toMatch(/debug: > POST/);
    expect(all).toMatch(/<redacted>/);
    // Only the command whose purpose is to show a new key prints it, on stdout.
    for (const [what, r] of runs)
      if (what !== 'iam access-keys create') expectClean(r.stdout, [privateKey, password, bindPassword], `${what} stdout`);
  });

  test('a user name and password in --endpoint-url are not shown by --debug', async () => {
    const r = await run(
      ['iam', 'users', 'get', '--debug', '--profile', 'emulator', '--endpoint-url', `http://ops:hunter2-pw@localhost:${T.port}/`],
      {
        home: T.home,
      },
    );
    expect(r.stderr).toMatch(new RegExp(`debug: > POST http://<redacted>@localhost:${T.port}/iam/getUser \\(attempt 1\\)`));
    expectClean(r.stderr, ['hunter2-pw', 'ops:'], '--debug with userinfo');
  });
});
