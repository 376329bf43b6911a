/**
 * Rules of the emulator's ml service the e2e test does not drive, in
 * process: an inference service on a compute cluster of its environment,
 * the registry named by its environment (the older `id`), certificate
 * refreshes found through a workbench, workflow cancellation when nothing
 * runs and of a delete, instance types by cloud and need, audit logs paged,
 * workbenches suspended and resumed with their environment, access grants
 * going with their workbench, a restore that fails on purpose once, and
 * what a workbench keeps: its static subdomain (taken by a restore), its
 * backups after it, a file-system replica to fail over to, the release an
 * upgrade left, its allow-lists; an inference service its S3 credentials.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bootstrap } from '../../../../../src/lib/emulator/bootstrap.js';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { Emulator } from '../../../../../src/lib/emulator/server.js';
import type { Doc } from '../../../../../src/lib/emulator/types.js';

const HOUR = 3_600_000;
const dir = mkdtempSync(join(tmpdir(), 'cdpctl-ml-rules-'));
let em: Emulator;
let sales = '';
let ops = '';

const call = (operation: string, request: Doc, service = 'ml'): Doc => em.call(service, operation, request);
/** The error a call is refused with: its code and message. */
function refusal(operation: string, request: Doc): { code: string; message: string } {
  try {
    call(operation, request);
  } catch (err) {
    if (err instanceof ApiError) return { code: err.code, message: err.message };
    throw err;
  }
  throw new Error(`${operation} was not refused`);
}
const later = (hours = 1): void => void em.driveClock({ advanceMs: hours * HOUR });
const provision = (env: string): Doc => ({ environmentName: env, instanceGroups: [{ instanceType: 'm5.2xlarge' }] });
const workbench = (name: string): Doc =>
  (call('describeWorkspace', { environmentName: 'sales-env', workspaceName: name }) as { workspace: Doc }).workspace;

beforeAll(async () => {
  em = new Emulator({ dataDir: join(dir, 'emu'), timeScale: 1, requestLog: false });
  await em.start();
  await bootstrap(em, { HOME: dir });
  const crnOf = (name: string): string =>
    String((em.call('environments', 'describeEnvironment', { environmentName: name }) as { environment: Doc }).environment.crn);
  sales = crnOf('sales-env');
  ops = crnOf('ops-env');
  em.driveClock({ pause: true });
});

afterAll(async () => {
  await em.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('inference services', () => {
  test('run on a RUNNING compute cluster of their environment, not with a cluster to provision too, nor on one of another environment', () => {
    const cluster = String(call('createCluster', { environment: sales, name: 'shared-k8s' }, 'compute').clusterCrn);
    const body = { appName: 'on-shared', environmentCrn: sales, clusterCrn: cluster };
    const both = { ...body, provisionK8sRequest: { environmentCrn: sales, instanceGroups: [{ instanceType: 'g5.2xlarge' }] } };
    expect(refusal('createMlServingApp', both)).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'give provisionK8sRequest or clusterCrn, not both',
    });
    expect(refusal('createMlServingApp', body)).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('an inference service needs it RUNNING'),
    });
    later();
    const elsewhere = refusal('createMlServingApp', { ...body, environmentCrn: ops });
    expect(elsewhere).toMatchObject({ code: 'INVALID_ARGUMENT', message: expect.stringContaining('is not in environment ops-env') });
    const app = String(call('createMlServingApp', body).appCrn);
    later();
    const described = (call('describeMlServingApp', { appCrn: app }) as { app: { status: string; cluster: Doc } }).app;
    expect(described.status).toBe('installation:finished');
    expect(described.cluster).toMatchObject({ clusterCrn: cluster, clusterName: 'shared-k8s' });
  });
});

describe('AI registries', () => {
  test('the older form names a registry by its environment; a certificate refresh finds it through a workbench', () => {
    call('createWorkspace', { environmentName: 'sales-env', workspaceName: 'reg-bench', provisionK8sRequest: provision('sales-env') });
    call('createModelRegistry', { environmentCrn: sales });
    later();
    const ws = String(workbench('reg-bench').crn);
    expect(call('refreshAiRegistry', { workspaceCrn: ws })).toEqual({});
    expect(refusal('refreshAiRegistry', { workspaceCrn: 'crn:cdp:ml:us-west-1:acct:workspace:nothing' }).code).toBe('NOT_FOUND');
    const upgrade = refusal('rollbackModelRegistryUpgrade', {
      crn: (call('listModelRegistries', {}) as { modelRegistries: Doc[] }).modelRegistries[0]?.crn,
    });
    expect(upgrade).toMatchObject({ code: 'FAILED_PRECONDITION', message: expect.stringContaining('has no upgrade to roll back') });
    call('deleteModelRegistry', { id: sales });
    later();
    expect(call('listModelRegistries', {})).toEqual({ modelRegistries: [] });
    expect(refusal('refreshAiRegistry', { workspaceCrn: ws })).toMatchObject({
      code: 'NOT_FOUND',
      message: expect.stringContaining('has no model registry'),
    });
  });
});

