/**
 * Replication Manager, audit and drscp through bin/run.js against a loopback
 * recording server (the emulator does not implement these services): each
 * --wait polls the service's own status call with the request it needs, ends
 * on the right state and exit code, and client-side rules send nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { issueKey } from '../../src/lib/emulator/keys.js';
import { runCli, tempHome } from '../helpers/cli.js';
import { startScriptedServer, type Reply, type ScriptedServer } from '../helpers/recording-server.js';

const ACCOUNT = '9d74eee4-1cad-45d7-b645-7ccf9edbb73d';
const CLUSTER = `crn:cdp:datahub:us-east-1:${ACCOUNT}:cluster:0e6c2b8a-7d41-4f3e-b2a9-61c5d8e4f7a3`;
const BACKUP = `crn:cdp:drscp:us-west-1:${ACCOUNT}:backup:6e2a9f1c-4b7d-4c3e-8a5f-0d1b2c3e4f5a`;
const RESTORE = `crn:cdp:drscp:us-west-1:${ACCOUNT}:restore:b3d8e1f0-7a2c-4e9b-9c6d-2f4a5b6c7d8e`;

let server: ScriptedServer;
const key = issueKey('V2');
const home = tempHome();
const env = { CDP_ACCESS_KEY_ID: 'test-key-id', CDP_PRIVATE_KEY: key.privateKey };
/**
 * Runs a command line (values without spaces). With --wait, polls come back
 * to back: the server's script decides when the work is done.
 */
const cli = (line: string) => {
  const args = line.split(' ');
  // drscp exists only in a private cloud (a numeric address, to cdp's form-factor test), the others in the public one (localhost).
  const url = args[0] === 'drscp' ? server.url : server.localUrl;
  return runCli([...args, '--endpoint-url', url, ...(args.includes('--wait') ? ['--poll-interval', '0'] : [])], { home, env });
};
const COLLECT = `replicationmanager diagnostics collect --cluster-crn ${CLUSTER} --policy-name sales-hdfs --wait`;
const RANGE = '--from-timestamp 2024-04-01T00:00:00Z --to-timestamp 2024-05-01T00:00:00Z';

/** Answers for a path, taken in turn; the last one repeats. */
const answer = (path: string, ...answers: Reply[]): void => {
  server.script[path] = answers;
};
const sent = (path: string) => server.requests.filter((r) => r.path === path);

beforeAll(async () => {
  server = await startScriptedServer();
});
afterAll(async () => server.close());

