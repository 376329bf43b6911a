/**
 * privatelink through the real binary against the emulator: endpoint work
 * followed with --wait to SUCCESS, a `fail-` network ending in ERROR (exit 5
 * with every endpoint's error), status, update, migrate and delete, service
 * access, and the client-side rules (exit 2, nothing sent).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

const CRED = 'crn:cdp:environments:us-west-1:acct:credential:aws-cred';
const aws = (vpcId: string, extra: Record<string, unknown> = {}): string =>
  JSON.stringify({
    cloudAccountId: '123456789012',
    credentialCrn: CRED,
    region: 'us-west-2',
    vpcId,
    subnetIds: ['subnet-1', 'subnet-2'],
    ...extra,
  });
const awsInfo = (vpcId: string): string => JSON.stringify({ credentialCrn: CRED, region: 'us-west-2', vpcId });
const azure = (vNetId: string, cred: Record<string, unknown>): string =>
  JSON.stringify({ subscriptionId: 'sub-1', resourceGroup: 'rg-net', location: 'westus2', vNetId, subnetId: 'snet-1', ...cred });
const FAST = ['--poll-interval', '0.1', '--wait-timeout', '60'];

interface Endpoint {
  serviceComponent: string;
  status: string;
  endpointId?: string;
  dnsNames?: string[];
  error?: string;
}

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

describe('privatelink endpoints', () => {
  test('create --wait polls the endpoint statuses until every endpoint is SUCCESS', async () => {
    const r = await em.cli([
      'privatelink',
      'endpoints',
      'create',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-details',
      aws('vpc-main'),
      '--enable-private-dns',
      '--wait',
      ...FAST,
      '--output',
      'json',
    ]);
    expect(r.stderr).toContain('SUCCESS');
    expect(r.code).toBe(0);
    const out = JSON.parse(r.stdout) as { privatelinkEndpoints: Endpoint[] };
    expect(out.privatelinkEndpoints.length).toBeGreaterThan(0);
    for (const e of out.privatelinkEndpoints) {
      expect(e.status).toBe('SUCCESS');
      expect(e.endpointId).toMatch(/^vpce-/);
      expect(e.dnsNames?.length).toBeGreaterThan(0);
      expect(e.error).toBeUndefined();
    }
    const st = await em.json<{ status: string }>(['privatelink', 'status', '--cloud-service-provider', 'AWS', '--vpc-id', 'vpc-main']);
    expect(st.status).toBe('ENABLED');
  });

  test('without --wait the answer is a tracking id whose endpoints start IN_PROGRESS', async () => {
    // The clock stands still meanwhile, so the work is still running when it is read.
    expect((await em.raw(['emulator', 'clock', '--pause', '--data-dir', em.dataDir])).code).toBe(0);
    const created = await em.json<{ trackingId: string }>([
      'privatelink',
      'endpoints',
      'create',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-details',
      aws('vpc-nowait'),
    ]);
    expect(created.trackingId).toMatch(/^[0-9a-f-]{36}$/);
    const st = await em.json<{ privatelinkEndpoints: Endpoint[] }>([
      'privatelink',
      'endpoints',
      'status',
      '--tracking-id',
      created.trackingId,
    ]);
    for (const e of st.privatelinkEndpoints) expect(e.status).toBe('IN_PROGRESS');
    expect((await em.raw(['emulator', 'clock', '--resume', '--advance', '5m', '--data-dir', em.dataDir])).code).toBe(0);
    const done = await em.json<{ privatelinkEndpoints: Endpoint[] }>([
      'privatelink',
      'endpoints',
      'status',
      '--tracking-id',
      created.trackingId,
    ]);
    for (const e of done.privatelinkEndpoints) expect(e.status).toBe('SUCCESS');
    const table = await em.cli(['privatelink', 'endpoints', 'status', '--tracking-id', created.trackingId, '--output', 'table']);
    expect(table.code).toBe(0);
    expect(table.stdout).toContain('component');
  });

  test('a second create for the same network is refused', async () => {
    const r = await em.cli([
      'privatelink',
      'endpoints',
      'create',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-details',
      aws('vpc-main'),
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('ALREADY_EXISTS');
  });

  test('a fail- VPC makes the work end in ERROR: exit 5 with each endpoint error', async () => {
    const r = await em.cli([
      'privatelink',
      'endpoints',
      'create',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-details',
      aws('fail-vpc'),
      '--wait',
      ...FAST,
    ]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('ERROR');
    for (const c of ['API', 'IAM', 'CONSOLE']) expect(r.stderr).toContain(`${c}: could not create the ${c} endpoint in VPC fail-vpc`);
    const st = await em.json<{ status: string }>(['privatelink', 'status', '--cloud-service-provider', 'AWS', '--vpc-id', 'fail-vpc']);
    expect(st.status).toBe('ERROR');
  });

  test('update appends subnets; migrate and delete run to SUCCESS; status turns DISABLED', async () => {
    const up = await em.cli([
      'privatelink',
      'endpoints',
      'update',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-info',
      awsInfo('vpc-main'),
      '--subnet-ids',
      'subnet-3',
      '--update-operation',
      'APPEND',
      '--wait',
      ...FAST,
    ]);
    expect(up.code).toBe(0);
    const mig = await em.cli(['privatelink', 'endpoints', 'migrate', '--aws-account-info', awsInfo('vpc-main'), '--wait', ...FAST]);
    expect(mig.code).toBe(0);
    const del = await em.cli([
      'privatelink',
      'endpoints',
      'delete',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-info',
      awsInfo('vpc-main'),
      '--yes',
      '--wait',
      ...FAST,
      '--output',
      'json',
    ]);
    expect(del.code).toBe(0);
    // SUCCESS endpoints carry endpointId and dnsNames, after a delete too (the seed: both populated on success).
    const removed = (
      JSON.parse(del.stdout) as { privatelinkEndpoints: Array<{ status: string; endpointId?: string; dnsNames?: string[] }> }
    ).privatelinkEndpoints;
    expect(removed.length).toBeGreaterThan(0);
    for (const e of removed) {
      expect(e.status).toBe('SUCCESS');
      expect(e.endpointId).toMatch(/^\S+$/);
      expect(e.dnsNames?.length).toBeGreaterThan(0);
    }
    const st = await em.json<{ status: string }>(['privatelink', 'status', '--cloud-service-provider', 'AWS', '--vpc-id', 'vpc-main']);
    expect(st.status).toBe('DISABLED');
    const again = await em.cli([
      'privatelink',
      'endpoints',
      'delete',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-info',
      awsInfo('vpc-main'),
      '--yes',
    ]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('NOT_FOUND');
  });

  test('Azure endpoints with a client secret credential', async () => {
    const r = await em.cli([
      'privatelink',
      'endpoints',
      'create',
      '--cloud-service-provider',
      'AZURE',
      '--azure-account-details',
      azure('vnet-1', { azureClientSecretCredential: { clientId: 'app', clientSecret: 's3cret', tenantId: 'tenant' } }),
      '--wait',
      ...FAST,
      '--output',
      'json',
    ]);
    expect(r.code).toBe(0);
    const st = await em.json<{ status: string }>(['privatelink', 'status', '--cloud-service-provider', 'AZURE', '--v-net-id', 'vnet-1']);
    expect(st.status).toBe('ENABLED');
  });
});

describe('privatelink services and access', () => {
  test('services list names the endpoint services of a region', async () => {
    const out = await em.json<{ listPrivateLinkServicesForRegionResults: Array<{ privateLinkService: string; hostname: string }> }>([
      'privatelink',
      'services',
      'list',
      '--region',
      'us-west-2',
    ]);
    expect(out.listPrivateLinkServicesForRegionResults.length).toBeGreaterThan(0);
    expect(out.listPrivateLinkServicesForRegionResults[0]?.privateLinkService).toContain('us-west-2');
    const bad = await em.cli(['privatelink', 'services', 'list', '--region', 'mars-north-1']);
    expect(bad.code).toBe(1);
  });

  test('authorize, then revoke; revoking twice fails', async () => {
    const args = ['--cloud-service-provider', 'AWS', '--cloud-account-id', '123456789012', '--region', 'us-west-2'];
    const auth = await em.json<{ status: string; authorizePrivateLinkServiceAccessResults: Array<{ authorizationStatus: string }> }>([
      'privatelink',
      'access',
      'authorize',
      ...args,
    ]);
    expect(auth.status).toBe('SUCCESS');
    expect(auth.authorizePrivateLinkServiceAccessResults.every((x) => x.authorizationStatus === 'AUTHORIZED')).toBe(true);
    const rev = await em.json<{ revokePrivateLinkServiceAccessResults: Array<{ revocationStatus: string }> }>([
      'privatelink',
      'access',
      'revoke',
      ...args,
      '--yes',
    ]);
    expect(rev.revokePrivateLinkServiceAccessResults.every((x) => x.revocationStatus === 'REVOKED')).toBe(true);
    const again = await em.cli(['privatelink', 'access', 'revoke', ...args, '--yes']);
    expect(again.code).toBe(1);
  });
});

describe('privatelink rules (exit 2, nothing sent)', () => {
  test.each([
    [
      'AWS with the Azure object',
      ['--cloud-service-provider', 'AWS', '--azure-account-details', azure('v', { credentialCrn: CRED })],
      'does not apply',
    ],
    ['AZURE without its object', ['--cloud-service-provider', 'AZURE'], 'AZURE needs azureAccountDetails'],
    [
      'both credential forms',
      [
        '--cloud-service-provider',
        'AZURE',
        '--azure-account-details',
        azure('v', { credentialCrn: CRED, azureClientSecretCredential: { clientId: 'a', clientSecret: 'b', tenantId: 'c' } }),
      ],
      'not both',
    ],
    [
      'no credentials',
      ['--cloud-service-provider', 'AWS', '--aws-account-details', aws('v', { credentialCrn: undefined })],
      'credentials are missing',
    ],
    ['an unknown provider', ['--cloud-service-provider', 'GCP', '--aws-account-details', aws('v')], 'AWS'],
  ])('create: %s', async (_name, args, message) => {
    const r = await em.cli(['privatelink', 'endpoints', 'create', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test.each([
    [
      'AZURE',
      [
        '--azure-account-details',
        azure('v', { credentialCrn: CRED, azureClientSecretCredential: { clientId: 'a', clientSecret: 'b', tenantId: 'c' } }),
      ],
    ],
    ['AZURE', []],
    ['AWS', ['--aws-account-details', aws('v', { credentialCrn: undefined })]],
  ])('create: a %s account object problem is reported against its own flag, not --cloud-service-provider', async (provider, args) => {
    const r = await em.cli(['privatelink', 'endpoints', 'create', '--cloud-service-provider', provider, ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(provider === 'AWS' ? '--aws-account-details:' : '--azure-account-details:');
    expect(r.stderr).not.toContain('--cloud-service-provider:');
  });

  test('update: an unknown update operation and an operation without subnets', async () => {
    const bad = await em.cli([
      'privatelink',
      'endpoints',
      'update',
      '--aws-account-info',
      awsInfo('vpc-x'),
      '--subnet-ids',
      's-1',
      '--update-operation',
      'MERGE',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/APPEND, REPLACE/);
    const noSubnets = await em.cli([
      'privatelink',
      'endpoints',
      'update',
      '--aws-account-info',
      awsInfo('vpc-x'),
      '--update-operation',
      'REPLACE',
    ]);
    expect(noSubnets.code).toBe(2);
  });

  test('status: vpcId belongs to AWS', async () => {
    const r = await em.cli(['privatelink', 'status', '--cloud-service-provider', 'AZURE', '--vpc-id', 'vpc-1']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('vNetId');
  });
});

describe('privatelink aliases', () => {
  test('the cdpcli names answer --generate-skeleton with the request fields', async () => {
    const r = await em.cli(['privatelink', 'create-private-link-endpoint', '--generate-skeleton']);
    expect(r.code).toBe(0);
    const sk = JSON.parse(r.stdout) as Record<string, unknown>;
    expect(Object.keys(sk).sort()).toEqual(
      ['awsAccountDetails', 'azureAccountDetails', 'cloudServiceProvider', 'enablePrivateDns', 'resourceTags', 'serviceGroup'].sort(),
    );
    const st = await em.cli(['privatelink', 'list-private-link-endpoint-statuses', '--generate-skeleton']);
    expect(JSON.parse(st.stdout)).toEqual({ trackingId: '' });
  });
});

describe('--wait with --output json (issue 13, item 11)', () => {
  test('a failed operation: the JSON error carries each endpoint error, as the text lines do', async () => {
    const r = await em.cli([
      'privatelink',
      'endpoints',
      'create',
      '--cloud-service-provider',
      'AWS',
      '--aws-account-details',
      aws('fail-vpc-json'),
      '--wait',
      ...FAST,
      '--output',
      'json',
    ]);
    expect(r.code).toBe(5);
    const { error } = JSON.parse(r.stderr.trim().split('\n').at(-1) ?? '{}') as { error: { code: string; details?: string[] } };
    expect(error.code).toBe('OPERATION_FAILED');
    for (const c of ['API', 'IAM', 'CONSOLE'])
      expect(error.details?.some((d) => d.startsWith(`${c}: could not create the ${c} endpoint in VPC fail-vpc-json`))).toBe(true);
  });
});
