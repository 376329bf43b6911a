/**
 * Cloudera Data Engineering against the emulator, through bin/run.js as a
 * user runs it: a service enabled with --wait in an environment with a
 * running data lake (refused where there is none, or no environment), its
 * kubeconfig and init logs; virtual clusters created, suspended, resumed,
 * updated and deleted with --wait; backups (listed with filters, cancelled
 * while pending, logs) and a service restored from one after it was
 * disabled with its virtual clusters; an upgrade in steps; and the failure
 * paths (`fail-` names end --wait with exit 5) and bad input (4xx, nothing
 * written).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type TestEmulator, FAST_WAIT as WAIT, SALES_LAKE as LAKE } from '../helpers/cli.js';

let em: TestEmulator;

interface Service {
  name: string;
  clusterId: string;
  status: string;
  version: string;
  environmentCrn: string;
  dataLakeFileSystems: string;
  dataLakeAtlasUIEndpoint: string;
  resources: Record<string, unknown>;
  [more: string]: unknown;
}
interface Vc {
  vcId: string;
  vcName: string;
  status: string;
  [more: string]: unknown;
}
interface Backup {
  id: number;
  serviceID: string;
  serviceName: string;
  status: string;
  [more: string]: unknown;
}

const enable = (name: string, ...extra: string[]) =>
  em.cli([
    'de',
    'services',
    'enable',
    '--name',
    name,
    '--env',
    'sales-env',
    '--instance-type',
    'm5.2xlarge',
    '--minimum-instances',
    '1',
    '--maximum-instances',
    '20',
    ...extra,
  ]);
/** `de vcs create` of a virtual cluster with a quota. */
const createVc = (clusterId: string, name: string, cpu: string, memory: string, ...extra: string[]) =>
  em.cli(['de', 'vcs', 'create', '--name', name, '--cluster-id', clusterId, '--cpu-requests', cpu, '--memory-requests', memory, ...extra]);
/** `de backups create` of a service: the new backup's id. */
const createBackup = async (clusterId: string, ...extra: string[]): Promise<number> =>
  (await em.json<{ backupID: number }>(['de', 'backups', 'create', '--service-id', clusterId, ...extra])).backupID;
const service = async (clusterId: string): Promise<Service> =>
  (await em.json<{ service: Service }>(['de', 'services', 'describe', '--cluster-id', clusterId])).service;
const services = async (): Promise<Service[]> => (await em.json<{ services?: Service[] }>(['de', 'services', 'list'])).services ?? [];
const vcs = async (clusterId: string): Promise<Vc[]> =>
  (await em.json<{ vcs?: Vc[] }>(['de', 'vcs', 'list', '--cluster-id', clusterId])).vcs ?? [];
const backup = async (id: number): Promise<Backup> =>
  (await em.json<{ backup: Backup }>(['de', 'backups', 'describe', '--backup-id', String(id)])).backup;
const clock = (...flags: string[]) => em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir]);

/** Reads until what is read passes (the emulated clock runs 1000 times real time), or fails the test after a minute. */
async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const v = await read();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

describe('a service needs an environment that exists, with a running data lake', () => {
  test('in an environment the account does not have: NOT_FOUND, nothing written', async () => {
    const r = await em.cli([
      'de',
      'services',
      'enable',
      '--name',
      'lost-de',
      '--env',
      'nowhere-env',
      '--instance-type',
      'm5.2xlarge',
      '--minimum-instances',
      '1',
      '--maximum-instances',
      '2',
    ]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND: environment nowhere-env not found')]);
    expect(await services()).toEqual([]);
  });

  test('in an environment without a data lake: FAILED_PRECONDITION, nothing written', async () => {
    const r = await enable('early-de');
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('environment sales-env has no data lake')]);
    expect(r.stderr).toContain('Status Code: 409');
    expect(await services()).toEqual([]);
  });

  test('a service, virtual cluster or backup that does not exist: NOT_FOUND', async () => {
    for (const args of [
      ['de', 'services', 'describe', '--cluster-id', 'cluster-nothere1'],
      ['de', 'vcs', 'create', '--name', 'etl', '--cluster-id', 'cluster-nothere1', '--cpu-requests', '4', '--memory-requests', '16Gi'],
      ['de', 'backups', 'create', '--service-id', 'cluster-nothere1'],
      ['de', 'backups', 'describe', '--backup-id', '4242'],
    ]) {
      const r = await em.cli(args);
      expect([args.slice(0, 3).join(' '), r.code, r.stderr]).toEqual([args.slice(0, 3).join(' '), 1, expect.stringContaining('NOT_FOUND')]);
    }
  });
});

