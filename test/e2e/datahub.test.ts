/**
 * Data Hub and image catalog commands through bin/run.js against a loopback
 * recording server (the emulator does not implement them yet): --wait on the
 * cluster lifecycle polls describeCluster (the CRN a create answers, the name
 * otherwise; NOT_FOUND after a delete is success), work on a running cluster
 * follows getOperation with the id the call answered, failures end in exit 5
 * with the service's reason, and rejected input sends nothing.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome('cdpctl-datahub-');
const env = { CDP_ACCESS_KEY_ID: 'datahub-test-key', CDP_PRIVATE_KEY: key.privateKey };
/** Runs a command line (words split on spaces, then any extra words) against the recording server. */
const cli = (line: string, ...more: string[]) => runCli([...line.split(' '), ...more, '--endpoint-url', server.localUrl], { home, env });
/** Waiting without pauses between polls (the model's intervals are tens of seconds). */
const WAIT = ['--wait', '--poll-interval', '0'];
const sent = (op: string) => server.sent(op, '/api/v1/datahub/');

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.play({}));

const CRN = 'crn:cdp:datahub:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:cluster:3f8c2d1e-7b6a-4c59-8e0d-2a1b4c6d8e9f';
const cluster = (status: string, extra: Record<string, unknown> = {}) => ({
  body: { cluster: { clusterName: 'sales-etl', crn: CRN, status, ...extra } },
});
const notFound = { status: 404, body: { code: 'NOT_FOUND', message: 'cluster not found' } };

