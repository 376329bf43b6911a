/**
 * Replication Manager against the emulator, through bin/run.js as a user
 * runs it. Its clusters are the account's data lake and Data Hub clusters,
 * made through their own services: listed with their services, unreachable
 * once stopped. Cloud credentials on clusters (a partial failure reported
 * per cluster); HDFS policies to cloud storage and between clusters whose
 * jobs run on the emulator clock, suspended and resumed with --wait, their
 * diagnostic bundles collected and downloaded; HBase policies between two
 * clusters with HBase, suspended and resumed as a pair, deleted with --force
 * when their source is stopped; the failure paths (`fail-` names end --wait
 * with exit 5) and bad input (4xx, nothing written).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type TestEmulator, FAST_WAIT as WAIT, SALES_LAKE as LAKE } from '../helpers/cli.js';

let em: TestEmulator;

const TEMPLATES = {
  base: ['7.2.18 - Data Engineering: Apache Spark3, Apache Hive, Apache Oozie', '7.2.18 - Data Engineering for AWS'],
  opdb: ['7.2.18 - Operational Database: Apache HBase, Phoenix', '7.2.18 - Operational Database for AWS'],
} as const;

interface Policy {
  policyId: string;
  name: string;
  type: string;
  status: string;
  jobs: Array<{ status: string; jobType: string; message?: string }>;
  [more: string]: unknown;
}

/** The CRN of each cluster Replication Manager lists, by name. */
const crns: Record<string, string> = {};
const crn = (name: string): string => crns[name] ?? `no cluster ${name}`;

const rm = (...args: string[]) => em.cli(['replicationmanager', ...args]);
const policies = async (): Promise<Policy[]> =>
  (await em.json<{ policies: Policy[] }>(['replicationmanager', 'policies', 'list'])).policies;
const policy = async (name: string): Promise<Policy | undefined> => (await policies()).find((p) => p.name === name);
const clock = (...flags: string[]) => em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir]);
const definition = (d: Record<string, unknown>): string => JSON.stringify(d);
const hdfs = (name: string, extra: Record<string, unknown>) =>
  definition({ name, type: 'FS', sourceDataset: { hdfsArguments: { path: '/data/sales' } }, frequencyInSec: 3600, ...extra });
const createPolicy = (on: string, name: string, def: string, ...extra: string[]) =>
  rm('policies', 'create', '--cluster-crn', crn(on), '--policy-name', name, '--policy-definition', def, ...extra);

beforeAll(async () => {
  em = await startEmulator();
  const lake = await em.cli([...LAKE, ...WAIT]);
  if (lake.code !== 0) throw new Error(`data lake create failed: ${lake.stderr}`);
  const hubs: Array<[string, readonly [string, string]]> = [
    ['prod-base', TEMPLATES.base],
    ['dr-base', TEMPLATES.base],
    ['prod-opdb', TEMPLATES.opdb],
    ['dr-opdb', TEMPLATES.opdb],
  ];
  const made = await Promise.all(
    hubs.map(([name, [template, def]]) =>
      em.cli([
        'datahub',
        'clusters',
        'create',
        'aws',
        '--cluster-name',
        name,
        '--environment',
        'sales-env',
        '--cluster-template',
        template,
        '--cluster-definition',
        def,
        ...WAIT,
      ]),
    ),
  );
  for (const r of made) if (r.code !== 0) throw new Error(`Data Hub create failed: ${r.stderr}`);
  const listed = await em.json<{ clusters: Array<{ name: string; crn: string }> }>(['replicationmanager', 'clusters', 'list']);
  for (const c of listed.clusters) crns[c.name] = c.crn;
});

afterAll(async () => {
  await em?.stop();
});

