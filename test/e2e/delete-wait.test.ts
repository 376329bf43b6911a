/**
 * Issue 28 item 2: `--wait` on a delete ends correctly on both shapes a
 * delete ends in, through the real binary against the emulator. opdb's
 * database is gone (its waiter takes NOT_FOUND for success); compute's
 * cluster is kept DELETED (listed with --include-deleted) and de's service
 * kept ClusterDeletionCompleted (hidden by --remove-deleted): the wait ends
 * at the kept status rather than waiting for a NOT_FOUND that never comes.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { environmentCrns, startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
const FAST = ['--poll-interval', '0.05', '--wait-timeout', '600'];

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

describe('--wait on a delete', () => {
  test('gone: opdb databases drop --wait ends once the database is gone, and describe answers NOT_FOUND', async () => {
    const db = ['--environment-name', 'sales-env', '--database-name', 'orders-wait'];
    const made = await em.cli(['opdb', 'databases', 'create', ...db, '--wait', ...FAST]);
    expect(made.code).toBe(0);
    const dropped = await em.cli(['opdb', 'databases', 'drop', ...db, '--yes', '--wait', ...FAST, '--output', 'json']);
    expect(dropped.code).toBe(0);
    // The wait's lines: the delete's state (either phase of it: which one a poll meets depends on how busy the machine is), then its end.
    expect(dropped.stderr).toMatch(/drop orders-wait: (PRE_)?DELETE_IN_PROGRESS after .*\n.*drop orders-wait: DELETE_COMPLETED after/);
    const after = await em.cli(['opdb', 'databases', 'describe', ...db]);
    expect(after.code).not.toBe(0);
    expect(after.stderr).toContain('NOT_FOUND');
  });

  test('kept: compute clusters delete --wait ends at DELETED, and the cluster stays listed with --include-deleted', async () => {
    const env = (await environmentCrns(em))['sales-env'] ?? '';
    const made = await em.json<{ clusterCrn: string; status: string }>([
      'compute',
      'clusters',
      'create',
      '--environment',
      env,
      '--name',
      'kept-wait',
      '--wait',
      ...FAST,
    ]);
    expect(made.status).toBe('RUNNING');
    const deleted = await em.cli([
      'compute',
      'clusters',
      'delete',
      '--cluster-crn',
      made.clusterCrn,
      '--yes',
      '--wait',
      ...FAST,
      '--output',
      'json',
    ]);
    expect(deleted.code).toBe(0);
    expect((JSON.parse(deleted.stdout) as { status: string }).status).toBe('DELETED');
    const after = await em.json<{ status: string }>(['compute', 'clusters', 'describe', '--cluster-crn', made.clusterCrn]);
    expect(after.status).toBe('DELETED');
    const listed = await em.json<{ clusters: Array<{ clusterCrn: string; status: string }> }>([
      'compute',
      'clusters',
      'list',
      '--include-deleted',
    ]);
    expect(listed.clusters.find((c) => c.clusterCrn === made.clusterCrn)?.status).toBe('DELETED');
  });

  test("kept: de services disable --wait ends at ClusterDeletionCompleted, listed until --remove-deleted (what Ansible's de module waits for)", async () => {
    // A Data Engineering service needs its environment's data lake running.
    const lake = await em.cli([
      'datalake',
      'create',
      'aws',
      '--datalake-name',
      'kept-wait-lake',
      '--environment-name',
      'sales-env',
      '--cloud-provider-configuration',
      'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://sales-data/lake',
      '--wait',
      ...FAST,
    ]);
    expect(lake.code).toBe(0);
    const enabled = await em.json<{ service: { clusterId: string; status: string } }>([
      'de',
      'services',
      'enable',
      '--name',
      'kept-wait',
      '--env',
      'sales-env',
      '--instance-type',
      'm5.2xlarge',
      '--minimum-instances',
      '1',
      '--maximum-instances',
      '4',
      '--wait',
      ...FAST,
    ]);
    expect(enabled.service.status).toBe('ClusterCreationCompleted');
    const clusterId = enabled.service.clusterId;
    const disabled = await em.cli(['de', 'services', 'disable', '--cluster-id', clusterId, '--yes', '--wait', ...FAST]);
    expect(disabled.code).toBe(0);
    expect(disabled.stderr).toContain('ClusterDeletionCompleted');
    const after = await em.json<{ services: Array<{ clusterId: string; status: string }> }>(['de', 'services', 'list']);
    expect(after.services.find((s) => s.clusterId === clusterId)?.status).toBe('ClusterDeletionCompleted');
    const hidden = await em.json<{ services: Array<{ clusterId: string }> }>(['de', 'services', 'list', '--remove-deleted']);
    expect(hidden.services.map((s) => s.clusterId)).not.toContain(clusterId);
  });
});
