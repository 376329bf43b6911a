/**
 * Cloudera AI (`ml`) against the emulator through bin/run.js, as a user runs
 * it: a workbench created with --wait in an environment, described, listed,
 * opened to a cloud identity and closed again, its instance groups added,
 * changed and removed (--wait), backed up and restored, upgraded and rolled
 * back, its upgrade cancelled, its audit trail and logs read, and deleted
 * with --force; an AI registry (one per environment) and an inference
 * service with --wait; `fail-` names ending in the failure statuses the
 * waiters expect (exit 5), a `fail-upgrade-` workbench whose retry goes
 * through; and bad input (an environment that does not exist, a request the
 * service refuses) answered 4xx with nothing written.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { environmentCrns, startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
let envCrn = '';

const WAIT = ['--wait', '--poll-interval', '0.05', '--wait-timeout', '120'];
const PROVISION = (env: string, type = 'm5.2xlarge'): string =>
  JSON.stringify({
    environmentName: env,
    instanceGroups: [{ instanceType: type, rootVolume: { size: 256 }, autoscaling: { minInstances: 1, maxInstances: 8 } }],
  });
const ROLE = 'arn:aws:iam::123456789012:role/ml-platform-admins';
/** A restore's new workbench in sales-env, as `ml workspaces create` takes it. */
const NEW = (name: string): string => JSON.stringify({ environmentName: 'sales-env', workspaceName: name });
/** An ml command's JSON answer. */
const ml = <T = Record<string, unknown>>(...args: string[]): Promise<T> => em.json<T>(['ml', ...args]);

interface Group {
  instanceGroupName: string;
  instanceType: string;
  minInstances: number;
  maxInstances: number;
  instanceCount: number;
  instances: unknown[];
  gpu?: string;
  accelerator?: { type: string; count: number };
}
interface Workbench {
  instanceName: string;
  instanceStatus: string;
  crn: string;
  environmentCrn: string;
  version: string;
  instanceGroups: Group[];
  failureMessage?: string;
  isRestored?: boolean;
  loadBalancerIPWhitelists?: string[];
  backupMetadata?: { numberOfAvailableBackups: number; lastBackupStatus: string };
}

const createWorkbench = (name: string, extra: string[] = [], env = 'sales-env') =>
  em.cli([
    'ml',
    'workspaces',
    'create',
    '--environment-name',
    env,
    '--workspace-name',
    name,
    '--provision-k8s-request',
    PROVISION(env),
    ...extra,
  ]);
const describe_ = async (name: string): Promise<Workbench> =>
  (await em.json<{ workspace: Workbench }>(['ml', 'workspaces', 'describe', '--environment-name', 'sales-env', '--workspace-name', name]))
    .workspace;
const names = async (): Promise<string[]> =>
  (await em.json<{ workspaces: Workbench[] }>(['ml', 'workspaces', 'list'])).workspaces.map((w) => w.instanceName);
/** Moves the emulator's clock on (what a script waiting that long would see). */
const advance = async (by: string): Promise<void> => {
  const r = await em.raw(['emulator', 'clock', '--advance', by, '--data-dir', em.dataDir]);
  if (r.code !== 0) throw new Error(`clock --advance ${by}: ${r.stderr}`);
};
const clock = async (flag: '--pause' | '--resume'): Promise<void> => {
  const r = await em.raw(['emulator', 'clock', flag, '--data-dir', em.dataDir]);
  if (r.code !== 0) throw new Error(`clock ${flag}: ${r.stderr}`);
};

beforeAll(async () => {
  em = await startEmulator();
  envCrn = (await environmentCrns(em))['sales-env'] ?? '';
});

afterAll(async () => {
  await em?.stop();
});