describe('clusters: the data lake and the Data Hub clusters of the account', () => {
  test('clusters list shows each, with its data center (its environment) and type; service statuses and configuration follow its template', async () => {
    const listed = await em.json<{ clusters: Array<Record<string, unknown>>; unreachableClusters: unknown[] }>([
      'replicationmanager',
      'clusters',
      'list',
    ]);
    // The data lake first, then the Data Hub clusters in the order they were made (here, at once).
    expect(listed.clusters[0]?.name).toBe('sales-lake');
    expect(listed.clusters.map((c) => [c.name, c.dataCenter, c.clusterType, c.stackVersion]).sort()).toEqual([
      ['dr-base', 'sales-env', 'DISTROX', '7.2.18'],
      ['dr-opdb', 'sales-env', 'DISTROX', '7.2.18'],
      ['prod-base', 'sales-env', 'DISTROX', '7.2.18'],
      ['prod-opdb', 'sales-env', 'DISTROX', '7.2.18'],
      ['sales-lake', 'sales-env', 'SDX', '7.2.18'],
    ]);
    expect(listed.unreachableClusters).toEqual([]);
    const statuses = await em.json<{ statuses: Array<{ clusterCrn: string; serviceStatuses: Array<{ serviceName: string }> }> }>([
      'replicationmanager',
      'clusters',
      'service-statuses',
    ]);
    const servicesOf = (name: string) =>
      statuses.statuses.find((s) => s.clusterCrn === crn(name))?.serviceStatuses.map((s) => s.serviceName);
    expect(servicesOf('prod-base')).toEqual(expect.arrayContaining(['HDFS', 'HIVE']));
    expect(servicesOf('prod-opdb')).toEqual(expect.arrayContaining(['HDFS', 'HBASE']));
    const config = await em.json<Record<string, unknown>>([
      'replicationmanager',
      'clusters',
      'describe-config',
      '--cluster-crn',
      crn('dr-opdb'),
    ]);
    expect(config).toMatchObject({
      clusterCrn: crn('dr-opdb'),
      dmx: { hbaseSuspend: 'ALL' },
      featureSupport: { HBASE_REPLICATION: true },
      underlyingFsForHive: 'S3',
    });
  });

  test('a cluster the account does not have is NOT_FOUND', async () => {
    const nowhere = 'crn:cdp:datahub:us-west-1:acct:cluster:nowhere';
    for (const args of [
      ['clusters', 'describe-config', '--cluster-crn', nowhere],
      ['credentials', 'describe', '--cluster-crn', nowhere],
      ['policies', 'suspend', '--cluster-crn', nowhere, '--policy-name', 'sales-hdfs'],
      ['hbase-pairs', 'verify', '--source-cluster-crn', nowhere, '--destination-cluster-crn', crn('dr-opdb')],
    ]) {
      const r = await rm(...args);
      expect([args[0], r.code, r.stderr]).toEqual([args[0], 1, expect.stringContaining(`NOT_FOUND: cluster ${nowhere} not found`)]);
    }
  });
});

