/**
 * compute through the real binary against the emulator: cluster creation,
 * suspend, resume and upgrade with --wait; deleteCluster --force only in
 * DELETE_FAILED; a `fail-` cluster (exit 5); retrying a failed operation;
 * deployments; client-side rules (exit 2, nothing sent); aliases.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { environmentCrns, startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
let crn = '';
/** The CRN of the pre-created AWS environment sales-env (set in beforeAll). */
let ENV = '';
const FAST = ['--poll-interval', '0.05', '--wait-timeout', '60'];

interface Cluster {
  clusterCrn: string;
  clusterName: string;
  status: string;
  kubernetesVersion: string;
  clusterStateVersion: number;
}

const create = (name: string, extra: string[] = []): ReturnType<TestEmulator['cli']> =>
  em.cli(['compute', 'clusters', 'create', '--environment', ENV, '--name', name, ...extra]);

async function requests(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${em.port}/_emulator/health`);
  return ((await res.json()) as { stats: { requests: number } }).stats.requests;
}

beforeAll(async () => {
  em = await startEmulator();
  ENV = (await environmentCrns(em))['sales-env'] ?? '';
  const r = await create('analytics', ['--wait', ...FAST, '--output', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  crn = (JSON.parse(r.stdout) as Cluster).clusterCrn;
});

afterAll(async () => {
  await em?.stop();
});

describe('compute clusters', () => {
  test('create --wait reached RUNNING; list and describe show it', async () => {
    const d = await em.json<Cluster>(['compute', 'clusters', 'describe', '--cluster-crn', crn]);
    expect(d).toMatchObject({ clusterName: 'analytics', status: 'RUNNING' });
    const l = await em.json<{ clusters: Cluster[] }>(['compute', 'clusters', 'list', '--env-name-or-crn', ENV]);
    expect(l.clusters.map((c) => c.clusterName)).toContain('analytics');
  });

  test('delete --force is refused unless the cluster is DELETE_FAILED', async () => {
    const r = await em.cli(['compute', 'clusters', 'delete', '--cluster-crn', crn, '--force', '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('DELETE_FAILED');
  });

  test('a fail- cluster: create exits 5, delete exits 5 in DELETE_FAILED, then --force deletes it', async () => {
    const c = await create('fail-etl', ['--wait', ...FAST]);
    expect(c.code).toBe(5);
    expect(c.stderr).toContain('CREATE_FAILED');
    const l = await em.json<{ clusters: Cluster[] }>(['compute', 'clusters', 'list', '--status', 'CREATE_FAILED']);
    const failed = l.clusters.find((x) => x.clusterName === 'fail-etl');
    expect(failed).toMatchObject({ clusterName: 'fail-etl', status: 'CREATE_FAILED' });
    const fcrn = failed?.clusterCrn ?? '';
    const d = await em.cli(['compute', 'clusters', 'delete', '--cluster-crn', fcrn, '--yes', '--wait', ...FAST]);
    expect(d.code).toBe(5);
    expect(d.stderr).toContain('DELETE_FAILED');
    const f = await em.json<{ clusterStatus: { status: string } }>([
      'compute',
      'clusters',
      'delete',
      '--cluster-crn',
      fcrn,
      '--force',
      '--yes',
    ]);
    expect(f.clusterStatus.status).toBe('DELETED');
    const after = await em.json<Cluster>(['compute', 'clusters', 'describe', '--cluster-crn', fcrn]);
    expect(after.status).toBe('DELETED');
  });

  test('suspend --wait and resume --wait', async () => {
    const s = await em.json<Cluster>(['compute', 'clusters', 'suspend', '--cluster-crn', crn, '--wait', ...FAST]);
    expect(s.status).toBe('SUSPENDED');
    const r = await em.json<Cluster>(['compute', 'clusters', 'resume', '--cluster-crn', crn, '--wait', ...FAST]);
    expect(r.status).toBe('RUNNING');
  });

  test('upgrade --wait follows the operation to COMPLETED and the version moves on', async () => {
    const before = await em.json<Cluster>(['compute', 'clusters', 'describe', '--cluster-crn', crn]);
    const op = await em.json<{ operationStatus: string; workflowOperation: string }>([
      'compute',
      'clusters',
      'upgrade',
      '--cluster-crn',
      crn,
      '--wait',
      ...FAST,
    ]);
    expect(op).toMatchObject({ operationStatus: 'COMPLETED', workflowOperation: 'UPGRADE' });
    const after = await em.json<Cluster>(['compute', 'clusters', 'describe', '--cluster-crn', crn]);
    expect(after.kubernetesVersion).not.toBe(before.kubernetesVersion);
  });

  test('a failed upgrade can be retried: retry resets the operation and it completes', async () => {
    const c = await em.json<Cluster>([
      'compute',
      'clusters',
      'create',
      '--environment',
      ENV,
      '--name',
      'fail-upgrade-ml',
      '--wait',
      ...FAST,
    ]);
    const up = await em.cli(['compute', 'clusters', 'upgrade', '--cluster-crn', c.clusterCrn, '--output', 'json']);
    expect(up.code).toBe(0);
    const opId = (JSON.parse(up.stdout) as { operationId: string }).operationId;
    // The upgrade takes 8 emulated minutes: move the clock past it rather than wait.
    const advanced = await em.raw(['emulator', 'clock', '--advance', '10m', '--data-dir', em.dataDir]);
    expect(advanced.code).toBe(0);
    const st = await em.json<{ operationStatus: string }>(['compute', 'operations', 'status', '--operation-id', opId]);
    expect(st.operationStatus).toBe('FAILED');
    const retried = await em.json<{ operationStatus: string }>([
      'compute',
      'operations',
      'retry',
      '--operation-id',
      opId,
      '--wait',
      ...FAST,
    ]);
    expect(retried.operationStatus).toBe('COMPLETED');
    const details = await em.json<{ retryCount: number; operationStatus: string }>([
      'compute',
      'operations',
      'describe',
      '--operation-id',
      opId,
    ]);
    expect(details).toMatchObject({ retryCount: 1, operationStatus: 'COMPLETED' });
    const d = await em.json<Cluster>(['compute', 'clusters', 'describe', '--cluster-crn', c.clusterCrn]);
    expect(d.status).toBe('RUNNING');
  });

  test('deployments: list, upgrade to a newer chart, describe shows the history', async () => {
    const l = await em.json<{ installedDeployments: Array<{ name: string; namespace: string; upgrades: unknown[] }> }>([
      'compute',
      'deployments',
      'list',
      '--cluster-crn',
      crn,
    ]);
    const dep = l.installedDeployments.find((d) => d.name === 'metrics-server');
    expect(dep?.upgrades.length).toBeGreaterThan(0);
    const u = await em.json<{ revision: number; status: string }>([
      'compute',
      'deployments',
      'upgrade',
      '--cluster-crn',
      crn,
      '--namespace',
      'kube-system',
      '--name',
      'metrics-server',
    ]);
    expect(u).toMatchObject({ revision: 2, status: 'DEPLOYED' });
    const d = await em.json<{ history: Array<{ revision: number; status: string }> }>([
      'compute',
      'deployments',
      'describe',
      '--cluster-crn',
      crn,
      '--namespace',
      'kube-system',
      '--name',
      'metrics-server',
    ]);
    expect(d.history.map((h) => h.status)).toEqual(['DEPLOYED', 'SUPERSEDED']);
  });

  test('update with a stale clusterStateVersion is refused', async () => {
    const d = await em.json<Cluster>(['compute', 'clusters', 'describe', '--cluster-crn', crn]);
    const stale = await em.cli([
      'compute',
      'clusters',
      'update',
      '--cluster-crn',
      crn,
      '--spec',
      'refreshInstanceGroups=true',
      '--cluster-state-version',
      String(d.clusterStateVersion - 1),
    ]);
    expect(stale.code).toBe(1);
    const ok = await em.json<Cluster>([
      'compute',
      'clusters',
      'update',
      '--cluster-crn',
      crn,
      '--spec',
      'refreshInstanceGroups=true',
      '--wait',
      ...FAST,
    ]);
    expect(ok.status).toBe('RUNNING');
  });
});

describe('describeCluster has the fields the seed lists', () => {
  test('clusterOwner names the creating user: e-mail, first and last name', async () => {
    const d = await em.json<{ clusterOwner: Record<string, string> }>(['compute', 'clusters', 'describe', '--cluster-crn', crn]);
    const me = await em.json<{ user: { userId: string; crn: string; email: string; firstName: string; lastName: string } }>([
      'iam',
      'users',
      'get',
    ]);
    expect(d.clusterOwner).toMatchObject({
      userId: me.user.userId,
      crn: me.user.crn,
      email: me.user.email,
      firstName: me.user.firstName,
      lastName: me.user.lastName,
    });
    expect(d.clusterOwner.accountId).toMatch(/^\S+$/);
  });

  test('eks carries deployments: logging off, monitoring limited to 1000m CPU and 2048M memory', async () => {
    const d = await em.json<{ eks: { deployments: { logging: { enabled: boolean }; monitoring: Record<string, unknown> } } }>([
      'compute',
      'clusters',
      'describe',
      '--cluster-crn',
      crn,
    ]);
    expect(d.eks.deployments.logging).toEqual({ enabled: false });
    expect(d.eks.deployments.monitoring).toMatchObject({ enabled: true, serverResourceLimits: { cpu: '1000m', memory: '2048M' } });
  });

  test('an Azure cluster: aks node pools with the seed fields, deployments, and the CIDRs it was created with', async () => {
    const made = await em.json<{ clusterCrn: string }>([
      'compute',
      'clusters',
      'create',
      '--environment',
      'ops-env',
      '--name',
      'azure-pool',
      '--network',
      'podCidr=10.50.0.0/16,serviceCidr=10.60.0.0/16',
      '--wait',
      ...FAST,
    ]);
    const d = await em.json<{
      envCloudProvider: string;
      computePlatform: string;
      eks?: unknown;
      aks: {
        podCidr: string;
        serviceCidr: string;
        deployments: { logging: { enabled: boolean }; monitoring: { serverResourceLimits: Record<string, string> } };
        instanceGroups: Record<string, Record<string, unknown>>;
      };
    }>(['compute', 'clusters', 'describe', '--cluster-crn', made.clusterCrn]);
    expect(d).toMatchObject({ envCloudProvider: 'AZURE', computePlatform: 'AKS' });
    expect(d.eks).toBeUndefined();
    expect(d.aks).toMatchObject({ podCidr: '10.50.0.0/16', serviceCidr: '10.60.0.0/16' });
    expect(d.aks.deployments.logging.enabled).toBe(false);
    expect(d.aks.deployments.monitoring.serverResourceLimits).toEqual({ cpu: '1000m', memory: '2048M' });
    const groups = Object.values(d.aks.instanceGroups);
    expect(groups.map((g) => g.isSystem).sort()).toEqual([false, true]);
    const seedFields = [
      'availabilityZones',
      'enableAutoScaling',
      'instanceCount',
      'instanceGroupId',
      'instanceGroupName',
      'instanceTier',
      'instanceType',
      'isSystem',
      'kubeReservedCpu',
      'kubeReservedMemory',
      'kubeReservedStorage',
      'systemReservedCpu',
      'systemReservedMemory',
      'systemReservedStorage',
      'labels',
      'maxInstance',
      'minInstance',
      'nodeVolumeSize',
      'singleZone',
      'tags',
      'taints',
    ];
    for (const g of groups) expect(Object.keys(g)).toEqual(expect.arrayContaining(seedFields));
    expect(groups.every((g) => typeof g.instanceType === 'string' && g.instanceType !== '')).toBe(true);
  });
});

describe('compute client-side rules: exit 2 and nothing sent', () => {
  test.each([
    ['a cluster CRN that is not one', ['compute', 'clusters', 'describe', '--cluster-crn', 'analytics']],
    [
      'a pod CIDR that is not a CIDR',
      ['compute', 'clusters', 'create', '--environment', ENV, '--name', 'x1', '--network', 'podCidr=10.0.0.0'],
    ],
    [
      'deployment overrides that are not JSON',
      [
        'compute',
        'deployments',
        'upgrade',
        '--cluster-crn',
        'crn:cdp:compute:us-west-1:a:cluster:c',
        '--namespace',
        'n',
        '--name',
        'm',
        '--overrides',
        'replicas=2',
      ],
    ],
    ['retry without an operation id', ['compute', 'operations', 'retry']],
  ])('%s', async (_n, args) => {
    const before = await requests();
    const r = await em.cli(args);
    expect(r.code).toBe(2);
    expect(await requests()).toBe(before);
  });

  test.each([
    ['create-cluster', ['environment', 'name', 'description', 'tags', 'network', 'skipValidation']],
    ['delete-cluster', ['clusterCrn', 'force', 'skipWorkloadsValidation', 'skipValidation']],
    ['get-operation-status', ['operationId']],
  ])('compute %s --generate-skeleton', async (alias, fields) => {
    const r = await em.cli(['compute', alias, '--generate-skeleton']);
    expect(r.code).toBe(0);
    expect(Object.keys(JSON.parse(r.stdout) as object)).toEqual(fields);
  });
});

describe('create --wait when validation fails (issue 13, item 14)', () => {
  test('prints the create answer with its validationResponse and exits 5; no describe is sent', async () => {
    // The name is taken: the create answers VALIDATION_FAILED.
    const r = await create('analytics', ['--wait', ...FAST, '--output', 'json', '--debug']);
    expect(r.code).toBe(5);
    const out = JSON.parse(r.stdout) as { clusterStatus: { status: string }; validationResponse: { result: string; message: string } };
    expect(out.clusterStatus.status).toBe('VALIDATION_FAILED');
    expect(out.validationResponse.result).toBe('FAILED');
    expect(r.stderr).not.toContain('/describeCluster');
    const err = JSON.parse(
      r.stderr
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .at(-1) ?? '{}',
    ) as { error: { code: string; message: string } };
    expect(err.error.code).toBe('OPERATION_FAILED');
    expect(err.error.message).toMatch(/^createCluster ended in VALIDATION_FAILED/);
  });
});
