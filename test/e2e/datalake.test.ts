/**
 * datalake through the real binary against the emulator: creation followed
 * with --wait to RUNNING, backup and restore with --wait, a `fail-` lake and
 * a `fail-` backup ending in failure (exit 5), a too-short --wait-timeout
 * (exit 6), client-side rules (exit 2, nothing sent) and the hidden cdpcli
 * aliases with --generate-skeleton.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { environmentCrns, startEmulator, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;

const FAST = ['--poll-interval', '0.05', '--wait-timeout', '60'];
const AWS_CFG = 'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://sales-data/lake';

const createAws = (name: string, extra: string[] = [], env = 'sales-env'): Promise<{ code: number; stdout: string; stderr: string }> =>
  em.cli([
    'datalake',
    'create',
    'aws',
    '--datalake-name',
    name,
    '--environment-name',
    env,
    '--cloud-provider-configuration',
    AWS_CFG,
    ...extra,
  ]);

/** backup or restore of sales-lake by backup name; the answer. */
const onSalesLake = <T>(verb: 'backup' | 'restore', backupName: string, extra: string[]): Promise<T> =>
  em.json<T>(['datalake', verb, '--datalake-name', 'sales-lake', '--backup-name', backupName, ...extra]);

/** API requests the emulator has answered so far. */
async function requests(): Promise<number> {
  const res = await fetch(`http://127.0.0.1:${em.port}/_emulator/health`);
  const body = (await res.json()) as { stats: { requests: number } };
  return body.stats.requests;
}

beforeAll(async () => {
  em = await startEmulator();
  const r = await createAws('sales-lake', ['--wait', ...FAST, '--output', 'json']);
  if (r.code !== 0) throw new Error(`create failed: ${r.stderr}`);
});

afterAll(async () => {
  await em?.stop();
});

