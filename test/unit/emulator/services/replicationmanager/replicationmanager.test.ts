/**
 * The emulator's Replication Manager, driven through the library's client
 * against an emulator in this process, on a paused clock the tests move.
 * Its clusters are the account's data lakes and Data Hub clusters, known
 * once their creation has ended and reachable only while they run. Cloud
 * credentials are made on clusters (a partial failure answers an error for
 * each cluster it missed), policies run on their destination (or, copying
 * to cloud storage, on their source) with a credential of that cluster,
 * their jobs read off the clock (fail- fails them), suspend and activate
 * from their states, a credential in use is not deleted, diagnostic
 * bundles are commands that end, and a stopped cluster is reported
 * unreachable instead of listed.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import type { replicationmanager } from '../../../../../src/lib/sdk/index.js';
import { AWS_LAKE_STORAGE } from '../../../../helpers/lake.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
let lake = '';
let etl = '';
let backup = '';

const TEMPLATE = '7.2.18 - Data Engineering: Apache Spark3, Apache Hive, Apache Oozie';
const DEFINITION = '7.2.18 - Data Engineering for AWS';

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

const TO_CLOUD: replicationmanager.PolicyDefinition = {
  name: 'to-cloud',
  type: 'FS',
  sourceCluster: 'sales-env$sales-etl',
  targetDataset: 's3a://replicas/sales',
  cloudCredential: 'cloud-key',
  frequencyInSec: 3600,
  sourceDataset: { hdfsArguments: { path: '/data/sales' } },
};
const BETWEEN: replicationmanager.PolicyDefinition = {
  name: 'to-backup',
  type: 'FS',
  sourceCluster: 'sales-env$sales-etl',
  targetCluster: 'lakehouse-aws$backup-etl',
  frequencyInSec: 600,
  sourceDataset: { hdfsArguments: { path: '/data/sales' } },
};
/** The policies listPolicies shows, as name and status. */
const policies = async (): Promise<Array<[string | undefined, string | undefined]>> =>
  (await emu.client.replicationmanager.listPolicies({})).policies.map((p) => [p.name, p.status]);

describe('clusters', () => {
  test('a data lake and Data Hub clusters are known once their creation has ended, by environment as data center', async () => {
    await emu.client.datalake.createAWSDatalake({
      datalakeName: 'sales-lake',
      environmentName: 'sales-env',
      ...AWS_LAKE_STORAGE,
    });
    const hub = (clusterName: string, environment: string) =>
      emu.client.datahub.createAWSCluster({ clusterName, environment, clusterTemplate: TEMPLATE, clusterDefinition: DEFINITION });
    etl = (await hub('sales-etl', 'sales-env')).cluster?.crn ?? '';
    backup = (await hub('backup-etl', 'lakehouse-aws')).cluster?.crn ?? '';
    expect(await emu.client.replicationmanager.listClusters({})).toEqual({ unreachableClusters: [], clusters: [] });
    emu.clock.advance('15m');
    const { clusters, unreachableClusters } = await emu.client.replicationmanager.listClusters({});
    expect(unreachableClusters).toEqual([]);
    expect(clusters.map((c) => [c.name, c.clusterType, c.dataCenter])).toEqual([
      ['sales-lake', 'SDX', 'sales-env'],
      ['sales-etl', 'DISTROX', 'sales-env'],
      ['backup-etl', 'DISTROX', 'lakehouse-aws'],
    ]);
    lake = clusters[0]?.crn ?? '';
    expect(clusters[1]?.crn).toBe(etl);
  });

  test("a cluster's configuration is computed from what it runs: a Data Engineering cluster replicates HDFS and Hive, not HBase", async () => {
    const config = await emu.client.replicationmanager.getClusterConfig({ clusterCrn: etl });
    expect(config).toMatchObject({
      clusterCrn: etl,
      underlyingFsForHive: 'S3',
      featureSupport: { HDFS_REPLICATION: true, HIVE_REPLICATION: true, HBASE_REPLICATION: false },
    });
    expect(config.services?.map((s) => s.name)).toContain('HDFS');
    const pairs = await emu.client.replicationmanager.listPairedHbaseClusters({});
    expect(pairs.crnsMissingHbaseService).toEqual([lake, etl, backup]);
  });

  test('an unknown cluster is NOT_FOUND, naming the clusters there are', async () => {
    const missing = await refused(
      emu.client.replicationmanager.getClusterConfig({ clusterCrn: 'crn:cdp:datahub:us-west-1:acct:cluster:none' }),
    );
    expect([missing.code, missing.status]).toEqual(['NOT_FOUND', 404]);
    expect(missing.message).toMatch(
      /^cluster crn:cdp:datahub:us-west-1:acct:cluster:none not found; Replication Manager knows crn:cdp:datalake:/,
    );
  });
});