describe('datahub --wait', () => {
  it('clusters create aws polls describeCluster with the CRN it answers until AVAILABLE', async () => {
    server.play({
      createAWSCluster: [{ body: { cluster: { clusterName: 'sales-etl', crn: CRN, status: 'REQUESTED' }, operationId: 'op-1' } }],
      describeCluster: [cluster('CREATE_IN_PROGRESS'), cluster('AVAILABLE', { nodeCount: 5 })],
    });
    const r = await cli('datahub clusters create aws --cluster-name sales-etl --environment sales-env', ...WAIT);
    expect(r.code).toBe(0);
    expect(sent('createAWSCluster')).toEqual([{ clusterName: 'sales-etl', environment: 'sales-env' }]);
    expect(sent('describeCluster')).toEqual([{ clusterName: CRN }, { clusterName: CRN }]);
    expect(JSON.parse(r.stdout)).toEqual({ cluster: { clusterName: 'sales-etl', crn: CRN, status: 'AVAILABLE', nodeCount: 5 } });
    expect(r.stderr).toContain('CREATE_IN_PROGRESS');
  });

  it('clusters create gcp falls back to the requested name when the answer carries no CRN', async () => {
    server.play({ describeCluster: [cluster('AVAILABLE')] });
    const r = await cli(
      'datahub clusters create gcp --cluster-name ml-etl --environment-name ml-env --cluster-template-name spark',
      ...WAIT,
    );
    expect(r.code).toBe(0);
    expect(sent('describeCluster')).toEqual([{ clusterName: 'ml-etl' }]);
  });

  it('clusters stop ends with exit 5 and the status reason on STOP_FAILED', async () => {
    server.play({
      stopCluster: [{ body: { operationId: 'op-2' } }],
      describeCluster: [cluster('STOP_IN_PROGRESS'), cluster('STOP_FAILED', { statusReason: 'instance i-0a1b did not stop' })],
    });
    const r = await cli('datahub clusters stop --cluster-name sales-etl', ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('stopCluster ended in STOP_FAILED: instance i-0a1b did not stop');
    expect(sent('stopCluster')).toEqual([{ clusterName: 'sales-etl' }]);
    expect(sent('describeCluster')).toEqual([{ clusterName: 'sales-etl' }, { clusterName: 'sales-etl' }]);
  });

  it('clusters delete is done when describeCluster answers NOT_FOUND, and the delete is sent once', async () => {
    server.play({ deleteCluster: [{ body: { operationId: 'op-3' } }], describeCluster: [cluster('DELETE_IN_PROGRESS'), notFound] });
    const r = await cli('datahub clusters delete --cluster-name sales-etl --force --yes', ...WAIT);
    expect(r.code).toBe(0);
    expect(sent('deleteCluster')).toEqual([{ clusterName: 'sales-etl', force: true }]);
    expect(sent('describeCluster')).toHaveLength(2);
  });

  it('clusters retry does not take the failed state it starts from as the outcome', async () => {
    server.play({ describeCluster: [cluster('CREATE_FAILED'), cluster('UPDATE_IN_PROGRESS'), cluster('AVAILABLE')] });
    const r = await cli('datahub clusters retry --cluster-name sales-etl', ...WAIT);
    expect(r.code).toBe(0);
    expect(sent('retryCluster')).toHaveLength(1);
    expect(sent('describeCluster')).toHaveLength(3);
  });

  it('clusters scale follows getOperation with the id it answers, without sending the scale again', async () => {
    server.play({
      scaleCluster: [{ body: { operationId: 'op-4' } }],
      getOperation: [
        { body: { operationId: 'op-4', operationStatus: 'RUNNING' } },
        { body: { operationId: 'op-4', operationStatus: 'FINISHED' } },
      ],
    });
    const r = await cli(
      'datahub clusters scale --cluster-name sales-etl --instance-group-name compute --instance-group-desired-count 8',
      ...WAIT,
    );
    expect(r.code).toBe(0);
    expect(sent('scaleCluster')).toEqual([{ clusterName: 'sales-etl', instanceGroupName: 'compute', instanceGroupDesiredCount: 8 }]);
    expect(sent('getOperation')).toEqual([
      { clusterName: 'sales-etl', operationId: 'op-4' },
      { clusterName: 'sales-etl', operationId: 'op-4' },
    ]);
    expect(JSON.parse(r.stdout)).toEqual({ operationId: 'op-4', operationStatus: 'FINISHED' });
  });

  it('clusters repair ends with exit 5 when its operation fails', async () => {
    server.play({
      repairCluster: [{ body: { operationId: 'op-5' } }],
      getOperation: [{ body: { operationId: 'op-5', operationStatus: 'FAILED' } }],
    });
    const r = await cli('datahub clusters repair --cluster-name sales-etl --instance-group-names compute worker', ...WAIT);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('repairCluster ended in FAILED');
    expect(sent('repairCluster')).toEqual([{ clusterName: 'sales-etl', instanceGroupNames: ['compute', 'worker'] }]);
    expect(sent('getOperation')).toEqual([{ clusterName: 'sales-etl', operationId: 'op-5' }]);
  });

  it('secrets rotate names the cluster by its CRN in the poll', async () => {
    server.play({ rotateSecrets: [{ body: { operationId: 'op-6' } }], getOperation: [{ body: { operationStatus: 'FINISHED' } }] });
    const r = await cli(`datahub secrets rotate --datahub ${CRN} --secret-types CM_ADMIN_PASSWORD SALT_PASSWORD`, ...WAIT);
    expect(r.code).toBe(0);
    expect(sent('rotateSecrets')).toEqual([{ datahub: CRN, secretTypes: ['CM_ADMIN_PASSWORD', 'SALT_PASSWORD'] }]);
    expect(sent('getOperation')).toEqual([{ clusterName: CRN, operationId: 'op-6' }]);
  });
});

describe('datahub input checks send nothing', () => {
  /** What is refused, the command line (words split on spaces, then any extra words), and what the error says. */
  const rejected: Array<[string, string, string, string[]?]> = [
    [
      'a cluster name with capitals',
      'clusters create aws --cluster-name Sales_ETL --environment sales-env',
      'cluster names use only lower-case letters',
    ],
    [
      'an environment given twice, in the old and the new flag',
      'clusters create aws --cluster-name sales-etl --environment a --environment-name b',
      'give --environment (or the older --environment-name), not both',
    ],
    ['no period for scaling activities', 'scaling-activities list --cluster sales-etl', 'say which activities'],
    [
      'a start time without an end',
      'scaling-activities list --cluster sales-etl --start-time 1714521600000',
      '--start-time needs --end-time',
    ],
    [
      'a runtime upgrade that keeps the components',
      'clusters upgrade --cluster-name sales-etl --runtime 7.2.18 --lock-components',
      'do not combine it with --runtime',
    ],
    ['vertical scaling with nothing to change', 'clusters scale-vertically --datahub sales-etl --group compute', 'nothing to change'],
    [
      'subnets and zones together',
      'clusters scale --cluster-name sales-etl --instance-group-name compute --instance-group-desired-count 3 --preferred-subnet-ids s-1 --preferred-zones z-1',
      'give one',
    ],
    [
      'a recipe name with a space',
      'recipes create --recipe-content echo --type PRE_TERMINATION',
      'recipe names use only',
      ['--recipe-name', 'my recipe'],
    ],
  ];
  for (const [what, line, message, extra = []] of rejected) {
    it(`refuses ${what}`, async () => {
      const r = await cli(`datahub ${line}`, ...extra);
      expect(r.code).toBe(2);
      expect(r.stderr).toContain(message);
      expect(server.requests).toHaveLength(0);
    });
  }
});

/** The cells of a boxed table, one array per row (header first). */
const rows = (table: string): string[][] =>
  table
    .split('\n')
    .filter((l) => l.includes('│'))
    .map((l) =>
      l
        .split('│')
        .slice(1, -1)
        .map((c) => c.trim()),
    );

describe('tables', () => {
  it('clusters list shows name and status per cluster', async () => {
    server.play({
      listClusters: [
        {
          body: {
            clusters: [
              { clusterName: 'sales-etl', crn: CRN, status: 'AVAILABLE', environmentName: 'sales-env', cloudPlatform: 'AWS', nodeCount: 5 },
              {
                clusterName: 'ops-etl',
                crn: `${CRN}0`,
                status: 'STOPPED',
                environmentName: 'ops-env',
                cloudPlatform: 'AZURE',
                nodeCount: 3,
              },
            ],
          },
        },
      ],
    });
    const r = await cli('datahub clusters list --environment-name sales-env --output table');
    expect(r.code).toBe(0);
    const [header, ...body] = rows(r.stdout);
    expect(header?.slice(0, 5)).toEqual(['name', 'status', 'environment', 'cloud', 'nodes']);
    expect(body.map((row) => row.slice(0, 5))).toEqual([
      ['sales-etl', 'AVAILABLE', 'sales-env', 'AWS', '5'],
      ['ops-etl', 'STOPPED', 'ops-env', 'AZURE', '3'],
    ]);
    expect(sent('listClusters')).toEqual([{ environmentName: 'sales-env' }]);
  });

  it('imagecatalog catalogs list shows each catalog', async () => {
    server.play({ listCustomCatalogs: [{ body: { imageCatalogs: [{ name: 'sales-images', description: 'Hardened images' }] } }] });
    const r = await cli('imagecatalog catalogs list --output table');
    expect(r.code).toBe(0);
    expect(rows(r.stdout)).toEqual([
      ['name', 'description'],
      ['sales-images', 'Hardened images'],
    ]);
    expect(server.sent('listCustomCatalogs', '/api/v1/imagecatalog/')).toEqual([{}]);
  });
});