describe('credentials and HDFS policies', () => {
  test('credentials create: made on the clusters there are, an error for the others; refused (nothing written) when there are none', async () => {
    const nowhere = 'crn:cdp:datahub:us-west-1:acct:cluster:nowhere';
    const aws = (name: string, clusters: string[], ...typed: string[]) =>
      rm('credentials', 'create', 'aws', '--name', name, '--clusters', ...clusters, ...typed);
    const none = await aws('dr-aws-keys', [nowhere], '--type', 'IAM');
    expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND')]);
    expect(
      (await em.json<{ credentials: unknown[] }>(['replicationmanager', 'credentials', 'describe', '--cluster-crn', crn('prod-base')]))
        .credentials ?? [],
    ).toEqual([]);
    const keys = [
      '--type',
      'ACCESSKEY',
      '--access-key',
      'AKIAIOSFODNN7EXAMPLE',
      '--secret-key',
      'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
    ];
    const r = await aws('dr-aws-keys', [crn('prod-base'), nowhere], ...keys);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ errors: [expect.objectContaining({ code: 404, status: 'NOT_FOUND' })] });
    const creds = await em.json<{ credentials: Array<Record<string, unknown>> }>([
      'replicationmanager',
      'credentials',
      'describe',
      '--cluster-crn',
      crn('prod-base'),
      '--credential-name',
      'dr-aws-keys',
    ]);
    expect(creds.credentials).toEqual([expect.objectContaining({ name: 'dr-aws-keys', provider: 'AWS', authType: 'AWS_ACCESS_KEY_AUTH' })]);
    expect(JSON.stringify(creds)).not.toContain('wJalrXUtnFEMI');
    const again = await aws('dr-aws-keys', [crn('prod-base')], '--type', 'IAM');
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('ALREADY_EXISTS')]);
    const ambari = await rm(
      'credentials',
      'create',
      'azure',
      '--name',
      'adls-key',
      '--clusters',
      crn('prod-base'),
      '--type',
      'ACCESSKEY',
      '--storage-account-name',
      'drstore',
      '--access-key',
      'a2V5',
    );
    expect([ambari.code, ambari.stderr]).toEqual([1, expect.stringContaining('Ambari')]);
  });

  test('a policy definition that names what is not there, or breaks the rules, is refused and nothing is written', async () => {
    const c2c = (extra: Record<string, unknown>) => hdfs('sales-c2c', { sourceCluster: 'sales-env$prod-base', ...extra });
    const refused: Array<[on: string, name: string, def: string, why: string]> = [
      [
        'dr-base',
        'sales-c2c',
        c2c({ sourceCluster: 'sales-env$prod-nothere' }),
        'NOT_FOUND: sourceCluster sales-env$prod-nothere not found',
      ],
      ['dr-base', 'sales-c2c', c2c({ sourceDataset: {} }), 'needs sourceDataset.hdfsArguments.path'],
      ['prod-base', 'sales-c2c', c2c({ targetCluster: 'sales-env$dr-base' }), 'runs on its destination'],
      ['dr-base', 'sales-c2c', c2c({ sourceCluster: 'sales-env$sales-lake' }), 'cluster sales-lake runs no HDFS service'],
      ['dr-base', 'other-name', c2c({}), 'policyName other-name and the name in policyDefinition (sales-c2c) differ'],
      [
        'prod-base',
        'sales-c2c',
        c2c({ sourceCluster: undefined, targetDataset: 's3a://dr/data', cloudCredential: 'x' }),
        'has no credential x',
      ],
    ];
    for (const [on, name, def, why] of refused) {
      const r = await createPolicy(on, name, def);
      expect([why, r.code, r.stderr]).toEqual([why, 1, expect.stringContaining(why)]);
    }
    expect(await policies()).toEqual([]);
  });

  test('policies create --wait: to cloud storage on its source, between clusters on its destination; the first job runs at once', async () => {
    const cloud = await createPolicy(
      'prod-base',
      'sales-hdfs',
      hdfs('sales-hdfs', { targetDataset: 's3a://dr-sales/data', cloudCredential: 'dr-aws-keys' }),
      ...WAIT,
    );
    expect(cloud.code).toBe(0);
    expect(JSON.parse(cloud.stdout)).toMatchObject({
      name: 'sales-hdfs',
      status: 'RUNNING',
      sourceCluster: 'sales-env$prod-base',
      jobs: [{ status: 'RUNNING', jobType: 'HDFS_REPLICATION' }],
    });
    const daily = { sourceCluster: 'sales-env$prod-base', frequencyInSec: 86400 };
    const c2c = await createPolicy('dr-base', 'sales-c2c', hdfs('sales-c2c', daily), ...WAIT);
    expect(c2c.code).toBe(0);
    expect(JSON.parse(c2c.stdout)).toMatchObject({
      name: 'sales-c2c',
      targetCluster: 'sales-env$dr-base',
      targetClusterCrn: crn('dr-base'),
    });
    const dup = await createPolicy('dr-base', 'sales-c2c', hdfs('sales-c2c', daily));
    expect([dup.code, dup.stderr]).toEqual([1, expect.stringContaining('ALREADY_EXISTS')]);
  });

  test('jobs run on the clock every day; a suspended policy runs none until it is resumed', async () => {
    const jobs = async (): Promise<number> => (await policy('sales-c2c'))?.jobs.length ?? 0;
    expect((await clock('--pause')).code).toBe(0);
    let before = 0;
    try {
      before = await jobs();
      expect((await clock('--advance', '3d')).code).toBe(0);
      const ran = await policy('sales-c2c');
      expect([ran?.status, ran?.jobs.length]).toEqual(['SUCCEEDED', before + 3]);
      expect(ran?.jobs.every((j) => j.status === 'SUCCEEDED')).toBe(true);
      const suspended = await rm('policies', 'suspend', '--cluster-crn', crn('dr-base'), '--policy-name', 'sales-c2c', ...WAIT);
      expect(suspended.code).toBe(0);
      expect(JSON.parse(suspended.stdout)).toMatchObject({ name: 'sales-c2c', status: 'SUSPENDED' });
      expect((await clock('--advance', '3d')).code).toBe(0);
      expect(await jobs()).toBe(before + 3);
      const resumed = await rm('policies', 'resume', '--cluster-crn', crn('dr-base'), '--policy-name', 'sales-c2c', ...WAIT);
      expect(resumed.code).toBe(0);
    } finally {
      await clock('--resume', '--advance', '1d');
    }
    expect(await jobs()).toBeGreaterThanOrEqual(before + 4);
    const twice = await rm('policies', 'resume', '--cluster-crn', crn('dr-base'), '--policy-name', 'sales-c2c');
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringContaining('FAILED_PRECONDITION')]);
  });

  test('diagnostics collect --wait, then download: a zip of the policy and its jobs', async () => {
    const r = await rm('diagnostics', 'collect', '--cluster-crn', crn('dr-base'), '--policy-name', 'sales-c2c', ...WAIT);
    expect(r.code).toBe(0);
    const status = JSON.parse(r.stdout) as { commandId: number; bundleStatus: string; success: boolean };
    expect(status).toMatchObject({ bundleStatus: 'DOWNLOADABLE_WITH_CLI', success: true, active: false, name: 'sales-c2c' });
    const bundle = await em.json<{ bundleFile: string }>([
      'replicationmanager',
      'diagnostics',
      'download',
      '--cluster-crn',
      crn('dr-base'),
      '--command-id',
      String(status.commandId),
    ]);
    const zip = Buffer.from(bundle.bundleFile, 'base64');
    expect(zip.subarray(0, 2).toString()).toBe('PK');
    expect(zip.toString('latin1')).toContain('jobs.log');
    const elsewhere = await rm('diagnostics', 'status', '--cluster-crn', crn('prod-base'), '--command-id', String(status.commandId));
    expect([elsewhere.code, elsewhere.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND')]);
  });

  test('a credential in use is kept; policies delete --wait removes the policy, and then the credential goes', async () => {
    const inUse = await rm('credentials', 'delete', '--name', 'dr-aws-keys', '--yes');
    expect([inUse.code, inUse.stderr]).toEqual([1, expect.stringContaining('used by policy sales-hdfs')]);
    const r = await rm('policies', 'delete', '--cluster-crn', crn('prod-base'), '--policy-name', 'sales-hdfs', '--yes', ...WAIT);
    expect(r.code).toBe(0);
    expect(await policy('sales-hdfs')).toBeUndefined();
    expect((await rm('credentials', 'delete', '--name', 'dr-aws-keys', '--yes')).code).toBe(0);
    const all = await em.json<{ credentials: Array<{ credentials: { totalResults: number } }> }>([
      'replicationmanager',
      'credentials',
      'list',
    ]);
    expect(all.credentials.map((c) => c.credentials.totalResults)).toEqual([0, 0, 0, 0, 0]);
  });
});

