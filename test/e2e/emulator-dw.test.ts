/**
 * The emulator's Data Warehouse through bin/run.js, as a user drives it
 * with --wait: the service activated in an AWS environment (with its default
 * Database Catalog), a catalog and a Hive and an Impala Virtual Warehouse on
 * it, a warehouse suspended and started, upgraded once its catalog is, its
 * configuration changed and compared, a Data Visualization made and
 * upgraded, the cluster's delete refused while it holds catalogs and
 * warehouses and done with --force. Failing on purpose: a `fail-`
 * warehouse, an Azure activation with a `fail-` subdomain, a `fail-`
 * backup, each ending where the waiter takes it for failure (exit 5). Bad
 * input: an environment or a catalog that does not exist (NOT_FOUND),
 * another cloud's activation, foreign subnets; each a 4xx that writes
 * nothing.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type TestEmulator, FAST_WAIT as WAIT } from '../helpers/cli.js';

let em: TestEmulator;

interface Vw {
  id: string;
  name: string;
  vwType: string;
  status: string;
  dbcId: string;
  nodeCount: number;
  imageVersion: string;
  cdhVersion: string;
  configId: string;
  endpoints: Record<string, unknown>;
  replicaStatus: Record<string, number>;
  impalaHaSettingsOptions?: Record<string, unknown>;
}

/** A `dw` command line, its words split on spaces (no value here has one). */
const words = (line: string): string[] => line.split(' ').filter((w) => w !== '');
const dw = (line: string, ...more: string[]) => em.cli(['dw', ...words(line), ...more]);
const dwJson = <T>(line: string) => em.json<T>(['dw', ...words(line)]);
/** A command with --wait, its exit code and parsed answer. */
async function waited<T>(line: string): Promise<{ code: number; out: T; stderr: string }> {
  const r = await dw(line, ...WAIT, '--output', 'json');
  return { code: r.code, out: (r.stdout ? JSON.parse(r.stdout) : {}) as T, stderr: r.stderr };
}

const envCrn = async (name: string): Promise<string> =>
  (await em.json<{ environment: { crn: string } }>(['environments', 'describe', '--environment-name', name])).environment.crn;
const clusters = async () =>
  (await dwJson<{ clusters: Array<{ id: string; status: string; environmentCrn: string }> }>('clusters list')).clusters;

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

