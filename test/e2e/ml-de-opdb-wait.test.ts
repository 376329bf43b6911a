/**
 * --wait on the Cloudera AI, Data Engineering and Operational Database
 * lifecycles, through bin/run.js against a recording server that plays the
 * control plane: the poll request is built from the first call, states move
 * on, and success, failure (exit 5) and "gone" end the wait as they should.
 * (The emulator does not implement these services.)
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startScriptedServer, type Recorded, type ScriptedServer } from '../helpers/recording-server.js';

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome();
const env = { CDP_ACCESS_KEY_ID: 'test-key-id', CDP_PRIVATE_KEY: key.privateKey };
/** Runs one command line (words split on spaces) with quick polls against the recording server. */
// localhost: a public-cloud URL, where opdb exists (a numeric address is a private cloud, as to cdp).
const cli = (line: string) => runCli([...line.split(' '), '--poll-interval', '0', '--endpoint-url', server.localUrl], { home, env });

const gone = { status: 404, body: { code: 'NOT_FOUND', message: 'no such resource' } };
const sent = (path: string): Recorded[] => server.requests.filter((r) => r.path === path);

beforeAll(async () => {
  server = await startScriptedServer();
});
beforeEach(() => server.play());
afterAll(async () => server.close());

describe('ml --wait', () => {
  const NEW_WORKBENCH =
    '--environment-name sales-env --workspace-name ds-bench --provision-k8s-request {"environmentName":"sales-env","instanceGroups":[{"instanceType":"m5.2xlarge"}]} --wait';

  it('workspaces create polls describeWorkspace by environment and name until installation:finished', async () => {
    const ws = (status: string) => ({ body: { workspace: { instanceName: 'ds-bench', instanceStatus: status } } });
    server.play({
      '/api/v1/ml/describeWorkspace': [ws('provision:started'), ws('installation:started'), ws('installation:finished')],
    });
    const r = await cli(`ml workspaces create ${NEW_WORKBENCH}`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ workspace: { instanceName: 'ds-bench', instanceStatus: 'installation:finished' } });
    const polls = sent('/api/v1/ml/describeWorkspace');
    expect(polls).toHaveLength(3);
    expect(polls[0]?.json).toEqual({ environmentName: 'sales-env', workspaceName: 'ds-bench' });
    expect(r.stderr).toMatch(/installation:started/);
  });

  it('a failed installation ends the wait with exit 5 and the failure message', async () => {
    server.play({
      '/api/v1/ml/describeWorkspace': [
        { body: { workspace: { instanceStatus: 'installation:failed', failureMessage: 'no capacity for m5.2xlarge' } } },
      ],
    });
    const r = await cli(`ml create-workspace ${NEW_WORKBENCH}`);
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/installation:failed: no capacity for m5.2xlarge/);
  });

  it('model-registries create --wait finds the new registry in the list by the environment it names', async () => {
    const registry = (env: string, status: string, crn: string) => ({
      environmentName: env,
      environmentCrn: `crn:env:${env}`,
      status,
      crn,
    });
    server.play({
      '/api/v1/ml/listModelRegistries': [
        // Not listed yet; a registry of another environment and a deleted one of this environment do not count.
        { body: { modelRegistries: [registry('other-env', 'installation:finished', 'r0')] } },
        {
          body: {
            modelRegistries: [
              registry('other-env', 'installation:finished', 'r0'),
              registry('sales-env', 'deprovision:finished', 'r-old'),
              registry('sales-env', 'installation:started', 'r1'),
            ],
          },
        },
        {
          body: {
            modelRegistries: [registry('sales-env', 'deprovision:finished', 'r-old'), registry('sales-env', 'installation:finished', 'r1')],
          },
        },
      ],
    });
    const r = await cli('ml model-registries create --environment-name sales-env --environment-crn crn:env:sales-env --wait');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ crn: 'r1', status: 'installation:finished' });
    expect(r.stderr).toMatch(/PENDING[\s\S]*installation:started[\s\S]*installation:finished/);
    expect(sent('/api/v1/ml/createModelRegistry')).toHaveLength(1);
    expect(sent('/api/v1/ml/listModelRegistries')).toHaveLength(3);
  });

  it('workspaces delete by CRN counts a workbench that is gone as deleted', async () => {
    const crn = 'crn:cdp:ml:us-west-1:acct:workspace:w1';
    server.play({
      '/api/v1/ml/describeWorkspace': [{ body: { workspace: { instanceStatus: 'deprovision:started' } } }, gone],
    });
    const r = await cli(`ml workspaces delete --workspace-crn ${crn} --no-force --yes --wait`);
    expect(r.code).toBe(0);
    expect(sent('/api/v1/ml/deleteWorkspace')[0]?.json).toEqual({ force: false, workspaceCrn: crn });
    expect(sent('/api/v1/ml/describeWorkspace').map((q) => q.json)).toEqual([{ workspaceCrn: crn }, { workspaceCrn: crn }]);
  });

  it('serving-apps create polls the appCrn the service answered with', async () => {
    const app = 'crn:cdp:ml:us-west-1:acct:mlserving:a1';
    server.play({
      '/api/v1/ml/createMlServingApp': [{ body: { appCrn: app } }],
      '/api/v1/ml/describeMlServingApp': [{ body: { app: { appCrn: app, status: 'installation:finished' } } }],
    });
    const r = await cli(`ml serving-apps create --app-name inference --environment-crn crn:env --wait`);
    expect(r.code).toBe(0);
    expect(sent('/api/v1/ml/describeMlServingApp')[0]?.json).toEqual({ appCrn: app });
  });

  it('model-registries upgrade polls the registry by its CRN', async () => {
    const crn = 'crn:cdp:ml:us-west-1:acct:modelregistry:r1';
    server.play({
      '/api/v1/ml/upgradeModelRegistry': [{ body: { crn } }],
      '/api/v1/ml/describeModelRegistry': [
        { body: { modelRegistry: { crn, status: 'upgrade:started' } } },
        { body: { modelRegistry: { crn, status: 'upgrade:finished' } } },
      ],
    });
    const r = await cli(`ml model-registries upgrade --crn ${crn} --wait`);
    expect(r.code).toBe(0);
    expect(sent('/api/v1/ml/describeModelRegistry').map((q) => q.json)).toEqual([{ modelRegistryCrn: crn }, { modelRegistryCrn: crn }]);
  });
});

