/**
 * The emulator's environments and datahub services through bin/run.js, as a
 * user runs them: a credential and an AWS environment created with --wait
 * (to AVAILABLE), stopped and started with --wait, a data lake created in
 * it, refused in an environment that does not exist, the environment's
 * delete refused while it has the lake and done with --cascading; a `fail-`
 * environment (exit 5); proxy configurations and ID Broker mappings; a Data
 * Hub cluster's lifecycle with --wait (create, scale, stop, start, repair,
 * delete); and an operation the emulator does not implement (501
 * NOT_EMULATED, exit 7).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { bootstrap } from '../../src/lib/emulator/bootstrap.js';
import { Emulator } from '../../src/lib/emulator/server.js';
import { run, startEmulator, tempHome, type TestEmulator, FAST_WAIT as WAIT } from '../helpers/cli.js';

let em: TestEmulator;

const LAKE_CFG = 'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://team-data/lake';

/** `environments create aws` of a new environment with credential team-cred. */
const createEnv = (name: string, extra: string[] = [], credential = 'team-cred') =>
  em.cli([
    'environments',
    'create',
    'aws',
    '--environment-name',
    name,
    '--credential-name',
    credential,
    '--region',
    'us-west-2',
    '--security-access',
    'cidr=10.0.0.0/16',
    '--authentication',
    'publicKeyId=team-key',
    '--log-storage',
    'storageLocationBase=s3a://team-logs/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/team-logs',
    '--vpc-id',
    'vpc-0a1b2c3d4e5f67890',
    '--subnet-ids',
    'subnet-0a1b2c3d4e5f67890',
    'subnet-0f9e8d7c6b5a43210',
    ...extra,
  ]);

const envStatus = async (name: string): Promise<string> =>
  (await em.json<{ environment: { status: string } }>(['environments', 'describe', '--environment-name', name])).environment.status;

beforeAll(async () => {
  em = await startEmulator();
  const cred = await em.cli([
    'environments',
    'credentials',
    'create',
    'aws',
    '--credential-name',
    'team-cred',
    '--role-arn',
    'arn:aws:iam::123456789012:role/cdp-cross-account',
  ]);
  if (cred.code !== 0) throw new Error(`credential create failed: ${cred.stderr}`);
});

afterAll(async () => {
  await em?.stop();
});

