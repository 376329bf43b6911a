/**
 * The emulator's compute cluster service, driven through the library's
 * client against an emulator in this process, on a paused clock the tests
 * move: a cluster's lifecycle (CREATING, RUNNING, UPGRADING, SUSPENDING,
 * SUSPENDED, RESUMING, DELETING, DELETED), the checks a create runs
 * (answered as a validation response unless skipped), the state version an
 * update must name, the fail- rule with its workflow operations and their
 * retry, a forced delete only from DELETE_FAILED (as the API says), the
 * listing with its filters and pages, and deployments moved along their
 * chart versions.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
let sales = '';

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  sales = (await emu.client.environments.describeEnvironment({ environmentName: 'sales-env' })).environment.crn;
});

afterAll(async () => {
  await emu?.stop();
});

const describeCluster = (clusterCrn: string) => emu.client.compute.describeCluster({ clusterCrn });
const statusOf = async (clusterCrn: string): Promise<string | undefined> => (await describeCluster(clusterCrn)).status;
/** A cluster made in sales-env and left to run (its create takes ten emulated minutes). */
async function running(name: string): Promise<string> {
  const made = await emu.client.compute.createCluster({ environment: sales, name });
  emu.clock.advance('10m');
  expect(await statusOf(made.clusterCrn ?? '')).toBe('RUNNING');
  return made.clusterCrn ?? '';
}

let etl = '';

describe('creating', () => {
  test('a cluster is CREATING for ten minutes, then RUNNING with three nodes, the newest upgrade offered and its creator as owner', async () => {
    const made = await emu.client.compute.createCluster({ environment: sales, name: 'etl', tags: { team: 'data' } });
    etl = made.clusterCrn ?? '';
    expect(made).toMatchObject({
      clusterId: expect.stringMatching(/^liftie-[0-9a-f]{8}$/),
      clusterStatus: { status: 'CREATING', message: 'cluster creation started' },
      clusterCrn: expect.stringMatching(/^crn:cdp:compute:us-west-1:[^:]+:cluster:liftie-[0-9a-f]{8}$/),
    });
    expect(made.uri).toBe(`/api/v1/compute/describeCluster?clusterCrn=${encodeURIComponent(etl)}`);
    expect(await describeCluster(etl)).toMatchObject({ status: 'CREATING', clusterSize: 0, availableUpgrades: [] });
    emu.clock.advance('9m');
    expect(await statusOf(etl)).toBe('CREATING');
    emu.clock.advance('1m');
    const up = await describeCluster(etl);
    expect(up).toMatchObject({
      status: 'RUNNING',
      clusterSize: 3,
      kubernetesVersion: '1.29',
      availableUpgrades: ['1.30'],
      envName: 'sales-env',
      envCrn: sales,
      clusterStateVersion: 1,
      labels: { team: 'data' },
      clusterOwner: { email: 'admin@example.com', firstName: 'Account', lastName: 'Admin' },
    });
  });

  test('the environment may be named by name; a GCP environment is refused (INVALID_ARGUMENT); an unknown one is NOT_FOUND', async () => {
    const byName = await emu.client.compute.createCluster({ environment: 'sales-env', name: 'etl-two' });
    expect(byName.clusterStatus?.status).toBe('CREATING');
    const gcp = await refused(emu.client.compute.createCluster({ environment: 'ml-env', name: 'etl' }));
    expect([gcp.code, gcp.status, gcp.message]).toEqual([
      'INVALID_ARGUMENT',
      400,
      'environment ml-env is a GCP environment; compute clusters run in AWS and Azure environments',
    ]);
    const unknown = await refused(emu.client.compute.createCluster({ environment: 'no-such-env', name: 'etl' }));
    expect([unknown.code, unknown.status]).toEqual(['NOT_FOUND', 404]);
  });

  test('a create that fails its checks makes nothing and answers the validation response (only on a failure)', async () => {
    const bad = await emu.client.compute.createCluster({ environment: sales, name: 'Bad_Name' });
    expect(bad.clusterCrn).toBeUndefined();
    expect(bad.clusterStatus).toEqual({ status: 'VALIDATION_FAILED', message: '1 validation(s) failed' });
    expect(bad.validationResponse?.summary).toEqual({ passed: 3, warning: 0, failed: 1, skipped: 0, total: 4 });
    expect(bad.validationResponse?.validations?.filter((v) => v.status === 'FAILED').map((v) => v.name)).toEqual(['ClusterNameFormat']);
    const dup = await emu.client.compute.createCluster({ environment: sales, name: 'etl' });
    expect(dup.validationResponse?.validations?.find((v) => v.status === 'FAILED')?.message).toBe(
      'the environment already has a cluster named etl',
    );
    const listed = await emu.client.compute.listClusters({ envNameOrCrn: 'sales-env' });
    expect(listed.clusters?.map((c) => c.clusterName).sort()).toEqual(['etl', 'etl-two']);
  });

  test('with skipValidation a taken name is ALREADY_EXISTS (409)', async () => {
    const dup = await refused(emu.client.compute.createCluster({ environment: sales, name: 'etl', skipValidation: true }));
    expect([dup.code, dup.status, dup.message]).toEqual(['ALREADY_EXISTS', 409, 'the environment already has a cluster named etl']);
  });

  test('validateCluster runs the same checks without making anything: overlapping pod and service CIDRs fail', async () => {
    const overlap = await emu.client.compute.validateCluster({
      environment: sales,
      name: 'net-check',
      network: { podCidr: '10.0.0.0/16', serviceCidr: '10.0.1.0/24' },
    });
    expect(overlap.result).toBe('FAILED');
    expect(overlap.validations?.find((v) => v.name === 'NetworkCidrs')?.status).toBe('FAILED');
    const apart = await emu.client.compute.validateCluster({
      environment: sales,
      name: 'net-check',
      network: { podCidr: '10.244.0.0/16', serviceCidr: '10.0.0.0/16' },
    });
    expect([apart.result, apart.message]).toEqual(['PASSED', 'all validations passed']);
  });

  test('an unknown cluster CRN is NOT_FOUND (404)', async () => {
    const missing = await refused(describeCluster('crn:cdp:compute:us-west-1:acct:cluster:liftie-00000000'));
    expect([missing.code, missing.status, missing.message]).toEqual([
      'NOT_FOUND',
      404,
      'compute cluster crn:cdp:compute:us-west-1:acct:cluster:liftie-00000000 not found',
    ]);
  });
});

