/**
 * The emulator's authentication (auth.ts) in process, on a store of its
 * own: a signed request is checked in every part of its canonical string
 * (method, content type, date, path, auth method), its date within 15
 * minutes of the server's, its key known, of the type the method says and
 * active, its owner there and allowed in; each key type (Ed25519, ECDSA,
 * RSA) verifies. Bearer tokens: issued here, unexpired, for the workload
 * the path belongs to, their owner allowed in. (test/reliability/auth-
 * attacks.test.ts tries attacks over HTTP; this pins the module's rules.)
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import type { IncomingHttpHeaders } from 'node:http';
import { authHead, b64url, parsePrivateKey, signRequest, type SigningKey } from '../../../src/lib/core/signing.js';
import { authenticateBearer, authenticateSigned, tokenHash } from '../../../src/lib/emulator/auth.js';
import { ApiError } from '../../../src/lib/emulator/errors.js';
import { issueKey } from '../../../src/lib/emulator/keys.js';
import { Store } from '../../../src/lib/emulator/store.js';
import type { AccessKeyType, Identities } from '../../../src/lib/emulator/world/contracts.js';
import { clockAt, emulatedWorld, refusal } from '../../helpers/emulator-unit.js';
import {
  putAccessKey,
  putMachineUser,
  putUser,
  putWorkloadToken,
  type AccessKeyRecord,
  type MachineUserRecord,
  type UserRecord,
  type WorkloadTokenRecord,
} from '../../helpers/iam-records.js';

const ACCOUNT = 'acct-1';
const USER = `crn:altus:iam:us-west-1:${ACCOUNT}:user:u1`;
const MACHINE = `crn:altus:iam:us-west-1:${ACCOUNT}:machineUser:m1`;
const PATH = '/iam/getUser';
const JSON_TYPE = 'application/json';
const NOW = Date.parse('2026-03-01T12:00:00Z');

let store: Store;
const world = await emulatedWorld();
/** iam's identities in the test's store, as the server authenticates with them. */
const identities = (): Identities =>
  world.in({ store, clock: clockAt(() => NOW), info: { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:1' } })
    .identities;

/** An owner: a user or machine user record in the store, with its status. */
function owner(crn: string, kind: 'user' | 'machineUser', status = 'ACTIVE'): void {
  const id = crn.split(':').pop() ?? '';
  const doc = { userId: id, machineUserName: id, crn, status, creationDate: '2026-01-01T00:00:00Z' };
  if (kind === 'user') putUser(store, doc as unknown as UserRecord);
  else putMachineUser(store, doc as unknown as MachineUserRecord);
}

/** A key of a type for an owner, stored as iam stores it; answers what signs with it. */
function key(id: string, actorCrn: string, type: AccessKeyType = 'V2', status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE'): SigningKey {
  const issued = issueKey(type);
  const rec: AccessKeyRecord = {
    accessKeyId: id,
    crn: `crn:altus:iam:us-west-1:${ACCOUNT}:accessKey:${id}`,
    actorCrn,
    creationDate: '2026-01-01T00:00:00Z',
    status,
    type,
    publicKey: issued.publicKey,
  };
  putAccessKey(store, rec);
  return parsePrivateKey(id, issued.privateKey);
}

const headersOf = (signing: SigningKey, at = NOW, path = PATH, method = 'POST', contentType = JSON_TYPE): IncomingHttpHeaders => ({
  ...signRequest(signing, method, contentType, path, new Date(at)),
  'content-type': contentType,
});
const check = (headers: IncomingHttpHeaders, path = PATH, method = 'POST', now = NOW) =>
  authenticateSigned(identities(), ACCOUNT, method, path, headers, now);
const refused = (headers: IncomingHttpHeaders, path = PATH, method = 'POST', now = NOW): ApiError =>
  refusal(() => check(headers, path, method, now), 'the request');

let ed: SigningKey;

beforeAll(() => {
  store = new Store(':memory:', ACCOUNT);
  owner(USER, 'user');
  owner(MACHINE, 'machineUser');
  ed = key('key-ed', USER);
});

afterAll(() => {
  store.close();
});

describe('signed requests', () => {
  test('a genuine signature by each key type authenticates its owner', () => {
    expect(check(headersOf(ed))).toEqual({ accountId: ACCOUNT, actorCrn: USER, accessKeyId: 'key-ed', kind: 'user' });
    for (const [id, type] of [
      ['key-ec', 'V3'],
      ['key-rsa', 'V1'],
    ] as const) {
      const k = key(id, MACHINE, type);
      expect(check(headersOf(k))).toMatchObject({ actorCrn: MACHINE, accessKeyId: id, kind: 'machineUser' });
    }
  });

  test('each part of the canonical string is signed: another method, path, content type or date does not verify', () => {
    const good = headersOf(ed);
    expect(refused(good, '/iam/listGroups').message).toBe('the request signature does not match');
    expect(refused(good, PATH, 'GET').message).toBe('the request signature does not match');
    expect(refused({ ...good, 'content-type': 'text/plain' }).message).toBe('the request signature does not match');
    const otherDate = new Date(NOW + 1000).toUTCString();
    const moved = refused({ ...good, 'x-altus-date': otherDate });
    expect([moved.status, moved.code, moved.message]).toEqual([401, 'UNAUTHENTICATED', 'the request signature does not match']);
  });

  test('the date must be within 15 minutes of the server time, either way', () => {
    const fifteen = 15 * 60_000;
    expect(check(headersOf(ed, NOW - fifteen)).actorCrn).toBe(USER);
    expect(check(headersOf(ed, NOW + fifteen)).actorCrn).toBe(USER);
    for (const at of [NOW - fifteen - 1000, NOW + fifteen + 1000])
      expect(refused(headersOf(ed, at)).message).toBe('the request date is more than 15 minutes away from the server time');
    expect(refused({ ...headersOf(ed), 'x-altus-date': 'yesterday' }).message).toBe('the x-altus-date header is not a date');
  });

  test('both headers must be there once', () => {
    const good = headersOf(ed);
    expect(refused({ ...good, 'x-altus-auth': undefined }).message).toBe('missing or repeated x-altus-auth header');
    expect(refused({ ...good, 'x-altus-date': undefined }).message).toBe('missing or repeated x-altus-date header');
    const twice = {
      ...good,
      'x-altus-auth': [String(good['x-altus-auth']), String(good['x-altus-auth'])],
    } as unknown as IncomingHttpHeaders;
    expect(refused(twice).message).toBe('missing or repeated x-altus-auth header');
  });

  test('the x-altus-auth header is two halves of padded base64url, the first a JSON head naming key and method', () => {
    const good = headersOf(ed);
    const [head = '', sig = ''] = String(good['x-altus-auth']).split('.');
    const malformed = [
      head,
      `${head}.${sig}.${sig}`,
      `${head}.${sig.replace(/=+$/, '')}`,
      `${b64url(Buffer.from('not json'))}.${sig}`,
      `${b64url(Buffer.from('{"access_key_id": "key-ed"}'))}.${sig}`,
    ];
    for (const auth of malformed) expect(refused({ ...good, 'x-altus-auth': auth }).message).toBe('the x-altus-auth header is malformed');
  });

  test('the key must be known and sign with the method its type has', () => {
    const good = headersOf(ed);
    const sig = String(good['x-altus-auth']).split('.')[1];
    const unknown = refused({ ...good, 'x-altus-auth': `${b64url(Buffer.from(authHead('key-none', 'ed25519v1')))}.${sig}` });
    expect(unknown.message).toBe('unknown access key key-none');
    const claimed = refused({ ...good, 'x-altus-auth': `${b64url(Buffer.from(authHead('key-ed', 'rsav1')))}.${sig}` });
    expect(claimed.message).toBe('access key key-ed does not sign with rsav1');
  });

  test('a signature by another key of the same type does not verify', () => {
    const other = key('key-other', USER);
    const forged = headersOf({ ...other, accessKeyId: 'key-ed' });
    expect(refused(forged).message).toBe('the request signature does not match');
  });

  test('an inactive key is refused even with a good signature', () => {
    const inactive = key('key-inactive', USER, 'V2', 'INACTIVE');
    const r = refused(headersOf(inactive));
    expect([r.status, r.message]).toEqual([401, 'access key key-inactive is inactive']);
  });

  test('the owner must exist (401) and be allowed in: deactivated or locked out is PERMISSION_DENIED (403)', () => {
    const ghost = key('key-ghost', `crn:altus:iam:us-west-1:${ACCOUNT}:user:gone`);
    expect(refused(headersOf(ghost)).message).toBe('the owner of this credential no longer exists');
    for (const [id, status, message] of [
      ['deactivated', 'DEACTIVATED', 'the owner of this credential is deactivated'],
      ['locked', 'CONTROL_PLANE_LOCKED_OUT', 'the owner of this credential is locked out of the control plane'],
    ] as const) {
      const crn = `crn:altus:iam:us-west-1:${ACCOUNT}:user:${id}`;
      owner(crn, 'user', status);
      const r = refused(headersOf(key(`key-${id}`, crn)));
      expect([r.status, r.code, r.message]).toEqual([403, 'PERMISSION_DENIED', message]);
    }
  });
});

describe('bearer tokens', () => {
  const TOKEN = 'a-workload-token-of-enough-length';
  const bearer = (token: string): IncomingHttpHeaders => ({ authorization: `Bearer ${token}` });
  const issue = (token: string, rec: Partial<WorkloadTokenRecord> = {}): void => {
    const hash = tokenHash(token);
    putWorkloadToken(store, { hash, actorCrn: USER, workloadName: 'DF', expireAt: NOW + 60_000, ...rec });
  };
  const check = (headers: IncomingHttpHeaders, workload = 'DF', now = NOW) =>
    authenticateBearer(identities(), ACCOUNT, headers, workload, now);

  beforeAll(() => {
    issue(TOKEN, { environmentCrn: 'crn:cdp:environments:us-west-1:acct-1:environment:e1' });
  });

  test('a token issued here for the workload authenticates its owner, with what it was issued for', () => {
    expect(check(bearer(TOKEN))).toEqual({
      accountId: ACCOUNT,
      actorCrn: USER,
      kind: 'user',
      workload: { name: 'DF', environmentCrn: 'crn:cdp:environments:us-west-1:acct-1:environment:e1' },
    });
  });

  test('a missing, malformed or unknown token is UNAUTHENTICATED', () => {
    expect(refusal(() => check({}), 'no token').message).toBe('missing or malformed bearer token');
    expect(refusal(() => check(bearer('short')), 'short').message).toBe('missing or malformed bearer token');
    expect(refusal(() => check({ authorization: `Basic ${TOKEN}` }), 'basic').message).toBe('missing or malformed bearer token');
    expect(refusal(() => check(bearer(`${TOKEN}x`)), 'extended').message).toBe('the bearer token was not issued here');
  });

  test('a token expires at its expireAt, and opens only the paths of its workload', () => {
    expect(refusal(() => check(bearer(TOKEN), 'DF', NOW + 60_000), 'expired').message).toBe('the bearer token has expired');
    const other = refusal(() => check(bearer(TOKEN), 'DE'), 'another workload');
    expect([other.status, other.code, other.message]).toEqual([
      403,
      'PERMISSION_DENIED',
      'the bearer token was issued for the DF workload; this path needs a DE token',
    ]);
  });

  test("a token's owner must still be allowed in", () => {
    const crn = `crn:altus:iam:us-west-1:${ACCOUNT}:user:later-deactivated`;
    owner(crn, 'user', 'DEACTIVATED');
    issue('token-of-a-deactivated-user', { actorCrn: crn });
    expect(refusal(() => check(bearer('token-of-a-deactivated-user')), 'deactivated').status).toBe(403);
  });
});