describe('workflows', () => {
  test('cancelling when nothing runs cancels nothing; a running delete cannot be cancelled; an unknown resource is NOT_FOUND', () => {
    const ws = String(workbench('reg-bench').crn);
    expect(call('requestWorkflowCancellation', { resourceId: ws })).toEqual({ workflowMetadata: [] });
    expect(refusal('requestWorkflowCancellation', { resourceId: 'crn:cdp:ml:us-west-1:acct:workspace:nothing' }).code).toBe('NOT_FOUND');
    call('suspendWorkspace', { workspaceCrn: ws });
    // Another kind of workflow than the one running: nothing is cancelled.
    expect(call('requestWorkflowCancellation', { resourceId: ws, workflowType: 'UPGRADE_WORKSPACE' })).toEqual({ workflowMetadata: [] });
    later();
    call('deleteWorkspace', { workspaceCrn: ws, force: false });
    expect(refusal('requestWorkflowCancellation', { resourceId: ws })).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: 'DEPROVISION_WORKSPACE of reg-bench cannot be cancelled',
    });
    later();
  });
});

describe('instance types', () => {
  test("an environment's cloud decides the types; the request's needs filter them", () => {
    const list = (env: string, category: string, requestInfo: Doc): string[] =>
      (
        call('listRelevantInstances', { environmentName: env, instanceCategory: category, requestInfo, productType: 'ML' }) as {
          instanceDetails: Doc[];
        }
      ).instanceDetails.map((d) => String(d.name));
    expect(list('sales-env', 'GPU', { gpu: '4' })).toEqual(['p3.8xlarge', 'g5.12xlarge', 'p4d.24xlarge']);
    expect(list('sales-env', 'gpu', { gpuType: 'A10G', memory: '64Gi' })).toEqual(['g5.4xlarge', 'g5.12xlarge']);
    expect(list('ops-env', 'CPU', { cpu: '16' })).toEqual(['Standard_D16s_v3', 'Standard_E16s_v3']);
    expect(
      refusal('listRelevantInstances', { environmentName: 'sales-env', instanceCategory: 'TPU', requestInfo: {}, productType: 'ML' }).code,
    ).toBe('INVALID_ARGUMENT');
    const one = call('listInstanceTypeConfiguration', {
      environmentName: 'ml-env',
      instanceCategory: 'GPU',
      instanceType: 'g2-standard-8',
      productType: 'ML',
    });
    expect(one).toEqual({
      instanceDetails: [expect.objectContaining({ name: 'g2-standard-8', gpu: '1', gpuType: 'L4', computeCapability: '8.9' })],
    });
    expect(
      refusal('listInstanceTypeConfiguration', {
        environmentName: 'ml-env',
        instanceCategory: 'GPU',
        instanceType: 'p3.2xlarge',
        productType: 'ML',
      }).code,
    ).toBe('NOT_FOUND');
  });
});

