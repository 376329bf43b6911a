/**
 * The data catalog service of the emulator in-process (no HTTP): paging with
 * the empty end token, the data share state machine, credentials, and the
 * model rules shared with the CLI.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { Clock } from '../../../../../src/lib/emulator/clock.js';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { preCreatedEnvironmentCrn } from '../../../../../src/lib/emulator/shared/pre-created.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import { validateRequest } from '../../../../../src/lib/core/validate.js';
import { loadService } from '../../../../../src/lib/model/index.js';
import { operations } from '../../../../../src/lib/model/services/datacatalog/wire.js';
import type { Caller, Doc } from '../../../../../src/lib/emulator/types.js';
import { refusal, serviceCaller } from '../../../../helpers/emulator-unit.js';

const ACCOUNT = 'acct-1';
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const caller: Caller = { accountId: ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin`, kind: 'user' };
const LAKE = {
  datalakeCrn: 'crn:cdp:datalake:us-west-1:acct:datalake:dl',
  environmentCrn: preCreatedEnvironmentCrn(ACCOUNT, 'us-west-1', 'sales-env'),
};

let store: Store;
let clock: Clock;
const datacatalog = await serviceCaller('datacatalog', () => ({ store, clock, caller, info }));

const call = (op: string, req: Doc): Doc => datacatalog.call(op, { ...LAKE, ...req });

const fails = (op: string, req: Doc): ApiError => refusal(() => call(op, req), op);

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  clock = new Clock(1);
});

const newShare = (name: string): string =>
  call('createDataShare', { dataShareName: name, assets: [{ databaseName: 'sales', tableName: 'orders' }] }).dataShareId as string;

describe('datacatalog emulator backend', () => {
  test('implements every wire operation', () => {
    expect(Object.keys(operations).filter((op) => !datacatalog.serves(op))).toEqual([]);
    expect(Object.keys(operations)).toHaveLength(20);
  });

  test('listDataShares ends with nextToken "" (seed 001); listExternalUsers leaves it out', () => {
    for (const n of ['a', 'b', 'c']) newShare(n);
    const first = call('listDataShares', { pageSize: 2 });
    expect((first.dataShares as unknown[]).length).toBe(2);
    expect(first.nextToken).toMatch(/^\S+$/);
    const last = call('listDataShares', { pageSize: 2, startingToken: first.nextToken });
    expect((last.dataShares as unknown[]).length).toBe(1);
    expect(last.nextToken).toBe('');
    call('createExternalUsers', { externalUsers: [{ email: 'a@x.example', username: 'a', companyName: 'X' }] });
    // The seed says nothing of listExternalUsers: its last page has no nextToken.
    expect(call('listExternalUsers', {})).not.toHaveProperty('nextToken');
  });

  test('the state machine: changes only while Not Shared', () => {
    const id = newShare('s');
    const get = (): Doc => call('getDataShare', { dataShareId: id });
    expect(get().isShared).toBe(false);
    expect(fails('unshareDataShare', { dataShareId: id }).code).toBe('FAILED_PRECONDITION');
    expect(call('shareDataShare', { dataShareId: id })).toEqual({ success: true });
    const resourceId = (get().assets as Doc[])[0]?.resourceId;
    for (const [op, req] of [
      ['addAssetsToDataShare', { assets: [{ databaseName: 'hr', tableName: 'x' }] }],
      ['removeAssetsFromDataShare', { resourceIds: [resourceId] }],
      ['removeAccessOfExternalUsersOnDataShare', { externalUserIds: [1] }],
      ['deleteDataShare', {}],
    ] as const) {
      expect(fails(op, { dataShareId: id, ...req }).code).toBe('FAILED_PRECONDITION');
    }
    call('updateDataShare', { dataShareId: id, summary: 'still allowed' });
    call('unshareDataShare', { dataShareId: id });
    call('removeAssetsFromDataShare', { dataShareId: id, resourceIds: [resourceId] });
    expect(get().assets).toEqual([]);
    call('deleteDataShare', { dataShareId: id });
    expect(fails('getDataShare', { dataShareId: id }).code).toBe('NOT_FOUND');
  });

  test('shares of another data lake are not found', () => {
    const id = newShare('s');
    expect(fails('getDataShare', { dataShareId: id, datalakeCrn: 'crn:cdp:datalake:us-west-1:acct:datalake:other' }).code).toBe(
      'NOT_FOUND',
    );
  });

  test('credentials: revoke, regenerate, delete', () => {
    const users = call('createExternalUsers', { externalUsers: [{ email: 'a@x.example', username: 'a', companyName: 'X' }] })
      .externalUsers as Doc[];
    const u = users[0] as Doc;
    const id = newShare('s');
    call('grantAccessToExternalUsersOnDataShare', { dataShareId: id, externalUsers: [{ externalUserId: u.userId }] });
    call('revokeExternalUserCredentials', { externalUserId: u.userId });
    expect(call('getDataShare', { dataShareId: id }).externalUsers).toEqual([]);
    expect(fails('revokeExternalUserCredentials', { externalUserId: u.userId }).code).toBe('FAILED_PRECONDITION');
    const regen = call('regenerateExternalUserCredentials', { externalUserId: u.userId }).externalUser as Doc;
    expect(regen.secret).not.toBe(u.secret);
    expect((call('listExternalUsers', {}).externalUsers as Doc[])[0]?.isActive).toBe(true);
    expect(call('deleteExternalUser', { externalUserId: u.userId })).toEqual({ success: true });
    expect(fails('regenerateExternalUserCredentials', { externalUserId: u.userId }).code).toBe('NOT_FOUND');
  });
});

describe('datacatalog rules', () => {
  const issues = async (op: string, req: Doc): Promise<string[]> => {
    const svc = await loadService('datacatalog');
    const o = svc.operation(op);
    return validateRequest(svc.shapes, o.input, req, o.cli.rules).map((i) => i.message);
  };

  test('maxNodes 30..100, names up to 512, page sizes 1..100, ACCEPT or REJECT', async () => {
    expect(await issues('launchProfilers', { datalake: 'dl', maxNodes: 30 })).toEqual([]);
    expect(await issues('launchProfilers', { datalake: 'dl', maxNodes: 100 })).toEqual([]);
    expect(await issues('launchProfilers', { datalake: 'dl', maxNodes: 29 })).toHaveLength(1);
    expect(await issues('launchProfilers', { datalake: 'dl', maxNodes: 101 })).toHaveLength(1);
    const share = { ...LAKE, assets: [{ databaseName: 'a', tableName: 'b' }] };
    expect(await issues('createDataShare', { ...share, dataShareName: 'x'.repeat(512) })).toEqual([]);
    expect(await issues('createDataShare', { ...share, dataShareName: 'x'.repeat(513) })).toHaveLength(1);
    // The limit holds for a rename too (the emulator runs these same rules on every request).
    const rename = { ...LAKE, dataShareId: 'id' };
    expect(await issues('updateDataShare', { ...rename, dataShareName: 'x'.repeat(512) })).toEqual([]);
    expect(await issues('updateDataShare', { ...rename, dataShareName: 'x'.repeat(513) })).toEqual([
      '"dataShareName" must be at most 512 characters; got 513',
    ]);
    expect(await issues('listDataShares', { ...LAKE, pageSize: 0 })).toHaveLength(1);
    expect(await issues('listExternalUsers', { ...LAKE, pageSize: 101 })).toHaveLength(1);
    // Everything wrong at once: the enum and the rule on another field.
    expect(await issues('reviewSuggestedTags', { datalakeCrn: LAKE.datalakeCrn, action: 'ACCEPTED', assets: [] })).toHaveLength(2);
  });
});