describe('credentials', () => {
  test('a credential is made on each cluster that can take it; the clusters it missed come back as errors', async () => {
    const made = await emu.client.replicationmanager.createAwsCredential({
      name: 'cloud-key',
      type: 'IAM',
      clusters: [etl, 'crn:cdp:datahub:us-west-1:acct:cluster:none'],
    });
    expect(made.errors).toEqual([
      { code: 404, message: 'cluster crn:cdp:datahub:us-west-1:acct:cluster:none not found', status: 'NOT_FOUND' },
    ]);
    const { credentials } = await emu.client.replicationmanager.getCredentials({ clusterCrn: etl });
    expect(credentials?.map((c) => [c.name, c.provider, c.authType])).toEqual([['cloud-key', 'AWS', 'AWS_IAM_ROLES_AUTH']]);
    const all = await emu.client.replicationmanager.listAllCredentials({});
    expect(all.credentials.map((c) => [c.clusterCrn, c.credentials?.totalResults])).toEqual([
      [lake, 0],
      [etl, 1],
      [backup, 0],
    ]);
  });

  test('one made nowhere is refused with its first error: a name the cluster has is ALREADY_EXISTS', async () => {
    const dup = await refused(emu.client.replicationmanager.createAwsCredential({ name: 'cloud-key', type: 'IAM', clusters: [etl] }));
    expect([dup.code, dup.status, dup.message]).toEqual([
      'ALREADY_EXISTS',
      409,
      'cluster sales-etl already has a credential named cloud-key',
    ]);
  });
});