describe('the everyday workflow in an AWS environment', () => {
  let cluster = '';
  let dbc = '';
  let hive = '';
  let impala = '';

  test('clusters create aws --wait activates the service: Running, with the default Database Catalog', async () => {
    const crn = await envCrn('sales-env');
    const r = await waited<{ cluster: Record<string, unknown> }>(
      `clusters create aws --environment-crn ${crn} --worker-subnet-ids sales-env-subnet-a sales-env-subnet-b --lb-subnet-ids sales-env-subnet-c --whitelist-workload-access-ip-cidrs 203.0.113.0/24`,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/Accepted|Creating/);
    expect(r.out.cluster).toMatchObject({
      status: 'Running',
      environmentCrn: crn,
      name: 'sales-env',
      cloudPlatform: 'AWS',
      whitelistWorkloadAccessIpCIDRs: '203.0.113.0/24',
      awsOptions: { workerSubnetIds: ['sales-env-subnet-a', 'sales-env-subnet-b'], availabilityZones: ['us-west-2a', 'us-west-2b'] },
    });
    cluster = String(r.out.cluster.id);
    expect(cluster).toMatch(/^env-[a-z0-9]{6}$/);
    const dbcs = await dwJson<{ dbcs: Array<{ name: string; status: string }> }>(`dbcs list --cluster-id ${cluster}`);
    expect(dbcs.dbcs).toEqual([expect.objectContaining({ name: 'sales-env-default', status: 'Running' })]);
    // One cluster an environment.
    const again = await dw(`clusters create aws --environment-crn ${crn}`);
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining(`ALREADY_EXISTS: environment sales-env already has Data Warehouse cluster ${cluster}`),
    ]);
  });

  test('a catalog and a Hive and an Impala Virtual Warehouse on it, each created with --wait', async () => {
    const made = await waited<{ dbc: { id: string; status: string } }>(
      `dbcs create --cluster-id ${cluster} --name sales-catalog --image-version 2024.0.18.0-301`,
    );
    expect([made.code, made.out.dbc.status]).toEqual([0, 'Running']);
    dbc = made.out.dbc.id;
    expect(dbc).toMatch(/^warehouse-\d+-[a-z0-9]{4}$/);

    const h = await waited<{ vw: Vw }>(
      `vws create --cluster-id ${cluster} --dbc-id ${dbc} --vw-type hive --name sales-hive --t-shirt-size small`,
    );
    expect(h.code).toBe(0);
    expect(h.out.vw).toMatchObject({
      name: 'sales-hive',
      vwType: 'hive',
      status: 'Running',
      dbcId: dbc,
      nodeCount: 10,
      imageVersion: '2024.0.18.0-301',
    });
    expect(String(h.out.vw.endpoints.hiveJdbc)).toContain('hs2-sales-hive.');
    expect(h.out.vw.replicaStatus).toMatchObject({ totalExecutorReplicas: 10, readyExecutorReplicas: 10 });
    hive = h.out.vw.id;
    expect(hive).toMatch(/^compute-\d+-[a-z0-9]{4}$/);

    const i = await waited<{ vw: Vw }>(`vws create --cluster-id ${cluster} --dbc-id ${dbc} --vw-type impala --name sales-impala`);
    expect(i.code).toBe(0);
    expect(i.out.vw).toMatchObject({
      vwType: 'impala',
      status: 'Running',
      impalaHaSettingsOptions: { highAvailabilityMode: 'ACTIVE_PASSIVE' },
    });
    expect(String(i.out.vw.endpoints.impalaJdbc)).toContain('coordinator-sales-impala.');
    impala = i.out.vw.id;
    expect(impala).toMatch(/^impala-/);

    const onlyImpala = await dwJson<{ vws: Vw[] }>(`vws list --cluster-id ${cluster} --filter vwType=impala`);
    expect(onlyImpala.vws.map((v) => v.id)).toEqual([impala]);
  });

  test('suspend and start a warehouse with --wait; suspending a suspended one changes nothing', async () => {
    const s = await waited<{ vw: Vw }>(`vws suspend --cluster-id ${cluster} --vw-id ${hive}`);
    expect([s.code, s.out.vw.status]).toEqual([0, 'Stopped']);
    expect(s.stderr).toMatch(/Stopping/);
    expect(s.out.vw.replicaStatus).toMatchObject({ totalExecutorReplicas: 0, readyExecutorReplicas: 0 });
    const again = await dw(`vws suspend --cluster-id ${cluster} --vw-id ${hive}`);
    expect(again.code).toBe(0);
    expect((await dwJson<{ vw: Vw }>(`vws describe --cluster-id ${cluster} --vw-id ${hive}`)).vw.status).toBe('Stopped');
    const st = await waited<{ vw: Vw }>(`vws start --cluster-id ${cluster} --vw-id ${hive}`);
    expect([st.code, st.out.vw.status]).toEqual([0, 'Running']);
  });

  test('a warehouse is upgraded once its catalog runs the release', async () => {
    const versions = await dwJson<Record<string, string>>(`vws upgrade-versions --cluster-id ${cluster} --vw-id ${hive}`);
    expect(versions).toMatchObject({ compatibleVersion: '2024.0.18.0-301', latestVersion: '2025.0.20.0-112' });
    const early = await dw(`vws upgrade --cluster-id ${cluster} --vw-id ${hive} --dbc-id ${dbc} --image-version 2024.0.19.0-45`);
    expect([early.code, early.stderr]).toEqual([1, expect.stringContaining('upgrade it to 2024.0.19.0-45 before its Virtual Warehouses')]);
    const cat = await waited<{ dbc: { status: string } }>(
      `dbcs upgrade --cluster-id ${cluster} --dbc-id ${dbc} --image-version 2024.0.19.0-45`,
    );
    expect([cat.code, cat.out.dbc.status]).toEqual([0, 'Running']);
    expect(cat.stderr).toMatch(/Upgrading/);
    const up = await waited<{ vw: Vw }>(
      `vws upgrade --cluster-id ${cluster} --vw-id ${hive} --dbc-id ${dbc} --image-version 2024.0.19.0-45`,
    );
    expect(up.code).toBe(0);
    expect(up.out.vw).toMatchObject({ status: 'Running', imageVersion: '2024.0.19.0-45', cdhVersion: '7.2.18.200-39' });
    const events = await dwJson<{ events: Array<{ event: string }> }>(`vws events list --cluster-id ${cluster} --vw-id ${hive} --limit 2`);
    expect(events.events.map((e) => e.event)).toEqual(['UpgradeCompleted', 'UpgradeRequested']);
  });

  test('a configuration change makes a new version; the diff shows what changed', async () => {
    const before = (await dwJson<{ vw: Vw }>(`vws describe --cluster-id ${cluster} --vw-id ${hive}`)).vw.configId;
    const r = await waited<{ vw: Vw }>(
      `vws config update --cluster-id ${cluster} --vw-id ${hive} --component Hiveserver2 --set [{"configFile":"hive-site","keyValue":{"hive.server2.idle.session.timeout":"3600000"}}]`,
    );
    expect(r.code).toBe(0);
    const after = r.out.vw.configId;
    expect(after).not.toBe(before);
    const history = await dwJson<{ configHistory: Array<{ configId: string }> }>(
      `vws config history --cluster-id ${cluster} --vw-id ${hive}`,
    );
    expect(history.configHistory.map((c) => c.configId)).toEqual([after, before]);
    const diff = await dwJson<{ config: { isChanged: boolean; applicationConfigsDiffs: Record<string, unknown> } }>(
      `configs diff --cluster-id ${cluster} --from-config-id ${before} --to-config-id ${after}`,
    );
    expect(diff.config.isChanged).toBe(true);
    expect(diff.config.applicationConfigsDiffs.Hiveserver2).toMatchObject({
      isChanged: true,
      configBlocksDiffs: {
        changed: [
          {
            id: 'hive-site',
            contentDiff: { keyValues: { changed: { 'hive.server2.idle.session.timeout': { from: '86400000', to: '3600000' } } } },
          },
        ],
      },
    });
    // Impala's components are not a Hive warehouse's.
    const wrong = await dw(
      `vws config update --cluster-id ${cluster} --vw-id ${hive} --component ImpalaCoordinator --set [{"configFile":"flagfile","keyValue":{"a":"b"}}]`,
    );
    expect([wrong.code, wrong.stderr]).toEqual([
      1,
      expect.stringContaining('INVALID_ARGUMENT: ImpalaCoordinator is not a component of Virtual Warehouse sales-hive'),
    ]);
  });

  test('a Data Visualization is created and upgraded with --wait', async () => {
    const made = await waited<{ dataVisualization: Record<string, unknown> }>(
      `data-visualizations create --cluster-id ${cluster} --name sales-dashboards --config {"userGroups":["analysts"],"adminGroups":["dw-admins"]}`,
    );
    expect(made.code).toBe(0);
    expect(made.out.dataVisualization).toMatchObject({
      status: 'Running',
      imageVersion: '7.2.2-b31',
      userGroups: ['analysts'],
      size: 'viz-default',
    });
    const id = String(made.out.dataVisualization.id);
    const latest = await dwJson<{ upgradeVersions: { latestVersion: string } }>(
      `data-visualizations upgrade-versions --cluster-id ${cluster} --data-visualization-id ${id}`,
    );
    const up = await waited<{ dataVisualization: Record<string, unknown> }>(
      `data-visualizations upgrade --cluster-id ${cluster} --data-visualization-id ${id} --image-version ${latest.upgradeVersions.latestVersion}`,
    );
    expect(up.code).toBe(0);
    expect(up.out.dataVisualization).toMatchObject({ status: 'Running', imageVersion: '7.2.3-b46' });
  });

  test('the cluster is not deleted while it holds catalogs and warehouses; --force deletes it with them', async () => {
    const refused = await dw(`clusters delete --cluster-id ${cluster} --yes`);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('FAILED_PRECONDITION');
    expect(refused.stderr).toMatch(
      /Database Catalog sales-catalog.*Virtual Warehouse sales-hive.*Virtual Warehouse sales-impala.*delete with force/,
    );
    // Nothing was written: the cluster and its warehouses run on.
    expect((await clusters()).map((c) => [c.id, c.status])).toEqual([[cluster, 'Running']]);
    expect((await dwJson<{ vws: Vw[] }>(`vws list --cluster-id ${cluster}`)).vws.map((v) => v.status)).toEqual(['Running', 'Running']);
    // The default catalog goes with its cluster, never alone.
    const defaultDbc = (await dwJson<{ dbcs: Array<{ id: string; name: string }> }>(`dbcs list --cluster-id ${cluster}`)).dbcs.find(
      (d) => d.name === 'sales-env-default',
    );
    const alone = await dw(`dbcs delete --cluster-id ${cluster} --dbc-id ${defaultDbc?.id ?? ''} --yes`);
    expect([alone.code, alone.stderr]).toEqual([1, expect.stringContaining('is the default one of its cluster')]);

    const gone = await dw(`clusters delete --cluster-id ${cluster} --force --yes`, ...WAIT);
    expect(gone.code).toBe(0);
    expect(gone.stderr).toMatch(/Deleting/);
    const after = await dw(`clusters describe --cluster-id ${cluster}`);
    expect([after.code, after.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND')]);
    const vws = await dw(`vws describe --cluster-id ${cluster} --vw-id ${hive}`);
    expect(vws.stderr).toContain('NOT_FOUND');
    expect(await clusters()).toEqual([]);
  });
});