describe('an environment created through the environments service', () => {
  let crn = '';

  test('create aws --wait ends AVAILABLE, with the credential, network and FreeIPA it was given', async () => {
    const r = await createEnv('team-env', [...WAIT, '--output', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/CREATION_INITIATED|FREEIPA_CREATION_IN_PROGRESS/);
    const env = (JSON.parse(r.stdout) as { environment: Record<string, unknown> }).environment;
    expect(env).toMatchObject({
      environmentName: 'team-env',
      status: 'AVAILABLE',
      cloudPlatform: 'AWS',
      region: 'us-west-2',
      credentialName: 'team-cred',
      network: { aws: { vpcId: 'vpc-0a1b2c3d4e5f67890' }, subnetIds: ['subnet-0a1b2c3d4e5f67890', 'subnet-0f9e8d7c6b5a43210'] },
      securityAccess: { cidr: '10.0.0.0/16' },
    });
    crn = String(env.crn);
    expect(crn).toMatch(/^crn:cdp:environments:us-west-1:[0-9a-f-]{36}:environment:[0-9a-f-]{36}$/);
    const ipa = await em.json<{ status: string; environmentCrn: string; instances: Record<string, { status: string }> }>([
      'environments',
      'freeipa',
      'status',
      '--environment-name',
      'team-env',
    ]);
    expect(ipa.status).toBe('AVAILABLE');
    expect(ipa.environmentCrn).toBe(crn);
    expect(Object.values(ipa.instances).map((i) => i.status)).toEqual(['CREATED']);
    const list = await em.json<{ environments: Array<{ environmentName: string; crn: string }> }>(['environments', 'list']);
    expect(list.environments.map((e) => e.environmentName)).toEqual(expect.arrayContaining(['sales-env', 'team-env']));
  });

  test('a second environment of the same name is ALREADY_EXISTS; an unknown credential NOT_FOUND', async () => {
    const again = await createEnv('team-env');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/ALREADY_EXISTS: an environment named team-env already exists/);
    const noCred = await createEnv('other-env', [], 'nope');
    expect(noCred.code).toBe(1);
    expect(noCred.stderr).toMatch(/NOT_FOUND: credential nope not found/);
  });

  test('stop --wait and start --wait follow the operation to FINISHED; describe shows ENV_STOPPED, then AVAILABLE', async () => {
    const stop = await em.cli(['environments', 'stop', '--environment-name', 'team-env', ...WAIT, '--output', 'json']);
    expect(stop.code).toBe(0);
    expect(JSON.parse(stop.stdout)).toMatchObject({ operationName: 'STOP', operationStatus: 'FINISHED' });
    expect(await envStatus('team-env')).toBe('ENV_STOPPED');
    const ipa = await em.json<{ status: string }>(['environments', 'freeipa', 'status', '--environment-name', 'team-env']);
    expect(ipa.status).toBe('STOPPED');
    const again = await em.cli(['environments', 'stop', '--environment-name', 'team-env']);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/FAILED_PRECONDITION: environment team-env is ENV_STOPPED/);
    const start = await em.cli(['environments', 'start', '--environment-name', 'team-env', ...WAIT, '--output', 'json']);
    expect(start.code).toBe(0);
    expect(JSON.parse(start.stdout)).toMatchObject({ operationName: 'START', operationStatus: 'FINISHED' });
    expect(await envStatus('team-env')).toBe('AVAILABLE');
  });

  test('a data lake is created in it (by name), and carries its CRN', async () => {
    const r = await em.cli([
      'datalake',
      'create',
      'aws',
      '--datalake-name',
      'team-lake',
      '--environment-name',
      'team-env',
      '--cloud-provider-configuration',
      LAKE_CFG,
      ...WAIT,
      '--output',
      'json',
    ]);
    expect(r.code).toBe(0);
    const lake = await em.json<{ datalake: { environmentCrn: string; status: string; region: string } }>([
      'datalake',
      'describe',
      '--datalake-name',
      'team-lake',
    ]);
    expect(lake.datalake).toMatchObject({ environmentCrn: crn, status: 'RUNNING', region: 'us-west-2' });
  });

  test('a data lake in an environment that does not exist is NOT_FOUND, and nothing is made', async () => {
    const r = await em.cli([
      'datalake',
      'create',
      'aws',
      '--datalake-name',
      'lost-lake',
      '--environment-name',
      'no-such-env',
      '--cloud-provider-configuration',
      LAKE_CFG,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/NOT_FOUND: environment no-such-env not found; this account has .*team-env/);
    const lakes = await em.json<{ datalakes: Array<{ datalakeName: string }> }>(['datalake', 'list']);
    expect(lakes.datalakes.map((l) => l.datalakeName)).not.toContain('lost-lake');
  });

  test('proxy configurations: an environment uses one, which then cannot be deleted', async () => {
    await em.json([
      'environments',
      'proxy-configs',
      'create',
      '--proxy-config-name',
      'corp-proxy',
      '--protocol',
      'http',
      '--host',
      'proxy.corp.example.com',
      '--port',
      '3128',
      '--user',
      'cdp',
      '--password',
      'S3cret-Passw0rd',
    ]);
    const list = await em.json<{ proxyConfigs: Array<Record<string, unknown>> }>(['environments', 'proxy-configs', 'list']);
    expect(list.proxyConfigs).toEqual([
      expect.objectContaining({ proxyConfigName: 'corp-proxy', host: 'proxy.corp.example.com', port: 3128 }),
    ]);
    expect(list.proxyConfigs[0]).not.toHaveProperty('password');
    expect(
      (await em.cli(['environments', 'update', 'proxy-config', '--environment', 'team-env', '--proxy-config-name', 'corp-proxy'])).code,
    ).toBe(0);
    const env = await em.json<{ environment: { proxyConfig?: { proxyConfigName: string } } }>([
      'environments',
      'describe',
      '--environment-name',
      'team-env',
    ]);
    expect(env.environment.proxyConfig?.proxyConfigName).toBe('corp-proxy');
    const del = await em.cli(['environments', 'proxy-configs', 'delete', '--proxy-config-name', 'corp-proxy']);
    expect(del.code).toBe(1);
    expect(del.stderr).toMatch(/FAILED_PRECONDITION: proxy configuration corp-proxy is used by environment team-env/);
    expect((await em.cli(['environments', 'update', 'proxy-config', '--environment', 'team-env', '--remove-proxy'])).code).toBe(0);
    expect((await em.cli(['environments', 'proxy-configs', 'delete', '--proxy-config-name', 'corp-proxy'])).code).toBe(0);
  });

  test('ID Broker mappings: set replaces them and bumps the version; sync --wait completes', async () => {
    const role = 'arn:aws:iam::123456789012:role/team-admin';
    const before = await em.json<{ mappingsVersion: number }>([
      'environments',
      'id-broker-mappings',
      'describe',
      '--environment-name',
      'team-env',
    ]);
    const group = 'crn:altus:iam:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:group:data-eng/2b7e4c1a-9f3d-4a6e-8c5b-7d1f0e3a9b64';
    const set = await em.json<{ mappingsVersion: number; mappings: unknown[] }>([
      'environments',
      'id-broker-mappings',
      'set',
      '--environment-name',
      'team-env',
      '--data-access-role',
      role,
      '--ranger-audit-role',
      role,
      '--mappings',
      JSON.stringify([{ accessorCrn: group, role }]),
    ]);
    expect(set.mappingsVersion).toBe(before.mappingsVersion + 1);
    expect(set.mappings).toEqual([{ accessorCrn: group, role }]);
    const status = await em.json<{ syncNeeded: boolean }>([
      'environments',
      'id-broker-mappings',
      'sync-status',
      '--environment-name',
      'team-env',
    ]);
    expect(status.syncNeeded).toBe(true);
    expect((await em.cli(['environments', 'id-broker-mappings', 'sync', '--environment-name', 'team-env', ...WAIT])).code).toBe(0);
    const after = await em.json<{ syncNeeded: boolean }>([
      'environments',
      'id-broker-mappings',
      'sync-status',
      '--environment-name',
      'team-env',
    ]);
    expect(after.syncNeeded).toBe(false);
  });

  test('delete is refused while the data lake is there; --cascading --wait removes both', async () => {
    const refused = await em.cli(['environments', 'delete', '--environment-name', 'team-env', '--yes']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/FAILED_PRECONDITION: environment team-env still has data lake team-lake/);
    const del = await em.cli(['environments', 'delete', '--environment-name', 'team-env', '--cascading', '--yes', ...WAIT]);
    expect(del.code).toBe(0);
    expect(del.stderr).toMatch(/ARCHIVED/);
    const gone = await em.cli(['environments', 'describe', '--environment-name', 'team-env']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/NOT_FOUND: environment team-env not found/);
    expect((await em.cli(['datalake', 'describe', '--datalake-name', 'team-lake'])).code).toBe(1);
    // The CRN it had names nothing now, in any service.
    const byCrn = await em.cli(['datahub', 'clusters', 'list', '--environment-name', crn]);
    expect(byCrn.code).toBe(1);
    expect(byCrn.stderr).toMatch(/NOT_FOUND: environment crn:cdp:environments:/);
  });

  test('a fail- environment ends in CREATE_FAILED with its reason, exit 5', async () => {
    const r = await createEnv('fail-env', WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/CREATE_FAILED/);
    expect(r.stderr).toMatch(/failed on purpose/);
    expect(await envStatus('fail-env')).toBe('CREATE_FAILED');
  });
});