describe('HBase policies between the two Operational Database clusters', () => {
  let ordersId = '';

  test('the pair verifies ready; a cluster without HBase does not', async () => {
    const ready = await rm('hbase-pairs', 'verify', '--source-cluster-crn', crn('prod-opdb'), '--destination-cluster-crn', crn('dr-opdb'));
    expect(JSON.parse(ready.stdout)).toMatchObject({ pairingStatus: 'NOT_PAIRED' });
    const without = await rm(
      'hbase-pairs',
      'verify',
      '--source-cluster-crn',
      crn('prod-base'),
      '--destination-cluster-crn',
      crn('dr-opdb'),
    );
    expect(JSON.parse(without.stdout)).toMatchObject({ pairingStatus: 'NOT_READY' });
  });

  test('hbase-policies create --wait copies the first snapshot, then replicates; a second policy of the pair too', async () => {
    const def = (tables: string[], snapshot: boolean) =>
      definition({
        hbasePolicyArguments: { tables },
        sourceCluster: 'sales-env$prod-opdb',
        targetCluster: 'sales-env$dr-opdb',
        initialSnapshot: snapshot,
      });
    const create = (name: string, d: string) =>
      rm('hbase-policies', 'create', '--cluster-crn', crn('dr-opdb'), '--policy-name', name, '--policy-definition', d, ...WAIT);
    const orders = await create('orders-hbase', def(['default:orders'], true));
    expect(orders.code).toBe(0);
    const made = JSON.parse(orders.stdout) as Policy;
    expect(made).toMatchObject({ type: 'HBASE', status: 'RUNNING', jobs: [{ jobType: 'HBASE_INITIAL_SNAPSHOT' }] });
    ordersId = made.policyId;
    expect((await create('customers-hbase', def(['default:customers'], false))).code).toBe(0);
    const badTable = await create('bad-hbase', def(['orders'], false));
    expect([badTable.code, badTable.stderr]).toEqual([1, expect.stringContaining('table orders is not namespace:table')]);
    const pairs = await em.json<{ pairings: Array<{ pairedCrns: string[] }> }>(['replicationmanager', 'hbase-pairs', 'list']);
    expect(pairs.pairings).toEqual([{ pairedCrns: [crn('prod-opdb'), crn('dr-opdb')] }]);
  });

  test("a policy's machine user password is kept nowhere: not in an export of the state", async () => {
    const secret = 'S3cret-hbase-password';
    const d = definition({
      hbasePolicyArguments: { tables: ['default:payments'] },
      sourceCluster: 'sales-env$prod-opdb',
      targetCluster: 'sales-env$dr-opdb',
      initialSnapshot: false,
      machineUser: { user: 'srv-hbase', password: secret, createUser: false },
    });
    const made = await rm(
      'hbase-policies',
      'create',
      '--cluster-crn',
      crn('dr-opdb'),
      '--policy-name',
      'payments-hbase',
      '--policy-definition',
      d,
      ...WAIT,
    );
    expect(made.code).toBe(0);
    const file = join(em.home, 'rm-state.json');
    const exported = await em.raw(['emulator', 'export', '--file', file, '--data-dir', em.dataDir]);
    expect(exported.code).toBe(0);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain('srv-hbase');
    expect(text).not.toContain(secret);
    const gone = await rm(
      'hbase-policies',
      'delete',
      '--cluster-crn',
      crn('dr-opdb'),
      '--policy-id',
      (JSON.parse(made.stdout) as Policy).policyId,
      '--yes',
    );
    expect([gone.code, gone.stderr]).toEqual([0, '']);
  });

  test('suspending one policy suspends the pair (Cloudera Manager API above 50); resuming resumes it', async () => {
    const r = await rm('hbase-policies', 'suspend', '--cluster-crn', crn('dr-opdb'), '--policy-id', ordersId, ...WAIT);
    expect(r.code).toBe(0);
    expect((await policy('customers-hbase'))?.status).toBe('SUSPENDED');
    const unpaired = await em.json<{ pairings?: unknown[] }>(['replicationmanager', 'hbase-pairs', 'list']);
    expect(unpaired.pairings ?? []).toEqual([]);
    expect((await rm('hbase-policies', 'resume', '--cluster-crn', crn('dr-opdb'), '--policy-id', ordersId, ...WAIT)).code).toBe(0);
    expect((await policy('customers-hbase'))?.status).toBe('RUNNING');
  });

  test('update renames it and changes its tables; continue-setup has nothing to continue for a Data Hub source', async () => {
    const r = await rm(
      'hbase-policies',
      'update',
      '--cluster-crn',
      crn('dr-opdb'),
      '--policy-id',
      ordersId,
      '--update-hbase-policy-definition',
      '{"name":"orders2-hbase","tables":["default:orders","default:invoices"]}',
    );
    expect(r.code).toBe(0);
    expect((await policy('orders2-hbase'))?.sourceDataset).toEqual(['default:orders', 'default:invoices']);
    const cont = await rm('hbase-policies', 'continue-setup', '--cluster-crn', crn('dr-opdb'), '--policy-id', ordersId);
    expect([cont.code, cont.stderr]).toEqual([1, expect.stringContaining('only a classic cluster source needs this')]);
    const plain = await rm('policies', 'suspend', '--cluster-crn', crn('dr-opdb'), '--policy-name', 'orders2-hbase');
    expect([plain.code, plain.stderr]).toEqual([1, expect.stringContaining('use the hbase-policies commands')]);
  });

  test('with its source stopped, the source is unreachable: a delete needs --force', async () => {
    expect((await em.cli(['datahub', 'clusters', 'stop', '--cluster-name', 'prod-opdb', ...WAIT])).code).toBe(0);
    const listed = await em.json<{ unreachableClusters: Array<{ message: string }> }>(['replicationmanager', 'clusters', 'list']);
    expect(listed.unreachableClusters).toEqual([expect.objectContaining({ message: expect.stringContaining('prod-opdb is STOPPED') })]);
    const plain = await rm('hbase-policies', 'delete', '--cluster-crn', crn('dr-opdb'), '--policy-id', ordersId, '--yes');
    expect([plain.code, plain.stderr]).toEqual([1, expect.stringContaining('delete it with --force')]);
    const forced = await rm(
      'hbase-policies',
      'delete',
      '--cluster-crn',
      crn('dr-opdb'),
      '--policy-id',
      ordersId,
      '--yes',
      '--force',
      ...WAIT,
    );
    expect(forced.code).toBe(0);
    expect(await policy('orders2-hbase')).toBeUndefined();
    const onStopped = await createPolicy('prod-opdb', 'any-hdfs', hdfs('any-hdfs', { sourceCluster: 'sales-env$prod-base' }));
    expect([onStopped.code, onStopped.stderr]).toEqual([1, expect.stringContaining('cluster prod-opdb is STOPPED')]);
  });
});

describe('failing on purpose', () => {
  test('a policy named fail-... fails its first job at once: create --wait ends with exit 5 and the job message', async () => {
    const r = await createPolicy(
      'dr-base',
      'fail-hive',
      definition({
        name: 'fail-hive',
        type: 'HIVE',
        frequencyInSec: 3600,
        sourceCluster: 'sales-env$prod-base',
        sourceDataset: { hiveArguments: { databasesAndTables: [{ database: 'sales', tablesIncludeRegex: '.*' }] } },
      }),
      ...WAIT,
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('failed on purpose: the policy name starts with "fail-"');
    expect((await policy('fail-hive'))?.status).toBe('FAILED');
  });

  test('the diagnostic bundle of a fail- policy fails: collect --wait ends with exit 5', async () => {
    const r = await rm('diagnostics', 'collect', '--cluster-crn', crn('dr-base'), '--policy-name', 'fail-hive', ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('no bundle was made');
  });
});