describe('a workbench through its everyday life', () => {
  let crn = '';

  test('create --wait provisions the cluster and installs the workbench: installation:finished, with its instance group', async () => {
    const r = await createWorkbench('ds-bench', [...WAIT, '--output', 'json']);
    expect([r.code, r.stderr]).toEqual([
      0,
      expect.stringMatching(/provision:started[\s\S]*installation:started[\s\S]*installation:finished/),
    ]);
    const ws = (JSON.parse(r.stdout) as { workspace: Workbench }).workspace;
    expect(ws).toMatchObject({
      instanceName: 'ds-bench',
      environmentName: 'sales-env',
      environmentCrn: envCrn,
      instanceStatus: 'installation:finished',
      cloudPlatform: 'AWS',
      httpsEnabled: true,
      instanceGroups: [
        { instanceGroupName: 'cpu-m5-2xlarge', instanceType: 'm5.2xlarge', minInstances: 1, maxInstances: 8, instanceCount: 1 },
      ],
    });
    expect(ws.crn).toMatch(/^crn:cdp:ml:us-west-1:[0-9a-f-]{36}:workspace:[0-9a-f-]{36}$/);
    const latest = await em.json<{ version: string }>(['ml', 'workspaces', 'latest-version']);
    // A new workbench runs the release before the newest, which an upgrade goes to.
    expect(ws.version).not.toBe(latest.version);
    crn = ws.crn;
  });

  test('describe by CRN or by environment and name; list shows it; a second of the name is ALREADY_EXISTS', async () => {
    const byCrn = await em.json<{ workspace: Workbench }>(['ml', 'workspaces', 'describe', '--workspace-crn', crn]);
    // Health is read as of now; the rest is the same record.
    const { healthInfoLists: _now, ...same } = byCrn.workspace as Workbench & { healthInfoLists?: unknown };
    expect(await describe_('ds-bench')).toMatchObject(same);
    expect(await names()).toEqual(['ds-bench']);
    const again = await createWorkbench('ds-bench');
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining('ALREADY_EXISTS: workbench ds-bench already exists in environment sales-env'),
    ]);
  });

  test('access: grant answers a kubeconfig for the identity, list shows it, revoke takes it back; a bad identity is refused', async () => {
    const grant = await em.json<{ kubeconfig: string }>([
      'ml',
      'workspaces',
      'access',
      'grant',
      '--workspace-crn',
      crn,
      '--identifier',
      ROLE,
    ]);
    expect(grant.kubeconfig).toMatch(
      /kind: Config[\s\S]*command: aws[\s\S]*--role-arn\n\s+- arn:aws:iam::123456789012:role\/ml-platform-admins/,
    );
    const listed = ['ml', 'workspaces', 'access', 'list', '--environment-name', 'sales-env', '--workspace-name', 'ds-bench'];
    expect(await em.json(listed)).toEqual({ users: [ROLE] });
    const twice = await em.cli(['ml', 'workspaces', 'access', 'grant', '--workspace-crn', crn, '--identifier', ROLE]);
    expect([twice.code, twice.stderr]).toEqual([1, expect.stringContaining('ALREADY_EXISTS')]);
    const bad = await em.cli(['ml', 'workspaces', 'access', 'grant', '--workspace-crn', crn, '--identifier', 'bob']);
    expect([bad.code, bad.stderr]).toEqual([
      1,
      expect.stringContaining('INVALID_ARGUMENT: identifier bob is not the ARN of an AWS IAM user or role'),
    ]);
    expect((await em.cli(['ml', 'workspaces', 'access', 'revoke', '--workspace-crn', crn, '--identifier', ROLE, '--yes'])).code).toBe(0);
    expect(await em.json(listed)).toEqual({ users: [] });
    const gone = await em.cli(['ml', 'workspaces', 'access', 'revoke', '--workspace-crn', crn, '--identifier', ROLE, '--yes']);
    expect([gone.code, gone.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND: access grant')]);
  });

  test('instance groups: add, update and delete each go through modify:started to modify:finished (--wait)', async () => {
    const add = await em.cli([
      'ml',
      'workspaces',
      'instance-groups',
      'add',
      '--workspace-crn',
      crn,
      '--instance-groups',
      '[{"instanceType":"p3.2xlarge","autoscaling":{"minInstances":0,"maxInstances":4}}]',
      ...WAIT,
      '--output',
      'json',
    ]);
    expect([add.code, add.stderr]).toEqual([0, expect.stringMatching(/modify:started[\s\S]*modify:finished/)]);
    const gpu = (JSON.parse(add.stdout) as { workspace: Workbench }).workspace.instanceGroups.find(
      (g) => g.instanceGroupName === 'gpu-p3-2xlarge',
    );
    expect(gpu).toMatchObject({
      instanceType: 'p3.2xlarge',
      minInstances: 0,
      maxInstances: 4,
      instanceCount: 0,
      gpu: '1',
      accelerator: { type: 'V100', count: 1 },
    });
    const update = await em.cli([
      ...['ml', 'workspaces', 'instance-groups', 'update', '--workspace-crn', crn, '--instance-group-name', 'gpu-p3-2xlarge'],
      ...['--instance-type', 'p3.8xlarge', '--min', '1', '--max', '2', ...WAIT, '--output', 'json'],
    ]);
    expect(update.code).toBe(0);
    const changed = (JSON.parse(update.stdout) as { workspace: Workbench }).workspace.instanceGroups.find(
      (g) => g.instanceGroupName === 'gpu-p3-2xlarge',
    );
    expect(changed).toMatchObject({ instanceType: 'p3.8xlarge', minInstances: 1, maxInstances: 2, instanceCount: 1, gpu: '4' });
    expect(changed?.instances).toHaveLength(1);
    const upside = await em.cli([
      ...['ml', 'workspaces', 'instance-groups', 'update', '--workspace-crn', crn, '--instance-group-name', 'no-such-group'],
      ...['--instance-type', 'm5.xlarge', '--min', '1', '--max', '2'],
    ]);
    expect([upside.code, upside.stderr]).toEqual([
      1,
      expect.stringContaining('NOT_FOUND: workbench ds-bench has no instance group no-such-group'),
    ]);
    const del = await em.cli([
      'ml',
      'workspaces',
      'instance-groups',
      'delete',
      '--workspace-crn',
      crn,
      '--instance-group-name',
      'gpu-p3-2xlarge',
      '--yes',
      ...WAIT,
    ]);
    expect(del.code).toBe(0);
    const left = await describe_('ds-bench');
    expect(left.instanceGroups.map((g) => g.instanceGroupName)).toEqual(['cpu-m5-2xlarge']);
    const last = await em.cli([
      'ml',
      'workspaces',
      'instance-groups',
      'delete',
      '--workspace-crn',
      crn,
      '--instance-group-name',
      'cpu-m5-2xlarge',
      '--yes',
    ]);
    expect([last.code, last.stderr]).toEqual([
      1,
      expect.stringContaining('FAILED_PRECONDITION: cpu-m5-2xlarge is the last instance group'),
    ]);
  });

  test('backup, then restore into a new workbench (--wait) at the version of the backup', async () => {
    // The clock held still: the backup is still being taken when the restore asks for it.
    await clock('--pause');
    let backupCrn = '';
    try {
      backupCrn = (await ml<{ backupCrn: string }>('backups', 'create', '--workspace-crn', crn, '--backup-name', 'nightly')).backupCrn;
      expect(backupCrn).toMatch(/:workspace_backup:/);
      const early = await em.cli(['ml', 'backups', 'restore', '--backup-crn', backupCrn, '--new-workspace-parameters', NEW('too-soon')]);
      expect([early.code, early.stderr]).toEqual([1, expect.stringContaining('FAILED_PRECONDITION: backup nightly is backup:started')]);
    } finally {
      await clock('--resume');
    }
    await advance('10m');
    const listed = await em.json<{ backups: Array<{ backupName: string; backupStatus: string; workspaceVersionAtBackup: string }> }>([
      ...['ml', 'backups', 'list', '--environment-name', 'sales-env', '--workspace-name', 'ds-bench'],
    ]);
    const version = (await describe_('ds-bench')).version;
    expect(listed.backups).toEqual([
      expect.objectContaining({ backupName: 'nightly', backupStatus: 'backup:finished', workspaceVersionAtBackup: version }),
    ]);
    expect((await describe_('ds-bench')).backupMetadata).toMatchObject({
      numberOfAvailableBackups: 1,
      lastBackupStatus: 'backup:finished',
    });
    const restore = await em.cli([
      ...['ml', 'backups', 'restore', '--backup-crn', backupCrn],
      ...['--new-workspace-parameters', '{"environmentName":"sales-env","workspaceName":"ds-bench-restored"}', ...WAIT, '--output', 'json'],
    ]);
    expect(restore.code).toBe(0);
    const restored = (JSON.parse(restore.stdout) as { workspace: Workbench }).workspace;
    expect(restored).toMatchObject({
      instanceName: 'ds-bench-restored',
      instanceStatus: 'installation:finished',
      isRestored: true,
      version,
    });
    expect(restored.instanceGroups.map((g) => g.instanceType)).toEqual(['m5.2xlarge']);
  });

  test('upgrade --wait goes to the latest release; again is refused; a rollback brings the version back', async () => {
    const before = (await describe_('ds-bench')).version;
    const latest = (await em.json<{ version: string }>(['ml', 'workspaces', 'latest-version'])).version;
    const up = await em.cli(['ml', 'workspaces', 'upgrade', '--workspace-crn', crn, ...WAIT, '--output', 'json']);
    expect([up.code, up.stderr]).toEqual([0, expect.stringMatching(/upgrade:started[\s\S]*upgrade:finished/)]);
    expect((JSON.parse(up.stdout) as { workspace: Workbench }).workspace).toMatchObject({
      version: latest,
      instanceStatus: 'upgrade:finished',
    });
    const again = await em.cli(['ml', 'workspaces', 'upgrade', '--workspace-crn', crn]);
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining(`FAILED_PRECONDITION: workbench ds-bench already runs ${latest}`),
    ]);
    const back = await em.json<{ workflowMetadata: Array<{ workflowType: string; lastKnownStatus: string }> }>([
      ...['ml', 'workflows', 'rollback', '--workspace-crn', crn, '--workflow-type', 'UPGRADE_WORKSPACE', '--yes'],
    ]);
    expect(back.workflowMetadata).toEqual([
      expect.objectContaining({ workflowType: 'UPGRADE_WORKSPACE', lastKnownStatus: 'upgrade:finished' }),
    ]);
    await advance('10m');
    expect(await describe_('ds-bench')).toMatchObject({ instanceStatus: 'rollback:finished', version: before });
  });

  test('a running upgrade cancelled ends upgrade:failed with the reason; its logs end there', async () => {
    await clock('--pause');
    try {
      expect((await em.cli(['ml', 'workspaces', 'upgrade', '--workspace-crn', crn])).code).toBe(0);
      const cancel = await em.json<{ workflowMetadata: Array<{ workflowType: string; lastKnownStatus: string }> }>([
        ...['ml', 'workflows', 'cancel', '--resource-id', crn, '--workflow-type', 'UPGRADE_WORKSPACE'],
      ]);
      expect(cancel.workflowMetadata).toEqual([
        expect.objectContaining({ workflowType: 'UPGRADE_WORKSPACE', lastKnownStatus: 'upgrade:failed' }),
      ]);
    } finally {
      await clock('--resume');
    }
    expect(await describe_('ds-bench')).toMatchObject({
      instanceStatus: 'upgrade:failed',
      failureMessage: 'UPGRADE_WORKSPACE was cancelled on request',
    });
    const events = await em.json<{ auditEvents: { events: Array<{ action: string; requestID: string }> } }>([
      'ml',
      'audit-events',
      'list',
      '--resource-crn',
      crn,
    ]);
    const actions = events.auditEvents.events.map((e) => e.action);
    expect(actions).toEqual(
      expect.arrayContaining([
        'createWorkspace',
        'grantWorkspaceAccess',
        'addInstanceGroups',
        'upgradeWorkspace',
        'requestWorkflowCancellation',
      ]),
    );
    const upgrades = events.auditEvents.events.filter((e) => e.action === 'upgradeWorkspace');
    const first = await em.json<{ auditLogs: { logs: Array<{ log: string }> } }>([
      'ml',
      'audit-events',
      'logs',
      '--request-id',
      upgrades[0]?.requestID ?? '',
    ]);
    expect(first.auditLogs.logs.map((l) => l.log)).toEqual([
      expect.stringMatching(/^upgradeWorkspace requested by crn:altus:iam:/),
      'UPGRADE_WORKSPACE: upgrade:started',
      'UPGRADE_WORKSPACE: upgrade:finished',
    ]);
    const cancelled = await em.json<{ auditLogs: { logs: Array<{ log: string }> } }>([
      'ml',
      'audit-events',
      'logs',
      '--request-id',
      upgrades[1]?.requestID ?? '',
    ]);
    expect(cancelled.auditLogs.logs.map((l) => l.log).slice(1)).toEqual([
      'UPGRADE_WORKSPACE: upgrade:started',
      'UPGRADE_WORKSPACE: upgrade:failed',
      'UPGRADE_WORKSPACE was cancelled on request',
    ]);
  });

  test('delete --force --wait removes the workbench; its backups outlive it', async () => {
    const r = await em.cli(['ml', 'workspaces', 'delete', '--workspace-crn', crn, '--force', '--yes', ...WAIT]);
    expect([r.code, r.stderr]).toEqual([0, expect.stringContaining('deprovision:started')]);
    const gone = await em.cli(['ml', 'workspaces', 'describe', '--workspace-crn', crn]);
    expect([gone.code, gone.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND')]);
    expect(await names()).toEqual(['ds-bench-restored']);
    const backups = await em.json<{ backups: Array<{ backupName: string }> }>(['ml', 'backups', 'list', '--workspace-crn', crn]);
    expect(backups.backups.map((b) => b.backupName)).toEqual(['nightly']);
  });
});

