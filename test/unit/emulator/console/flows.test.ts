/**
 * The console's sign-in rules in-process (no HTTP, no browser): the return
 * addresses it accepts, refusals, expiry on an injected clock, the device
 * code's states, and that each sign-in makes a working key for the user.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { createPrivateKey, createPublicKey, sign, verify } from 'node:crypto';
import { Clock } from '../../../../src/lib/emulator/clock.js';
import { ConsoleFlows, Refusal, checkReturnUrl, normalizeUserCode } from '../../../../src/lib/emulator/console/flows.js';
import { errorPage, loginPage } from '../../../../src/lib/emulator/console/pages.js';
import { Store } from '../../../../src/lib/emulator/store.js';
import type { Caller, Doc } from '../../../../src/lib/emulator/types.js';
import { emulatedWorld, serviceCaller } from '../../../helpers/emulator-unit.js';
import {
  accessKeyCount,
  putUser,
  storedAccessKey,
  storedUser,
  type AccessKeyRecord,
  type UserRecord,
} from '../../../helpers/iam-records.js';

const ACCOUNT = 'acct-1';
const ADMIN_CRN = `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin-id`;
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const admin: Caller = { accountId: ACCOUNT, actorCrn: ADMIN_CRN, kind: 'user' };

let store: Store;
let clock: Clock;
let now: number;
let flows: ConsoleFlows;

const world = await emulatedWorld();
const iamService = await serviceCaller('iam', () => ({ store, clock, caller: admin, info }));
const iam = (op: string, req: Doc): Doc => iamService.call(op, req);

function refusal(fn: () => unknown): Refusal {
  try {
    fn();
  } catch (e) {
    if (e instanceof Refusal) return e;
    throw e;
  }
  throw new Error('not refused');
}

const q = (o: Record<string, string>): URLSearchParams => new URLSearchParams(o);
const RETURN = 'http://localhost:5555/interactiveLogin';

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  clock = new Clock(1);
  now = 1_000_000;
  putUser(store, {
    userId: 'admin-id',
    crn: ADMIN_CRN,
    email: 'admin@example.com',
    firstName: 'Account',
    lastName: 'Admin',
    creationDate: clock.iso(),
    accountAdmin: true,
    identityProviderCrn: 'crn:altus:iam:us-west-1:altus:samlProvider:cloudera-sso',
    status: 'ACTIVE',
    workloadUsername: 'admin',
  });
  store.setMeta('adminCrn', ADMIN_CRN);
  flows = new ConsoleFlows({ store, clock, info, worldView: world }, 60_000, () => now);
});

/** The key works: its private half signs what its stored public half verifies. */
function keyWorks(accessKeyId: string, privateKey: string): AccessKeyRecord {
  const rec = storedAccessKey(store, accessKeyId);
  expect(rec).toMatchObject({ accessKeyId });
  const seed = Buffer.from(privateKey, 'base64');
  const priv = createPrivateKey({
    key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]),
    format: 'der',
    type: 'pkcs8',
  });
  const sig = sign(null, Buffer.from('x'), priv);
  expect(verify(null, Buffer.from('x'), createPublicKey(rec?.publicKey ?? ''), sig)).toBe(true);
  return rec as AccessKeyRecord;
}

describe('return addresses', () => {
  test.each(['http://localhost:5555/interactiveLogin', 'http://127.0.0.1:1/x?y=1', 'http://localhost:65535/'])('accepts %s', (url) => {
    expect(checkReturnUrl(url).href).toBe(new URL(url).href);
  });

  test.each([
    ['another host', 'http://evil.example.test:5555/interactiveLogin'],
    ['https', 'https://localhost:5555/interactiveLogin'],
    ['no port', 'http://localhost/interactiveLogin'],
    ['no path', 'http://localhost:5555'],
    ['a user part that hides another host', 'http://localhost:5555@evil.example.test/'],
    ['credentials', 'http://u:p@localhost:5555/'],
    ['a look-alike name', 'http://localhost.evil.example.test:5555/'],
    ['a short form of 127.0.0.1', 'http://127.1:5555/'],
    ['IPv6 loopback', 'http://[::1]:5555/'],
    ['port 0', 'http://localhost:0/'],
    ['a port out of range', 'http://localhost:70000/'],
    ['javascript', 'javascript:alert(1)//http://localhost:1/'],
    ['nothing', ''],
  ])('refuses %s', (_why, url) => {
    const r = refusal(() => checkReturnUrl(url));
    expect(r.status).toBe(400);
  });
});

