/**
 * The private link service of the emulator in-process (no HTTP), and its
 * model rules: endpoint work as a timeline on the clock, and the checks the
 * CLI and the emulator share.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import { validateRequest } from '../../../../../src/lib/core/validate.js';
import { loadService } from '../../../../../src/lib/model/index.js';
import { operations } from '../../../../../src/lib/model/services/privatelink/wire.js';
import type { Caller, Doc } from '../../../../../src/lib/emulator/types.js';
import { clockAt, refusal, serviceCaller } from '../../../../helpers/emulator-unit.js';

const ACCOUNT = 'acct-1';
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const caller: Caller = { accountId: ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin`, kind: 'user' };

let store: Store;
let now: number;
const clock = clockAt(() => now);

const privatelink = await serviceCaller('cloudprivatelinks', () => ({ store, clock, caller, info }));

const call = (op: string, req: Doc): Doc => privatelink.call(op, req);

const fails = (op: string, req: Doc): ApiError => refusal(() => call(op, req), op);

const CRED = 'crn:cdp:environments:us-west-1:acct:credential:c';
const create = (vpcId: string): Doc => ({
  cloudServiceProvider: 'AWS',
  awsAccountDetails: { credentialCrn: CRED, region: 'us-west-2', vpcId, subnetIds: ['s-1'] },
});
const info_ = (vpcId: string): Doc => ({ credentialCrn: CRED, region: 'us-west-2', vpcId });
const statuses = (trackingId: unknown): Array<Record<string, unknown>> =>
  call('listPrivateLinkEndpointStatuses', { trackingId }).privatelinkEndpoints as Array<Record<string, unknown>>;

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  now = Date.parse('2026-01-01T00:00:00Z');
});

describe('cloudprivatelinks emulator backend', () => {
  test('implements every wire operation', () => {
    expect(Object.keys(operations).filter((op) => !privatelink.serves(op))).toEqual([]);
    expect(Object.keys(operations)).toHaveLength(9);
  });

  test('create: IN_PROGRESS, then SUCCESS with endpoint ids and DNS names', () => {
    const { trackingId } = call('createPrivateLinkEndpoint', create('vpc-1'));
    expect(statuses(trackingId).every((e) => e.status === 'IN_PROGRESS' && !e.endpointId)).toBe(true);
    expect(call('getPrivateLinkStatus', { cloudServiceProvider: 'AWS', vpcId: 'vpc-1' }).status).toBe('DISABLED');
    expect(fails('updatePrivateLinkEndpoint', { awsAccountInfo: info_('vpc-1'), subnetIds: ['s-2'] }).code).toBe('FAILED_PRECONDITION');
    now += 10 * 60_000;
    for (const e of statuses(trackingId)) {
      expect(e.status).toBe('SUCCESS');
      expect(e.endpointId).toMatch(/^\S+$/);
      expect((e.dnsNames as string[]).length).toBeGreaterThan(0);
    }
    expect(call('getPrivateLinkStatus', { vpcId: 'vpc-1' }).status).toBe('ENABLED');
    expect(fails('createPrivateLinkEndpoint', create('vpc-1')).code).toBe('ALREADY_EXISTS');
  });

  test('fail- networks end in ERROR with an error per endpoint; create may be retried', () => {
    const { trackingId } = call('createPrivateLinkEndpoint', create('fail-net'));
    now += 10 * 60_000;
    for (const e of statuses(trackingId)) {
      expect(e.status).toBe('ERROR');
      expect(e.error).toContain('fail-net');
      expect(e.endpointId).toBeUndefined();
    }
    expect(call('getPrivateLinkStatus', { vpcId: 'fail-net' }).status).toBe('ERROR');
    expect(fails('deletePrivateLinkEndpoint', { cloudServiceProvider: 'AWS', awsAccountInfo: info_('fail-net') }).code).toBe('NOT_FOUND');
    expect(call('createPrivateLinkEndpoint', create('fail-net')).trackingId).toMatch(/^\S+$/);
  });

  test('delete and migrate need endpoints; delete leaves the network DISABLED', () => {
    expect(fails('migratePrivateLinkEndpoints', { awsAccountInfo: info_('vpc-2') }).code).toBe('NOT_FOUND');
    call('createPrivateLinkEndpoint', create('vpc-2'));
    now += 10 * 60_000;
    call('migratePrivateLinkEndpoints', { awsAccountInfo: info_('vpc-2') });
    now += 10 * 60_000;
    const { trackingId } = call('deletePrivateLinkEndpoint', { cloudServiceProvider: 'AWS', awsAccountInfo: info_('vpc-2') });
    expect(call('getPrivateLinkStatus', { vpcId: 'vpc-2' }).status).toBe('ENABLED');
    now += 10 * 60_000;
    expect(statuses(trackingId).every((e) => e.status === 'SUCCESS')).toBe(true);
    expect(call('getPrivateLinkStatus', { vpcId: 'vpc-2' }).status).toBe('DISABLED');
  });

  test("a delete's tracking id keeps answering SUCCESS once its endpoints are gone", () => {
    call('createPrivateLinkEndpoint', create('vpc-3'));
    now += 10 * 60_000;
    const { trackingId } = call('deletePrivateLinkEndpoint', { cloudServiceProvider: 'AWS', awsAccountInfo: info_('vpc-3') });
    now += 3 * 3_600_000;
    expect(statuses(trackingId).map((e) => e.status)).toEqual(['SUCCESS', 'SUCCESS', 'SUCCESS']);
    expect(call('getPrivateLinkStatus', { vpcId: 'vpc-3' }).status).toBe('DISABLED');
  });

  test('a fail-<kind>- network fails only its first work of that kind', () => {
    const first = call('createPrivateLinkEndpoint', create('fail-create-net')).trackingId;
    now += 10 * 60_000;
    expect(statuses(first).every((e) => e.status === 'ERROR')).toBe(true);
    const again = call('createPrivateLinkEndpoint', create('fail-create-net')).trackingId;
    now += 10 * 60_000;
    expect(statuses(again).every((e) => e.status === 'SUCCESS')).toBe(true);
    expect(call('getPrivateLinkStatus', { vpcId: 'fail-create-net' }).status).toBe('ENABLED');
  });

  test('changes of a network never seen, and revoking an account never authorized, are NOT_FOUND naming them', () => {
    expect(fails('updatePrivateLinkEndpoint', { awsAccountInfo: info_('vpc-none'), subnetIds: ['s-2'] }).message).toBe(
      'no private-link endpoints in AWS network "vpc-none"',
    );
    const access = { serviceGroup: 'CDP-CONTROL-PLANE', cloudServiceProvider: 'AWS', cloudAccountId: '123456789012', region: 'us-west-2' };
    expect(fails('revokePrivateLinkServiceAccess', access).message).toBe(
      'AWS account "123456789012" is not authorized for private links in us-west-2',
    );
  });

  test('authorizing an authorized account answers as the first time did; one revoke ends it', () => {
    const access = { serviceGroup: 'CDP-CONTROL-PLANE', cloudServiceProvider: 'AWS', cloudAccountId: '123456789012', region: 'us-west-2' };
    const first = call('authorizePrivateLinkServiceAccess', access);
    expect(first.authorizePrivateLinkServiceAccessResults).toHaveLength(3);
    now += 60_000;
    expect(call('authorizePrivateLinkServiceAccess', access)).toEqual(first);
    expect(call('revokePrivateLinkServiceAccess', access).status).toBe('SUCCESS');
    expect(fails('revokePrivateLinkServiceAccess', access).code).toBe('NOT_FOUND');
  });

  test('unknown tracking ids, regions and service groups', () => {
    expect(fails('listPrivateLinkEndpointStatuses', { trackingId: 'nope' }).code).toBe('NOT_FOUND');
    expect(fails('listPrivateLinkServicesForRegion', { region: 'moon-1' }).code).toBe('INVALID_ARGUMENT');
    expect(fails('listPrivateLinkServicesForRegion', { region: 'us-west-2', serviceGroup: 'OTHER' }).code).toBe('INVALID_ARGUMENT');
    expect(
      (call('listPrivateLinkServicesForRegion', { region: 'westus2' }).listPrivateLinkServicesForRegionResults as unknown[]).length,
    ).toBe(3);
  });
});

describe('privatelink rules', () => {
  const issues = async (op: string, req: Doc): Promise<string[]> => {
    const svc = await loadService('privatelink');
    const o = svc.operation(op);
    return validateRequest(svc.shapes, o.input, req, o.cli.rules).map((i) => i.message);
  };

  test('credentials: credentialCrn or the provider alternative, not both, not neither', async () => {
    expect(await issues('createPrivateLinkEndpoint', create('v'))).toEqual([]);
    const both = {
      cloudServiceProvider: 'AWS',
      awsAccountDetails: { credentialCrn: CRED, crossAccountRoleDetails: { crossAccountRole: 'r' }, vpcId: 'v' },
    };
    expect((await issues('createPrivateLinkEndpoint', both))[0]).toContain('not both');
    const none = { cloudServiceProvider: 'AZURE', azureAccountDetails: { vNetId: 'v' } };
    expect((await issues('createPrivateLinkEndpoint', none))[0]).toContain('azureClientSecretCredential');
    const partial = { cloudServiceProvider: 'AZURE', azureAccountDetails: { vNetId: 'v', azureClientSecretCredential: { clientId: 'a' } } };
    expect((await issues('createPrivateLinkEndpoint', partial))[0]).toContain('clientSecret, tenantId');
  });

  test('provider and account objects agree', async () => {
    expect((await issues('deletePrivateLinkEndpoint', { cloudServiceProvider: 'AZURE', awsAccountInfo: info_('v') }))[0]).toContain(
      'does not apply',
    );
    expect((await issues('updatePrivateLinkEndpoint', { subnetIds: ['s'] }))[0]).toContain('awsAccountInfo');
    expect(await issues('updatePrivateLinkEndpoint', { awsAccountInfo: info_('v'), subnetIds: ['s'], updateOperation: 'REPLACE' })).toEqual(
      [],
    );
    expect(
      (await issues('updatePrivateLinkEndpoint', { awsAccountInfo: info_('v'), subnetIds: ['s'], updateOperation: 'SWAP' }))[0],
    ).toContain('APPEND, REPLACE');
    expect((await issues('authorizePrivateLinkServiceAccess', { cloudServiceProvider: 'AZURE', cloudAccountId: '1' }))[0]).toContain(
      'subscriptionId',
    );
    expect((await issues('migratePrivateLinkEndpoints', { awsAccountInfo: { credentialCrn: CRED } }))[0]).toContain('vpcId and region');
  });
});
