/**
 * An emulator's first and later starts (bootstrap.ts), in process with a
 * HOME of the test's own: the account and its admin made once; an empty
 * account that pre-creates nothing, refused for a store that already holds
 * pre-created resources; the admin's Ed25519 key; the instance's profile
 * written with the endpoint, region, account and sign-in addresses, its
 * key kept while it still works and replaced once it does not, and what
 * the profile held before remembered in the data directory.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../../src/lib/core/config.js';
import { parsePrivateKey } from '../../../src/lib/core/signing.js';
import { StartRefusal, bootstrap, createAdminKey, ensureAccount } from '../../../src/lib/emulator/bootstrap.js';
import { profileSections, readInstance, writeProfile } from '../../../src/lib/emulator/instances.js';
import { Emulator } from '../../../src/lib/emulator/server.js';
import { putAccessKey, storedAccessKey, storedUser } from '../../helpers/iam-records.js';
import type { Doc } from '../../../src/lib/emulator/types.js';

let root: string;
let emu: Emulator;
let n = 0;

/** A HOME of its own for one test. */
function home(): Env {
  const dir = join(root, `home-${++n}`);
  mkdirSync(dir);
  return { HOME: dir };
}

const environments = (e: Emulator): string[] =>
  ((e.call('environments', 'listEnvironments', {}) as { environments: Doc[] }).environments ?? []).map((x) => String(x.environmentName));

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cdpctl-bootstrap-'));
  emu = new Emulator({ dataDir: join(root, 'emu'), port: 0, timeScale: 1, requestLog: false });
  await emu.start();
});