describe('the browser flow', () => {
  test('a sign-in makes a new key for the chosen user and sends it to the return address', () => {
    const created = iam('createUser', { email: 'alice@example.com', identityProviderUserId: 'alice', firstName: 'Alice' }).user as Doc;
    const sr = flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: `${RETURN}?keep=1` }));
    expect(flows.users().listed.map((u) => u.email)).toEqual(['admin@example.com', 'alice@example.com']);
    const { location, user } = flows.completeSignIn(sr.id, String(created.crn));
    expect(user.email).toBe('alice@example.com');
    expect(location.origin + location.pathname).toBe('http://localhost:5555/interactiveLogin');
    expect(location.searchParams.get('keep')).toBe('1');
    const rec = keyWorks(location.searchParams.get('accessKeyId') ?? '', location.searchParams.get('privateKey') ?? '');
    expect(rec.actorCrn).toBe(created.crn);
    expect(rec.type).toBe('V2');
    expect(storedUser(store, String(created.userId))?.lastInteractiveLogin).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d/);
    // One use only.
    expect(refusal(() => flows.completeSignIn(sr.id, ADMIN_CRN)).status).toBe(404);
  });

  test('a user can be named by email or user ID; a wrong choice keeps the sign-in open', () => {
    const sr = flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: RETURN }));
    expect(refusal(() => flows.completeSignIn(sr.id, 'nobody@example.com')).status).toBe(404);
    expect(flows.completeSignIn(sr.id, 'ADMIN@example.com').user.crn).toBe(ADMIN_CRN);
    const again = flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: RETURN }));
    expect(flows.completeSignIn(again.id, 'admin-id').user.crn).toBe(ADMIN_CRN);
  });

  test('refuses other accounts, unknown identity providers, inactive users and expired pages', () => {
    expect(refusal(() => flows.beginSignIn(q({ accountId: 'other', returnUrl: RETURN }))).status).toBe(404);
    expect(refusal(() => flows.beginSignIn(q({ returnUrl: RETURN }))).status).toBe(400);
    expect(refusal(() => flows.beginSignIn(q({ accountId: ACCOUNT, idp: 'nope', returnUrl: RETURN }))).title).toBe(
      'Unknown identity provider',
    );
    expect(refusal(() => flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: 'http://evil.example.test:1/' }))).status).toBe(400);

    const bob = iam('createUser', { email: 'bob@example.com', identityProviderUserId: 'bob' }).user as Doc;
    iam('updateUser', { user: String(bob.userId), active: false });
    expect(flows.users().listed.map((u) => u.email)).toEqual(['admin@example.com']);
    const sr = flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: RETURN }));
    expect(refusal(() => flows.completeSignIn(sr.id, String(bob.crn))).status).toBe(403);

    const keysBefore = accessKeyCount(store);
    const late = flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: RETURN }));
    now += 60_001;
    expect(refusal(() => flows.completeSignIn(late.id, ADMIN_CRN)).status).toBe(410);
    expect(accessKeyCount(store)).toBe(keysBefore);
  });

  test('lists only the users of a named identity provider', () => {
    iam('createSamlProvider', { samlProviderName: 'okta', samlMetadataDocument: '<EntityDescriptor/>' });
    iam('createUser', { email: 'carol@example.com', identityProviderUserId: 'carol', samlProviderName: 'okta' });
    const sr = flows.beginSignIn(q({ accountId: ACCOUNT, idp: 'okta', returnUrl: RETURN }));
    expect(flows.users(sr.idpCrn).listed.map((u) => u.email)).toEqual(['carol@example.com']);
    expect(refusal(() => flows.completeSignIn(sr.id, ADMIN_CRN)).status).toBe(404);
  });

  test('cancel sends the error back and makes no key', () => {
    const keysBefore = accessKeyCount(store);
    const sr = flows.beginSignIn(q({ accountId: ACCOUNT, returnUrl: RETURN }));
    const loc = flows.cancelSignIn(sr.id);
    expect(loc.searchParams.get('error')).toMatch(/^access_denied/);
    expect(loc.searchParams.has('accessKeyId')).toBe(false);
    expect(accessKeyCount(store)).toBe(keysBefore);
  });
});

