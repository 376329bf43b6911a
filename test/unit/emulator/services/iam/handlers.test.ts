/**
 * The iam service's rules, driven through its handlers in-process against an
 * in-memory store (no HTTP): fast checks of every rule the e2e tests do not
 * spend a process on.
 */
import { describe, expect, test, beforeEach } from '@jest/globals';
import { generateKeyPairSync } from 'node:crypto';
import { Clock } from '../../../../../src/lib/emulator/clock.js';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import { authenticateBearer, tokenHash } from '../../../../../src/lib/emulator/auth.js';
import { preCreatedEnvironmentCrn } from '../../../../../src/lib/emulator/shared/pre-created.js';
import { operations } from '../../../../../src/lib/model/services/iam/wire.js';
import { parseSshPublicKey } from '../../../../../src/lib/emulator/services/iam/ssh.js';
import type { Caller, Doc } from '../../../../../src/lib/emulator/types.js';
import type { Identities } from '../../../../../src/lib/emulator/world/contracts.js';
import { emulatedWorld, refusal, serviceCaller } from '../../../../helpers/emulator-unit.js';
import { putUser, storedWorkloadPasswords, storedWorkloadToken } from '../../../../helpers/iam-records.js';

const ACCOUNT = 'acct-1';
const ADMIN_CRN = `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin-id`;
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };

let store: Store;
let clock: Clock;
const admin: Caller = { accountId: ACCOUNT, actorCrn: ADMIN_CRN, accessKeyId: 'admin-key', kind: 'user' };

let caller: Caller = admin;
const world = await emulatedWorld();
/** iam's identities as the server authenticates with them. */
const identities = (): Identities => world.in({ store, clock, info }).identities;
const iam = await serviceCaller('iam', () => ({ store, clock, caller, info }));

function call(op: string, req: Doc = {}, as: Caller = admin): Doc {
  caller = as;
  return iam.call(op, req);
}

const fails = (op: string, req: Doc = {}, caller: Caller = admin): ApiError => refusal(() => call(op, req, caller), op);

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  clock = new Clock(1);
  putUser(store, {
    userId: 'admin-id',
    crn: ADMIN_CRN,
    email: 'admin@example.com',
    firstName: 'A',
    lastName: 'B',
    creationDate: clock.iso(),
    accountAdmin: true,
    identityProviderCrn: 'x',
    status: 'ACTIVE',
    workloadUsername: 'admin',
  });
  store.setMeta('adminCrn', ADMIN_CRN);
});

const newUser = (id: string, extra: Doc = {}): Doc =>
  (call('createUser', { identityProviderUserId: id, email: `${id}@example.com`, ...extra }).user as Doc) ?? {};