describe('an AI registry and an inference service', () => {
  let registry = '';
  let app = '';

  test('model-registries create --wait finds the one registry of the environment; a second is ALREADY_EXISTS', async () => {
    const r = await em.cli(['ml', 'model-registries', 'create', '--environment-name', 'sales-env', ...WAIT, '--output', 'json']);
    expect(r.code).toBe(0);
    const made = JSON.parse(r.stdout) as { crn: string; status: string; environmentCrn: string; version: string };
    expect(made).toMatchObject({ status: 'installation:finished', environmentCrn: envCrn });
    registry = made.crn;
    const again = await em.cli(['ml', 'model-registries', 'create', '--environment-crn', envCrn]);
    expect([again.code, again.stderr]).toEqual([
      1,
      expect.stringContaining('ALREADY_EXISTS: environment sales-env already has model registry'),
    ]);
    const up = await em.cli(['ml', 'model-registries', 'upgrade', '--crn', registry, ...WAIT, '--output', 'json']);
    const latest = (await em.json<{ version: string }>(['ml', 'model-registries', 'latest-version'])).version;
    expect([up.code, (JSON.parse(up.stdout) as { modelRegistry: { version: string } }).modelRegistry.version]).toEqual([0, latest]);
  });

  test('serving-apps create --wait on a cluster it provisions; an instance group added (--wait); access granted', async () => {
    const provision = JSON.stringify({
      environmentCrn: envCrn,
      instanceGroups: [{ instanceType: 'g5.2xlarge', autoscaling: { minInstances: 0, maxInstances: 4 } }],
    });
    const r = await em.cli([
      ...['ml', 'serving-apps', 'create', '--app-name', 'sales-inference', '--environment-crn', envCrn],
      ...['--provision-k8s-request', provision, ...WAIT, '--output', 'json'],
    ]);
    expect([r.code, r.stderr]).toEqual([0, expect.stringMatching(/provision:started[\s\S]*installation:finished/)]);
    const made = (JSON.parse(r.stdout) as { app: { appCrn: string; status: string; cluster: { instanceGroups: Group[] } } }).app;
    expect(made.status).toBe('installation:finished');
    expect(made.cluster.instanceGroups.map((g) => g.instanceGroupName)).toEqual(['gpu-g5-2xlarge']);
    app = made.appCrn;
    const add = await em.cli([
      ...['ml', 'serving-apps', 'instance-groups', 'add', '--app-crn', app],
      ...[
        '--instance-groups',
        '[{"instanceType":"g5.4xlarge","autoscaling":{"minInstances":0,"maxInstances":2}}]',
        ...WAIT,
        '--output',
        'json',
      ],
    ]);
    expect(add.code).toBe(0);
    const groups = (JSON.parse(add.stdout) as { app: { status: string; cluster: { instanceGroups: Group[] } } }).app;
    expect(groups.status).toBe('modify:finished');
    expect(groups.cluster.instanceGroups.map((g) => g.instanceGroupName)).toEqual(['gpu-g5-2xlarge', 'gpu-g5-4xlarge']);
    expect((await em.cli(['ml', 'serving-apps', 'access', 'grant', '--resource-crn', app, '--identifier', ROLE])).code).toBe(0);
    expect(await em.json(['ml', 'serving-apps', 'access', 'list', '--resource-crn', app])).toEqual({ users: [ROLE] });
    const storage = await em.json<{ registries: Record<string, { linkRegistry: boolean; environmentName: string }> }>([
      ...['ml', 'serving-apps', 'describe-registry-storage', '--app-crn', app],
    ]);
    expect(Object.values(storage.registries)).toEqual([expect.objectContaining({ linkRegistry: true, environmentName: 'sales-env' })]);
  });

  test('an inference service on a cluster that is not one of the compute service is NOT_FOUND, and nothing is made', async () => {
    const r = await em.cli([
      ...['ml', 'serving-apps', 'create', '--app-name', 'lost-app', '--environment-crn', envCrn],
      ...['--cluster-crn', `crn:cdp:compute:us-west-1:acct:cluster:no-such-cluster`],
    ]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('NOT_FOUND: compute cluster')]);
    const apps = await em.json<{ apps: Array<{ appName: string }> }>(['ml', 'serving-apps', 'list']);
    expect(apps.apps.map((a) => a.appName)).toEqual(['sales-inference']);
  });

  test('both are deleted with --wait (the inference service with --force); the environment is then free of them', async () => {
    expect((await em.cli(['ml', 'serving-apps', 'delete', '--app-crn', app, '--force', '--yes', ...WAIT])).code).toBe(0);
    expect((await em.cli(['ml', 'model-registries', 'delete', '--model-registry-crn', registry, '--yes', ...WAIT])).code).toBe(0);
    expect(await em.json(['ml', 'model-registries', 'list'])).toEqual({ modelRegistries: [] });
    expect(await em.json(['ml', 'serving-apps', 'list'])).toEqual({ apps: [] });
  });
});