describe('the device flow', () => {
  const start = (): Doc => flows.authorizeDevice(q({ accountId: ACCOUNT, clientId: 'client-1' }));
  const poll = (d: Doc, over: Record<string, string> = {}): Doc =>
    flows.collectDeviceKey(q({ clientId: 'client-1', deviceCode: String(d.deviceCode), userCode: String(d.userCode), ...over }));

  test('answers as the console does, and hands the key over once after approval', () => {
    const d = start();
    expect(d).toMatchObject({
      expiresIn: { low: 60 },
      verificationUrl: 'http://localhost:4242/consoleauth/device',
      accessKeyUrl: 'http://localhost:4242/consoleauth/deviceAccessKey',
    });
    expect(String(d.userCode)).toMatch(/^[B-DF-HJ-NP-TV-XZ]{4}-[B-DF-HJ-NP-TV-XZ]{4}$/);
    expect(refusal(() => poll(d)).status).toBe(401);
    const typed = String(d.userCode).toLowerCase().replace('-', ' ');
    expect(flows.deviceByUserCode(typed).deviceCode).toBe(d.deviceCode);
    const { user } = flows.approveDevice(typed, ADMIN_CRN);
    expect(user.crn).toBe(ADMIN_CRN);
    expect(refusal(() => poll(d, { clientId: 'someone-else' })).status).toBe(403);
    const key = poll(d);
    expect(keyWorks(String(key.accessKeyId), String(key.privateKey)).actorCrn).toBe(ADMIN_CRN);
    expect(refusal(() => poll(d)).status).toBe(404);
    // The code cannot be used again.
    expect(refusal(() => flows.deviceByUserCode(String(d.userCode))).status).toBe(404);
  });

  test('refuses unknown accounts, a missing client, unknown and expired codes; a denial ends the poll', () => {
    expect(refusal(() => flows.authorizeDevice(q({ accountId: 'other', clientId: 'c' }))).status).toBe(404);
    expect(refusal(() => flows.authorizeDevice(q({ accountId: ACCOUNT }))).status).toBe(400);
    expect(refusal(() => flows.deviceByUserCode('BBBB-BBBB')).status).toBe(404);

    const denied = start();
    flows.denyDevice(String(denied.userCode));
    expect(refusal(() => poll(denied)).code).toBe('ACCESS_DENIED');

    const keysBefore = accessKeyCount(store);
    const late = start();
    now += 60_001;
    expect(refusal(() => flows.deviceByUserCode(String(late.userCode))).status).toBe(410);
    expect(refusal(() => flows.approveDevice(String(late.userCode), ADMIN_CRN)).status).toBe(410);
    expect(refusal(() => poll(late)).status).toBe(410);
    expect(accessKeyCount(store)).toBe(keysBefore);
  });

  test('reads codes as people type them', () => {
    expect(normalizeUserCode('bcdf ghjk')).toBe('BCDF-GHJK');
    expect(normalizeUserCode(' BCDF-GHJK ')).toBe('BCDF-GHJK');
    expect(normalizeUserCode('bcdfghjk')).toBe('BCDF-GHJK');
  });
});

describe('pages', () => {
  test('escape what they show and label every control', () => {
    const site = { baseUrl: 'http://localhost:4242', accountId: ACCOUNT };
    const user = { ...(storedUser(store, 'admin-id') as UserRecord), firstName: '<script>x</script>' };
    const html = loginPage(site, { requestId: 'r"1', returnHost: 'localhost:5555', idp: '<i>', users: [user], total: 1 });
    expect(html).not.toMatch(/<script>|<i>/);
    expect(html).toMatch(/value="r&quot;1"/);
    expect(html).toMatch(/<html lang="en">/);
    for (const m of html.matchAll(/<input type="radio" id="([^"]+)"/g)) expect(html).toContain(`<label for="${m[1]}">`);
    expect(html).not.toMatch(/https?:\/\/(?!localhost)/);
    expect(errorPage(site, 'T', '<b>m</b>')).toContain('&lt;b&gt;m&lt;/b&gt;');
  });
});