describe('de --wait', () => {
  it('services enable follows the clusterId of the answer and fails on a *Failed status', async () => {
    server.play({
      '/api/v1/de/enableService': [{ body: { service: { clusterId: 'cluster-abc', status: 'ClusterCreationInProgress' } } }],
      '/api/v1/de/describeService': [
        { body: { service: { clusterId: 'cluster-abc', status: 'ClusterProvisioningInProgress' } } },
        { body: { service: { clusterId: 'cluster-abc', status: 'ClusterProvisioningFailed' } } },
      ],
    });
    const r = await cli(
      `de services enable --name sales-de --env sales-env --instance-type m5.2xlarge --minimum-instances 1 --maximum-instances 4 --wait`,
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toMatch(/ClusterProvisioningFailed/);
    expect(sent('/api/v1/de/describeService')[0]?.json).toEqual({ clusterId: 'cluster-abc' });
  });

  it('vcs create polls describeVc with the service and the new vcId', async () => {
    server.play({
      '/api/v1/de/createVc': [{ body: { Vc: { vcId: 'dex-app-1', vcName: 'etl', clusterId: 'cluster-abc' } } }],
      '/api/v1/de/describeVc': [
        { body: { vc: { vcId: 'dex-app-1', status: 'AppInstalling' } } },
        { body: { vc: { vcId: 'dex-app-1', status: 'AppInstalled' } } },
      ],
    });
    const r = await cli(`de vcs create --name etl --cluster-id cluster-abc --cpu-requests 20 --memory-requests 80Gi --wait`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ vc: { vcId: 'dex-app-1', status: 'AppInstalled' } });
    expect(sent('/api/v1/de/describeVc')[0]?.json).toEqual({ clusterId: 'cluster-abc', vcId: 'dex-app-1' });
  });

  it('vcs suspend waits until every step is completed, without re-sending the suspend', async () => {
    server.play({
      '/api/v1/de/getSuspendResumeStatus': [
        { body: { statusMessage: 'suspending jobs', allStepsCompleted: false } },
        { body: { statusMessage: 'done', allStepsCompleted: true } },
      ],
    });
    const r = await cli(`de vcs suspend --cluster-id cluster-abc --vc-id dex-app-1 --wait`);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/suspending jobs/);
    expect(sent('/api/v1/de/suspendVc')).toHaveLength(1);
    expect(sent('/api/v1/de/getSuspendResumeStatus')).toHaveLength(2);
  });

  it('services disable counts a deleted service as done', async () => {
    server.play({
      '/api/v1/de/describeService': [
        { body: { service: { clusterId: 'cluster-abc', status: 'ClusterDeletionInProgress' } } },
        { body: { service: { clusterId: 'cluster-abc', status: 'ClusterDeletionCompleted' } } },
      ],
    });
    const r = await cli(`de services disable --cluster-id cluster-abc --yes --wait`);
    expect(r.code).toBe(0);
  });
});