describe('listing', () => {
  test('pages as asked, with the total of clusters and of pages; filters by status', async () => {
    emu.clock.advance('10m');
    const first = await emu.client.compute.listClusters({ envNameOrCrn: 'sales-env', pageSize: 1 });
    expect(first).toMatchObject({ totalClusters: 2, totalPages: 2, nextToken: expect.any(String) });
    const second = await emu.client.compute.listClusters({ envNameOrCrn: 'sales-env', pageSize: 1, startingToken: first.nextToken });
    expect([...(first.clusters ?? []), ...(second.clusters ?? [])].map((c) => c.clusterName).sort()).toEqual(['etl', 'etl-two']);
    expect(second.nextToken).toBeUndefined();
    const names: string[] = [];
    for await (const c of emu.client.compute.paginate.listClusters({ envNameOrCrn: sales }, { pageSize: 1 }))
      names.push(c.clusterName ?? '');
    expect(names.sort()).toEqual(['etl', 'etl-two']);
    expect((await emu.client.compute.listClusters({ status: 'CREATING' })).clusters).toEqual([]);
    expect((await emu.client.compute.listClusters({ status: 'RUNNING' })).clusters?.length).toBe(2);
  });
});

describe('actions', () => {
  test('an upgrade goes one Kubernetes version up (UPGRADING, eight minutes) with an operation that completes; a dry run changes nothing', async () => {
    const dry = await emu.client.compute.upgradeCluster({ clusterCrn: etl, dryRun: true });
    expect(await statusOf(etl)).toBe('RUNNING');
    const dryRun = await emu.client.compute.getOperationStatus({ operationId: dry.operationId ?? '' });
    expect(dryRun).toMatchObject({ workflowOperation: 'UPGRADE', operationStatus: 'RUNNING', clusterCrn: etl });
    const up = await emu.client.compute.upgradeCluster({ clusterCrn: etl });
    expect(await describeCluster(etl)).toMatchObject({ status: 'UPGRADING', kubernetesVersion: '1.29', clusterStateVersion: 2 });
    const again = await refused(emu.client.compute.upgradeCluster({ clusterCrn: etl }));
    expect([again.code, again.status, again.message]).toEqual([
      'FAILED_PRECONDITION',
      409,
      'compute cluster etl is UPGRADING; an upgrade needs it RUNNING',
    ]);
    const del = await refused(emu.client.compute.deleteCluster({ clusterCrn: etl }));
    expect(del.message).toBe('compute cluster etl is UPGRADING; wait until it finishes');
    emu.clock.advance('8m');
    expect(await describeCluster(etl)).toMatchObject({ status: 'RUNNING', kubernetesVersion: '1.30', availableUpgrades: [] });
    const details = await emu.client.compute.getOperationDetails({ operationId: up.operationId ?? '' });
    expect(details).toMatchObject({ operationStatus: 'COMPLETED', retryCount: 0, clusterCrn: etl });
    const newest = await refused(emu.client.compute.upgradeCluster({ clusterCrn: etl }));
    expect(newest.message).toBe('compute cluster etl runs Kubernetes 1.30, the newest supported');
  });

  test('an update names the state version it last read: another is FAILED_PRECONDITION; the right one starts UPDATING', async () => {
    const stale = await refused(emu.client.compute.updateCluster({ clusterCrn: etl, clusterStateVersion: 1, spec: {} }));
    expect([stale.code, stale.message]).toEqual([
      'FAILED_PRECONDITION',
      'compute cluster etl changed: its state version is 2, not 1; describe it again',
    ]);
    const update = await emu.client.compute.updateCluster({
      clusterCrn: etl,
      clusterStateVersion: 2,
      spec: { refreshInstanceGroups: true },
    });
    expect(update.clusterStatus).toEqual({ status: 'UPDATING', message: 'refreshing instance groups' });
    emu.clock.advance('2m');
    expect(await describeCluster(etl)).toMatchObject({ status: 'RUNNING', clusterStateVersion: 3 });
  });

  test('suspend (SUSPENDING, then SUSPENDED with no nodes) and resume (RESUMING, then RUNNING); each from its own states', async () => {
    expect((await emu.client.compute.suspendCluster({ clusterCrn: etl })).clusterStatus?.status).toBe('SUSPENDING');
    emu.clock.advance('3m');
    expect(await describeCluster(etl)).toMatchObject({ status: 'SUSPENDED', clusterSize: 0 });
    const twice = await refused(emu.client.compute.suspendCluster({ clusterCrn: etl }));
    expect(twice.message).toBe('compute cluster etl is SUSPENDED; suspend needs it RUNNING or SUSPEND_FAILED');
    expect((await emu.client.compute.resumeCluster({ clusterCrn: etl })).clusterStatus?.status).toBe('RESUMING');
    emu.clock.advance('4m');
    expect(await statusOf(etl)).toBe('RUNNING');
    const resumeRunning = await refused(emu.client.compute.resumeCluster({ clusterCrn: etl }));
    expect(resumeRunning.message).toBe('compute cluster etl is RUNNING; resume needs it SUSPENDED or RESUME_FAILED');
  });
});