describe('replicationmanager', () => {
  it('diagnostics collect --wait polls getCommandStatus with the command id as a string until the bundle is downloadable', async () => {
    answer('/api/v1/replicationmanager/collectDiagnosticBundle', { body: { commandId: 1546335, active: true } });
    answer(
      '/api/v1/replicationmanager/getCommandStatus',
      { body: { commandId: 1546335, active: true, bundleStatus: 'IN_PROGRESS' } },
      { body: { commandId: 1546335, active: false, success: true, bundleStatus: 'DOWNLOADABLE_WITH_CLI' } },
    );
    const r = await cli(COLLECT);
    expect(r.stderr).toContain('DOWNLOADABLE_WITH_CLI');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ bundleStatus: 'DOWNLOADABLE_WITH_CLI' });
    const polls = sent('/api/v1/replicationmanager/getCommandStatus');
    expect(polls.length).toBe(2);
    for (const p of polls) expect(p.json).toEqual({ clusterCrn: CLUSTER, commandId: '1546335' });
  });

  it('diagnostics collect --wait fails (exit 5) when the command ends unsuccessfully without a bundle status', async () => {
    answer('/api/v1/replicationmanager/collectDiagnosticBundle', { body: { commandId: 77 } });
    answer('/api/v1/replicationmanager/getCommandStatus', {
      body: { commandId: 77, active: false, success: false, resultMessage: 'Policy sales-hdfs has no job runs' },
    });
    const r = await cli(COLLECT);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('Policy sales-hdfs has no job runs');
  });

  it('policies suspend --wait picks the named policy out of listPolicies until it reads SUSPENDED', async () => {
    const policy = (name: string, status: string) => ({ policyId: `id-${name}`, name, status, jobs: [], report: {} });
    answer('/api/v1/replicationmanager/suspendPolicy', { body: { clusterCrn: CLUSTER, status: 'Successful' } });
    answer(
      '/api/v1/replicationmanager/listPolicies',
      // Another policy already suspended must not end the wait.
      { body: { policies: [policy('other', 'SUSPENDED'), policy('sales-hdfs', 'RUNNING')] } },
      { body: { policies: [policy('other', 'SUSPENDED'), policy('sales-hdfs', 'SUSPENDED')] } },
    );
    const r = await cli(`replicationmanager policies suspend --cluster-crn ${CLUSTER} --policy-name sales-hdfs --wait`);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('RUNNING');
    expect(JSON.parse(r.stdout)).toMatchObject({ name: 'sales-hdfs', status: 'SUSPENDED' });
    expect(sent('/api/v1/replicationmanager/suspendPolicy')).toHaveLength(1);
    expect(sent('/api/v1/replicationmanager/listPolicies')).toHaveLength(2);
    server.requests.length = 0;
  });

  it('policies create --wait fails (exit 5) with the last job message when the policy fails', async () => {
    answer('/api/v1/replicationmanager/createPolicy', { body: { status: 'Successful' } });
    answer(
      '/api/v1/replicationmanager/listPolicies',
      { body: { policies: [] } },
      {
        body: { policies: [{ name: 'sales-hdfs', status: 'FAILED', jobs: [{ id: 'j1', message: 'source path /data/sales not found' }] }] },
      },
    );
    const definition = '{"name":"sales-hdfs","type":"FS","sourceDataset":{"hdfsArguments":{"path":"/data/sales"}},"frequencyInSec":86400}';
    const r = await cli(
      `replicationmanager policies create --cluster-crn ${CLUSTER} --policy-name sales-hdfs --policy-definition ${definition} --wait`,
    );
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('source path /data/sales not found');
    server.requests.length = 0;
  });

  it('hbase-policies delete --wait ends when the policy id is no longer listed, printing the answer to the delete', async () => {
    answer('/api/v1/replicationmanager/deleteHbasePolicy', { body: { clusterCrn: CLUSTER, status: 'Successful' } });
    answer(
      '/api/v1/replicationmanager/listPolicies',
      { body: { policies: [{ policyId: 'p-1', name: 'orders-hbase', status: 'RUNNING' }] } },
      { body: { policies: [] } },
    );
    const r = await cli(`replicationmanager hbase-policies delete --cluster-crn ${CLUSTER} --policy-id p-1 --yes --wait`);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('DELETED');
    expect(JSON.parse(r.stdout)).toEqual({ clusterCrn: CLUSTER, status: 'Successful' });
    server.requests.length = 0;
  });

  it('credentials create aws with --type ACCESSKEY and no keys is refused before sending', async () => {
    const before = server.requests.length;
    const r = await cli(`replicationmanager credentials create aws --name dr --clusters ${CLUSTER} --type ACCESSKEY`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--access-key and --secret-key');
    expect(server.requests.length).toBe(before);
  });

  it('credentials create azure with --type CLIENTKEY names the missing service principal flags', async () => {
    const before = server.requests.length;
    const r = await cli(`replicationmanager credentials create azure --name dr --clusters ${CLUSTER} --type CLIENTKEY --client-id app-1`);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('--client-secret-key and --tenant-id');
    expect(server.requests.length).toBe(before);
  });
});