describe('failing on purpose', () => {
  let cluster = '';
  let dbc = '';

  beforeAll(async () => {
    const r = await waited<{ cluster: { id: string } }>(`clusters create aws --environment-crn ${await envCrn('staging-aws')}`);
    if (r.code !== 0) throw new Error(`activation failed: ${r.stderr}`);
    cluster = r.out.cluster.id;
    dbc = (await dwJson<{ dbcs: Array<{ id: string }> }>(`dbcs list --cluster-id ${cluster}`)).dbcs[0]?.id ?? '';
  });

  test('a warehouse named fail-... ends in Error: --wait exits 5, and its events say why', async () => {
    const r = await dw(`vws create --cluster-id ${cluster} --dbc-id ${dbc} --vw-type hive --name fail-etl`, ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/Error/);
    const vw = (await dwJson<{ vws: Vw[] }>(`vws list --cluster-id ${cluster}`)).vws.find((v) => v.name === 'fail-etl');
    expect(vw?.status).toBe('Error');
    const events = await dwJson<{ events: Array<{ event: string; message: string }> }>(`events list --service-id ${vw?.id ?? ''}`);
    expect(events.events[0]).toMatchObject({
      event: 'CreateFailed',
      message: expect.stringContaining('the Virtual Warehouse name starts with "fail-"'),
    });
    // Its diagnostic bundle is collected, and fails as it does.
    const diag = await dw(`vws diagnostics create --cluster-id ${cluster} --vw-id ${vw?.id ?? ''} --destination DOWNLOAD`, ...WAIT);
    expect([diag.code, diag.stderr]).toEqual([5, expect.stringContaining('Failed')]);
  });

  test('fail-suspend-... fails its suspend once; the retry works', async () => {
    const made = await waited<{ vw: Vw }>(`vws create --cluster-id ${cluster} --dbc-id ${dbc} --vw-type impala --name fail-suspend-adhoc`);
    expect(made.code).toBe(0);
    const first = await dw(`vws suspend --cluster-id ${cluster} --vw-id ${made.out.vw.id}`, ...WAIT);
    expect(first.code).toBe(5);
    const rebuilt = await waited<{ vw: Vw }>(`vws rebuild --cluster-id ${cluster} --vw-id ${made.out.vw.id}`);
    expect([rebuilt.code, rebuilt.out.vw.status]).toEqual([0, 'Running']);
    const second = await waited<{ vw: Vw }>(`vws suspend --cluster-id ${cluster} --vw-id ${made.out.vw.id}`);
    expect([second.code, second.out.vw.status]).toEqual([0, 'Stopped']);
  });

  test('an Azure activation with a fail- custom subdomain ends in Error (exit 5)', async () => {
    const r = await dw(
      `clusters create azure --environment-crn ${await envCrn('ops-env')} --user-assigned-managed-identity /subscriptions/3b9f1c2e-6d7a-4e8b-9c0d-1e2f3a4b5c6d/resourceGroups/dw-rg/providers/Microsoft.ManagedIdentity/userAssignedIdentities/dw-aks --subnet-name ops-env-subnet-a --custom-subdomain fail-dw-ops`,
      ...WAIT,
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/Error/);
    const azure = (await clusters()).find((c) => c.status === 'Error');
    expect(azure?.environmentCrn).toBe(await envCrn('ops-env'));
  });

  test('a backup named fail-... ends FAILED with its error (exit 5); a restore needs a COMPLETED backup', async () => {
    const r = await dw(`backups create --backup-name fail-nightly`, ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/FAILED: create failed on purpose/);
    const crn =
      (await dwJson<{ backups: Array<{ backupCrn: string }> }>('backups list --backup-name fail-nightly')).backups[0]?.backupCrn ?? '';
    const restore = await dw(`backups restore --backup-crn ${crn}`);
    expect([restore.code, restore.stderr]).toEqual([
      1,
      expect.stringContaining('FAILED_PRECONDITION: backup fail-nightly is FAILED; restore needs it COMPLETED'),
    ]);
    const good = await waited<{ backup: { backupJobState: string; includedNamespaces: string[] } }>('backups create --backup-name nightly');
    expect(good.code).toBe(0);
    expect(good.out.backup.backupJobState).toBe('COMPLETED');
    expect(good.out.backup.includedNamespaces).toContain(dbc);
  });
});