describe('a Data Hub cluster', () => {
  type Cluster = {
    status: string;
    nodeCount: number;
    environmentCrn: string;
    instanceGroups: Array<{ name: string; instances: Array<{ id: string }> }>;
  };
  const describeHub = async (): Promise<Cluster> =>
    (await em.json<{ cluster: Cluster }>(['datahub', 'clusters', 'describe', '--cluster-name', 'team-etl'])).cluster;
  const scaleHub = (groupName: string, count: number, extra: string[] = []) =>
    em.cli([
      'datahub',
      'clusters',
      'scale',
      '--cluster-name',
      'team-etl',
      '--instance-group-name',
      groupName,
      '--instance-group-desired-count',
      String(count),
      ...extra,
    ]);
  const createHub = (name: string, env: string, extra: string[] = []) =>
    em.cli([
      'datahub',
      'clusters',
      'create',
      'aws',
      '--cluster-name',
      name,
      '--environment',
      env,
      '--cluster-definition',
      '7.2.18 - Data Engineering for AWS',
      ...extra,
    ]);
  const group = (c: Cluster, name: string) => c.instanceGroups.find((g) => g.name === name)?.instances ?? [];

  test('create --wait in sales-env (by name) ends AVAILABLE with its instance groups', async () => {
    const r = await createHub('team-etl', 'sales-env', [...WAIT, '--output', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/CREATE_IN_PROGRESS/);
    const c = await describeHub();
    const envs = await em.json<{ environments: Array<{ environmentName: string; crn: string }> }>(['environments', 'list']);
    expect(c.environmentCrn).toBe(envs.environments.find((e) => e.environmentName === 'sales-env')?.crn);
    expect(c.status).toBe('AVAILABLE');
    expect(c.instanceGroups.map((g) => [g.name, g.instances.length])).toEqual([
      ['master', 1],
      ['worker', 3],
      ['compute', 1],
    ]);
    expect(c.nodeCount).toBe(5);
  });

  test('in an environment that does not exist: NOT_FOUND; of another cloud: INVALID_ARGUMENT', async () => {
    const missing = await createHub('lost-etl', 'no-such-env');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NOT_FOUND: environment no-such-env not found/);
    const azure = await createHub('lost-etl', 'ops-env');
    expect(azure.code).toBe(1);
    expect(azure.stderr).toMatch(/INVALID_ARGUMENT: environment ops-env is an AZURE environment/);
  });

  test('scale --wait sets the group node count; down again removes the newest', async () => {
    const up = await scaleHub('compute', 4, [...WAIT, '--output', 'json']);
    expect(up.code).toBe(0);
    expect(JSON.parse(up.stdout)).toMatchObject({ operationName: 'UPSCALE', operationStatus: 'FINISHED' });
    const c = await describeHub();
    expect(group(c, 'compute')).toHaveLength(4);
    expect(c.nodeCount).toBe(8);
    const down = await scaleHub('compute', 2, WAIT);
    expect(down.code).toBe(0);
    expect(group(await describeHub(), 'compute').map((i) => i.id)).toEqual(
      group(c, 'compute')
        .slice(0, 2)
        .map((i) => i.id),
    );
    const gateway = await scaleHub('master', 2);
    expect(gateway.code).toBe(1);
    expect(gateway.stderr).toMatch(/INVALID_ARGUMENT: instance group master holds Cloudera Manager/);
  });

  test('stop --wait, start --wait, then repair --wait replaces the worker instances', async () => {
    expect((await em.cli(['datahub', 'clusters', 'stop', '--cluster-name', 'team-etl', ...WAIT])).code).toBe(0);
    expect((await describeHub()).status).toBe('STOPPED');
    const scaleStopped = await scaleHub('compute', 3);
    expect(scaleStopped.code).toBe(1);
    expect(scaleStopped.stderr).toMatch(/FAILED_PRECONDITION: cluster team-etl is STOPPED/);
    expect((await em.cli(['datahub', 'clusters', 'start', '--cluster-name', 'team-etl', ...WAIT])).code).toBe(0);
    const before = await describeHub();
    expect(before.status).toBe('AVAILABLE');
    const repair = await em.cli([
      'datahub',
      'clusters',
      'repair',
      '--cluster-name',
      'team-etl',
      '--instance-group-names',
      'worker',
      ...WAIT,
      '--output',
      'json',
    ]);
    expect(repair.code).toBe(0);
    expect(JSON.parse(repair.stdout)).toMatchObject({ operationName: 'REPAIR', operationStatus: 'FINISHED' });
    const after = await describeHub();
    expect(group(after, 'worker')).toHaveLength(3);
    for (const i of group(after, 'worker')) expect(group(before, 'worker').map((x) => x.id)).not.toContain(i.id);
    expect(group(after, 'compute')).toEqual(group(before, 'compute'));
    const list = await em.json<{ clusters: Array<{ clusterName: string; environmentName: string; nodeCount: number }> }>([
      'datahub',
      'clusters',
      'list',
      '--environment-name',
      'sales-env',
    ]);
    expect(list.clusters).toEqual([expect.objectContaining({ clusterName: 'team-etl', environmentName: 'sales-env', nodeCount: 6 })]);
  });

  test('delete --wait: gone afterwards', async () => {
    const r = await em.cli(['datahub', 'clusters', 'delete', '--cluster-name', 'team-etl', '--yes', ...WAIT]);
    expect(r.code).toBe(0);
    const gone = await em.cli(['datahub', 'clusters', 'describe', '--cluster-name', 'team-etl']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toMatch(/NOT_FOUND: cluster team-etl not found/);
  });

  test('a fail- cluster ends in CREATE_FAILED, exit 5', async () => {
    const r = await createHub('fail-etl', 'sales-env', WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/CREATE_FAILED/);
  });
});

describe('an operation the emulator does not implement', () => {
  test('answers 501 NOT_EMULATED naming the service and operation; cdpctl exits 7, also as the cdp-style alias', async () => {
    // Every operation of today's model is served: an emulator that lacks one is what a client with a newer model meets.
    const home = tempHome('cdpctl-not-emulated-');
    const older = new Emulator({ dataDir: join(home, 'emu'), timeScale: 1000, notEmulated: ['dw listClusters'] });
    await older.start();
    try {
      await bootstrap(older, { HOME: home });
      const r = await run(['dw', 'clusters', 'list', '--profile', 'emulator'], { home });
      expect(r.code).toBe(7);
      expect(r.stdout).toBe('');
      expect(r.stderr).toMatch(/^NOT_EMULATED: dw listClusters is not emulated/);
      expect(r.stderr).toMatch(/Status Code: 501; Error Code: NOT_EMULATED; Service: dw; Operation: listClusters/);
      const alias = await run(['dw', 'list-clusters', '--output', 'json', '--profile', 'emulator'], { home });
      expect(alias.code).toBe(7);
      const err = JSON.parse(alias.stderr) as { error: Record<string, unknown> };
      expect(err.error).toMatchObject({ code: 'NOT_EMULATED', status: 501, service: 'dw', operation: 'listClusters' });
      expect(String(err.error.message)).toMatch(/dw listClusters is not emulated/);
      // The others are served as ever.
      expect((await run(['dw', 'clusters', 'describe', '--cluster-id', 'env-none', '--profile', 'emulator'], { home })).code).toBe(1);
    } finally {
      await older.stop();
      rmSync(home, { recursive: true, force: true });
    }
  });
});