describe('opdb --wait', () => {
  const DB = '--environment-name sales-env --database-name orders';
  const details = (status: string) => ({ body: { databaseDetails: { databaseName: 'orders', status } } });

  it('databases create polls describeDatabase until AVAILABLE', async () => {
    server.play({
      '/api/v1/opdb/describeDatabase': [details('CREATE_IN_PROGRESS'), details('AVAILABLE')],
    });
    const r = await cli(`opdb databases create ${DB} --wait`);
    expect(r.code).toBe(0);
    expect(sent('/api/v1/opdb/describeDatabase')[0]?.json).toEqual({ environmentName: 'sales-env', databaseName: 'orders' });
  });

  it('databases stop fails with exit 5 on STOP_FAILED', async () => {
    server.play({ '/api/v1/opdb/describeDatabase': [details('STOP_IN_PROGRESS'), details('STOP_FAILED')] });
    const r = await cli(`opdb databases stop ${DB} --wait`);
    expect(r.code).toBe(5);
  });

  it('databases drop ends when the database is gone', async () => {
    server.play({ '/api/v1/opdb/describeDatabase': [details('DELETE_IN_PROGRESS'), gone] });
    const r = await cli(`opdb databases drop ${DB} --yes --wait`);
    expect(r.code).toBe(0);
  });

  it('snapshots create follows the snapshots of its command id', async () => {
    server.play({
      '/api/v1/opdb/createSnapshot': [{ body: { status: 'IN_PROGRESS', commandID: 77 } }],
      '/api/v1/opdb/listSnapshots': [
        { body: { snapshots: [{ snapshotName: 's1', tableName: 't', snapshotId: 1, status: 'IN_PROGRESS' }] } },
        { body: { snapshots: [{ snapshotName: 's1', tableName: 't', snapshotId: 1, status: 'SUCCESSFUL' }] } },
      ],
    });
    const r = await cli(
      `opdb snapshots create ${DB} --table-name default:t --snapshot-name s1 --snapshot-location s3a://bucket/snap --wait`,
    );
    expect(r.code).toBe(0);
    expect(sent('/api/v1/opdb/listSnapshots')[0]?.json).toEqual({ environmentName: 'sales-env', databaseName: 'orders', commandId: 77 });
  });
});