describe('one world with the environment', () => {
  test('the cluster stops and starts with its environment, and keeps the environment from being deleted', async () => {
    const activated = await waited<{ cluster: { id: string } }>(`clusters create aws --environment-crn ${await envCrn('gov-env')}`);
    expect(activated.code).toBe(0);
    const cluster = activated.out.cluster.id;
    const stop = await em.cli(['environments', 'stop', '--environment-name', 'gov-env', ...WAIT]);
    expect(stop.code).toBe(0);
    const stopped = await dwJson<{ cluster: { status: string } }>(`clusters describe --cluster-id ${cluster}`);
    expect(stopped.cluster.status).toBe('Stopped');
    const dbc = (await dwJson<{ dbcs: Array<{ id: string }> }>(`dbcs list --cluster-id ${cluster}`)).dbcs[0]?.id ?? '';
    const vw = await dw(`vws create --cluster-id ${cluster} --dbc-id ${dbc} --vw-type hive --name while-stopped`);
    expect([vw.code, vw.stderr]).toEqual([
      1,
      expect.stringContaining(`Data Warehouse cluster ${cluster} is Stopped; a new Virtual Warehouse needs it Running`),
    ]);
    const start = await em.cli(['environments', 'start', '--environment-name', 'gov-env', ...WAIT]);
    expect(start.code).toBe(0);
    // The environment reports itself started before the services in it are: wait for the cluster too.
    const running = await dw(`clusters describe --cluster-id ${cluster}`, '--query', 'cluster.status', '--output', 'text');
    expect(['Starting', 'Running']).toContain(running.stdout.trim());
    const del = await em.cli(['environments', 'delete', '--environment-name', 'gov-env', '--yes']);
    expect([del.code, del.stderr]).toEqual([1, expect.stringContaining(`still has Data Warehouse cluster ${cluster}`)]);
  });
});

