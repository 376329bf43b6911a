/**
 * iam through the real binary against a real emulator: the bootstrap
 * profile, users, groups, machine users, role assignment, access keys of
 * every type used as a second profile (one signature method each), keys
 * turned off, owners deleted, and state kept across a stop and start.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { environmentCrns, run, startEmulatorProcess, type RunResult, type TestEmulator } from '../helpers/cli.js';

interface Key {
  accessKeyId: string;
  crn: string;
  actorCrn: string;
  type: string;
  status: string;
}

let em: TestEmulator;
let endpoint: string;
let jdoe: { userId: string; crn: string };
const profileKeys: Record<string, Key> = {};

/** Writes a profile with configure set, the way a user would: PEM newlines as \n. */
async function writeProfile(profile: string, accessKeyId: string, privateKey: string): Promise<void> {
  // `--` first: a PEM value starts with dashes and would otherwise read as a flag.
  const set = (k: string, v: string): Promise<RunResult> => em.raw(['configure', 'set', '--profile', profile, '--', k, v]);
  const results = [
    await set('cdp_access_key_id', accessKeyId),
    await set('cdp_private_key', privateKey.replace(/\n/g, '\\n')),
    // iam reads endpoint_url, the other services cdp_endpoint_url (as with the official CLI).
    await set('endpoint_url', endpoint),
    await set('cdp_endpoint_url', endpoint),
  ];
  for (const r of results) expect(r).toMatchObject({ code: 0 });
}

/** Runs cdpctl as the given profile (not the bootstrap one). */
const as = (profile: string, args: readonly string[]): Promise<RunResult> => em.raw([...args, '--profile', profile, '--output', 'json']);

beforeAll(async () => {
  em = await startEmulatorProcess();
  endpoint = `http://localhost:${em.port}/`;
});

afterAll(async () => {
  await em?.stop();
});

