/**
 * Data Warehouse commands through bin/run.js against a loopback recording
 * server (the wire; emulator-dw.test.ts drives the emulator): --wait polls
 * the describe call of the resource it changed with the ids of the first call, ends on
 * the states the model names (exit 5 on Error or a failed job, NOT_FOUND
 * after a delete is success), and rejected input sends nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome('cdpctl-dw-');
const env = { CDP_ACCESS_KEY_ID: 'dw-test-key', CDP_PRIVATE_KEY: key.privateKey };
const cli = (args: string[]) => runCli(['dw', ...args, '--endpoint-url', server.url], { home, env });
/** Waiting without pauses between polls (the model's intervals are tens of seconds). */
const WAIT = ['--wait', '--poll-interval', '0'];

const BASE = '/api/v1/dw/';
const sent = (op: string) => server.requests.filter((r) => r.path === `${BASE}${op}`).map((r) => r.json);

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.play());

const CLUSTER = 'env-sq7hfv';
const DBC = 'warehouse-1696571829-pps2';
const ENV_CRN = 'crn:cdp:environments:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:environment:2f1b7c4e';
const notFound = { status: 404, body: { code: 'NOT_FOUND', message: 'not found' } };

describe('dw --wait', () => {
  it('vws create polls describeVw with the new id until Running', async () => {
    server.play({
      createVw: [{ body: { vwId: 'compute-1700000000-abcd' } }],
      describeVw: [
        { body: { vw: { id: 'compute-1700000000-abcd', status: 'Creating' } } },
        { body: { vw: { id: 'compute-1700000000-abcd', status: 'Running' } } },
      ],
    });
    const r = await cli(['vws', 'create', '--cluster-id', CLUSTER, '--dbc-id', DBC, '--vw-type', 'hive', '--name', 'sales-hive', ...WAIT]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ vw: { id: 'compute-1700000000-abcd', status: 'Running' } });
    expect(sent('createVw')).toEqual([{ clusterId: CLUSTER, dbcId: DBC, vwType: 'hive', name: 'sales-hive' }]);
    expect(sent('describeVw')).toEqual([
      { clusterId: CLUSTER, vwId: 'compute-1700000000-abcd' },
      { clusterId: CLUSTER, vwId: 'compute-1700000000-abcd' },
    ]);
  });

  it('clusters create aws polls describeCluster with the cluster id it answers', async () => {
    server.play({
      createAwsCluster: [{ body: { clusterId: CLUSTER } }],
      describeCluster: [
        { body: { cluster: { id: CLUSTER, status: 'Accepted' } } },
        { body: { cluster: { id: CLUSTER, status: 'Running' } } },
      ],
    });
    const r = await cli([
      'clusters',
      'create',
      'aws',
      '--environment-crn',
      ENV_CRN,
      '--worker-subnet-ids',
      'subnet-1',
      'subnet-2',
      ...WAIT,
    ]);
    expect(r.code).toBe(0);
    expect(sent('createAwsCluster')).toEqual([{ environmentCrn: ENV_CRN, workerSubnetIds: ['subnet-1', 'subnet-2'] }]);
    expect(sent('describeCluster').at(-1)).toEqual({ clusterId: CLUSTER });
    expect(JSON.parse(r.stdout)).toMatchObject({ cluster: { status: 'Running' } });
  });

  it('dbcs suspend ends with exit 5 when the catalog goes to Error', async () => {
    server.play({
      describeDbc: [{ body: { dbc: { id: DBC, status: 'Stopping' } } }, { body: { dbc: { id: DBC, status: 'Error' } } }],
    });
    const r = await cli(['dbcs', 'suspend', '--cluster-id', CLUSTER, '--dbc-id', DBC, ...WAIT]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('suspendDbc ended in Error');
    expect(sent('suspendDbc')).toHaveLength(1);
    expect(sent('describeDbc')[0]).toEqual({ clusterId: CLUSTER, dbcId: DBC });
  });

  it('data-visualizations delete is done when describe answers NOT_FOUND', async () => {
    server.play({
      describeDataVisualization: [{ body: { dataVisualization: { id: 'viz-1', status: 'Deleting' } } }, notFound],
    });
    const r = await cli(['data-visualizations', 'delete', '--cluster-id', CLUSTER, '--data-visualization-id', 'viz-1', '--yes', ...WAIT]);
    expect(r.code).toBe(0);
    expect(sent('deleteDataVisualization')).toEqual([{ clusterId: CLUSTER, dataVisualizationId: 'viz-1' }]);
    expect(sent('describeDataVisualization')).toHaveLength(2);
  });

  it('clusters diagnostics create follows the job it started until Succeeded', async () => {
    server.play({
      createClusterDiagnosticDataJob: [{ body: { id: 'job-7', status: 'Starting' } }],
      describeClusterDiagnosticDataJob: [
        { body: { job: { jobId: 'job-7', status: 'Running' } } },
        { body: { job: { jobId: 'job-7', status: 'Succeeded', url: 'https://x/b.zip' } } },
      ],
    });
    const r = await cli(['clusters', 'diagnostics', 'create', '--cluster-id', CLUSTER, '--destination', 'DOWNLOAD', ...WAIT]);
    expect(r.code).toBe(0);
    expect(sent('describeClusterDiagnosticDataJob').at(-1)).toEqual({ clusterId: CLUSTER, jobId: 'job-7' });
    expect(JSON.parse(r.stdout)).toMatchObject({ job: { status: 'Succeeded' } });
  });

  it('backups create fails (exit 5) on a partially failed job and says why', async () => {
    const crn = 'crn:cdp:dw:us-west-1:acct:backup:b1';
    server.play({
      createBackup: [{ body: { backupCrn: crn } }],
      describeBackup: [
        { body: { backup: { backupCrn: crn, backupJobState: 'IN_PROGRESS' } } },
        { body: { backup: { backupCrn: crn, backupJobState: 'PARTIALLY_FAILED', errors: [{ text: 'volume snapshot timed out' }] } } },
      ],
    });
    const r = await cli(['backups', 'create', '--backup-name', 'nightly', ...WAIT]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('PARTIALLY_FAILED: volume snapshot timed out');
    expect(sent('describeBackup')[0]).toEqual({ backupCrn: crn });
  });

  it('backups restore polls describeRestore until COMPLETED', async () => {
    const crn = 'crn:cdp:dw:us-west-1:acct:restore:r1';
    server.play({
      restoreBackup: [{ body: { restoreCrn: crn } }],
      describeRestore: [{ body: { restore: { restoreCrn: crn, restoreJobState: 'COMPLETED' } } }],
    });
    const r = await cli(['backups', 'restore', '--backup-crn', 'crn:cdp:dw:us-west-1:acct:backup:b1', ...WAIT]);
    expect(r.code).toBe(0);
    expect(sent('describeRestore')).toEqual([{ restoreCrn: crn }]);
  });
});

describe('dw input checks', () => {
  it('refuses Impala options on a Hive warehouse and both spill settings at once, sending nothing', async () => {
    const base = ['vws', 'create', '--cluster-id', CLUSTER, '--dbc-id', DBC, '--name', 'w'];
    const hive = await cli([...base, '--vw-type', 'hive', '--impala-options', 'scratchSpaceLimit=300']);
    expect(hive.code).toBe(2);
    expect(hive.stderr).toContain('--impala-options is only for --vw-type impala');
    const both = await cli([...base, '--vw-type', 'impala', '--impala-options', 'spillToS3Uri=s3://spill/dw,scratchSpaceLimit=300']);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('spillToS3Uri or scratchSpaceLimit');
    expect(server.requests).toEqual([]);
  });

  it('events list needs an operation or a service, and at most 500 rows', async () => {
    const none = await cli(['events', 'list']);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('--operation-id or --service-id');
    const many = await cli(['events', 'list', '--service-id', CLUSTER, '--limit', '900']);
    expect(many.code).toBe(2);
    expect(server.requests).toEqual([]);
  });
});

describe('dw lists', () => {
  it('vws list --output table shows the id, name and status of each warehouse', async () => {
    server.play({
      listVws: [
        {
          body: {
            vws: [
              { id: 'compute-1', name: 'sales-hive', vwType: 'hive', status: 'Running', dbcId: DBC },
              { id: 'impala-2', name: 'sales-impala', vwType: 'impala', status: 'Stopped', dbcId: DBC },
            ],
          },
        },
      ],
    });
    const r = await cli(['vws', 'list', '--cluster-id', CLUSTER, '--output', 'table']);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines.find((l) => l.includes('compute-1'))).toMatch(/compute-1.*sales-hive.*hive.*Running/);
    expect(lines.find((l) => l.includes('impala-2'))).toMatch(/impala-2.*sales-impala.*impala.*Stopped/);
  });
});