describe('bad input is refused with a 4xx and writes nothing', () => {
  test('a cluster in an environment that does not exist: NOT_FOUND', async () => {
    const before = await clusters();
    const crn = (await envCrn('sales-env')).replace(
      /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
      '00000000-0000-4000-8000-000000000000',
    );
    const r = await dw(`clusters create aws --environment-crn ${crn}`);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('NOT_FOUND: environment');
    expect(r.stderr).toContain('Status Code: 404');
    expect(await clusters()).toEqual(before);
  });

  test("another cloud's activation and subnets outside the environment: INVALID_ARGUMENT", async () => {
    const before = await clusters();
    const azure = await dw(`clusters create aws --environment-crn ${await envCrn('analytics-azure')}`);
    expect([azure.code, azure.stderr]).toEqual([1, expect.stringContaining('environment analytics-azure is on AZURE')]);
    const subnets = await dw(`clusters create aws --environment-crn ${await envCrn('lakehouse-aws')} --worker-subnet-ids subnet-0a1b2c3d`);
    expect([subnets.code, subnets.stderr]).toEqual([
      1,
      expect.stringContaining('subnet-0a1b2c3d is not a subnet of environment lakehouse-aws'),
    ]);
    expect(subnets.stderr).toContain('Status Code: 400');
    expect(await clusters()).toEqual(before);
  });

  test('a Virtual Warehouse on a catalog that does not exist: NOT_FOUND, and no warehouse', async () => {
    const r = await waited<{ cluster: { id: string } }>(`clusters create aws --environment-crn ${await envCrn('lakehouse-aws')}`);
    expect(r.code).toBe(0);
    const cluster = r.out.cluster.id;
    const vw = await dw(`vws create --cluster-id ${cluster} --dbc-id warehouse-1700000000-none --vw-type hive --name orphan`);
    expect(vw.code).toBe(1);
    expect(vw.stderr).toContain(`NOT_FOUND: Database Catalog warehouse-1700000000-none not found in cluster ${cluster}`);
    expect((await dwJson<{ vws?: Vw[] }>(`vws list --cluster-id ${cluster}`)).vws ?? []).toEqual([]);
    const noCluster = await dw('dbcs list --cluster-id env-nothere');
    expect([noCluster.code, noCluster.stderr]).toEqual([
      1,
      expect.stringContaining('NOT_FOUND: Data Warehouse cluster env-nothere not found'),
    ]);
  });
});