describe('audit', () => {
  it('archive-runs start --wait polls getArchivingStatus with the task id until COMPLETED', async () => {
    answer('/api/v1/audit/archiveAuditEvents', { body: { taskId: 'task-1' } });
    answer('/api/v1/audit/getArchivingStatus', { body: { status: 'OPEN' } }, { body: { status: 'COMPLETED', eventCount: 12 } });
    const r = await cli(`audit archive-runs start ${RANGE} --wait`);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'COMPLETED', eventCount: 12 });
    expect(sent('/api/v1/audit/archiveAuditEvents').at(-1)?.json).toEqual({
      fromTimestamp: '2024-04-01T00:00:00Z',
      toTimestamp: '2024-05-01T00:00:00Z',
    });
    for (const p of sent('/api/v1/audit/getArchivingStatus')) expect(p.json).toEqual({ taskId: 'task-1' });
  });

  it('archive-batches create --wait ends in failure (exit 5) when the task is cancelled', async () => {
    answer('/api/v1/audit/batchEventsForArchiving', { body: { taskId: 'task-2' } });
    answer('/api/v1/audit/getBatchEventsForArchivingStatus', { body: { status: 'CANCELED' } });
    const r = await cli(`audit archive-batches create ${RANGE} --wait`);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('CANCELED');
    expect(sent('/api/v1/audit/getBatchEventsForArchivingStatus').at(-1)?.json).toEqual({ taskId: 'task-2' });
  });

  it('events list pages with pageToken/nextPageToken and merges the events', async () => {
    answer(
      '/api/v1/audit/listEvents',
      { body: { auditEvents: [{ id: 'e1' }, { id: 'e2' }], nextPageToken: 'p2' } },
      { body: { auditEvents: [{ id: 'e3' }] } },
    );
    const before = sent('/api/v1/audit/listEvents').length;
    const r = await cli(`audit events list ${RANGE}`);
    expect(r.code).toBe(0);
    expect((JSON.parse(r.stdout) as { auditEvents: Array<{ id: string }> }).auditEvents.map((e) => e.id)).toEqual(['e1', 'e2', 'e3']);
    const pages = sent('/api/v1/audit/listEvents').slice(before);
    expect(pages.map((p) => p.json.pageToken)).toEqual([undefined, 'p2']);
  });
});

describe('drscp', () => {
  it('backups create --wait polls describeBackup with the new CRN until COMPLETED', async () => {
    answer('/api/v1/drscp/createBackup', { body: { backupCrn: BACKUP } });
    answer(
      '/api/v1/drscp/describeBackup',
      { body: { backup: { backupCrn: BACKUP, backupJobState: 'IN_PROGRESS', backupPhase: 'CREATING_SNAPSHOTS' } } },
      { body: { backup: { backupCrn: BACKUP, backupJobState: 'COMPLETED', backupPhase: 'FINISHED' } } },
    );
    const r = await cli('drscp backups create --backup-name before-upgrade --wait');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ backup: { backupJobState: 'COMPLETED' } });
    for (const p of sent('/api/v1/drscp/describeBackup')) expect(p.json).toEqual({ backupCrn: BACKUP });
  });

  it('backups restore --wait treats PARTIALLY_FAILED as a failure and says why', async () => {
    answer('/api/v1/drscp/restoreBackup', { body: { restoreCrn: RESTORE } });
    answer('/api/v1/drscp/describeRestore', {
      body: { restore: { restoreCrn: RESTORE, restoreJobState: 'PARTIALLY_FAILED', errors: [{ text: 'volume data-0 not restored' }] } },
    });
    const r = await cli(`drscp backups restore --backup-crn ${BACKUP} --yes --wait`);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('volume data-0 not restored');
    expect(sent('/api/v1/drscp/describeRestore').at(-1)?.json).toEqual({ restoreCrn: RESTORE });
  });

  it('backups delete --wait ends when describeBackup answers NOT_FOUND', async () => {
    answer('/api/v1/drscp/deleteBackup', { body: { deleteBackupCrn: `${BACKUP}-delete` } });
    answer(
      '/api/v1/drscp/describeBackup',
      { body: { backup: { backupCrn: BACKUP, backupJobState: 'TERMINATING' } } },
      { status: 404, body: { code: 'NOT_FOUND', message: 'backup not found' } },
    );
    const r = await cli(`drscp backups delete --backup-crn ${BACKUP} --yes --wait`);
    expect(r.code).toBe(0);
    expect(sent('/api/v1/drscp/deleteBackup').at(-1)?.json).toEqual({ backupCrn: BACKUP });
    expect(sent('/api/v1/drscp/describeBackup').at(-1)?.json).toEqual({ backupCrn: BACKUP });
  });
});