describe('deployments', () => {
  test('a cluster has its installed charts, the charts it can take and those it cannot', async () => {
    const all = await emu.client.compute.listDeployments({ clusterCrn: etl });
    expect(all.installedDeployments?.map((d) => `${d.namespace}/${d.name}@${d.chart?.deploymentVersion}`)).toEqual([
      'kube-system/cluster-autoscaler@9.29.0',
      'kube-system/metrics-server@3.11.0',
      'ingress/ingress-nginx@4.8.3',
      'yunikorn/yunikorn@1.4.0',
    ]);
    expect(all.availableCharts?.map((c) => c.name)).toEqual(['nvidia-device-plugin']);
    expect(all.unavailableCharts?.map((c) => c.name)).toEqual(['istio']);
    const kube = await emu.client.compute.listDeployments({ clusterCrn: etl, namespace: 'kube-system' });
    expect(kube.installedDeployments?.map((d) => d.name)).toEqual(['cluster-autoscaler', 'metrics-server']);
  });

  test('an upgrade moves a deployment to its newest chart (a new revision, the old one SUPERSEDED); never back, never to an unknown version, never to where it is', async () => {
    const at = { clusterCrn: etl, namespace: 'kube-system', name: 'metrics-server' };
    const unknown = await refused(emu.client.compute.upgradeDeployment({ ...at, chartVersion: '9.9' }));
    expect([unknown.code, unknown.status, unknown.message]).toEqual([
      'INVALID_ARGUMENT',
      400,
      'chart metrics-server has no version 9.9; available: 3.11.0, 3.12.1',
    ]);
    const moved = await emu.client.compute.upgradeDeployment(at);
    expect(moved).toMatchObject({ revision: 2, status: 'DEPLOYED', chart: { deploymentVersion: '3.12.1', applicationVersion: '0.7.1' } });
    const described = await emu.client.compute.describeDeployment(at);
    expect(described.history?.map((h) => [h.revision, h.status])).toEqual([
      [2, 'DEPLOYED'],
      [1, 'SUPERSEDED'],
    ]);
    expect(described.deployment?.upgrades).toEqual([]);
    const same = await refused(emu.client.compute.upgradeDeployment(at));
    expect(same.message).toBe('deployment metrics-server is already at 3.12.1 with these values');
    const back = await refused(emu.client.compute.upgradeDeployment({ ...at, chartVersion: '3.11.0' }));
    expect([back.code, back.message]).toEqual([
      'FAILED_PRECONDITION',
      'deployment metrics-server is at 3.12.1; it cannot move back to 3.11.0',
    ]);
    const missing = await refused(emu.client.compute.describeDeployment({ ...at, name: 'nothing' }));
    expect([missing.code, missing.message]).toEqual(['NOT_FOUND', 'no deployment kube-system/nothing in compute cluster etl']);
  });
});

