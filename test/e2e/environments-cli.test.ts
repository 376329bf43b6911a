/**
 * The environments model through bin/run.js, the way a user runs it: the
 * client-side rules refuse bad input with exit 2 and send nothing, and --wait
 * polls the operation each waiter names with the fields it fills, until the
 * success state (exit 0), a failure state (exit 5) or the resource is gone.
 * A recording server plays the control plane, answering each path from a
 * script of replies.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from '@jest/globals';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startScriptedServer, type ScriptedServer } from '../helpers/recording-server.js';

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome();
const env = { CDP_ACCESS_KEY_ID: 'test-key-id', CDP_PRIVATE_KEY: key.privateKey };
const FAST = ['--poll-interval', '0.05', '--wait-timeout', '60'];
const cli = (args: string[]) => runCli(['environments', ...args, '--endpoint-url', server.url], { home, env });
const sent = (): Array<{ op: string; json: Record<string, unknown> }> =>
  server.requests.map((r) => ({ op: r.path.replace('/api/v1/environments2/', ''), json: r.json }));

const environment = (status: string, statusReason?: string) => ({
  body: { environment: { environmentName: 'sales-env', crn: 'crn:cdp:environments:us-west-1:acct:environment:e1', status, statusReason } },
});

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());
beforeEach(() => server.play());

const AWS_CREATE = [
  'create',
  'aws',
  '--environment-name',
  'sales-env',
  '--credential-name',
  'sales-aws-cred',
  '--region',
  'us-west-2',
  '--authentication',
  'publicKeyId=sales-env-key',
  '--log-storage',
  'storageLocationBase=s3a://sales-cdp-logs/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/logs',
];

describe('client-side rules refuse bad input and send nothing', () => {
  const refused: Array<[string, string[], RegExp]> = [
    [
      'an upper-case environment name',
      [...AWS_CREATE, '--security-access', 'cidr=10.0.0.0/16'].map((a) => (a === 'sales-env' ? 'Sales-Env' : a)),
      /lower-case/,
    ],
    [
      'a CIDR together with security groups',
      [...AWS_CREATE, '--security-access', 'cidr=10.0.0.0/16,defaultSecurityGroupId=sg-1'],
      /either cidr or security groups/,
    ],
    [
      'a log location that is not s3a://',
      [
        ...AWS_CREATE.slice(0, -1),
        'storageLocationBase=s3://sales/logs,instanceProfile=arn:aws:iam::1:instance-profile/x',
        '--security-access',
        'cidr=10.0.0.0/16',
      ],
      /s3a:\/\//,
    ],
    [
      'both an SSH key and a key id',
      [
        ...AWS_CREATE.slice(0, 8),
        '--authentication',
        'publicKey=ssh-ed25519 AAAA,publicKeyId=k',
        ...AWS_CREATE.slice(10),
        '--security-access',
        'cidr=10.0.0.0/16',
      ],
      /publicKey or publicKeyId/,
    ],
    ['a proxy change that names nothing', ['update', 'proxy-config', '--environment', 'sales-env'], /--remove-proxy/],
    [
      'a proxy name and --remove-proxy',
      ['update', 'proxy-config', '--environment', 'sales-env', '--proxy-config-name', 'p', '--remove-proxy'],
      /not both/,
    ],
    [
      'an SSH key change without a key',
      ['update', 'ssh-key', '--environment', 'sales-env'],
      /--new-public-key or --existing-public-key-id/,
    ],
    [
      'ID Broker mappings without --set-empty-mappings',
      ['id-broker-mappings', 'set', '--environment-name', 'sales-env', '--data-access-role', 'arn:aws:iam::1:role/d'],
      /--set-empty-mappings/,
    ],
    [
      'a SECRET Azure credential without its subscription',
      ['credentials', 'create', 'azure', '--credential-name', 'c', '--app-based', 'authenticationType=SECRET,applicationId=a,secretKey=s'],
      /--subscription-id and --tenant-id/,
    ],
    [
      'a private compute cluster with API address ranges',
      [
        'compute-cluster',
        'initialize',
        'aws',
        '--environment-name',
        'sales-env',
        '--compute-cluster-configuration',
        '{"privateCluster":true,"kubeApiAuthorizedIpRanges":["10.0.0.0/8"]}',
      ],
      /private compute cluster/,
    ],
  ];
  it.each(refused)('refuses %s', async (_, args, message) => {
    const r = await cli(args);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(server.requests).toEqual([]);
  });

  it('sends ID Broker mappings with --set-empty-mappings and no mappings', async () => {
    const r = await cli([
      'id-broker-mappings',
      'set',
      '--environment-name',
      'sales-env',
      '--data-access-role',
      'arn:aws:iam::1:role/d',
      '--set-empty-mappings',
    ]);
    expect(r.code).toBe(0);
    expect(sent()).toEqual([
      {
        op: 'setIdBrokerMappings',
        json: { environmentName: 'sales-env', dataAccessRole: 'arn:aws:iam::1:role/d', setEmptyMappings: true },
      },
    ]);
  });
});

describe('--wait polls the service', () => {
  it('waits for a new environment to become AVAILABLE through describeEnvironment', async () => {
    server.script.createAWSEnvironment = [environment('CREATION_INITIATED')];
    server.script.describeEnvironment = [
      environment('NETWORK_CREATION_IN_PROGRESS'),
      environment('FREEIPA_CREATION_IN_PROGRESS'),
      environment('AVAILABLE'),
    ];
    const r = await cli([...AWS_CREATE, '--security-access', 'cidr=10.0.0.0/16', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { environment: { status: string } }).environment.status).toBe('AVAILABLE');
    expect(sent().map((s) => s.op)).toEqual(['createAWSEnvironment', 'describeEnvironment', 'describeEnvironment', 'describeEnvironment']);
    expect(sent()[1]?.json).toEqual({ environmentName: 'sales-env' });
  });

  it('exits 5 with the status reason when creation fails', async () => {
    server.script.describeEnvironment = [environment('CREATE_FAILED', 'subnet-1 is not in vpc-1')];
    const r = await cli([...AWS_CREATE, '--security-access', 'cidr=10.0.0.0/16', '--wait', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('CREATE_FAILED');
    expect(r.stderr).toContain('subnet-1 is not in vpc-1');
  });

  it('counts a deleted environment that is gone as done', async () => {
    server.script.describeEnvironment = [
      environment('DELETE_INITIATED'),
      { status: 404, body: { code: 'NOT_FOUND', message: 'environment sales-env not found' } },
    ];
    const r = await cli(['delete', '--environment-name', 'sales-env', '--yes', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(sent().map((s) => s.op)).toEqual(['deleteEnvironment', 'describeEnvironment', 'describeEnvironment']);
  });

  it('follows a stop through getOperation with the operation id it answered', async () => {
    server.script.stopEnvironment = [{ body: { operationId: 'op-7' } }];
    server.script.getOperation = [
      { body: { operationId: 'op-7', operationStatus: 'RUNNING' } },
      { body: { operationId: 'op-7', operationStatus: 'FINISHED' } },
    ];
    const r = await cli(['stop', '--environment-name', 'sales-env', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(sent().slice(1)).toEqual([
      { op: 'getOperation', json: { environmentName: 'sales-env', operationId: 'op-7' } },
      { op: 'getOperation', json: { environmentName: 'sales-env', operationId: 'op-7' } },
    ]);
  });

  it('follows a FreeIPA repair through getRepairFreeipaStatus and fails on FAILED', async () => {
    server.script.repairFreeipa = [{ body: { operationId: 'rep-1', status: 'REQUESTED' } }];
    server.script.getRepairFreeipaStatus = [
      { body: { status: 'RUNNING' } },
      { body: { status: 'FAILED', error: 'instance i-1 did not come back' } },
    ];
    const r = await cli(['freeipa', 'repair', '--environment-name', 'sales-env', '--wait', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('instance i-1 did not come back');
    expect(sent()[1]).toEqual({ op: 'getRepairFreeipaStatus', json: { operationId: 'rep-1' } });
  });

  it('follows a user sync through syncStatus', async () => {
    server.script.syncAllUsers = [{ body: { operationId: 'sync-3', status: 'REQUESTED' } }];
    server.script.syncStatus = [
      { body: { operationId: 'sync-3', status: 'RUNNING' } },
      { body: { operationId: 'sync-3', status: 'COMPLETED' } },
    ];
    const r = await cli(['users', 'sync', '--environment-names', 'sales-env', 'ops-env', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    expect(sent()[0]).toEqual({ op: 'syncAllUsers', json: { environmentNames: ['sales-env', 'ops-env'] } });
    expect(sent()[1]).toEqual({ op: 'syncStatus', json: { operationId: 'sync-3' } });
  });

  it('follows an ID Broker mappings sync and reports the data lake error', async () => {
    server.script.getIdBrokerMappingsSyncStatus = [
      { body: { syncNeeded: true, globalStatus: 'RUNNING', statuses: {} } },
      {
        body: { syncNeeded: true, globalStatus: 'FAILED', statuses: { 'crn:dl': { status: 'FAILED', errorDetail: 'role not assumable' } } },
      },
    ];
    const r = await cli(['id-broker-mappings', 'sync', '--environment-name', 'sales-env', '--wait', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('role not assumable');
    expect(sent()[1]).toEqual({ op: 'getIdBrokerMappingsSyncStatus', json: { environmentName: 'sales-env' } });
  });
});