describe('the everyday workflow', () => {
  let svc: Service;
  let vc: Vc;
  let backupId = 0;

  beforeAll(async () => {
    const lake = await em.cli([...LAKE, ...WAIT]);
    if (lake.code !== 0) throw new Error(`data lake create failed: ${lake.stderr}`);
  });

  test('bad settings are refused before anything is made (4xx): initial instances outside the range, a bad name, SSD off AWS', async () => {
    const high = await enable('sales-de', '--initial-instances', '30');
    expect([high.code, high.stderr]).toEqual([1, expect.stringContaining('initialInstances (30) must lie between')]);
    const badName = await enable('x');
    expect([badName.code, badName.stderr]).toEqual([1, expect.stringContaining('INVALID_ARGUMENT: service name x is not valid')]);
    const azure = await enable('sales-de', '--azure-service-managed-identity', '/subscriptions/1/identity');
    expect([azure.code, azure.stderr]).toEqual([1, expect.stringContaining('apply to Azure environments only')]);
    expect(await services()).toEqual([]);
  });

  test('services enable --wait ends ClusterCreationCompleted, on the data lake of its environment', async () => {
    const r = await enable('sales-de', '--maximum-spot-instances', '10', ...WAIT);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('ClusterCreationCompleted');
    svc = (JSON.parse(r.stdout) as { service: Service }).service;
    expect(svc).toMatchObject({
      name: 'sales-de',
      status: 'ClusterCreationCompleted',
      environmentName: 'sales-env',
      cloudPlatform: 'AWS',
      version: '1.25.0',
      dataLakeFileSystems: 's3a://sales-data/lake',
      resources: { instance_type: 'm5.2xlarge', min_instances: '1', max_instances: '20', max_spot_instances: '10' },
    });
    expect(svc.clusterId).toMatch(/^cluster-[a-z0-9]{8}$/);
    expect(svc.dataLakeAtlasUIEndpoint).toContain('/sales-lake/cdp-proxy/atlas/');
    expect((await services()).map((s) => [s.name, s.status])).toEqual([['sales-de', 'ClusterCreationCompleted']]);
    const again = await enable('sales-de');
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining('ALREADY_EXISTS')]);
  });

  test('its kubeconfig and the log of its enabling', async () => {
    const kube = await em.json<{ kubeconfig: string }>(['de', 'services', 'kubeconfig', '--cluster-id', svc.clusterId]);
    expect(kube.kubeconfig).toContain(`current-context: ${svc.clusterId}`);
    expect(kube.kubeconfig).toContain(`server: https://api.${String(svc.clusterFqdn)}:443`);
    const logs = await em.cli(['de', 'services', 'init-logs', '--service-id', svc.clusterId, '--output', 'text']);
    expect(logs.code).toBe(0);
    expect(logs.stdout).toContain('ClusterProvisioningInProgress');
    expect(logs.stdout).toContain('service sales-de is ready: version 1.25.0');
  });

  test('services update changes the autoscaling range, and refuses a minimum above the maximum it has', async () => {
    const r = await em.cli([
      'de',
      'services',
      'update',
      '--cluster-id',
      svc.clusterId,
      '--minimum-instances',
      '2',
      '--maximum-instances',
      '40',
    ]);
    expect(r.code).toBe(0);
    expect((await service(svc.clusterId)).resources).toMatchObject({ min_instances: '2', max_instances: '40' });
    const above = await em.cli(['de', 'services', 'update', '--cluster-id', svc.clusterId, '--minimum-instances', '50']);
    expect([above.code, above.stderr]).toEqual([1, expect.stringContaining('minimumInstances (50) is above maximumInstances (40)')]);
    expect((await service(svc.clusterId)).resources).toMatchObject({ min_instances: '2' });
  });

  test('vcs create --wait ends AppInstalled, with its quota, Spark version and endpoints', async () => {
    const r = await createVc(
      svc.clusterId,
      'etl-daily',
      '40',
      '160Gi',
      '--full-access-groups',
      'data-engineers',
      '--spark-configs',
      'spark.executor.memory=4g',
      ...WAIT,
    );
    expect(r.code).toBe(0);
    vc = (JSON.parse(r.stdout) as { vc: Vc }).vc;
    expect(vc).toMatchObject({
      vcName: 'etl-daily',
      clusterId: svc.clusterId,
      status: 'AppInstalled',
      sparkVersion: 'SPARK3_5',
      vcTier: 'CORE',
      resources: { cpuRequests: '40', memRequests: '160Gi' },
      accessControl: { fullAccessGroups: ['data-engineers'] },
      sparkConfigs: { 'spark.executor.memory': '4g' },
    });
    expect(String(vc.vcApiUrl)).toContain(`${vc.vcId}.cde-`);
    expect((await vcs(svc.clusterId)).map((v) => [v.vcName, v.status])).toEqual([['etl-daily', 'AppInstalled']]);
  });

  test('a virtual cluster with a bad quota, or a name the service has, is refused', async () => {
    const quota = await createVc(svc.clusterId, 'bad', 'many', '8Gi');
    expect([quota.code, quota.stderr]).toEqual([1, expect.stringContaining('cpuRequests many is not a number')]);
    const dup = await createVc(svc.clusterId, 'etl-daily', '4', '8Gi');
    expect([dup.code, dup.stderr]).toEqual([1, expect.stringContaining('ALREADY_EXISTS')]);
    expect((await vcs(svc.clusterId)).map((v) => v.vcName)).toEqual(['etl-daily']);
  });

  test('vcs suspend and resume --wait report every step completed; the status follows', async () => {
    const suspend = await em.cli(['de', 'vcs', 'suspend', '--cluster-id', svc.clusterId, '--vc-id', vc.vcId, ...WAIT]);
    expect(suspend.code).toBe(0);
    expect(JSON.parse(suspend.stdout)).toMatchObject({ allStepsCompleted: true, nextStep: 'resume' });
    expect((await vcs(svc.clusterId))[0]?.status).toBe('AppSuspended');
    const twice = await em.cli(['de', 'vcs', 'suspend', '--cluster-id', svc.clusterId, '--vc-id', vc.vcId]);
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringContaining('FAILED_PRECONDITION')]);
    const resume = await em.cli(['de', 'vcs', 'resume', '--cluster-id', svc.clusterId, '--vc-id', vc.vcId, ...WAIT]);
    expect(resume.code).toBe(0);
    expect((await vcs(svc.clusterId))[0]?.status).toBe('AppInstalled');
  });

  test('vcs update changes who may use it and drops its Spark settings', async () => {
    const r = await em.cli([
      'de',
      'vcs',
      'update',
      '--cluster-id',
      svc.clusterId,
      '--vc-id',
      vc.vcId,
      '--view-only-groups',
      'analysts',
      '--discard-spark-configs',
    ]);
    expect(r.code).toBe(0);
    const now = (await em.json<{ vc: Vc }>(['de', 'vcs', 'describe', '--cluster-id', svc.clusterId, '--vc-id', vc.vcId])).vc;
    expect(now.accessControl).toMatchObject({ fullAccessGroups: ['data-engineers'], viewOnlyGroups: ['analysts'] });
    expect(now.sparkConfigs).toBeUndefined();
  });

  test('backups: made of the service with its virtual clusters, listed with filters, logged; a pending one cancelled', async () => {
    backupId = await createBackup(svc.clusterId, '--description', 'nightly');
    expect(
      await until(
        () => backup(backupId),
        (b) => b.status === 'completed',
      ),
    ).toMatchObject({
      serviceID: svc.clusterId,
      serviceName: 'sales-de',
      status: 'completed',
      description: 'nightly',
    });
    const logs = await em.cli(['de', 'backups', 'logs', '--backup-id', String(backupId), '--output', 'text']);
    expect(logs.stdout).toContain('1 virtual cluster(s): etl-daily');
    expect(logs.stdout).toContain('archive written to s3a://sales-data/lake/dex/backups/');
    expect(await clock('--pause')).toMatchObject({ code: 0 });
    try {
      const pending = await createBackup(svc.clusterId, '--no-include-vc');
      expect((await backup(pending)).status).toBe('pending');
      expect((await em.cli(['de', 'backups', 'cancel', '--backup-id', String(pending)])).code).toBe(0);
      expect((await backup(pending)).status).toBe('cancelled');
    } finally {
      await clock('--resume');
    }
    const cancelDone = await em.cli(['de', 'backups', 'cancel', '--backup-id', String(backupId)]);
    expect([cancelDone.code, cancelDone.stderr]).toEqual([1, expect.stringContaining('cancel needs it pending')]);
    const listed = await em.json<{ backups: Backup[] }>([
      'de',
      'backups',
      'list',
      '--filter',
      'status(eq)completed',
      `clusterID(eq)${svc.clusterId}`,
    ]);
    expect(listed.backups.map((b) => b.id)).toEqual([backupId]);
    const bad = await em.cli(['de', 'backups', 'list', '--filter', 'color(eq)red']);
    expect([bad.code, bad.stderr]).toEqual([1, expect.stringContaining('INVALID_ARGUMENT')]);
  });

  test('its environment cannot be deleted while it holds the service', async () => {
    const r = await em.cli(['environments', 'delete', '--environment-name', 'sales-env', '--yes']);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('Data Engineering service sales-de')]);
    expect((await service(svc.clusterId)).status).toBe('ClusterCreationCompleted');
  });

  test('services disable --wait ends at ClusterDeletionCompleted, the service kept listed so (hidden by --remove-deleted), its virtual clusters gone; the backup stays', async () => {
    const r = await em.cli(['de', 'services', 'disable', '--cluster-id', svc.clusterId, '--yes', ...WAIT]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('ClusterDeletionCompleted');
    expect((await services()).map((s) => [s.clusterId, s.status])).toEqual([[svc.clusterId, 'ClusterDeletionCompleted']]);
    const shown = await em.json<{ services?: Service[] }>(['de', 'services', 'list', '--remove-deleted']);
    expect(shown.services ?? []).toEqual([]);
    const vcs = await em.json<{ vcs?: unknown[] }>(['de', 'vcs', 'list', '--cluster-id', svc.clusterId]);
    expect(vcs.vcs ?? []).toEqual([]);
    expect((await backup(backupId)).status).toBe('completed');
  });

  test('backups restore --wait brings the service back in its environment, with its virtual cluster; elsewhere it is refused', async () => {
    const crns = await em.json<{ environment: { crn: string } }>(['environments', 'describe', '--environment-name', 'ops-env']);
    const elsewhere = await em.cli([
      'de',
      'backups',
      'restore',
      '--backup-id',
      String(backupId),
      '--environment-crn',
      crns.environment.crn,
    ]);
    expect([elsewhere.code, elsewhere.stderr]).toEqual([1, expect.stringContaining('only into the environment it was backed up from')]);
    const r = await em.cli(['de', 'backups', 'restore', '--backup-id', String(backupId), '--environment-crn', svc.environmentCrn, ...WAIT]);
    expect(r.code).toBe(0);
    const restored = (JSON.parse(r.stdout) as { service: Service }).service;
    expect(restored).toMatchObject({
      name: 'sales-de',
      status: 'ClusterCreationCompleted',
      resources: { min_instances: '2', max_instances: '40' },
    });
    expect(restored.clusterId).not.toBe(svc.clusterId);
    expect(
      (
        await until(
          () => vcs(restored.clusterId),
          (l) => l[0]?.status === 'AppInstalled',
        )
      ).map((v) => [v.vcName, v.status, v.clusterId]),
    ).toEqual([['etl-daily', 'AppInstalled', restored.clusterId]]);
    const dup = await em.cli(['de', 'backups', 'restore', '--backup-id', String(backupId), '--environment-crn', svc.environmentCrn]);
    expect([dup.code, dup.stderr]).toEqual([1, expect.stringContaining('already has a service named sales-de')]);
  });
});