describe('failing on purpose', () => {
  test('a fail- workbench ends installation:failed (exit 5); delete --no-force ends deprovision:failed (exit 5); --force deletes it', async () => {
    const r = await createWorkbench('fail-bench', WAIT);
    expect([r.code, r.stderr]).toEqual([
      5,
      expect.stringMatching(/installation:failed: create failed on purpose: the workbench name starts with "fail-"/),
    ]);
    expect(await describe_('fail-bench')).toMatchObject({
      instanceStatus: 'installation:failed',
      failureMessage: expect.stringContaining('fail-'),
    });
    const del = await em.cli([
      'ml',
      'workspaces',
      'delete',
      '--environment-name',
      'sales-env',
      '--workspace-name',
      'fail-bench',
      '--no-force',
      '--yes',
      ...WAIT,
    ]);
    expect([del.code, del.stderr]).toEqual([5, expect.stringContaining('deprovision:failed')]);
    const forced = await em.cli([
      'ml',
      'workspaces',
      'delete',
      '--environment-name',
      'sales-env',
      '--workspace-name',
      'fail-bench',
      '--force',
      '--yes',
      ...WAIT,
    ]);
    expect(forced.code).toBe(0);
    expect(await names()).not.toContain('fail-bench');
  });

  test('a fail-upgrade- workbench fails its first upgrade (exit 5, upgrade:failed); the retry goes through', async () => {
    expect((await createWorkbench('fail-upgrade-bench', WAIT)).code).toBe(0);
    const up = ['ml', 'workspaces', 'upgrade', '--environment-name', 'sales-env', '--workspace-name', 'fail-upgrade-bench', ...WAIT];
    const first = await em.cli(up);
    expect([first.code, first.stderr]).toEqual([5, expect.stringContaining('upgrade:failed')]);
    expect((await em.cli(up)).code).toBe(0);
  });

  test('a fail- registry (by its namespace) and a fail- inference service end installation:failed (exit 5)', async () => {
    const reg = await em.cli([
      'ml',
      'model-registries',
      'create',
      '--environment-name',
      'staging-aws',
      '--namespace',
      'fail-registry',
      ...WAIT,
    ]);
    expect([reg.code, reg.stderr]).toEqual([5, expect.stringContaining('installation:failed')]);
    const staging = (await environmentCrns(em))['staging-aws'] ?? '';
    const provision = JSON.stringify({ environmentCrn: staging, instanceGroups: [{ instanceType: 'g5.2xlarge' }] });
    const app = await em.cli([
      'ml',
      'serving-apps',
      'create',
      '--app-name',
      'fail-app',
      '--environment-crn',
      staging,
      '--provision-k8s-request',
      provision,
      ...WAIT,
    ]);
    expect([app.code, app.stderr]).toEqual([5, expect.stringContaining('installation:failed')]);
  });
});