describe('one environment, one CRN', () => {
  test('sales-env has one CRN, the same in datalake, compute, lakehouse and dataflow', async () => {
    const crn = (await environmentCrns(em))['sales-env'] ?? '';
    expect(crn).toMatch(
      /^crn:cdp:environments:us-west-1:[0-9a-f-]{36}:environment:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
    const lake = await em.json<{ datalake: { environmentCrn: string; environmentName: string } }>([
      'datalake',
      'describe',
      '--datalake-name',
      'sales-lake',
    ]);
    expect(lake.datalake.environmentCrn).toBe(crn);
    const byCrn = await em.json<{ datalakes: Array<{ datalakeName: string }> }>(['datalake', 'list', '--environment-name', crn]);
    expect(byCrn.datalakes.map((d) => d.datalakeName)).toContain('sales-lake');
    // compute, given the name, files the cluster under the same CRN
    const created = await em.json<{ clusterCrn: string }>([
      'compute',
      'clusters',
      'create',
      '--environment',
      'sales-env',
      '--name',
      'same-env',
    ]);
    const cluster = await em.json<{ envCrn: string; envName: string }>([
      'compute',
      'clusters',
      'describe',
      '--cluster-crn',
      created.clusterCrn,
    ]);
    expect(cluster).toMatchObject({ envCrn: crn, envName: 'sales-env' });
    // dataflow knows it by that CRN (and its token is issued for it)
    const df = await em.json<{ nifiVersions: unknown[] }>(['dataflow', 'nifi-versions', 'list', '--environment-crn', crn]);
    expect(df.nifiVersions.length).toBeGreaterThan(0);
  });

  test('an environment the account does not have is NOT_FOUND; a lake must match its platform', async () => {
    const missing = await createAws('nowhere-lake', [], 'no-such-env');
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('NOT_FOUND');
    expect(missing.stderr).toContain('sales-env');
    const cluster = await em.cli(['compute', 'clusters', 'create', '--environment', 'no-such-env', '--name', 'nowhere']);
    expect(cluster.code).toBe(1);
    expect(cluster.stderr).toContain('NOT_FOUND');
    const azure = await createAws('wrong-lake', [], 'ops-env');
    expect(azure.code).toBe(1);
    expect(azure.stderr).toContain('AZURE');
  });
});

describe('datalake lifecycle', () => {
  test('create aws --wait reaches RUNNING and prints the lake', async () => {
    const r = await createAws('orders-lake', ['--wait', ...FAST, '--output', 'json']);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('RUNNING');
    const out = JSON.parse(r.stdout) as { datalake: { datalakeName: string; status: string; shape: string; instanceGroups: unknown[] } };
    expect(out.datalake).toMatchObject({ datalakeName: 'orders-lake', status: 'RUNNING', shape: 'LIGHT_DUTY' });
    expect(out.datalake.instanceGroups.length).toBeGreaterThan(0);
    const list = await em.json<{ datalakes: Array<{ datalakeName: string; status: string }> }>(['datalake', 'list']);
    expect(list.datalakes.map((d) => d.datalakeName)).toEqual(expect.arrayContaining(['sales-lake', 'orders-lake']));
  });

  test('a fail- data lake ends in PROVISIONING_FAILED: exit 5', async () => {
    const r = await createAws('fail-lake', ['--wait', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('PROVISIONING_FAILED');
    const d = await em.json<{ datalake: { status: string; statusReason: string } }>([
      'datalake',
      'describe',
      '--datalake-name',
      'fail-lake',
    ]);
    expect(d.datalake.status).toBe('PROVISIONING_FAILED');
  });

  test('a too-short --wait-timeout gives up with exit 6 while the work goes on', async () => {
    const r = await createAws('slow-lake', ['--wait', '--poll-interval', '0.05', '--wait-timeout', '0.1']);
    expect({ code: r.code, stderr: r.stderr }).toMatchObject({ code: 6 });
    expect(r.stderr).toMatch(/gave up waiting/);
  });

  test('delete --wait ends when the lake is gone', async () => {
    await createAws('temp-lake', ['--wait', ...FAST]);
    const r = await em.cli(['datalake', 'delete', '--datalake-name', 'temp-lake', '--yes', '--wait', ...FAST]);
    expect(r.code).toBe(0);
    const d = await em.cli(['datalake', 'describe', '--datalake-name', 'temp-lake']);
    expect(d.code).toBe(1);
    expect(d.stderr).toContain('NOT_FOUND');
  });

  test('resize --wait changes the shape; operation-id work is followed through getOperation', async () => {
    const r = await em.json<{ datalake: { shape: string; status: string; instanceGroups: Array<{ name: string }> } }>([
      'datalake',
      'resize',
      '--datalake-name',
      'orders-lake',
      '--target-size',
      'MEDIUM_DUTY_HA',
      '--wait',
      ...FAST,
    ]);
    expect(r.datalake).toMatchObject({ shape: 'MEDIUM_DUTY_HA', status: 'RUNNING' });
    expect(r.datalake.instanceGroups.map((g) => g.name)).toContain('core');
    const scaled = await em.json<{ operationStatus: string; operationName: string }>([
      'datalake',
      'scale',
      'horizontal',
      '--datalake-name',
      'orders-lake',
      '--instance-group-name',
      'solr_scale_out',
      '--instance-group-desired-count',
      '2',
      '--wait',
      ...FAST,
    ]);
    expect(scaled).toMatchObject({ operationStatus: 'FINISHED', operationName: 'HORIZONTAL_SCALE' });
    const d = await em.json<{ datalake: { instanceGroups: Array<{ name: string; instances: unknown[] }> } }>([
      'datalake',
      'describe',
      '--datalake-name',
      'orders-lake',
    ]);
    expect(d.datalake.instanceGroups.find((g) => g.name === 'solr_scale_out')?.instances).toHaveLength(2);
  });

  test('replace recipes reports what was attached and detached', async () => {
    const set = (recipes: string[]): Promise<{ attachedRecipes: unknown[]; detachedRecipes: unknown[] }> =>
      em.json([
        'datalake',
        'recipes',
        'replace',
        '--datalake',
        'sales-lake',
        '--instance-group-recipes',
        JSON.stringify([{ instanceGroupName: 'master', recipeNames: recipes }]),
      ]);
    expect(await set(['a', 'b'])).toEqual({
      attachedRecipes: [{ instanceGroupName: 'master', recipeNames: ['a', 'b'] }],
      detachedRecipes: [],
    });
    expect(await set(['b', 'c'])).toEqual({
      attachedRecipes: [{ instanceGroupName: 'master', recipeNames: ['c'] }],
      detachedRecipes: [{ instanceGroupName: 'master', recipeNames: ['a'] }],
    });
  });

  test('runtimes and secret types are listed', async () => {
    const rt = await em.json<{ versions: Array<{ runtimeVersion: string; defaultRuntimeVersion: boolean }> }>([
      'datalake',
      'runtimes',
      'list',
    ]);
    expect(rt.versions.filter((v) => v.defaultRuntimeVersion)).toHaveLength(1);
    const st = await em.json<{ datalakeSecretTypes: Array<{ secretType: string }> }>([
      'datalake',
      'secrets',
      'list-types',
      '--datalake',
      'sales-lake',
    ]);
    expect(st.datalakeSecretTypes.map((s) => s.secretType)).toContain('SALT_PASSWORD');
  });
});

describe('datalake backup and restore', () => {
  test('backup --wait then restore --wait succeed', async () => {
    const b = await onSalesLake<{ status: string; backupId: string; operationStates: { database: { database: { status: string } } } }>(
      'backup',
      'nightly',
      ['--wait', ...FAST],
    );
    expect(b.status).toBe('SUCCESSFUL');
    expect(b.operationStates.database.database.status).toBe('SUCCESSFUL');
    const listed = await em.json<{ backups: Array<{ backupId: string; status: string }> }>([
      'datalake',
      'backups',
      'list',
      '--datalake-name',
      'sales-lake',
    ]);
    expect(listed.backups).toEqual(expect.arrayContaining([expect.objectContaining({ backupId: b.backupId, status: 'SUCCESSFUL' })]));
    const r = await onSalesLake<{ status: string; backupId: string; restoreId: string }>('restore', 'nightly', ['--wait', ...FAST]);
    expect(r).toMatchObject({ status: 'SUCCESSFUL', backupId: b.backupId });
    const s = await em.json<{ restoreId: string; status: string }>(['datalake', 'restore', 'status', '--datalake-name', 'sales-lake']);
    expect(s).toMatchObject({ restoreId: r.restoreId, status: 'SUCCESSFUL' });
  });

  test('backup and restore take --skip-validation with --validation-only (the seed refuses that for resize only)', async () => {
    const both = ['--skip-validation', '--validation-only', '--wait', ...FAST];
    const b = await onSalesLake<{ status: string }>('backup', 'checks', both);
    expect(b.status).toBe('VALIDATION_SUCCESSFUL');
    const r = await onSalesLake<{ status: string }>('restore', 'nightly', both);
    expect(r.status).toBe('VALIDATION_SUCCESSFUL');
  });

  test('upgrade prepare takes --image-id with --runtime (the seed: one of them must be present)', async () => {
    expect((await createAws('prep-lake', ['--wait', ...FAST])).code).toBe(0);
    const available = await em.json<{ upgradeCandidates: Array<{ imageId: string }> }>([
      'datalake',
      'upgrade',
      'start',
      '--datalake-name',
      'prep-lake',
      '--runtime',
      '7.3.1',
      '--show-available-images',
    ]);
    const image = available.upgradeCandidates[0]?.imageId ?? '';
    expect(image).not.toBe('');
    const both = await em.json<{ operationId?: string; upgradeCandidates: Array<{ imageId: string }> }>([
      'datalake',
      'upgrade',
      'prepare',
      '--datalake',
      'prep-lake',
      '--runtime',
      '7.3.1',
      '--image-id',
      image,
    ]);
    expect(both.upgradeCandidates.map((c) => c.imageId)).toEqual([image]);
    expect(both.operationId).toMatch(/^\S+$/);
  });

  test('a fail- backup ends FAILED: exit 5 with the reason', async () => {
    const r = await em.cli(['datalake', 'backup', '--datalake-name', 'sales-lake', '--backup-name', 'fail-weekly', '--wait', ...FAST]);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain('FAILED');
    const s = await em.json<{ status: string; failureReason: string }>([
      'datalake',
      'backup',
      'status',
      '--datalake-name',
      'sales-lake',
      '--backup-name',
      'fail-weekly',
    ]);
    expect(s.status).toBe('FAILED');
    expect(s.failureReason).toEqual(expect.stringMatching(/\w/));
  });

  test('cancelling a finished backup is refused by the service: exit 1', async () => {
    const s = await em.json<{ backupId: string; status: string }>([
      'datalake',
      'backup',
      'status',
      '--datalake-name',
      'sales-lake',
      '--backup-name',
      'nightly',
    ]);
    expect(s.status).toBe('SUCCESSFUL');
    const r = await em.cli(['datalake', 'backup', 'cancel', '--backup-id', s.backupId, '--yes']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('FAILED_PRECONDITION');
  });
});

describe('datalake client-side rules: exit 2 and nothing sent', () => {
  const cases: Array<[string, string[]]> = [
    [
      'resize with --skip-validation and --validation-only',
      ['datalake', 'resize', '--datalake-name', 'sales-lake', '--target-size', 'ENTERPRISE', '--skip-validation', '--validation-only'],
    ],
    [
      'backup status with --backup-id and --backup-name',
      ['datalake', 'backup', 'status', '--datalake-name', 'sales-lake', '--backup-id', 'x', '--backup-name', 'y'],
    ],
    [
      'desired count over 40',
      [
        'datalake',
        'scale',
        'horizontal',
        '--datalake-name',
        'sales-lake',
        '--instance-group-name',
        'solr_scale_out',
        '--instance-group-desired-count',
        '41',
      ],
    ],
    [
      'an unknown scale-out group',
      [
        'datalake',
        'scale',
        'horizontal',
        '--datalake-name',
        'sales-lake',
        '--instance-group-name',
        'web_scale_out',
        '--instance-group-desired-count',
        '1',
      ],
    ],
    ['an unknown target size', ['datalake', 'resize', '--datalake-name', 'sales-lake', '--target-size', 'HUGE']],
    [
      'an AWS storage location without s3a://',
      [
        'datalake',
        'create',
        'aws',
        '--datalake-name',
        'bad-lake',
        '--environment-name',
        'env',
        '--cloud-provider-configuration',
        'instanceProfile=p,storageBucketLocation=sales-data/lake',
      ],
    ],
    [
      'an Azure storage location that is not abfs',
      [
        'datalake',
        'create',
        'azure',
        '--datalake-name',
        'bad-lake',
        '--environment-name',
        'env',
        '--cloud-provider-configuration',
        'managedIdentity=m,storageLocation=https://acct.blob.core.windows.net/data',
      ],
    ],
    [
      'restore override without a backup id',
      ['datalake', 'restore', '--datalake-name', 'sales-lake', '--backup-location-override', 's3a://other/backups'],
    ],
    ['upgrade prepare without image or runtime', ['datalake', 'upgrade', 'prepare', '--datalake', 'sales-lake']],
    [
      'upgrade with both --runtime and --image-id',
      ['datalake', 'upgrade', 'start', '--datalake-name', 'sales-lake', '--runtime', '7.3.1', '--image-id', 'img'],
    ],
    [
      'upgrade with --runtime and --lock-components',
      ['datalake', 'upgrade', 'start', '--datalake-name', 'sales-lake', '--runtime', '7.3.1', '--lock-components'],
    ],
  ];
  test.each(cases)('%s', async (_name, args) => {
    const before = await requests();
    const r = await em.cli(args);
    expect(r.code).toBe(2);
    expect(r.stderr).not.toBe('');
    expect(await requests()).toBe(before);
  });
});

describe('datalake aliases', () => {
  test.each([
    ['create-aws-datalake', ['datalakeName', 'environmentName', 'cloudProviderConfiguration']],
    ['backup-datalake-status', ['datalakeName', 'backupName', 'backupId']],
    ['scale-horizontally', ['datalakeName', 'instanceGroupName', 'instanceGroupDesiredCount']],
    ['get-datalake-log-descriptors', []],
  ])('datalake %s --generate-skeleton prints the request fields', async (alias, fields) => {
    const r = await em.cli(['datalake', alias, '--generate-skeleton']);
    expect(r.code).toBe(0);
    const keys = Object.keys(JSON.parse(r.stdout) as object);
    for (const f of fields) expect(keys).toContain(f);
    if (fields.length === 0) expect(keys).toEqual([]);
  });
});