describe('workbenches and the world', () => {
  test('a workbench suspends and resumes with its environment; its access grants go with it when deleted', () => {
    call('createWorkspace', { environmentName: 'sales-env', workspaceName: 'world-bench', provisionK8sRequest: provision('sales-env') });
    later();
    const ws = String(workbench('world-bench').crn);
    call('grantWorkspaceAccess', { workspaceCrn: ws, identifier: 'arn:aws:iam::123456789012:user/alice' });
    em.call('environments', 'stopEnvironment', { environmentName: 'sales-env' });
    later();
    expect(workbench('world-bench').instanceStatus).toBe('suspend:finished');
    // The API server stays while suspended: access can still be granted.
    call('grantWorkspaceAccess', { workspaceCrn: ws, identifier: 'arn:aws:iam::123456789012:user/bob' });
    em.call('environments', 'startEnvironment', { environmentName: 'sales-env' });
    later();
    expect(workbench('world-bench').instanceStatus).toBe('resume:finished');
    call('deleteWorkspace', { workspaceCrn: ws, force: false });
    later();
    call('createWorkspace', { environmentName: 'sales-env', workspaceName: 'world-bench', provisionK8sRequest: provision('sales-env') });
    later();
    expect(call('listWorkspaceAccess', { environmentName: 'sales-env', workspaceName: 'world-bench' })).toEqual({ users: [] });
  });

  test('audit logs page by offset and size; fetchAll gives all', () => {
    const ws = String(workbench('world-bench').crn);
    const events = (call('getAuditEvents', { resourceCrn: ws }) as { auditEvents: { events: Doc[] } }).auditEvents.events;
    const created = String(events.find((e) => e.action === 'createWorkspace')?.requestID);
    const all = (call('getLogs', { requestID: created, fetchAll: true }) as { auditLogs: { count: number; logs: Doc[] } }).auditLogs;
    expect(all.logs.map((l) => l.log).slice(1)).toEqual([
      'PROVISION_WORKSPACE: provision:started',
      'PROVISION_WORKSPACE: installation:started',
      'PROVISION_WORKSPACE: installation:finished',
    ]);
    const page = (call('getLogs', { requestID: created, pageSize: 1, offset: 2 }) as { auditLogs: { count: number; logs: Doc[] } })
      .auditLogs;
    expect(page).toEqual({ requestID: created, count: 4, logs: [all.logs[2]] });
  });

  test('a fail-restore- workbench fails its restore once: the first ends installation:failed', () => {
    const ws = String(workbench('world-bench').crn);
    const backup = String(call('backupWorkspace', { workspaceCrn: ws, backupName: 'before' }).backupCrn);
    later();
    const params = { environmentName: 'sales-env', workspaceName: 'fail-restore-bench', provisionK8sRequest: provision('sales-env') };
    call('restoreWorkspace', { backupCrn: backup, newWorkspaceParameters: params });
    later();
    expect(workbench('fail-restore-bench')).toMatchObject({
      instanceStatus: 'installation:failed',
      failureMessage: expect.stringContaining('restore failed on purpose'),
    });
  });
});