describe('bad input is refused with 4xx and writes nothing', () => {
  test('a workbench in an environment that does not exist is NOT_FOUND', async () => {
    const before = await names();
    const r = await createWorkbench('lost-bench', [], 'no-such-env');
    expect([r.code, r.stderr]).toEqual([
      1,
      expect.stringMatching(/NOT_FOUND: environment no-such-env not found; this account has .*sales-env/),
    ]);
    expect(r.stderr).toContain('Status Code: 404');
    expect(await names()).toEqual(before);
  });

  test('a workbench without a cluster to provision, or whose request names two environments, is INVALID_ARGUMENT', async () => {
    const before = await names();
    const bare = await em.cli(['ml', 'workspaces', 'create', '--environment-name', 'sales-env', '--workspace-name', 'bare-bench']);
    expect([bare.code, bare.stderr]).toEqual([1, expect.stringContaining('INVALID_ARGUMENT: give provisionK8sRequest')]);
    const two = await em.cli([
      ...['ml', 'workspaces', 'create', '--environment-name', 'sales-env', '--workspace-name', 'two-bench'],
      ...['--provision-k8s-request', PROVISION('ops-env')],
    ]);
    expect([two.code, two.stderr]).toEqual([
      1,
      expect.stringContaining('INVALID_ARGUMENT: provisionK8sRequest.environmentName ops-env is not environment sales-env'),
    ]);
    expect(await names()).toEqual(before);
  });

  test('changes a workbench refuses leave it as it was: a CIDR that is not one, an autoscaling range upside down', async () => {
    const ws = await describe_('ds-bench-restored');
    const cidr = await em.cli([
      'ml',
      'workspaces',
      'update-load-balancer',
      '--workspace-crn',
      ws.crn,
      '--load-balancer-ip-allow-lists',
      '10.0.0.0/8',
      '300.1.2.3/16',
    ]);
    expect([cidr.code, cidr.stderr]).toEqual([
      1,
      expect.stringContaining('INVALID_ARGUMENT: loadBalancerIPAllowLists: 300.1.2.3/16 is not a CIDR block'),
    ]);
    const range = await em.cli([
      ...['ml', 'workspaces', 'instance-groups', 'add', '--workspace-crn', ws.crn],
      ...['--instance-groups', '[{"instanceType":"m5.xlarge","autoscaling":{"minInstances":5,"maxInstances":2}}]'],
    ]);
    expect([range.code, range.stderr]).toEqual([
      1,
      expect.stringContaining('INVALID_ARGUMENT: instanceGroups[0] (m5.xlarge): the minimum instances (5) is above the maximum (2)'),
    ]);
    expect(await describe_('ds-bench-restored')).toEqual({ ...ws, healthInfoLists: expect.any(Array) });
  });
});
