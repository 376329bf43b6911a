/**
 * The emulator's Data Warehouse service (dw), driven through the library's
 * client against an emulator in this process, on a paused clock the tests
 * move: activation (one cluster an environment, on the environment's own
 * cloud, with the environment's subnets; Accepted, Creating, Running; its
 * default Database Catalog; its environment's SSH key pushed), catalogs
 * and Virtual Warehouses and what each needs of the other (a Running catalog, a release no newer than the
 * catalog's, an allowed instance type, sizes from t-shirts), suspend and
 * start that do nothing twice, upgrades catalog first, events, diagnostic
 * jobs one at a time, deletes refused while something depends on what is
 * deleted (and a cluster's forced delete), server settings, resource
 * templates, and a cluster's backup restored into another environment.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
const envCrn: Record<string, string> = {};

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  for (const name of ['sales-env', 'ops-env', 'ml-env', 'lakehouse-aws']) {
    envCrn[name] = (await emu.client.environments.describeEnvironment({ environmentName: name })).environment.crn;
  }
});

afterAll(async () => {
  await emu?.stop();
});

const DEFAULT = '2024.0.19.0-45';
const NEWEST = '2025.0.20.0-112';

let cluster = '';
let catalog = '';
let hive = '';

const clusterStatus = async (clusterId: string): Promise<string | undefined> =>
  (await emu.client.dw.describeCluster({ clusterId })).cluster?.status;
const vwOf = async (vwId: string) => (await emu.client.dw.describeVw({ clusterId: cluster, vwId })).vw;

describe('activation', () => {
  test("is refused on GCP, with the other cloud's operation, and with subnets that are not the environment's (INVALID_ARGUMENT)", async () => {
    const gcp = await refused(emu.client.dw.createAwsCluster({ environmentCrn: envCrn['ml-env'] ?? '' }));
    expect([gcp.code, gcp.status, gcp.message]).toEqual([
      'INVALID_ARGUMENT',
      400,
      'environment ml-env is on GCP; the Data Warehouse is activated in AWS and Azure environments',
    ]);
    const azure = await refused(emu.client.dw.createAwsCluster({ environmentCrn: envCrn['ops-env'] ?? '' }));
    expect(azure.message).toBe('environment ops-env is on AZURE; activate it with `dw clusters create azure`');
    const subnet = await refused(
      emu.client.dw.createAwsCluster({ environmentCrn: envCrn['sales-env'] ?? '', workerSubnetIds: ['subnet-x'] }),
    );
    expect(subnet.message).toBe(
      'workerSubnetIds: subnet-x is not a subnet of environment sales-env; its subnets are sales-env-subnet-a, sales-env-subnet-b, sales-env-subnet-c',
    );
    expect((await emu.client.dw.listClusters({})).clusters).toEqual([]);
  });

  test('a cluster is named after its environment, Accepted, then Creating, then Running; one an environment (ALREADY_EXISTS)', async () => {
    const made = await emu.client.dw.createAwsCluster({
      environmentCrn: envCrn['sales-env'] ?? '',
      whitelistK8sClusterAccessIpCIDRs: ['10.0.0.0/8'],
    });
    cluster = made.clusterId ?? '';
    expect(cluster).toMatch(/^env-[a-z0-9]{6}$/);
    const described = (await emu.client.dw.describeCluster({ clusterId: cluster })).cluster;
    expect(described).toMatchObject({
      name: 'sales-env',
      status: 'Accepted',
      version: DEFAULT,
      cloudPlatform: 'AWS',
      whitelistK8sClusterAccessIpCIDRs: '10.0.0.0/8',
      awsOptions: { availabilityZones: ['us-west-2a', 'us-west-2b', 'us-west-2c'] },
    });
    const dup = await refused(emu.client.dw.createAwsCluster({ environmentCrn: envCrn['sales-env'] ?? '' }));
    expect([dup.code, dup.status, dup.message]).toEqual([
      'ALREADY_EXISTS',
      409,
      `environment sales-env already has Data Warehouse cluster ${cluster}`,
    ]);
    emu.clock.advance('30s');
    expect(await clusterStatus(cluster)).toBe('Creating');
    emu.clock.advance('14m30s');
    expect(await clusterStatus(cluster)).toBe('Running');
    const listed = await emu.client.dw.listClusters({ environmentCrn: envCrn['sales-env'] });
    expect(listed.clusters?.map((c) => c.id)).toEqual([cluster]);
  });

  test('activation made the default Database Catalog, named <environment>-default, Running with the cluster', async () => {
    const { dbcs } = await emu.client.dw.listDbcs({ clusterId: cluster });
    expect(dbcs?.map((d) => d.name)).toEqual(['sales-env-default']);
    catalog = dbcs?.[0]?.id ?? '';
    expect(catalog).toMatch(/^warehouse-\d+-[a-z0-9]{4}$/);
    emu.clock.advance('5m');
    expect((await emu.client.dw.describeDbc({ clusterId: cluster, dbcId: catalog })).dbc).toMatchObject({
      status: 'Running',
      creator: { email: 'admin@example.com', workloadUsername: 'admin' },
    });
  });

  test('an unknown cluster is NOT_FOUND (404)', async () => {
    const missing = await refused(emu.client.dw.describeCluster({ clusterId: 'env-nothin' }));
    expect([missing.code, missing.status]).toEqual(['NOT_FOUND', 404]);
  });

  test("update-ssh-key pushes its environment's key (read through the world) to the nodes at once; the cluster stays Running", async () => {
    await emu.client.environments.updateSshKey({ environment: 'sales-env', existingPublicKeyId: 'dw-admins-key' });
    expect(await emu.client.dw.updateSshKey({ clusterId: cluster })).toEqual({
      status: 'Running',
      message: `pushed dw-admins-key of environment sales-env to the nodes of cluster ${cluster}`,
    });
    expect(await clusterStatus(cluster)).toBe('Running');
    const { events } = await emu.client.dw.listEvents({ serviceId: cluster, event: 'SshKeyUpdate' });
    expect(events?.map((e) => e.event)).toEqual(['SshKeyUpdateCompleted', 'SshKeyUpdateRequested']);
  });
});

describe('Virtual Warehouses', () => {
  test("run a release no newer than their catalog's, on an instance type allowed for their engine", async () => {
    const newer = await refused(
      emu.client.dw.createVw({ clusterId: cluster, dbcId: catalog, vwType: 'hive', name: 'adhoc', imageVersion: NEWEST }),
    );
    expect([newer.code, newer.message]).toEqual([
      'FAILED_PRECONDITION',
      `Database Catalog sales-env-default runs ${DEFAULT}; a Virtual Warehouse on it runs that release or an older one`,
    ]);
    const type = await refused(
      emu.client.dw.createVw({ clusterId: cluster, dbcId: catalog, vwType: 'hive', name: 'adhoc', instanceType: 'm5.large' }),
    );
    expect([type.code, type.message]).toEqual([
      'INVALID_ARGUMENT',
      'instance type m5.large is not allowed for hive on AWS; allowed: r5d.4xlarge, r6id.4xlarge, r5dn.4xlarge (see `dw instance-types describe`)',
    ]);
    const unknown = await refused(emu.client.dw.createVw({ clusterId: cluster, dbcId: 'warehouse-0-none', vwType: 'hive', name: 'adhoc' }));
    expect(unknown.code).toBe('NOT_FOUND');
  });

  test('a warehouse is sized by its t-shirt and instance type, Accepted then Running with its replicas ready; names unique in a cluster', async () => {
    hive =
      (await emu.client.dw.createVw({ clusterId: cluster, dbcId: catalog, vwType: 'hive', name: 'adhoc', tShirtSize: 'small' })).vwId ?? '';
    expect(hive).toMatch(/^compute-\d+-[a-z0-9]{4}$/);
    expect(await vwOf(hive)).toMatchObject({
      status: 'Accepted',
      nodeCount: 10,
      instanceType: 'r5d.4xlarge',
      numOfCores: 160,
      memoryCapacity: 1_310_720,
      imageVersion: DEFAULT,
      replicaStatus: { totalExecutorReplicas: 10, readyExecutorReplicas: 0 },
      endpoints: { hostname: `hs2-adhoc.dw-sales-env.${cluster}.emulator.invalid` },
    });
    const dup = await refused(emu.client.dw.createVw({ clusterId: cluster, dbcId: catalog, vwType: 'impala', name: 'adhoc' }));
    expect([dup.code, dup.message]).toEqual([
      'ALREADY_EXISTS',
      `Virtual Warehouse adhoc already exists in Data Warehouse cluster ${cluster}`,
    ]);
    const impala = await emu.client.dw.createVw({ clusterId: cluster, dbcId: catalog, vwType: 'impala', name: 'bi', nodeCount: 3 });
    expect(impala.vwId).toMatch(/^impala-\d+-[a-z0-9]{4}$/);
    emu.clock.advance('5m');
    expect(await vwOf(hive)).toMatchObject({
      status: 'Running',
      replicaStatus: { readyExecutorReplicas: 10, readyCoordinatorReplicas: 1 },
    });
    const impalas = await emu.client.dw.listVws({ clusterId: cluster, filter: { vwType: 'impala' } });
    expect(impalas.vws?.map((v) => [v.name, v.nodeCount, v.status])).toEqual([['bi', 3, 'Running']]);
  });

  test('suspend stops a warehouse (Stopping, then Stopped with no replicas); suspending it again has no effect; start brings it back', async () => {
    await emu.client.dw.suspendVw({ clusterId: cluster, vwId: hive });
    expect((await vwOf(hive))?.status).toBe('Stopping');
    emu.clock.advance('2m');
    expect(await vwOf(hive)).toMatchObject({ status: 'Stopped', replicaStatus: { totalExecutorReplicas: 0, totalCoordinatorReplicas: 0 } });
    await emu.client.dw.suspendVw({ clusterId: cluster, vwId: hive });
    expect((await vwOf(hive))?.status).toBe('Stopped');
    await emu.client.dw.startVw({ clusterId: cluster, vwId: hive });
    expect((await vwOf(hive))?.status).toBe('Starting');
    emu.clock.advance('3m');
    expect((await vwOf(hive))?.status).toBe('Running');
  });

  test('a warehouse is upgraded only as far as its catalog: the catalog first, then the warehouse', async () => {
    const versions = await emu.client.dw.getUpgradeVwVersions({ clusterId: cluster, vwId: hive });
    expect(versions).toMatchObject({ latestVersion: NEWEST, compatibleVersion: DEFAULT });
    const ahead = await refused(emu.client.dw.upgradeVw({ clusterId: cluster, vwId: hive, dbcId: catalog, imageVersion: NEWEST }));
    expect(ahead.message).toBe(`Database Catalog sales-env-default runs ${DEFAULT}; upgrade it to ${NEWEST} before its Virtual Warehouses`);
    expect((await emu.client.dw.upgradeDbc({ clusterId: cluster, dbcId: catalog, imageVersion: NEWEST })).status).toBe('Upgrading');
    emu.clock.advance('6m');
    expect((await emu.client.dw.getUpgradeVwVersions({ clusterId: cluster, vwId: hive })).compatibleVersion).toBe(NEWEST);
    await emu.client.dw.upgradeVw({ clusterId: cluster, vwId: hive, dbcId: catalog, imageVersion: NEWEST });
    emu.clock.advance('6m');
    expect(await vwOf(hive)).toMatchObject({ status: 'Running', imageVersion: NEWEST });
    const same = await refused(emu.client.dw.upgradeVw({ clusterId: cluster, vwId: hive, dbcId: catalog, imageVersion: NEWEST }));
    expect(same.message).toBe(`Virtual Warehouse adhoc runs ${NEWEST}; ${NEWEST} is not newer`);
  });

  test('its events tell what it went through, newest first', async () => {
    const { events } = await emu.client.dw.listVwEvents({ clusterId: cluster, vwId: hive });
    expect(events?.map((e) => e.message)).toEqual([
      'Virtual Warehouse adhoc: upgrade completed, Running',
      'Virtual Warehouse adhoc: upgrade requested',
      'Virtual Warehouse adhoc: start completed, Running',
      'Virtual Warehouse adhoc: start requested',
      'Virtual Warehouse adhoc: suspend completed, Stopped',
      'Virtual Warehouse adhoc: suspend requested',
      'Virtual Warehouse adhoc: create completed, Running',
      'Virtual Warehouse adhoc: create requested',
    ]);
  });

  test('diagnostic jobs run one at a time unless forced, Starting, Running, then Succeeded; listed in pages', async () => {
    const first = await emu.client.dw.createVwDiagnosticDataJob({ clusterId: cluster, vwId: hive, destination: 'DOWNLOAD' });
    expect(first).toMatchObject({ status: 'Starting', labels: { destination: 'DOWNLOAD' }, url: expect.stringMatching(/\.zip$/) });
    const second = await refused(emu.client.dw.createVwDiagnosticDataJob({ clusterId: cluster, vwId: hive, destination: 'DOWNLOAD' }));
    expect(second.message).toBe(`diagnostic job ${first.id} is still collecting; wait for it, or give force to start another`);
    await emu.client.dw.createVwDiagnosticDataJob({ clusterId: cluster, vwId: hive, destination: 'UPLOAD_TO_CLOUDERA', force: true });
    emu.clock.advance('3m');
    const page = await emu.client.dw.listVwDiagnosticDataJobs({ clusterId: cluster, vwId: hive, pageSize: 1 });
    expect(page.jobs).toHaveLength(1);
    expect(page.nextToken).toEqual(expect.any(String));
    const all: string[] = [];
    for await (const job of emu.client.dw.paginate.listVwDiagnosticDataJobs({ clusterId: cluster, vwId: hive }, { pageSize: 1 }))
      all.push(job.status ?? '');
    expect(all).toEqual(['Succeeded', 'Succeeded']);
  });
});

describe('connectors', () => {
  test('an update renames a connector, its name unique in its cluster (ALREADY_EXISTS); a kind of source it does not know is INVALID_ARGUMENT', async () => {
    const make = (name: string) =>
      emu.client.dw.createConnector({
        clusterId: cluster,
        name,
        template: 'postgresql',
        config: { 'connection-url': 'jdbc:postgresql://db/x' },
      });
    const sales = (await make('sales-db')).result?.id ?? '';
    await make('ops-db');
    await emu.client.dw.updateConnector({ clusterId: cluster, connectorId: sales, name: 'sales-pg' });
    const names = async () => ((await emu.client.dw.listConnectors({ clusterId: cluster })).connectors ?? []).map((c) => c.name);
    expect(await names()).toEqual(['sales-pg', 'ops-db']);
    const taken = await refused(emu.client.dw.updateConnector({ clusterId: cluster, connectorId: sales, name: 'ops-db' }));
    expect([taken.code, taken.message]).toEqual(['ALREADY_EXISTS', 'connector ops-db already exists']);
    const kind = await refused(emu.client.dw.updateConnector({ clusterId: cluster, connectorId: sales, template: 'paper' }));
    expect(kind.code).toBe('INVALID_ARGUMENT');
    expect(await names()).toEqual(['sales-pg', 'ops-db']);
  });
});

describe('Database Catalogs', () => {
  test('the default catalog goes only with its cluster; a catalog with warehouses is not deleted; a new one cannot be a default', async () => {
    const byDefault = await refused(emu.client.dw.deleteDbc({ clusterId: cluster, dbcId: catalog }));
    expect([byDefault.code, byDefault.message]).toEqual([
      'FAILED_PRECONDITION',
      'Database Catalog sales-env-default is the default one of its cluster; it goes when the cluster is deleted',
    ]);
    const defaultAgain = await refused(emu.client.dw.createDbc({ clusterId: cluster, name: 'another', isDefault: true }));
    expect(defaultAgain.code).toBe('INVALID_ARGUMENT');
    const { dbcId = '' } = await emu.client.dw.createDbc({ clusterId: cluster, name: 'second' });
    const notRunning = await refused(emu.client.dw.createVw({ clusterId: cluster, dbcId, vwType: 'hive', name: 'too-soon' }));
    expect(notRunning.message).toBe('Database Catalog second is Accepted; a new Virtual Warehouse on it needs it Running');
    emu.clock.advance('5m');
    await emu.client.dw.createVw({ clusterId: cluster, dbcId, vwType: 'hive', name: 'on-second' });
    const held = await refused(emu.client.dw.deleteDbc({ clusterId: cluster, dbcId }));
    expect(held.message).toBe('Database Catalog second still has Virtual Warehouse on-second; delete them first');
  });
});

describe('account-wide settings and templates', () => {
  test('server settings: an update says what must be updated for it to take effect; unknown keys are INVALID_ARGUMENT; reset goes back', async () => {
    const before = await emu.client.dw.describeServerSetting({});
    expect(before.settings?.find((s) => s.configurationKey === 'dwx.impala.query.log')?.enabled).toBe(false);
    const updated = await emu.client.dw.updateServerSetting({ settings: [{ configurationKey: 'dwx.impala.query.log', enabled: true }] });
    expect(updated.status).toMatch(/^updated; takes effect as /);
    const after = await emu.client.dw.describeServerSetting({});
    expect(after.settings?.find((s) => s.configurationKey === 'dwx.impala.query.log')?.enabled).toBe(true);
    const unknown = await refused(emu.client.dw.updateServerSetting({ settings: [{ configurationKey: 'dwx.nothing', enabled: true }] }));
    expect([unknown.code, unknown.message]).toEqual([
      'INVALID_ARGUMENT',
      'dwx.nothing is not a server setting; see `dw server-settings list`',
    ]);
    await emu.client.dw.resetServerSettings({});
    const reset = await emu.client.dw.describeServerSetting({});
    expect(reset.settings?.find((s) => s.configurationKey === 'dwx.impala.query.log')?.enabled).toBe(false);
  });

  test('an update of a template is its new version, under the name it gives (unique: ALREADY_EXISTS); deleting that version goes back', async () => {
    const resources = { 'hue-backend': { cpu: 1, memory: '2Gi' } };
    const make = async (name: string) =>
      (await emu.client.dw.createResourceTemplate({ name, entityType: 'hue', resources })).templateId ?? '';
    const small = await make('hue-s');
    await make('hue-m');
    const shown = async () => (await emu.client.dw.listResourceTemplates({})).templates?.find((t) => t.id === small);
    await emu.client.dw.updateResourceTemplate({ templateId: small, name: 'hue-s2' });
    expect(await shown()).toMatchObject({ name: 'hue-s2', version: 2 });
    const taken = await refused(emu.client.dw.updateResourceTemplate({ templateId: small, name: 'hue-m' }));
    expect([taken.code, taken.message]).toEqual(['ALREADY_EXISTS', 'resource template hue-m already exists']);
    await emu.client.dw.deleteResourceTemplate({ templateId: small, templateVersion: 2 });
    expect(await shown()).toMatchObject({ name: 'hue-s', version: 1 });
  });

  test('every account has a default and a reduced resource template of each kind', async () => {
    const { templates } = await emu.client.dw.listResourceTemplates({});
    const hiveTemplates = templates?.filter((t) => t.entityType === 'Hive').map((t) => [t.name, t.isDefault]);
    expect(hiveTemplates).toEqual([
      ['hive-default', true],
      ['hive-reduced', false],
    ]);
  });
});

describe("a cluster's backup, restore and delete", () => {
  test('a backup restored into another environment activates the Data Warehouse there and plans what it makes', async () => {
    const backup = await emu.client.dw.backupCluster({ clusterId: cluster });
    expect(backup).toMatchObject({ clusterId: cluster, data: expect.any(String), md5: expect.stringMatching(/^[0-9a-f]{32}$/) });
    const restored = await emu.client.dw.restoreCluster({ clusterId: envCrn['lakehouse-aws'] ?? '', data: backup.data ?? '' });
    expect(restored).toMatchObject({
      action: 'Create',
      message: expect.stringMatching(/^activating the Data Warehouse in environment lakehouse-aws as cluster env-/),
    });
    // The new cluster is not Running yet: what runs on it is left for a later restore.
    expect(restored.hiveRestorePlans?.map((p) => p.action)).toEqual(['Skip', 'Skip']);
    expect(restored.impalaRestorePlans?.map((p) => [p.action, p.message])).toEqual([
      ['Skip', expect.stringContaining('when the cluster is Running (it is Accepted): restore again then')],
    ]);
    const notBackup = await refused(emu.client.dw.restoreCluster({ clusterId: cluster, data: Buffer.from('{}').toString('base64') }));
    expect([notBackup.code, notBackup.message]).toEqual([
      'INVALID_ARGUMENT',
      'data is not what `dw clusters backup` gave back (its `data`, base64)',
    ]);
  });

  test('a restore run again as the restored cluster comes up makes what the backup holds, a step at a time, and then finds it all there', async () => {
    // The source's default catalog has a configuration of its own, which a restore gives the target's default catalog.
    await emu.client.dw.updateDbc({ clusterId: cluster, dbcId: catalog, config: { ldapGroups: ['analysts'] } });
    emu.clock.advance('1h');
    const { data } = await emu.client.dw.backupCluster({ clusterId: cluster });
    const restore = () => emu.client.dw.restoreCluster({ clusterId: envCrn['lakehouse-aws'] ?? '', data: data ?? '' });
    const plans = (r: Awaited<ReturnType<typeof restore>>) =>
      [...(r.dbcRestorePlans ?? []), ...(r.hiveRestorePlans ?? []), ...(r.impalaRestorePlans ?? [])].map((p) => p.action);
    // The target is Running: its default catalog takes the backup's configuration (and leaves Running for it), the other
    // catalog is made; the warehouses wait for their catalogs.
    const first = await restore();
    expect(plans(first)).toEqual(['Update', 'Create', 'Skip', 'Skip', 'Skip']);
    expect(first.hiveRestorePlans?.[0]?.message).toMatch(
      /^its Database Catalog is (PreUpdate|Updating); restore again once it is Running$/,
    );
    emu.clock.advance('1h');
    const second = await restore();
    expect(second.dbcRestorePlans?.map((p) => [p.action, p.message])).toEqual([
      ['Skip', 'the default Database Catalog has the configuration of the backup already'],
      ['Skip', 'Database Catalog second already exists'],
    ]);
    expect(plans(second)).toEqual(['Skip', 'Skip', 'Create', 'Create', 'Create']);
    emu.clock.advance('1h');
    expect(plans(await restore())).toEqual(['Skip', 'Skip', 'Skip', 'Skip', 'Skip']);
  });

  test('a cluster holding catalogs and warehouses is deleted only with force, which takes them with it; then it is gone', async () => {
    const held = await refused(emu.client.dw.deleteCluster({ clusterId: cluster }));
    expect([held.code, held.status, held.message]).toEqual([
      'FAILED_PRECONDITION',
      409,
      `Data Warehouse cluster ${cluster} still has Database Catalog second, Virtual Warehouse adhoc, Virtual Warehouse bi, Virtual Warehouse on-second; delete them first, or delete with force`,
    ]);
    await emu.client.dw.deleteCluster({ clusterId: cluster, force: true });
    expect(await clusterStatus(cluster)).toBe('Deleting');
    expect((await emu.client.dw.listVws({ clusterId: cluster })).vws).toEqual([]);
    emu.clock.advance('5m');
    const gone = await refused(emu.client.dw.describeCluster({ clusterId: cluster }));
    expect([gone.code, gone.status]).toEqual(['NOT_FOUND', 404]);
  });
});