describe('what a workbench keeps', () => {
  const url = (name: string): string => String(workbench(name).instanceUrl);

  test("a static subdomain is one workbench of its environment; a restore takes its backup's; backups are found after their workbench", () => {
    const create = (name: string): Doc =>
      call('createWorkspace', {
        environmentName: 'sales-env',
        workspaceName: name,
        staticSubdomain: 'team-a',
        provisionK8sRequest: provision('sales-env'),
      });
    create('sub-a');
    expect(url('sub-a')).toMatch(/^https:\/\/team-a\.sales-env\./);
    expect(
      refusal('createWorkspace', {
        environmentName: 'sales-env',
        workspaceName: 'sub-b',
        staticSubdomain: 'team-a',
        provisionK8sRequest: provision('sales-env'),
      }),
    ).toEqual({
      code: 'ALREADY_EXISTS',
      message: 'workbench sub-a already has the subdomain team-a in environment sales-env',
    });
    later();
    const ws = String(workbench('sub-a').crn);
    const backup = String(call('backupWorkspace', { workspaceCrn: ws, backupName: 'nightly' }).backupCrn);
    expect(refusal('backupWorkspace', { workspaceCrn: ws, backupName: 'NIGHTLY' })).toMatchObject({ code: 'ALREADY_EXISTS' });
    later();
    call('deleteWorkspace', { workspaceCrn: ws, force: false });
    later();
    const byName = call('listWorkspaceBackups', { environmentName: 'sales-env', workspaceName: 'sub-a' }) as { backups: Doc[] };
    expect(byName.backups.map((b) => [b.backupCrn, b.backupName, b.backupStatus])).toEqual([[backup, 'nightly', 'backup:finished']]);
    const params = { environmentName: 'sales-env', workspaceName: 'sub-restored', provisionK8sRequest: provision('sales-env') };
    call('restoreWorkspace', { backupCrn: backup, newWorkspaceParameters: params, useStaticSubdomain: true });
    expect(url('sub-restored')).toMatch(/^https:\/\/team-a\.sales-env\./);
    later();
    expect(workbench('sub-restored')).toMatchObject({ isRestored: true, instanceStatus: 'installation:finished' });
  });

  test('a file-system replica is one per workbench; failing over moves the workbench onto it, and it is gone', () => {
    const ws = String(workbench('sub-restored').crn);
    const before = String(workbench('sub-restored').filesystemID);
    expect(refusal('deleteFileReplica', { workspaceCrn: ws })).toMatchObject({ code: 'NOT_FOUND' });
    call('createFileReplica', { workspaceCrn: ws });
    expect(refusal('createFileReplica', { workspaceCrn: ws })).toMatchObject({ code: 'ALREADY_EXISTS' });
    call('failOverFileSystem', { workspaceCrn: ws });
    later();
    const after = workbench('sub-restored');
    expect([after.instanceStatus, after.filesystemID === before, String(after.filesystemID).startsWith('fs-')]).toEqual([
      'failover:finished',
      false,
      true,
    ]);
    expect(refusal('failOverFileSystem', { workspaceCrn: ws })).toMatchObject({
      code: 'FAILED_PRECONDITION',
      message: expect.stringContaining('has no file system replica to fail over to'),
    });
  });

  test('an upgrade goes to the newest release and its rollback back to the one it left', () => {
    const ws = String(workbench('sub-restored').crn);
    const running = String(workbench('sub-restored').version);
    call('upgradeWorkspace', { workspaceCrn: ws });
    later();
    expect(workbench('sub-restored')).toMatchObject({ version: '2.0.50-b58', upgradeType: 'Inplace' });
    const undone = call('requestWorkflowRollback', { workspaceCrn: ws, workflowType: 'UPGRADE_WORKSPACE' }) as { workflowMetadata: Doc[] };
    expect(undone.workflowMetadata.map((w) => w.workflowType)).toEqual(['UPGRADE_WORKSPACE']);
    later();
    expect(workbench('sub-restored')).toMatchObject({ version: running, instanceStatus: 'rollback:finished' });
  });

  test('allow-lists change at once, as the workbench shows them; what is not a CIDR block is refused', () => {
    const ws = String(workbench('sub-restored').crn);
    call('modifyClusterSecurity', { workspaceCrn: ws, allowlistAuthorizedIPRanges: true, authorizedIPRanges: ['10.1.0.0/16'] });
    call('modifyWorkspaceLoadBalancer', { workspaceCrn: ws, loadBalancerIPAllowLists: ['192.168.0.0/24'] });
    expect(workbench('sub-restored')).toMatchObject({
      whitelistAuthorizedIPRanges: true,
      authorizedIPRanges: ['10.1.0.0/16'],
      loadBalancerIPWhitelists: ['192.168.0.0/24'],
    });
    expect(refusal('modifyClusterSecurity', { workspaceCrn: ws, allowlistAuthorizedIPRanges: true })).toMatchObject({
      code: 'INVALID_ARGUMENT',
    });
    expect(refusal('modifyWorkspaceLoadBalancer', { workspaceCrn: ws, loadBalancerIPAllowLists: ['10.0.0.0/40'] })).toMatchObject({
      code: 'INVALID_ARGUMENT',
      message: 'loadBalancerIPAllowLists: 10.0.0.0/40 is not a CIDR block such as 10.0.0.0/16',
    });
    // Refreshing the registry settings needs a registry in the environment (the one made above was deleted).
    expect(refusal('refreshModelRegistryConfigmap', { workspaceCrn: ws })).toMatchObject({ code: 'FAILED_PRECONDITION' });
  });

  test("an inference service's S3 credentials link a registry namespace to it", () => {
    const provisioned = { environmentCrn: sales, instanceGroups: [{ instanceType: 'm5.2xlarge' }] };
    const app = String(call('createMlServingApp', { appName: 's3-app', environmentCrn: sales, provisionK8sRequest: provisioned }).appCrn);
    later();
    const creds = { s3AccessID: 'AKIAEXAMPLE', s3SecretAccessKey: 'secret', s3EndPointUrl: 'https://s3.team.example' };
    expect(refusal('updateMlServingAppS3Creds', { appCrn: app, s3Creds: { s3AccessID: 'x' } }).code).toBe('INVALID_ARGUMENT');
    call('updateMlServingAppS3Creds', { appCrn: app, s3Creds: creds, registryNamespace: 'team', linkRegistry: true });
    const storage = call('fetchAiRegistriesStorageConfig', { appCrn: app }) as { registries: Record<string, Doc> };
    expect(storage.registries.team).toMatchObject({
      s3AccessId: 'AKIAEXAMPLE',
      s3EndpointUrl: 'https://s3.team.example',
      linkRegistry: true,
    });
  });
});