describe('the fail- rule and retries', () => {
  test('fail-upgrade-... fails its first upgrade (UPGRADE_FAILED, its operation FAILED); retryOperation runs it again, and it succeeds', async () => {
    const crn = await running('fail-upgrade-k8s');
    const { operationId = '' } = await emu.client.compute.upgradeCluster({ clusterCrn: crn });
    const early = await refused(emu.client.compute.retryOperation({ operationId }));
    expect(early.message).toBe(`operation ${operationId} is RUNNING; only a FAILED operation can be retried`);
    emu.clock.advance('8m');
    expect(await describeCluster(crn)).toMatchObject({
      status: 'UPGRADE_FAILED',
      kubernetesVersion: '1.29',
      message: 'upgrade failed on purpose: the compute cluster name starts with "fail-"',
    });
    expect((await emu.client.compute.getOperationStatus({ operationId })).operationStatus).toBe('FAILED');
    expect((await emu.client.compute.retryOperation({ operationId })).operationId).toBe(operationId);
    expect(await statusOf(crn)).toBe('UPGRADING');
    emu.clock.advance('8m');
    expect(await describeCluster(crn)).toMatchObject({ status: 'RUNNING', kubernetesVersion: '1.30' });
    expect(await emu.client.compute.getOperationDetails({ operationId })).toMatchObject({ operationStatus: 'COMPLETED', retryCount: 1 });
  });

  test('a cluster named fail-... fails its create (CREATE_FAILED), saying why', async () => {
    const made = await emu.client.compute.createCluster({ environment: sales, name: 'fail-k8s' });
    emu.clock.advance('10m');
    expect(await describeCluster(made.clusterCrn ?? '')).toMatchObject({
      status: 'CREATE_FAILED',
      clusterSize: 0,
      message: 'create failed on purpose: the compute cluster name starts with "fail-"',
    });
  });

  test('an unknown operation is NOT_FOUND', async () => {
    const missing = await refused(emu.client.compute.getOperationStatus({ operationId: 'no-such-operation' }));
    expect([missing.code, missing.status]).toEqual(['NOT_FOUND', 404]);
  });
});

describe('deleting', () => {
  test('a delete is DELETING for five minutes, then DELETED: the record stays (listed with includeDeleted), its name is free again', async () => {
    expect((await emu.client.compute.deleteCluster({ clusterCrn: etl })).clusterStatus?.status).toBe('DELETING');
    emu.clock.advance('5m');
    const gone = await describeCluster(etl);
    expect(gone.status).toBe('DELETED');
    expect(gone.deletionTime).toEqual(expect.any(String));
    const again = await refused(emu.client.compute.deleteCluster({ clusterCrn: etl }));
    expect([again.code, again.message]).toEqual(['NOT_FOUND', 'compute cluster etl is already deleted']);
    const deployments = await refused(emu.client.compute.listDeployments({ clusterCrn: etl }));
    expect(deployments.code).toBe('NOT_FOUND');
    const live = await emu.client.compute.listClusters({ envNameOrCrn: 'sales-env' });
    expect(live.clusters?.map((c) => c.clusterName)).not.toContain('etl');
    const all = await emu.client.compute.listClusters({ envNameOrCrn: 'sales-env', includeDeleted: true });
    expect(all.clusters?.filter((c) => c.clusterName === 'etl').map((c) => c.status)).toEqual(['DELETED']);
    const reborn = await emu.client.compute.createCluster({ environment: sales, name: 'etl' });
    expect(reborn.clusterCrn).not.toBe(etl);
  });

  test('force is valid only in DELETE_FAILED: it forces the cluster into DELETED at once, without cleaning up', async () => {
    const crn = await running('fail-delete-k8s');
    const early = await refused(emu.client.compute.deleteCluster({ clusterCrn: crn, force: true }));
    expect([early.code, early.status, early.message]).toEqual([
      'FAILED_PRECONDITION',
      409,
      'force delete is only valid for a cluster in DELETE_FAILED; compute cluster fail-delete-k8s is RUNNING',
    ]);
    await emu.client.compute.deleteCluster({ clusterCrn: crn });
    emu.clock.advance('5m');
    expect(await statusOf(crn)).toBe('DELETE_FAILED');
    const forced = await emu.client.compute.deleteCluster({ clusterCrn: crn, force: true });
    expect(forced.clusterStatus).toEqual({ status: 'DELETED', message: 'force-deleted; cloud resources were not cleaned up' });
    expect(await describeCluster(crn)).toMatchObject({ status: 'DELETED', message: 'force-deleted; cloud resources were not cleaned up' });
  });
});