describe('policies', () => {
  test('a policy is named as its definition is; copying to cloud storage runs on its source, with a credential of that cluster', async () => {
    const name = await refused(
      emu.client.replicationmanager.createPolicy({ clusterCrn: etl, policyName: 'other', policyDefinition: TO_CLOUD }),
    );
    expect([name.code, name.message]).toEqual(['INVALID_ARGUMENT', 'policyName other and the name in policyDefinition (to-cloud) differ']);
    const noKey = await refused(
      emu.client.replicationmanager.createPolicy({
        clusterCrn: etl,
        policyName: 'to-cloud',
        policyDefinition: { ...TO_CLOUD, cloudCredential: 'other-key' },
      }),
    );
    expect([noKey.code, noKey.message]).toEqual([
      'FAILED_PRECONDITION',
      'cluster sales-etl has no credential other-key; create it first (credentials create)',
    ]);
    const made = await emu.client.replicationmanager.createPolicy({ clusterCrn: etl, policyName: 'to-cloud', policyDefinition: TO_CLOUD });
    expect(made).toMatchObject({ clusterCrn: etl, message: 'policy to-cloud created', status: 'Successful' });
    const dup = await refused(
      emu.client.replicationmanager.createPolicy({ clusterCrn: etl, policyName: 'to-cloud', policyDefinition: TO_CLOUD }),
    );
    expect([dup.code, dup.status, dup.message]).toEqual(['ALREADY_EXISTS', 409, 'policy to-cloud already exists in cluster sales-etl']);
  });

  test('its jobs are read off the clock: RUNNING while the first copies, then SUCCEEDED, a job every frequencyInSec', async () => {
    expect(await policies()).toEqual([['to-cloud', 'RUNNING']]);
    emu.clock.advance('4m');
    const first = (await emu.client.replicationmanager.listPolicies({})).policies[0];
    expect(first?.status).toBe('SUCCEEDED');
    expect(first?.jobs?.map((j) => [j.status, j.jobType, j.message])).toEqual([
      ['SUCCEEDED', 'HDFS_REPLICATION', 'replicated /data/sales to s3a://replicas/sales'],
    ]);
    emu.clock.advance('2h');
    expect((await emu.client.replicationmanager.listPolicies({})).policies[0]?.jobs?.length).toBe(3);
  });

  test('a policy between clusters runs on its destination; one named fail-... fails its jobs', async () => {
    const onSource = await refused(
      emu.client.replicationmanager.createPolicy({ clusterCrn: etl, policyName: 'to-backup', policyDefinition: BETWEEN }),
    );
    expect([onSource.code, onSource.message]).toEqual([
      'INVALID_ARGUMENT',
      `a policy that copies between clusters runs on its destination: create it with clusterCrn ${backup} (backup-etl)`,
    ]);
    await emu.client.replicationmanager.createPolicy({ clusterCrn: backup, policyName: 'to-backup', policyDefinition: BETWEEN });
    await emu.client.replicationmanager.createPolicy({
      clusterCrn: backup,
      policyName: 'fail-copy',
      policyDefinition: { ...BETWEEN, name: 'fail-copy' },
    });
    emu.clock.advance('4m');
    expect(await policies()).toEqual([
      ['to-cloud', 'SUCCEEDED'],
      ['to-backup', 'SUCCEEDED'],
      ['fail-copy', 'FAILED'],
    ]);
  });

  test('suspend (only a RUNNING policy) and activate (only a SUSPENDED one)', async () => {
    const at = { clusterCrn: etl, policyName: 'to-cloud' };
    expect((await emu.client.replicationmanager.suspendPolicy(at)).message).toBe('policy to-cloud suspended');
    expect((await policies())[0]).toEqual(['to-cloud', 'SUSPENDED']);
    const twice = await refused(emu.client.replicationmanager.suspendPolicy(at));
    expect([twice.code, twice.message]).toEqual(['FAILED_PRECONDITION', 'policy to-cloud is SUSPENDED; suspend needs it RUNNING']);
    expect((await emu.client.replicationmanager.activatePolicy(at)).message).toBe('policy to-cloud resumed');
    const again = await refused(emu.client.replicationmanager.activatePolicy(at));
    expect(again.message).toBe('policy to-cloud is RUNNING; activate needs it SUSPENDED');
  });

  test('a diagnostic bundle is a command of the cluster: active while it collects, then done', async () => {
    const command = await emu.client.replicationmanager.collectDiagnosticBundle({ clusterCrn: backup, policyName: 'to-backup' });
    expect(command).toMatchObject({ commandId: 1, name: 'to-backup', active: true, resultMessage: 'collecting the diagnostic bundle' });
    emu.clock.advance('3m');
    const status = await emu.client.replicationmanager.getCommandStatus({ clusterCrn: backup, commandId: '1' });
    expect(status).toMatchObject({ commandId: 1, active: false, success: true, resultMessage: 'diagnostic bundle collected' });
  });

  test('a credential a policy writes with is not deleted until the policy is', async () => {
    const inUse = await refused(emu.client.replicationmanager.deleteCredential({ name: 'cloud-key' }));
    expect([inUse.code, inUse.message]).toEqual([
      'FAILED_PRECONDITION',
      'credential cloud-key is used by policy to-cloud on cluster sales-etl; delete those policies first',
    ]);
    expect((await emu.client.replicationmanager.deletePolicy({ clusterCrn: etl, policyName: 'to-cloud' })).message).toBe(
      'policy to-cloud deleted',
    );
    expect(await emu.client.replicationmanager.deleteCredential({ name: 'cloud-key' })).toEqual({});
    const gone = await refused(emu.client.replicationmanager.deleteCredential({ name: 'cloud-key' }));
    expect([gone.code, gone.message]).toEqual(['NOT_FOUND', 'credential cloud-key not found on any cluster']);
  });
});

describe('a stopped cluster', () => {
  test('is reported unreachable instead of listed, its policies with it; changes to them are refused', async () => {
    await emu.client.datahub.stopCluster({ clusterName: 'backup-etl' });
    emu.clock.advance('5m');
    const { clusters, unreachableClusters } = await emu.client.replicationmanager.listClusters({});
    expect(clusters.map((c) => c.name)).toEqual(['sales-lake', 'sales-etl']);
    expect(unreachableClusters).toEqual([
      expect.objectContaining({
        code: 503,
        status: 'SERVICE_UNAVAILABLE',
        message: 'cluster backup-etl is STOPPED: its Cloudera Manager cannot be reached',
      }),
    ]);
    const listed = await emu.client.replicationmanager.listPolicies({});
    expect(listed.policies).toEqual([]);
    expect(listed.unreachableClusters).toHaveLength(1);
    const suspend = await refused(emu.client.replicationmanager.suspendPolicy({ clusterCrn: backup, policyName: 'to-backup' }));
    expect(suspend.code).toBe('FAILED_PRECONDITION');
    expect(suspend.message).toMatch(/^cluster backup-etl is STOPPED; /);
  });
});