afterAll(async () => {
  await emu?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('the account', () => {
  test('is made on the first start: an account id and an admin user; the next starts find the same', () => {
    const first = ensureAccount(emu);
    expect(first).toMatchObject({ fresh: true, empty: false, accountId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    expect(first.adminCrn).toMatch(new RegExp(`^crn:altus:iam:us-west-1:${first.accountId}:user:[0-9a-f-]{36}$`));
    expect(emu.account).toBe(first.accountId);
    const admin = storedUser(emu.store, first.adminCrn);
    expect(admin).toMatchObject({ email: 'admin@example.com', accountAdmin: true, status: 'ACTIVE', workloadUsername: 'admin' });
    const again = ensureAccount(emu);
    expect(again).toEqual({ ...first, fresh: false });
  });

  test('an account that is not empty is pre-created with environments, and refuses to be made empty later', () => {
    expect(environments(emu)).toContain('sales-env');
    expect(() => ensureAccount(emu, { empty: true })).toThrow(StartRefusal);
    expect(() => ensureAccount(emu, { empty: true })).toThrow(
      /already holds an account with pre-created resources; --empty makes a new account only/,
    );
  });

  test('an empty account pre-creates nothing, and stays empty on later starts asked the same', async () => {
    const bare = new Emulator({ dataDir: join(root, 'bare'), port: 0, timeScale: 1, requestLog: false });
    await bare.start();
    try {
      expect(ensureAccount(bare, { empty: true })).toMatchObject({ fresh: true, empty: true });
      expect(environments(bare)).toEqual([]);
      // Reading the account's settings shows their defaults and keeps nothing.
      expect(bare.call('environments', 'getAccountTelemetry', {})).toMatchObject({ workloadAnalytics: true });
      expect(bare.call('environments', 'getAzureImageTermsPolicy', {})).toEqual({ accepted: false });
      expect(ensureAccount(bare, { empty: true })).toMatchObject({ fresh: false, empty: true });
      expect(ensureAccount(bare)).toMatchObject({ empty: true });
    } finally {
      await bare.stop();
    }
  });

  test("the admin's key is an active Ed25519 (V2) key of the admin, whose private half signs", () => {
    const { adminCrn } = ensureAccount(emu);
    const key = emu.store.transaction(() => createAdminKey(emu, adminCrn));
    const rec = storedAccessKey(emu.store, key.accessKeyId);
    expect(rec).toMatchObject({ actorCrn: adminCrn, status: 'ACTIVE', type: 'V2' });
    expect(rec?.crn).toBe(`crn:altus:iam:us-west-1:${emu.account}:accessKey:${key.accessKeyId}`);
    expect(parsePrivateKey(key.accessKeyId, key.privateKey).method).toBe('ed25519v1');
  });
});

describe("the instance's profile", () => {
  test('is written with the endpoint for every service, the region, the account and the console sign-in addresses', async () => {
    const env = home();
    const result = await bootstrap(emu, env);
    const url = `http://localhost:${emu.port}/`;
    expect(result).toMatchObject({ profile: 'emulator', keyCreated: true, accountId: emu.account, empty: false });
    const written = profileSections('emulator', env);
    expect(written.config).toEqual({
      endpoint_url: url,
      cdp_endpoint_url: url,
      cdp_region: 'us-west-1',
      account_id: emu.account,
      // The console's links carry its secret (console/secret.ts).
      login_url: `${url}consoleauth/login?token=${emu.consoleToken}`,
      device_login_url: `${url}consoleauth/deviceAuthorization?token=${emu.consoleToken}`,
    });
    const keyId = written.credentials?.cdp_access_key_id ?? '';
    expect(storedAccessKey(emu.store, keyId)?.status).toBe('ACTIVE');
  });

  test("a later start keeps the profile's key while it works, and replaces it once it is inactive", async () => {
    const env = home();
    await bootstrap(emu, env);
    const first = profileSections('emulator', env).credentials?.cdp_access_key_id ?? '';
    expect((await bootstrap(emu, env)).keyCreated).toBe(false);
    expect(profileSections('emulator', env).credentials?.cdp_access_key_id).toBe(first);
    const rec = storedAccessKey(emu.store, first);
    if (!rec) throw new Error('no key record');
    putAccessKey(emu.store, { ...rec, status: 'INACTIVE' });
    expect((await bootstrap(emu, env)).keyCreated).toBe(true);
    expect(profileSections('emulator', env).credentials?.cdp_access_key_id).not.toBe(first);
  });

  test('a profile whose key this emulator does not know gets a new one; its other config entries are kept', async () => {
    const env = home();
    await writeProfile(
      'emulator',
      { config: { output: 'json' }, credentials: { cdp_access_key_id: 'elsewhere', cdp_private_key: 'x' } },
      env,
    );
    expect((await bootstrap(emu, env)).keyCreated).toBe(true);
    const after = profileSections('emulator', env);
    expect(after.config?.output).toBe('json');
    expect(after.credentials?.cdp_access_key_id).not.toBe('elsewhere');
  });

  test('with a data directory: the profile asked for is remembered, and what it held before, once, until it is given back', async () => {
    const env = home();
    const dataDir = join(root, `instance-${n}`);
    const before = { config: { cdp_region: 'eu-1' }, credentials: { cdp_access_key_id: 'real', cdp_private_key: 'real-secret' } };
    await writeProfile('ci', before, env);
    expect((await bootstrap(emu, env, { dataDir, profile: 'ci' })).profile).toBe('ci');
    expect(readInstance(dataDir)).toEqual({ profile: 'ci', previous: before });
    // Started again, it is the profile it remembers; what it held first is still what is given back.
    expect((await bootstrap(emu, env, { dataDir })).profile).toBe('ci');
    expect(readInstance(dataDir)).toEqual({ profile: 'ci', previous: before });
    expect(profileSections('emulator', env)).toEqual({});
  });

  test('with a data directory and no profile before, it remembers there was none', async () => {
    const env = home();
    const dataDir = join(root, `instance-${n}`);
    await bootstrap(emu, env, { dataDir });
    expect(readInstance(dataDir)).toEqual({ profile: 'emulator', previous: null });
  });
});