describe('iam emulator backend', () => {
  test('implements every wire operation', () => {
    expect(Object.keys(operations).filter((op) => !iam.serves(op))).toEqual([]);
    expect(Object.keys(operations)).toHaveLength(79);
  });

  test('users: create with groups, get, update, unlock, list filter and paging', () => {
    const u = newUser('jdoe', { groups: ['ops', 'dev'], firstName: 'Jane' });
    expect(u).toMatchObject({
      status: 'ACTIVE',
      accountAdmin: false,
      workloadUsername: 'jdoe',
      workloadPasswordDetails: { isPasswordSet: false },
    });
    expect((call('listGroups').groups as Doc[]).map((g) => g.groupName)).toEqual(['ops', 'dev']);
    expect((call('listGroupsForUser', { userId: u.userId }).groupCrns as string[]).length).toBe(2);
    expect(fails('createUser', { identityProviderUserId: 'jdoe', email: 'x@y' }).status).toBe(409);
    // a second user with a clashing workload username gets a suffix
    expect(newUser('JDOE').workloadUsername).toBe('jdoe1');
    expect((call('getUser').user as Doc).crn).toBe(ADMIN_CRN);
    expect((call('getUser', { userId: u.crn }).user as Doc).userId).toBe(u.userId);
    expect(fails('updateUser', { user: String(u.userId) }).code).toBe('INVALID_ARGUMENT');
    expect((call('updateUser', { user: u.crn, active: false }).user as Doc).status).toBe('DEACTIVATED');
    expect((call('updateUser', { user: u.userId, active: true }).user as Doc).status).toBe('ACTIVE');
    expect(fails('updateUser', { user: ADMIN_CRN, active: false }).code).toBe('FAILED_PRECONDITION');
    expect((call('unlockUserInControlPlane', { user: u.userId }).user as Doc).status).toBe('ACTIVE');
    for (let i = 0; i < 5; i++) newUser(`bulk${i}`);
    const p1 = call('listUsers', { pageSize: 3 });
    expect((p1.users as Doc[]).length).toBe(3);
    const p2 = call('listUsers', { pageSize: 3, startingToken: p1.nextToken });
    const p3 = call('listUsers', { pageSize: 3, startingToken: p2.nextToken });
    expect(p3.nextToken).toBeUndefined();
    expect([...(p1.users as Doc[]), ...(p2.users as Doc[]), ...(p3.users as Doc[])]).toHaveLength(8);
    expect((call('listUsers', { userIds: [u.userId, ADMIN_CRN] }).users as Doc[]).map((x) => x.crn)).toEqual([u.crn, ADMIN_CRN]);
    expect(fails('listUsers', { userIds: ['nope'] }).status).toBe(404);
    expect(fails('listUsers', { startingToken: 'garbage' }).status).toBe(400);
  });

  test('deleteUser removes keys, memberships and assignments and reports them', () => {
    const u = newUser('gone', { groups: ['g1'] });
    const key = call('createUserAccessKey', { user: u.userId, type: 'V1' });
    call('assignUserRole', { user: u.userId, role: 'IamViewer' });
    const rr = 'crn:altus:iam:us-west-1:altus:resourceRole:EnvironmentUser';
    const env = 'crn:cdp:environments:us-west-1:acct-1:environment:e1';
    call('assignUserResourceRole', { user: u.crn, resourceRoleCrn: rr, resourceCrn: env });
    expect(call('listResourceAssignees', { resourceCrn: env }).resourceAssignees).toEqual([{ assigneeCrn: u.crn, resourceRoleCrn: rr }]);
    const out = call('deleteUser', { userId: u.crn });
    expect(out).toEqual({
      accessKeysDeleted: [(key.accessKey as Doc).crn],
      groupsModified: [expect.stringContaining(':group:g1/')],
      rolesUnassigned: ['crn:altus:iam:us-west-1:altus:role:IamViewer'],
      resourcesUnassigned: [{ resourceCrn: env, resourceRoleCrn: rr }],
    });
    expect(call('listResourceAssignees', { resourceCrn: env }).resourceAssignees).toEqual([]);
    expect(call('listGroupMembers', { groupName: 'g1' }).memberCrns).toEqual([]);
    expect(fails('getUser', { userId: u.userId }).status).toBe(404);
    expect(fails('deleteUser', { userId: 'admin-id' }).code).toBe('FAILED_PRECONDITION');
    // the identity and workload username are free again
    expect(newUser('gone').workloadUsername).toBe('gone');
  });

  test('machine users, groups and membership rules', () => {
    const m = call('createMachineUser', { machineUserName: 'CI-bot' }).machineUser as Doc;
    expect(m.crn).toMatch(/:machineUser:CI-bot\//);
    expect(fails('createMachineUser', { machineUserName: 'ci-BOT' }).status).toBe(409);
    expect(fails('createMachineUser', { machineUserName: '__x' }).status).toBe(400);
    call('createGroup', { groupName: 'Ops', syncMembershipOnUserLogin: false });
    expect(fails('createGroup', { groupName: 'ops' }).code).toBe('ALREADY_EXISTS');
    call('addMachineUserToGroup', { groupName: 'ops', machineUserName: 'ci-bot' });
    expect(fails('addMachineUserToGroup', { groupName: 'ops', machineUserName: m.crn }).status).toBe(409);
    expect(call('listGroupsForMachineUser', { machineUserName: 'CI-bot' }).groupCrns).toHaveLength(1);
    expect((call('updateGroup', { groupName: 'OPS', syncMembershipOnUserLogin: true }).group as Doc).syncMembershipOnUserLogin).toBe(true);
    call('removeMachineUserFromGroup', { groupName: 'ops', machineUserName: 'ci-bot' });
    expect(fails('removeMachineUserFromGroup', { groupName: 'ops', machineUserName: 'ci-bot' }).status).toBe(404);
    call('assignGroupRole', { groupName: 'ops', role: 'crn:altus:iam:us-west-1:altus:role:PowerUser' });
    expect(call('listGroupAssignedRoles', { groupName: 'ops' }).roleCrns).toEqual(['crn:altus:iam:us-west-1:altus:role:PowerUser']);
    expect(fails('assignGroupRole', { groupName: 'ops', role: 'NoSuchRole' }).status).toBe(404);
    call('deleteGroup', { groupName: 'ops' });
    expect(fails('listGroupAssignedRoles', { groupName: 'ops' }).status).toBe(404);
    call('assignMachineUserRole', { machineUserName: 'ci-bot', role: 'IamUser' });
    expect(fails('assignMachineUserRole', { machineUserName: 'ci-bot', role: 'iamuser' }).status).toBe(409);
    call('unassignMachineUserRole', { machineUserName: 'ci-bot', role: 'IamUser' });
    const e = fails('unassignMachineUserRole', { machineUserName: 'ci-bot', role: 'IamUser' });
    expect([e.status, e.code, e.message]).toEqual([404, 'NOT_FOUND', expect.stringContaining('is not assigned')]);
    const k = call('createMachineUserAccessKey', { machineUserName: 'ci-bot' });
    expect((k.accessKey as Doc).type).toBe('V2');
    expect(call('deleteMachineUser', { machineUserName: m.crn }).accessKeysDeleted).toEqual([(k.accessKey as Doc).crn]);
    expect(call('listMachineUsers').machineUsers).toEqual([]);
  });

  test('roles catalogue and resource roles', () => {
    const roles = call('listRoles').roles as Doc[];
    expect(roles.map((r) => r.crn)).toContain('crn:altus:iam:us-west-1:altus:role:IamViewer');
    expect(call('listRoles', { roleNames: ['PowerUser'] }).roles).toHaveLength(1);
    const rr = call('listResourceRoles', { resourceRoleNames: ['EnvironmentUser'] }).resourceRoles as Doc[];
    expect(rr[0]?.crn).toBe('crn:altus:iam:us-west-1:altus:resourceRole:EnvironmentUser');
    expect((rr[0]?.rights as string[]).length).toBeGreaterThan(0);
    const p = call('listRoles', { pageSize: 2 });
    expect(p.roles).toHaveLength(2);
    expect(p.nextToken).toMatch(/^\S+$/);
    expect(fails('assignUserResourceRole', { user: 'admin-id', resourceRoleCrn: 'EnvironmentUser', resourceCrn: 'not-a-crn' }).status).toBe(
      400,
    );
  });

  test('access keys: create, get default, update, list by id or CRN, delete; public key never returned', () => {
    const k = call('createUserAccessKey', { type: 'V3' });
    const key = k.accessKey as Doc;
    expect(key).toMatchObject({ actorCrn: ADMIN_CRN, status: 'ACTIVE', type: 'V3' });
    expect(String(k.privateKey)).toContain('BEGIN PRIVATE KEY');
    expect(JSON.stringify(k)).not.toContain('PUBLIC KEY');
    expect(fails('getAccessKey').status).toBe(404); // the fake signing key is not stored
    const mine = call('getAccessKey', {}, { ...admin, accessKeyId: String(key.accessKeyId) }).accessKey as Doc;
    expect(mine.crn).toBe(key.crn);
    expect((call('updateAccessKey', { accessKeyId: key.accessKeyId, status: 'INACTIVE' }).accessKey as Doc).status).toBe('INACTIVE');
    expect(call('listAccessKeys', { accessKeyIds: [key.crn] }).accessKeys).toHaveLength(1);
    expect((call('createUserAccessKey').accessKey as Doc).type).toBe('V2');
    expect(call('listAccessKeys').accessKeys).toHaveLength(2);
    call('deleteAccessKey', { accessKeyId: key.accessKeyId });
    expect(fails('getAccessKey', { accessKeyId: key.accessKeyId }).status).toBe(404);
  });

  test('SSH keys: RSA and Ed25519 accepted with ssh-keygen fingerprints, others refused', () => {
    const ed = generateKeyPairSync('ed25519').publicKey.export({ format: 'der', type: 'spki' });
    const raw = ed.subarray(ed.length - 32);
    // a fixed vector: the fingerprint ssh-keygen -l printed for this key
    expect(parseSshPublicKey('ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIO1kPj5+6vrcPmOAD99HdxVFFSy2M8rrNqmbf/m15e8q x@y').fingerprint).toBe(
      'SHA256:HKo7vTtNHEwCqJ6SmmxTL9BDKJ+E9gDc0vl8wzdfJxI',
    );
    const field = (b: Buffer): Buffer => {
      const len = Buffer.alloc(4);
      len.writeUInt32BE(b.length);
      return Buffer.concat([len, b]);
    };
    const blob = Buffer.concat([field(Buffer.from('ssh-ed25519')), field(raw)]);
    const text = `ssh-ed25519 ${blob.toString('base64')} me@host`;
    const parsed = parseSshPublicKey(text);
    expect(parsed.fingerprint).toMatch(/^SHA256:[A-Za-z0-9+/]{43}$/);
    const added = call('addSshPublicKey', { publicKey: text, description: 'laptop' }).sshPublicKey as Doc;
    expect(added).toMatchObject({ publicKeyFingerprint: parsed.fingerprint, description: 'laptop', publicKey: text });
    expect(fails('addSshPublicKey', { publicKey: text }).status).toBe(409);
    expect((call('describeSshPublicKey', { crnOrFingerprint: parsed.fingerprint }).sshPublicKey as Doc).crn).toBe(added.crn);
    expect(call('listSshPublicKeys', { actorCrn: ADMIN_CRN }).sshPublicKeys).toHaveLength(1);
    const jwk = generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ format: 'jwk' });
    const mp = (b64: string): Buffer => {
      const b = Buffer.from(b64, 'base64url');
      return (b[0] ?? 0) & 0x80 ? Buffer.concat([Buffer.from([0]), b]) : b;
    };
    const rsa = Buffer.concat([field(Buffer.from('ssh-rsa')), field(mp(String(jwk.e))), field(mp(String(jwk.n)))]);
    const rsaText = `ssh-rsa ${rsa.toString('base64')}`;
    call('addSshPublicKey', { publicKey: rsaText });
    const ec = Buffer.concat([field(Buffer.from('ecdsa-sha2-nistp256')), field(Buffer.from('nistp256')), field(Buffer.alloc(65, 4))]);
    expect(fails('addSshPublicKey', { publicKey: `ecdsa-sha2-nistp256 ${ec.toString('base64')}` }).code).toBe('INVALID_ARGUMENT');
    expect(fails('addSshPublicKey', { publicKey: `ssh-dss ${ec.toString('base64')}` }).code).toBe('INVALID_ARGUMENT');
    expect(fails('addSshPublicKey', { publicKey: `ssh-rsa ${blob.toString('base64')}` }).code).toBe('INVALID_ARGUMENT');
    call('deleteSshPublicKey', { crnOrFingerprint: added.crn });
    expect(fails('describeSshPublicKey', { crnOrFingerprint: parsed.fingerprint }).status).toBe(404);
  });

  test('SAML and LDAP providers, default provider, signing keys, SCIM tokens, migration', () => {
    const p = call('createSamlProvider', { samlProviderName: 'Okta', samlMetadataDocument: '<xml/>' }).samlProvider as Doc;
    expect(p).toMatchObject({ syncGroupsOnLogin: true, enableScim: false, authnRequestSigningKeyDefined: false });
    expect(fails('createSamlProvider', { samlProviderName: 'okta' }).status).toBe(409);
    expect(fails('createSamlProvider', { samlProviderName: 'bad name' }).status).toBe(400);
    expect(fails('createSamlProvider', { samlProviderName: 'big', samlMetadataDocument: 'x'.repeat(200_001) }).status).toBe(400);
    expect(fails('createScimAccessToken', { identityProviderNameOrCrn: 'okta', accessTokenLifetimeDays: 1 }).code).toBe(
      'FAILED_PRECONDITION',
    );
    const up = call('updateSamlProvider', { samlProviderName: p.crn, enableScim: true }).samlProvider as Doc;
    expect(up).toMatchObject({ enableScim: true, syncGroupsOnLogin: true, samlMetadataDocument: '<xml/>' });
    expect(String(up.scimUrl)).toContain('/scim/v2/');
    const t = call('createScimAccessToken', { identityProviderNameOrCrn: 'okta', accessTokenLifetimeDays: 30 });
    expect(String(t.accessTokenSecret).length).toBeGreaterThanOrEqual(43);
    expect(JSON.stringify(call('listScimAccessTokens', { identityProviderNameOrCrn: 'okta' }))).not.toContain(String(t.accessTokenSecret));
    call('deleteScimAccessToken', { accessTokenIdOrCrn: (t.accessToken as Doc).crn });
    expect(call('listScimAccessTokens', { identityProviderNameOrCrn: 'okta' }).accessTokens).toEqual([]);
    const sk = call('setSamlAuthnRequestSigningKey', {
      samlProvider: 'okta',
      authnRequestSigningKey: 'k',
      currentAuthnRequestVerificationCertificate: 'c',
    });
    expect(sk).toMatchObject({
      authnRequestSigningKeyDefined: true,
      currentAuthnRequestVerificationCertificateDefined: true,
      nextAuthnRequestVerificationCertificateDefined: false,
    });
    expect(call('setSamlAuthnRequestSigningKey', { samlProvider: 'okta' })).toMatchObject({ authnRequestSigningKeyDefined: false });
    expect(call('setSamlResponseDecryptionKey', { samlProvider: 'okta', nextSamlResponseDecryptionKey: 'n' })).toMatchObject({
      samlResponseEncryptionCertificateDefined: false,
      nextSamlResponseDecryptionKeyDefined: true,
    });

    const ldapReq = {
      ldapProviderName: 'corp',
      url: 'ldaps://ldap.example.com:636',
      bindDn: 'cn=svc',
      bindPassword: 'hunter2',
      userSearchBase: 'ou=p',
      userSearchFilter: '(uid={0})',
      groupSearchBase: 'ou=g',
      groupSearchFilter: '(member={{dn}})',
      usernameMappingAttribute: 'uid',
    };
    const l = call('createLdapProvider', ldapReq).ldapProvider as Doc;
    expect(JSON.stringify(l)).not.toContain('hunter2');
    expect(l.ldapDetails).toMatchObject({ url: 'ldaps://ldap.example.com:636', bindDn: 'cn=svc' });
    expect(typeof l.creationDate).toBe('number');
    expect(fails('createLdapProvider', { ...ldapReq, ldapProviderName: 'x', url: 'http://ldap' }).status).toBe(400);
    expect(fails('createLdapProvider', { ...ldapReq, ldapProviderName: 'OKTA' }).status).toBe(409);
    expect(
      (call('updateLdapProvider', { ...ldapReq, ldapProviderName: l.crn, url: 'ldap://h2' }).ldapProvider as Doc).ldapDetails,
    ).toMatchObject({
      url: 'ldap://h2',
    });
    // It still binds with the password it was given (not kept, nor shown): an update without a bind DN is refused.
    const { bindDn: _dn, bindPassword: _pw, ...anonymous } = ldapReq;
    expect(fails('updateLdapProvider', { ...anonymous, url: 'ldap://h3' }).message).toContain('bindDn is required');
    // An empty password makes the bind anonymous, and the next update needs no bind DN.
    call('updateLdapProvider', { ...anonymous, bindPassword: '', url: 'ldap://h3' });
    expect((call('updateLdapProvider', { ...anonymous, url: 'ldap://h4' }).ldapProvider as Doc).ldapDetails).toMatchObject({
      url: 'ldap://h4',
    });
    expect(JSON.stringify(store.list('iam.ldapProvider'))).not.toContain('hunter2');

    const builtin = call('getDefaultIdentityProvider').crn;
    call('setDefaultIdentityProvider', { nameOrCrn: 'okta' });
    expect(call('getDefaultIdentityProvider').crn).toBe(p.crn);
    expect(fails('deleteSamlProvider', { samlProviderName: 'okta' }).code).toBe('FAILED_PRECONDITION');
    const u = newUser('viaokta');
    expect(u.identityProviderCrn).toBe(p.crn);
    expect(call('migrateUsersToIdentityProvider', { originalProviderName: 'okta', newProviderName: 'corp' }).numberOfUpdatedUsers).toBe(1);
    expect((call('getUser', { userId: u.userId }).user as Doc).identityProviderCrn).toBe(l.crn);
    call('setDefaultIdentityProvider', { nameOrCrn: String(builtin) });
    call('deleteSamlProvider', { samlProviderName: 'okta' });
    expect(call('listSamlProviders').samlProviders).toEqual([]);
  });

  test('account switches and messages', () => {
    expect(call('getAccount').account).toMatchObject({ clouderaSSOLoginEnabled: true, clouderaSSOAllLoginEnabled: true });
    call('disableClouderaSSOLogin');
    call('disableClouderaSSOLogin');
    expect((call('getAccount').account as Doc).clouderaSSOLoginEnabled).toBe(false);
    call('enableClouderaSSOLogin');
    expect((call('enableUserWorkloadPasswordChangedNotifications').account as Doc).clouderaSSOLoginEnabled).toBe(true);
    expect(call('disableUserWorkloadPasswordChangedNotifications').account).toMatchObject({ clouderaSSOLoginEnabled: true });
    expect(call('getAccountMessages')).toEqual({});
    call('setAccountMessages', { contactYourAdministratorMessage: 'ask #help' });
    expect(call('getAccountMessages')).toEqual({ contactYourAdministratorMessage: 'ask #help' });
  });

  test('workload passwords follow the policy: length, classes, history, minimum lifetime', () => {
    call('setWorkloadPasswordPolicy', {
      globalPasswordPolicy: {
        minPasswordLength: 10,
        mustIncludeSymbols: true,
        mustIncludeNumbers: true,
        passwordHistorySize: 2,
        minPasswordLifetimeDays: 1,
      },
    });
    expect((call('getAccount').account as Doc).workloadPasswordPolicy).toMatchObject({
      minPasswordLength: 10,
      passwordHistorySize: 2,
      mustIncludeUpperCaseCharacters: false,
    });
    expect(fails('setWorkloadPassword', { password: 'short1#' }).message).toContain('at least 10');
    expect(fails('setWorkloadPassword', { password: 'longenough1' }).message).toContain('symbols');
    call('setWorkloadPassword', { password: 'longenough1#' });
    const details = (call('getUser').user as Doc).workloadPasswordDetails as Doc;
    expect(details.isPasswordSet).toBe(true);
    expect(details.passwordMinLifetimeDate).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/);
    expect(fails('setWorkloadPassword', { password: 'another-one2!' }).code).toBe('FAILED_PRECONDITION');
    call('unsetWorkloadPasswordMinLifetime', { actorCrn: ADMIN_CRN });
    expect(fails('setWorkloadPassword', { password: 'longenough1#' }).message).toContain('used recently');
    call('unsetWorkloadPasswordMinLifetime', { actorCrn: ADMIN_CRN });
    call('setWorkloadPassword', { password: 'second-pass2!' });
    call('unsetWorkloadPasswordMinLifetime', { actorCrn: ADMIN_CRN });
    call('setWorkloadPassword', { password: 'third-pass33!' });
    call('unsetWorkloadPasswordMinLifetime', { actorCrn: ADMIN_CRN });
    // history size 2: the first password is old enough again
    call('setWorkloadPassword', { password: 'longenough1#' });
    expect(JSON.stringify(storedWorkloadPasswords(store))).not.toContain('longenough1#');

    // machine users take their own policy when one is set
    const m = call('createMachineUser', { machineUserName: 'svc' }).machineUser as Doc;
    call('setWorkloadPasswordPolicy', { machineUsersPasswordPolicy: { minPasswordLength: 20 } });
    expect(fails('setWorkloadPassword', { actorCrn: m.crn, password: 'abcdefghij1#' }).status).toBe(400);
    call('unsetWorkloadPasswordPolicy', { unsetMachineUsersPasswordPolicy: true, unsetGlobalPasswordPolicy: true });
    expect((call('getAccount').account as Doc).machineUserWorkloadPasswordPolicy).toBeUndefined();
    call('setWorkloadPassword', { actorCrn: m.crn, password: 'abcdefgh' });
    expect(((call('listMachineUsers').machineUsers as Doc[])[0]?.workloadPasswordDetails as Doc).isPasswordSet).toBe(true);
  });

  test('workload tokens: random, stored as a hash, one hour of real time, DF endpoint', () => {
    expect(fails('generateWorkloadAuthToken', { workloadName: 'DF' }).status).toBe(400);
    const before = Date.now();
    const env = preCreatedEnvironmentCrn(ACCOUNT, 'us-west-1', 'sales-env');
    expect(fails('generateWorkloadAuthToken', { workloadName: 'DF', environmentCrn: `${env}x` }).status).toBe(404);
    const t = call('generateWorkloadAuthToken', { workloadName: 'DF', environmentCrn: env });
    expect(t.endpointUrl).toBe('http://localhost:4242/dfx/');
    expect(String(t.token)).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    const rec = storedWorkloadToken(store, tokenHash(String(t.token)));
    expect(rec?.actorCrn).toBe(ADMIN_CRN);
    expect(JSON.stringify(rec)).not.toContain(String(t.token));
    // the shared auth layer accepts it as a bearer token for the caller
    const who = authenticateBearer(identities(), ACCOUNT, { authorization: `Bearer ${String(t.token)}` }, 'DF');
    expect(who.actorCrn).toBe(ADMIN_CRN);
    expect(who.workload).toEqual({ name: 'DF', environmentCrn: env });
    expect(() => authenticateBearer(identities(), ACCOUNT, { authorization: `Bearer ${String(t.token)}x` }, 'DF')).toThrow(ApiError);
    expect(() =>
      authenticateBearer(identities(), ACCOUNT, { authorization: `Bearer ${String(t.token)}` }, 'DF', Date.now() + 3_700_000),
    ).toThrow(/expired/);
    // Scoped to its workload: a DE token does not open DF paths.
    const de = call('generateWorkloadAuthToken', { workloadName: 'DE' });
    expect(() => authenticateBearer(identities(), ACCOUNT, { authorization: `Bearer ${String(de.token)}` }, 'DF')).toThrow(/DE workload/);
    const exp = Date.parse(String(t.expireAt));
    expect(exp).toBeGreaterThanOrEqual(before + 3_600_000 - 1000);
    expect(exp).toBeLessThanOrEqual(Date.now() + 3_600_000 + 1000);
  });

  test('permissions: non-admins act on themselves only; IamViewer reads; PowerUser via a group writes', () => {
    const u = newUser('plain');
    const me: Caller = { accountId: ACCOUNT, actorCrn: String(u.crn), accessKeyId: 'k', kind: 'user' };
    expect((call('getUser', {}, me).user as Doc).crn).toBe(u.crn);
    expect(call('createUserAccessKey', {}, me).privateKey).toMatch(/^(-----BEGIN PRIVATE KEY-----|[A-Za-z0-9+/]+=*$)/);
    expect(fails('listUsers', {}, me).status).toBe(403);
    expect(fails('createGroup', { groupName: 'x' }, me).code).toBe('PERMISSION_DENIED');
    expect(call('listAccessKeys', {}, me).accessKeys).toHaveLength(1);
    call('assignUserRole', { user: u.userId, role: 'IamViewer' });
    expect(call('listUsers', {}, me).users).toHaveLength(2);
    expect(fails('createGroup', { groupName: 'x' }, me).status).toBe(403);
    call('createGroup', { groupName: 'admins' });
    call('assignGroupRole', { groupName: 'admins', role: 'PowerUser' });
    call('addUserToGroup', { groupName: 'admins', userId: u.userId });
    expect((call('createGroup', { groupName: 'x' }, me).group as Doc).groupName).toBe('x');
  });
});