describe('iam e2e', () => {
  test('the bootstrap profile works: iam users get describes the admin', async () => {
    const out = await em.json<{ user: { accountAdmin: boolean; status: string; crn: string } }>(['iam', 'users', 'get']);
    expect(out.user).toMatchObject({ accountAdmin: true, status: 'ACTIVE' });
    expect(out.user.crn).toMatch(/^crn:altus:iam:us-west-1:[^:]+:user:/);
  });

  test('users, groups, machine users and membership; assigning a role twice fails with the service message', async () => {
    const created = await em.json<{ user: typeof jdoe & { workloadUsername: string } }>([
      'iam',
      'users',
      'create',
      '--identity-provider-user-id',
      'jdoe',
      '--email',
      'jdoe@example.com',
      '--groups',
      'ops',
      'dev',
    ]);
    jdoe = created.user;
    expect(created.user.workloadUsername).toBe('jdoe');
    const [mu, group] = await Promise.all([
      em.json<{ machineUser: { crn: string } }>(['iam', 'machine-users', 'create', '--machine-user-name', 'ci-bot']),
      em.json<{ group: { groupName: string; syncMembershipOnUserLogin: boolean } }>([
        'iam',
        'groups',
        'create',
        '--group-name',
        'auditors',
      ]),
    ]);
    expect(group.group).toEqual(expect.objectContaining({ groupName: 'auditors', syncMembershipOnUserLogin: true }));
    await em.json(['iam', 'groups', 'add-machine-user', '--group-name', 'ops', '--machine-user-name', 'ci-bot']);
    const [again, members, dupMu] = await Promise.all([
      em.cli(['iam', 'groups', 'add-user', '--group-name', 'ops', '--user-id', jdoe.userId]),
      em.json<{ memberCrns: string[] }>(['iam', 'groups', 'list-members', '--group-name', 'ops']),
      em.cli(['iam', 'machine-users', 'create', '--machine-user-name', 'CI-BOT']),
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('already a member');
    expect(members.memberCrns.sort()).toEqual([jdoe.crn, mu.machineUser.crn].sort());
    expect(dupMu.code).toBe(1);
    expect(dupMu.stderr).toContain('ALREADY_EXISTS');

    await em.json(['iam', 'users', 'assign-role', '--user', jdoe.crn, '--role', 'IamViewer']);
    const twice = await em.cli([
      'iam',
      'users',
      'assign-role',
      '--user',
      jdoe.userId,
      '--role',
      'crn:altus:iam:us-west-1:altus:role:IamViewer',
    ]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toContain('ALREADY_EXISTS');
    expect(twice.stderr).toContain(`role crn:altus:iam:us-west-1:altus:role:IamViewer is already assigned to ${jdoe.crn}`);
    const roles = await em.json<{ roleCrns: string[] }>(['iam', 'users', 'list-roles', '--user', jdoe.userId]);
    expect(roles.roleCrns).toEqual(['crn:altus:iam:us-west-1:altus:role:IamViewer']);
  });

  // One test per key type: each signs with a different method (rsav1, ed25519v1, ecdsav1).
  const keyCases: Array<[string, string, string[]]> = [
    ['V1', 'user-v1', ['iam', 'access-keys', 'create', '--type', 'V1']],
    ['V2', 'machine-v2', ['iam', 'access-keys', 'create-for-machine-user', '--machine-user-name', 'ci-bot', '--type', 'V2']],
    ['V3', 'admin-v3', ['iam', 'access-keys', 'create', '--type', 'V3']],
  ];
  test.each(keyCases)('an access key of type %s works as a second profile', async (type, profile, args) => {
    const extra = profile === 'user-v1' ? ['--user', jdoe.userId] : [];
    const created = await em.json<{ accessKey: Key; privateKey: string }>([...args, ...extra]);
    expect(created.accessKey).toMatchObject({ type, status: 'ACTIVE' });
    expect(JSON.stringify(created)).not.toContain('PUBLIC KEY');
    if (type === 'V2') expect(created.privateKey).toMatch(/^[A-Za-z0-9+/]{43}=$/);
    else expect(created.privateKey).toContain('-----BEGIN PRIVATE KEY-----');
    await writeProfile(profile, created.accessKey.accessKeyId, created.privateKey);
    // getAccessKey without an id describes the key that signed the request.
    const r = await as(profile, ['iam', 'access-keys', 'get']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { accessKey: Key }).accessKey).toMatchObject({
      accessKeyId: created.accessKey.accessKeyId,
      actorCrn: created.accessKey.actorCrn,
      type,
    });
    profileKeys[profile] = created.accessKey;
  });

  test('a key set INACTIVE is refused (exit 3) and works again when ACTIVE', async () => {
    const key = profileKeys['user-v1'];
    expect(key).toMatchObject({ accessKeyId: expect.any(String) });
    if (!key) return;
    const off = await em.json<{ accessKey: Key }>([
      'iam',
      'access-keys',
      'update',
      '--access-key-id',
      key.accessKeyId,
      '--status',
      'INACTIVE',
    ]);
    expect(off.accessKey.status).toBe('INACTIVE');
    const refused = await as('user-v1', ['iam', 'users', 'get']);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain('inactive');
    await em.json(['iam', 'access-keys', 'update', '--access-key-id', key.crn, '--status', 'ACTIVE']);
    const me = await as('user-v1', ['iam', 'users', 'get']);
    expect(me.code).toBe(0);
    expect((JSON.parse(me.stdout) as { user: { crn: string } }).user.crn).toBe(jdoe.crn);
  });

  test('deleting a user deletes its keys: they are refused afterwards', async () => {
    const key = profileKeys['user-v1'];
    const out = await em.json<{ accessKeysDeleted: string[]; groupsModified: string[]; rolesUnassigned: string[] }>([
      'iam',
      'users',
      'delete',
      '--user-id',
      jdoe.crn,
      '--yes',
    ]);
    expect(out.accessKeysDeleted).toEqual([key?.crn]);
    expect(out.groupsModified).toHaveLength(2);
    expect(out.rolesUnassigned).toEqual(['crn:altus:iam:us-west-1:altus:role:IamViewer']);
    const refused = await as('user-v1', ['iam', 'access-keys', 'get']);
    expect(refused.code).toBe(3);
  });

  test('SSH keys, workload passwords, identity providers, account and workload tokens through the CLI', async () => {
    const dir = mkdtempSync(join(em.home, 'ssh-'));
    const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', 'e2e', '-f', join(dir, 'id')]);
    expect(made.status).toBe(0);
    const printed = spawnSync('ssh-keygen', ['-l', '-f', join(dir, 'id.pub')]).stdout.toString();
    const fingerprint = printed.split(' ')[1];
    const ecdsa = spawnSync('ssh-keygen', ['-q', '-t', 'ecdsa', '-N', '', '-f', join(dir, 'ec')]);
    expect(ecdsa.status).toBe(0);
    const metadata = join(dir, 'metadata.xml');
    writeFileSync(metadata, '<EntityDescriptor entityID="https://idp.example.com"/>');
    const [ssh, ec, policy, saml, ldap, badLdap, token] = await Promise.all([
      em.json<{ sshPublicKey: { publicKeyFingerprint: string; crn: string } }>([
        'iam',
        'ssh-keys',
        'add',
        '--public-key',
        `file://${join(dir, 'id.pub')}`,
        '--description',
        'laptop',
      ]),
      // The client refuses ECDSA keys itself; the emulator's own check is in the unit tests.
      em.cli(['iam', 'ssh-keys', 'add', '--public-key', `file://${join(dir, 'ec.pub')}`]),
      em.json([
        'iam',
        'workload-passwords',
        'set-policy',
        '--global-password-policy',
        'minPasswordLength=10,mustIncludeNumbers=true,passwordHistorySize=3',
      ]),
      em.json<{ samlProvider: { samlProviderName: string; syncGroupsOnLogin: boolean; samlMetadataDocument: string } }>([
        'iam',
        'saml-providers',
        'create',
        '--saml-provider-name',
        'okta',
        '--saml-metadata-document',
        `file://${metadata}`,
      ]),
      em.json<{ ldapProvider: { ldapDetails: { url: string } } }>([
        'iam',
        'ldap-providers',
        'create',
        '--ldap-provider-name',
        'corp',
        '--url',
        'ldaps://ldap.example.com:636',
        '--bind-dn',
        'cn=svc,dc=example,dc=com',
        '--bind-password',
        'hunter2',
        '--user-search-base',
        'ou=people',
        '--user-search-filter',
        '(uid={0})',
        '--group-search-base',
        'ou=groups',
        '--group-search-filter',
        '(member={{dn}})',
        '--username-mapping-attribute',
        'uid',
      ]),
      em.cli(['api', 'iam', 'createLdapProvider', '--input', '-'], {
        input: JSON.stringify({
          ldapProviderName: 'bad',
          url: 'http://ldap.example.com',
          userSearchBase: 'a',
          userSearchFilter: 'b',
          groupSearchBase: 'c',
          groupSearchFilter: 'd',
          usernameMappingAttribute: 'e',
        }),
      }),
      em.json<{ endpointUrl: string; token: string; expireAt: string }>([
        'iam',
        'workload-tokens',
        'generate',
        '--workload-name',
        'DF',
        '--environment-crn',
        (await environmentCrns(em))['sales-env'] ?? '',
      ]),
    ]);
    expect(ssh.sshPublicKey.publicKeyFingerprint).toBe(fingerprint);
    expect(ec.code).not.toBe(0);
    expect(ec.stderr).toMatch(/ecdsa-sha2-nistp256 keys are not supported/);
    expect(policy).toEqual({});
    expect(saml.samlProvider).toMatchObject({ samlProviderName: 'okta', syncGroupsOnLogin: true });
    expect(saml.samlProvider.samlMetadataDocument).toContain('idp.example.com');
    expect(ldap.ldapProvider.ldapDetails.url).toBe('ldaps://ldap.example.com:636');
    expect(JSON.stringify(ldap)).not.toContain('hunter2');
    expect(badLdap.code).not.toBe(0);
    expect(badLdap.stderr).toContain('ldap://');
    expect(token.endpointUrl).toBe(`${endpoint}dfx/`);
    expect(token.token.length).toBeGreaterThanOrEqual(43);
    expect(Date.parse(token.expireAt) - Date.now()).toBeGreaterThan(50 * 60_000);

    const [weak, strong, described, account] = await Promise.all([
      em.cli(['iam', 'workload-passwords', 'set', '--password', 'short1']),
      em.json(['iam', 'workload-passwords', 'set', '--password', 'long-enough-1']),
      em.json<{ sshPublicKey: { crn: string; description: string } }>([
        'iam',
        'ssh-keys',
        'describe',
        '--crn-or-fingerprint',
        String(fingerprint),
      ]),
      em.json<{ account: { clouderaSSOLoginEnabled: boolean; workloadPasswordPolicy: { minPasswordLength: number } } }>([
        'iam',
        'account',
        'get',
      ]),
    ]);
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('at least 10 characters');
    expect(strong).toEqual({});
    expect(described.sshPublicKey).toMatchObject({ crn: ssh.sshPublicKey.crn, description: 'laptop' });
    expect(account.account).toMatchObject({ clouderaSSOLoginEnabled: true, workloadPasswordPolicy: { minPasswordLength: 10 } });
    const me = await em.json<{ user: { workloadPasswordDetails: { isPasswordSet: boolean } } }>(['iam', 'users', 'get']);
    expect(me.user.workloadPasswordDetails.isPasswordSet).toBe(true);
  });

  test('stop and start keep everything', async () => {
    const stopped = await em.raw(['emulator', 'stop', '--data-dir', em.dataDir]);
    expect(stopped.code).toBe(0);
    const started = await run(
      ['emulator', 'start', '--port', String(em.port), '--data-dir', em.dataDir, '--time-scale', '1000', '--detach'],
      {
        home: em.home,
      },
    );
    expect(started.code).toBe(0);
    const [groups, machine, admin] = await Promise.all([
      em.json<{ groups: Array<{ groupName: string }> }>(['iam', 'groups', 'list']),
      // the machine user's V2 key still signs after the restart
      as('machine-v2', ['iam', 'access-keys', 'get']),
      em.json<{ accessKeys: Key[] }>(['iam', 'access-keys', 'list']),
    ]);
    expect(groups.groups.map((g) => g.groupName).sort()).toEqual(['auditors', 'dev', 'ops']);
    expect(machine.code).toBe(0);
    expect(admin.accessKeys.map((k) => k.accessKeyId)).toEqual(
      expect.arrayContaining([profileKeys['machine-v2']?.accessKeyId, profileKeys['admin-v3']?.accessKeyId]),
    );
  });
});

describe('emulator input limits', () => {
  test('a request body over the emulator limit (4 MiB) gets its 413 answer, and the emulator goes on serving', async () => {
    const file = join(em.home, 'big-user.json');
    writeFileSync(file, JSON.stringify({ email: `${'x'.repeat(5 * 1024 * 1024)}@example.com`, identityProviderUserId: 'big' }));
    const r = await em.cli(['iam', 'users', 'create', '--input', file]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PAYLOAD_TOO_LARGE');
    expect(r.stderr).not.toMatch(/EPIPE|ECONNRESET|socket hang up/);
    expect((await em.cli(['iam', 'users', 'get'])).code).toBe(0);
  });
});
