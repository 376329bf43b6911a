/**
 * datacatalog through the real binary against the emulator: the data share
 * life cycle (Not Shared -> Shared -> Not Shared -> deleted) with the changes
 * refused while shared, external users (credentials, revoke, regenerate,
 * delete), paging with the empty end token, tags and profilers, and the
 * client-side rules.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { environmentCrns, startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

const DL = 'crn:cdp:datalake:us-west-1:acct:datalake:dl1';
// The environment is one of the emulator's (set in beforeAll); the client-side rule tables below
// are built before that with this stand-in, which they never send.
let ENV = 'crn:cdp:environments:us-west-1:acct:environment:env1';
const LAKE = ['--datalake-crn', DL, '--environment-crn', ENV];

interface ExternalUser {
  userId: number;
  username: string;
  clientId?: string;
  secret?: string;
  error?: string;
}

interface Share {
  dataShareId: string;
  dataShareName: string;
  isShared: boolean;
  assets: Array<{ resourceId: string; databaseName: string; tableName: string }>;
  externalUsers: Array<{ userId: number; username: string }>;
}

let ana: ExternalUser;
let bo: ExternalUser;
let shareId: string;

const describeShare = (): Promise<Share> => em.json<Share>(['datacatalog', 'shares', 'describe', ...LAKE, '--data-share-id', shareId]);
const onShare = (verb: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> =>
  em.cli(['datacatalog', 'shares', verb, ...LAKE, '--data-share-id', shareId, ...args, '--yes']);

beforeAll(async () => {
  em = await startEmulator();
  ENV = (await environmentCrns(em))['sales-env'] ?? '';
  LAKE[3] = ENV;
});

afterAll(async () => {
  await em?.stop();
});

describe('external users', () => {
  test('create returns a client id and a secret for each user; clashes carry an error', async () => {
    const out = await em.json<{ externalUsers: ExternalUser[] }>([
      'datacatalog',
      'external-users',
      'create',
      ...LAKE,
      '--external-users',
      JSON.stringify([
        { email: 'ana@partner.example', username: 'ana', companyName: 'Partner Ltd' },
        { email: 'bo@other.example', username: 'bo', companyName: 'Other Inc' },
        { email: 'ana2@partner.example', username: 'ana', companyName: 'Partner Ltd' },
      ]),
    ]);
    expect(out.externalUsers).toHaveLength(3);
    [ana, bo] = out.externalUsers as [ExternalUser, ExternalUser];
    for (const u of [ana, bo]) {
      expect(typeof u.userId).toBe('number');
      expect(u.clientId).toMatch(/^\S+$/);
      expect(u.secret).toMatch(/^\S+$/);
    }
    expect(out.externalUsers[2]?.error).toContain('taken');
    expect(out.externalUsers[2]?.secret).toBeUndefined();
  });

  test('list pages to the end, and searches', async () => {
    const page = await em.json<{ externalUsers: ExternalUser[]; nextToken: string }>([
      'datacatalog',
      'external-users',
      'list',
      ...LAKE,
      '--page-size',
      '1',
      '--max-items',
      '1',
    ]);
    expect(page.externalUsers).toHaveLength(1);
    expect(page.nextToken).toMatch(/^\S+$/);
    const all = await em.json<{ externalUsers: ExternalUser[] }>(['datacatalog', 'external-users', 'list', ...LAKE, '--page-size', '1']);
    expect(all.externalUsers.map((u) => u.username)).toEqual(['ana', 'bo']);
    // The last page has no nextToken (listDataShares alone ends with ""; see the unit tests).
    const found = await em.json<{ externalUsers: ExternalUser[] }>([
      'datacatalog',
      'external-users',
      'list',
      ...LAKE,
      '--search-term',
      'OTHER',
    ]);
    expect(found.externalUsers.map((u) => u.username)).toEqual(['bo']);
  });
});

describe('the data share life cycle', () => {
  test('create: Not Shared, with its assets and users', async () => {
    const created = await em.json<{ dataShareId: string; dataShareName: string; datalakeCrn: string }>([
      'datacatalog',
      'shares',
      'create',
      ...LAKE,
      '--data-share-name',
      'q3-orders',
      '--assets',
      JSON.stringify([{ databaseName: 'sales', tableName: 'orders' }]),
      '--external-users',
      JSON.stringify([{ externalUserId: ana.userId }]),
      '--keywords',
      'sales,q3',
    ]);
    expect(created).toMatchObject({ dataShareName: 'q3-orders', datalakeCrn: DL });
    shareId = created.dataShareId;
    const s = await describeShare();
    expect(s.isShared).toBe(false);
    expect(s.assets.map((a) => a.tableName)).toEqual(['orders']);
    expect(s.externalUsers.map((u) => u.username)).toEqual(['ana']);
    const dup = await em.cli([
      'datacatalog',
      'shares',
      'create',
      ...LAKE,
      '--data-share-name',
      'Q3-ORDERS',
      '--assets',
      '[{"databaseName":"a","tableName":"b"}]',
    ]);
    expect(dup.code).toBe(1);
    expect(dup.stderr).toContain('ALREADY_EXISTS');
  });

  test('while Not Shared: add and remove assets, grant and remove access, update', async () => {
    const added = await em.json<{ assets: Array<{ resourceId: string; tableName: string }> }>([
      'datacatalog',
      'shares',
      'add-assets',
      ...LAKE,
      '--data-share-id',
      shareId,
      '--assets',
      JSON.stringify([
        { databaseName: 'sales', tableName: 'returns' },
        { databaseName: 'sales', tableName: 'customers', columns: ['id', 'country'] },
      ]),
    ]);
    expect(added.assets.map((a) => a.tableName)).toEqual(['returns', 'customers']);
    expect((await onShare('remove-assets', '--resource-ids', added.assets[0]?.resourceId ?? '')).code).toBe(0);
    expect((await onShare('grant-access', '--external-users', JSON.stringify([{ externalUserId: bo.userId }]))).code).toBe(0);
    expect((await onShare('remove-access', '--external-user-ids', String(bo.userId))).code).toBe(0);
    expect((await onShare('update', '--summary', 'Orders of Q3', '--data-share-name', 'q3-orders-final')).code).toBe(0);
    const s = await describeShare();
    expect(s.dataShareName).toBe('q3-orders-final');
    expect(s.assets.map((a) => a.tableName)).toEqual(['orders', 'customers']);
    expect(s.externalUsers.map((u) => u.username)).toEqual(['ana']);
  });

  test('share: Shared; asset and access changes and delete are refused', async () => {
    const shared = await onShare('share');
    expect(shared.code).toBe(0);
    expect(JSON.parse(shared.stdout)).toEqual({ success: true });
    expect((await describeShare()).isShared).toBe(true);
    const again = await onShare('share');
    expect(again.code).toBe(1);
    const add = await onShare('add-assets', '--assets', JSON.stringify([{ databaseName: 'hr', tableName: 'employees' }]));
    expect(add.code).toBe(1);
    expect(add.stderr).toContain('FAILED_PRECONDITION');
    expect(add.stderr).toContain('Not Shared');
    const s = await describeShare();
    expect((await onShare('remove-assets', '--resource-ids', s.assets[0]?.resourceId ?? '')).code).toBe(1);
    expect((await onShare('remove-access', '--external-user-ids', String(ana.userId))).code).toBe(1);
    const del = await onShare('delete');
    expect(del.code).toBe(1);
    expect(del.stderr).toContain('FAILED_PRECONDITION');
    const listed = await em.json<{ dataShares: Array<{ dataShareId: string; isShared: boolean }> }>([
      'datacatalog',
      'shares',
      'list',
      ...LAKE,
    ]);
    expect(listed.dataShares.find((x) => x.dataShareId === shareId)?.isShared).toBe(true);
  });

  test('unshare: Not Shared again, then delete is permanent', async () => {
    expect((await onShare('unshare')).code).toBe(0);
    expect((await describeShare()).isShared).toBe(false);
    expect((await onShare('unshare')).code).toBe(1);
    expect((await onShare('delete')).code).toBe(0);
    const gone = await em.cli(['datacatalog', 'shares', 'describe', ...LAKE, '--data-share-id', shareId]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NOT_FOUND');
    expect((await onShare('share')).code).toBe(1);
  });

  test('list pages shares with an empty nextToken at the end', async () => {
    for (const n of ['s-a', 's-b', 's-c']) {
      const r = await em.cli([
        'datacatalog',
        'shares',
        'create',
        ...LAKE,
        '--data-share-name',
        n,
        '--assets',
        '[{"databaseName":"sales","tableName":"orders"}]',
      ]);
      expect(r.code).toBe(0);
    }
    const all = await em.json<{ dataShares: Array<{ dataShareName: string }> }>([
      'datacatalog',
      'shares',
      'list',
      ...LAKE,
      '--page-size',
      '2',
    ]);
    expect(all.dataShares.map((s) => s.dataShareName)).toEqual(['s-a', 's-b', 's-c']);
    const one = await em.json<{ dataShares: unknown[]; nextToken?: string }>([
      'datacatalog',
      'shares',
      'list',
      ...LAKE,
      '--max-items',
      '2',
      '--page-size',
      '2',
    ]);
    expect(one.dataShares).toHaveLength(2);
    expect(one.nextToken).toMatch(/^\S+$/);
    const named = await em.json<{ dataShares: unknown[] }>(['datacatalog', 'shares', 'list', ...LAKE, '--name', 's-b']);
    expect(named.dataShares).toHaveLength(1);
  });
});

describe('external user credentials', () => {
  let sid: string;

  test('revoke: inactive and off every share; regenerate: new credentials', async () => {
    const created = await em.json<{ dataShareId: string }>([
      'datacatalog',
      'shares',
      'create',
      ...LAKE,
      '--data-share-name',
      'partners',
      '--assets',
      '[{"databaseName":"sales","tableName":"orders"}]',
      '--external-users',
      JSON.stringify([{ externalUserId: bo.userId, expiryTime: '2030-01-01T00:00:00Z' }]),
    ]);
    sid = created.dataShareId;
    const user = ['--external-user-id', String(bo.userId)];
    const rev = await em.json<{ success: boolean }>(['datacatalog', 'external-users', 'revoke-credentials', ...LAKE, ...user, '--yes']);
    expect(rev.success).toBe(true);
    const listed = await em.json<{ externalUsers: Array<{ userId: number; isActive: boolean }> }>([
      'datacatalog',
      'external-users',
      'list',
      ...LAKE,
    ]);
    expect(listed.externalUsers.find((u) => u.userId === bo.userId)?.isActive).toBe(false);
    const s = await em.json<Share>(['datacatalog', 'shares', 'describe', ...LAKE, '--data-share-id', sid]);
    expect(s.externalUsers).toEqual([]);
    const grant = await em.cli([
      'datacatalog',
      'shares',
      'grant-access',
      ...LAKE,
      '--data-share-id',
      sid,
      '--external-users',
      JSON.stringify([{ externalUserId: bo.userId }]),
    ]);
    expect(grant.code).toBe(1);

    const regen = await em.json<{ externalUser: ExternalUser }>([
      'datacatalog',
      'external-users',
      'regenerate-credentials',
      ...LAKE,
      ...user,
    ]);
    expect(regen.externalUser.secret).toMatch(/^\S+$/);
    expect(regen.externalUser.secret).not.toBe(bo.secret);
    expect(regen.externalUser.clientId).not.toBe(bo.clientId);
    const after = await em.json<{ externalUsers: Array<{ userId: number; isActive: boolean; clientId: string }> }>([
      'datacatalog',
      'external-users',
      'list',
      ...LAKE,
    ]);
    const row = after.externalUsers.find((u) => u.userId === bo.userId);
    expect(row).toMatchObject({ isActive: true, clientId: regen.externalUser.clientId });
  });

  test('update-access adds a user; delete removes them everywhere, for good', async () => {
    const upd = await em.cli([
      'datacatalog',
      'shares',
      'update-access',
      ...LAKE,
      '--data-share-id',
      sid,
      '--external-users',
      JSON.stringify([{ externalUserId: bo.userId, expiryTime: '2031-01-01T00:00:00Z' }]),
    ]);
    expect(upd.code).toBe(0);
    let s = await em.json<Share & { externalUsers: Array<{ validTill?: string }> }>([
      'datacatalog',
      'shares',
      'describe',
      ...LAKE,
      '--data-share-id',
      sid,
    ]);
    expect(s.externalUsers[0]?.validTill).toBe('2031-01-01T00:00:00Z');
    const del = await em.json<{ success: boolean }>([
      'datacatalog',
      'external-users',
      'delete',
      ...LAKE,
      '--external-user-id',
      String(bo.userId),
      '--yes',
    ]);
    expect(del.success).toBe(true);
    s = await em.json(['datacatalog', 'shares', 'describe', ...LAKE, '--data-share-id', sid]);
    expect(s.externalUsers).toEqual([]);
    const again = await em.cli(['datacatalog', 'external-users', 'delete', ...LAKE, '--external-user-id', String(bo.userId), '--yes']);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('NOT_FOUND');
  });
});

describe('tags and profilers', () => {
  test('suggested tags, reviewed: ACCEPTED, REJECTED and FAILED', async () => {
    const sug = await em.json<{ suggestedTags: Array<{ qualifiedName: string; tags: string[] }> }>([
      'datacatalog',
      'tags',
      'suggested',
      '--datalake-crn',
      DL,
      '--table-fqn',
      'sales.customers',
    ]);
    expect(sug.suggestedTags.map((t) => t.qualifiedName)).toContain('sales.customers.email');
    const review = (
      action: string,
      assets: unknown,
    ): Promise<{ reviewedTags: Array<{ qualifiedName: string; status: string; tagsUpdated: string[] }> }> =>
      em.json(['datacatalog', 'tags', 'review', '--datalake-crn', DL, '--action', action, '--assets', JSON.stringify(assets)]);
    const acc = await review('ACCEPT', [
      { qualifiedName: 'sales.customers.email', tags: ['PII', 'EMAIL'] },
      { qualifiedName: 'sales.nothing.here', tags: ['PII'] },
    ]);
    expect(acc.reviewedTags.map((t) => t.status)).toEqual(['ACCEPTED', 'FAILED']);
    expect(acc.reviewedTags[0]?.tagsUpdated).toEqual(['PII', 'EMAIL']);
    const rej = await review('REJECT', [{ qualifiedName: 'sales.customers.phone', tags: ['PHONE_NUMBER'] }]);
    expect(rej.reviewedTags[0]?.status).toBe('REJECTED');
    const after = await em.json<{ suggestedTags: Array<{ qualifiedName: string; tags: string[] }> }>([
      'datacatalog',
      'tags',
      'suggested',
      '--datalake-crn',
      DL,
      '--column-fqn',
      'sales.customers.email',
    ]);
    expect(after.suggestedTags).toEqual([]);
  });

  test('launch profilers returns the Data Hub cluster; a second launch is refused', async () => {
    const out = await em.json<{ datahubCluster: { crn: string; clusterStatus: string; datalakeCrn: string } }>([
      'datacatalog',
      'profilers',
      'launch',
      '--datalake',
      DL,
      '--max-nodes',
      '40',
    ]);
    expect(out.datahubCluster.crn).toMatch(/^crn:cdp:datahub:/);
    expect(out.datahubCluster.datalakeCrn).toBe(DL);
    const again = await em.cli(['datacatalog', 'profilers', 'launch', '--datalake', DL]);
    expect(again.code).toBe(1);
  });
});

describe('datacatalog rules (exit 2, nothing sent)', () => {
  test.each([
    ['maxNodes below 30', ['profilers', 'launch', '--datalake', DL, '--max-nodes', '29'], '30'],
    ['maxNodes above 100', ['profilers', 'launch', '--datalake', DL, '--max-nodes', '101'], '100'],
    [
      'a review action other than ACCEPT/REJECT',
      ['tags', 'review', '--datalake-crn', DL, '--action', 'MAYBE', '--assets', '[{"qualifiedName":"a.b","tags":["x"]}]'],
      'ACCEPT',
    ],
    ['a page size of 0', ['shares', 'list', ...LAKE, '--page-size', '0'], 'page-size'],
    [
      'a page size of 101',
      ['shares', 'list', '--input', JSON.stringify({ datalakeCrn: DL, environmentCrn: ENV, pageSize: 101 }), '--no-paginate'],
      '100',
    ],
    [
      'a 513-character name',
      ['shares', 'create', ...LAKE, '--data-share-name', 'x'.repeat(513), '--assets', '[{"databaseName":"a","tableName":"b"}]'],
      '512',
    ],
    ['a share without assets', ['shares', 'create', ...LAKE, '--data-share-name', 'n', '--assets', '[]'], 'asset'],
    [
      'a rename to 513 characters',
      ['shares', 'update', ...LAKE, '--data-share-id', '6f0c2b8e-1d4a-4c3b-9e7f-2a1b3c4d5e6f', '--data-share-name', 'x'.repeat(513)],
      '512',
    ],
  ])('%s', async (_name, args, message) => {
    const r = await em.cli(['datacatalog', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test('aliases answer --generate-skeleton', async () => {
    const r = await em.cli(['datacatalog', 'add-assets-to-data-share', '--generate-skeleton']);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as object).sort()).toEqual(['assets', 'dataShareId', 'datalakeCrn', 'environmentCrn']);
  });
});

describe('fine-grained access status', () => {
  test('fgac-status answers per table; a table without databaseName is refused before sending', async () => {
    const out = await em.json<{ listOfFgacStatus: Record<string, string> }>([
      'datacatalog',
      'fgac-status',
      ...LAKE,
      '--assets',
      'databaseName=sales,tableName=customers',
      '--assets',
      'databaseName=sales,tableName=regions',
    ]);
    expect(out.listOfFgacStatus).toEqual({ 'sales.customers': 'FGAC_POLICY_FOUND', 'sales.regions': 'NO_FGAC_POLICY' });
    const bad = await em.cli(['datacatalog', 'fgac-status', ...LAKE, '--assets', 'tableName=customers']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/databaseName/);
  });
});