describe('an upgrade in steps', () => {
  test('a service on the previous version goes prepare, backup, upgrade, resume to the newest', async () => {
    const r = await enable('old-de', '--deploy-previous-version', ...WAIT);
    expect(r.code).toBe(0);
    const { clusterId, version } = (JSON.parse(r.stdout) as { service: Service }).service;
    expect(version).toBe('1.24.1');
    const vc = (...extra: string[]) => createVc(clusterId, 'jobs', '4', '8Gi', ...extra);
    const spark = await vc('--spark-version', 'SPARK3_5_4');
    expect([spark.code, spark.stderr]).toEqual([1, expect.stringContaining('SPARK3_5_4 needs Data Engineering 1.25.0 or later')]);
    const spot = await vc('--runtime-spot-component', 'ALL');
    expect([spot.code, spot.stderr]).toEqual([1, expect.stringContaining('runtimeSpotComponent needs spot instances')]);
    const status = async () =>
      em.json<{ upgradeStatusMessage: string; nextStep?: string; allStepsCompleted: boolean }>([
        'de',
        'services',
        'upgrade-status',
        '--cluster-id',
        clusterId,
      ]);
    const step = (s: string) => em.cli(['de', 'services', 'upgrade', '--cluster-id', clusterId, '--step', s]);
    expect(await status()).toMatchObject({ nextStep: 'prepare', allStepsCompleted: false });
    const early = await step('upgrade');
    expect([early.code, early.stderr]).toEqual([1, expect.stringContaining('begin with the prepare step')]);
    for (const s of ['prepare', 'backup', 'upgrade', 'resume']) {
      expect((await step(s)).code).toBe(0);
      // Each step is taken once the one before has ended.
      const now = await until(status, (v) => !v.upgradeStatusMessage.includes('in progress'));
      expect([s, now.allStepsCompleted]).toEqual([s, s === 'resume']);
    }
    expect((await service(clusterId)).version).toBe('1.25.0');
    const backups = await em.json<{ backups: Backup[] }>(['de', 'backups', 'list', '--filter', `clusterID(eq)${clusterId}`]);
    expect(backups.backups.map((b) => [b.status, b.description])).toEqual([['completed', 'before the upgrade to 1.25.0']]);
    const newest = await step('prepare');
    expect([newest.code, newest.stderr]).toEqual([1, expect.stringContaining('runs the newest version, 1.25.0')]);
  });
});

describe('failing on purpose', () => {
  test('a service named fail-... ends enable --wait with exit 5 and ClusterCreationFailed', async () => {
    const r = await enable('fail-de', ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('ClusterCreationFailed');
    expect((await services()).find((s) => s.name === 'fail-de')?.status).toBe('ClusterCreationFailed');
  });

  test('a virtual cluster named fail-... ends vcs create --wait with exit 5 and AppInstallationFailed', async () => {
    const svc = (await services()).find((s) => s.name === 'old-de');
    if (!svc) throw new Error('old-de is missing');
    const r = await createVc(svc.clusterId, 'fail-etl', '4', '16Gi', ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('AppInstallationFailed');
  });

  test('a backup whose description starts with fail- ends failed, and says why', async () => {
    const svc = (await services()).find((s) => s.name === 'old-de');
    if (!svc) throw new Error('old-de is missing');
    const made = await createBackup(svc.clusterId, '--description', 'fail-nightly');
    const b = await until(
      () => backup(made),
      (x) => x.status !== 'pending' && x.status !== 'running',
    );
    expect(b.status).toBe('failed');
    expect(String(b.errorMessage)).toContain('failed on purpose');
  });
});
