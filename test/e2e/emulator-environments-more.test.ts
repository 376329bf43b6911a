/**
 * The environments service beyond create, stop, start and delete, through
 * bin/run.js as a user runs it, with --wait: an environment deleted once its
 * Data Hub and data lake are (the world reads their records settled, asked
 * or not); stop and start taking the data lake, Data Hubs and data services
 * with them; FreeIPA scaling, upgrade, secrets, recipes, diagnostics, repair
 * and a `fail-upgrade-` environment retried; user sync from iam's users and
 * its state; keytabs and the root certificate; environment updates, CCM
 * upgrade, compute cluster and endpoint gateway; cross-realm trust of a
 * hybrid environment; a private cloud environment; account telemetry,
 * settings, audit credentials, credential prerequisites and checks; and bad
 * input.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { X509Certificate } from 'node:crypto';
import { startEmulator, type RunResult, type TestEmulator, FAST_WAIT as WAIT } from '../helpers/cli.js';

let em: TestEmulator;

const LAKE_CFG = 'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://team-data/lake';
const SSH_KEY = 'ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIEAHpXQkrJ5e6dICESCOP3PRuqTFVJP/bcx0vlgn7or ops@example.com';

/** Runs cdpctl and fails the test with its output unless it exits 0. */
async function ok(args: readonly string[]): Promise<RunResult> {
  const r = await em.cli(args);
  if (r.code !== 0) throw new Error(`cdpctl ${args.join(' ')} exited ${r.code}:\n${r.stderr}`);
  return r;
}

const env = (...args: string[]): string[] => ['environments', ...args];

const createEnv = (name: string, extra: string[] = []): Promise<RunResult> =>
  em.cli(
    env(
      'create',
      'aws',
      '--environment-name',
      name,
      '--credential-name',
      'team-cred',
      '--region',
      'us-west-2',
      '--security-access',
      'cidr=10.0.0.0/16',
      '--authentication',
      'publicKeyId=team-key',
      '--log-storage',
      'storageLocationBase=s3a://team-logs/logs,instanceProfile=arn:aws:iam::123456789012:instance-profile/team-logs',
      '--subnet-ids',
      'subnet-0a1b2c3d4e5f67890',
      'subnet-0f9e8d7c6b5a43210',
      ...extra,
    ),
  );

const status = async (name: string): Promise<string> =>
  (await em.json<{ environment: { status: string } }>(env('describe', '--environment-name', name))).environment.status;

type FreeipaStatus = { status: string; instances: Record<string, { status: string; hostname: string }> };
const freeipa = (name: string): Promise<FreeipaStatus> => em.json<FreeipaStatus>(env('freeipa', 'status', '--environment-name', name));

const createLake = (name: string, envName: string): Promise<RunResult> =>
  em.cli([
    'datalake',
    'create',
    'aws',
    '--datalake-name',
    name,
    '--environment-name',
    envName,
    '--cloud-provider-configuration',
    LAKE_CFG,
    ...WAIT,
  ]);
const createHub = (name: string, envName: string): Promise<RunResult> =>
  em.cli([
    'datahub',
    'clusters',
    'create',
    'aws',
    '--cluster-name',
    name,
    '--environment',
    envName,
    '--cluster-definition',
    '7.2.18 - Data Engineering for AWS',
    ...WAIT,
  ]);
const clock = (...flags: string[]): Promise<RunResult> => em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir]);

beforeAll(async () => {
  em = await startEmulator();
  await ok(
    env('credentials', 'create', 'aws', '--credential-name', 'team-cred', '--role-arn', 'arn:aws:iam::123456789012:role/cdp-cross-account'),
  );
});

afterAll(async () => {
  await em?.stop();
});

describe('an environment whose Data Hub and data lake are gone', () => {
  test('datahub clusters delete --wait, then datalake delete --wait, both deleted: environments delete succeeds', async () => {
    expect((await createHub('repro-etl', 'staging-aws')).code).toBe(0);
    expect((await createLake('repro-lake', 'staging-aws')).code).toBe(0);
    const refused = await em.cli(env('delete', '--environment-name', 'staging-aws', '--yes'));
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /FAILED_PRECONDITION: environment staging-aws still has .*data lake repro-lake.*Data Hub cluster repro-etl|Data Hub cluster repro-etl.*data lake repro-lake/,
    );
    const hub = await em.cli(['datahub', 'clusters', 'delete', '--cluster-name', 'repro-etl', '--yes', ...WAIT]);
    expect(hub.code).toBe(0);
    expect(hub.stderr).toMatch(/DELETE/);
    const lake = await em.cli(['datalake', 'delete', '--datalake-name', 'repro-lake', '--yes', ...WAIT]);
    expect(lake.code).toBe(0);
    expect(lake.stderr).toMatch(/DELETED/);
    const del = await em.cli(env('delete', '--environment-name', 'staging-aws', '--yes', ...WAIT));
    expect(del.code).toBe(0);
    expect(del.stderr).toMatch(/ARCHIVED/);
    expect((await em.cli(env('describe', '--environment-name', 'staging-aws'))).code).toBe(1);
  });

  test('deletes that end while nobody asks: the environment sees them gone on the clock alone', async () => {
    expect((await createEnv('clock-env', WAIT)).code).toBe(0);
    expect((await createHub('clock-etl', 'clock-env')).code).toBe(0);
    expect((await createLake('clock-lake', 'clock-env')).code).toBe(0);
    expect((await clock('--pause')).code).toBe(0);
    try {
      await ok(['datahub', 'clusters', 'delete', '--cluster-name', 'clock-etl', '--yes']);
      await ok(['datalake', 'delete', '--datalake-name', 'clock-lake', '--yes']);
      const busy = await em.cli(env('delete', '--environment-name', 'clock-env', '--yes'));
      expect(busy.code).toBe(1);
      expect(busy.stderr).toMatch(/still has .*clock-/);
      expect((await clock('--advance', '10m')).code).toBe(0);
      // Neither datahub nor datalake is asked about its cluster: the environment reads them settled.
      await ok(env('delete', '--environment-name', 'clock-env', '--yes'));
    } finally {
      await clock('--resume');
    }
  });
});

describe('stop and start take what runs in the environment with them', () => {
  const lakeStatus = async (): Promise<string> =>
    (await em.json<{ datalake: { status: string } }>(['datalake', 'describe', '--datalake-name', 'cascade-lake'])).datalake.status;
  const hubStatus = async (): Promise<string> =>
    (await em.json<{ cluster: { status: string } }>(['datahub', 'clusters', 'describe', '--cluster-name', 'cascade-etl'])).cluster.status;
  const dbStatus = async (): Promise<string> =>
    (
      await em.json<{ databaseDetails: { status: string } }>([
        'opdb',
        'databases',
        'describe',
        '--environment-name',
        'cascade-env',
        '--database-name',
        'cascade-db',
      ])
    ).databaseDetails.status;

  test('stop --wait stops the Data Hub, data lake and data services; start --wait starts the lake and services, not the Data Hub', async () => {
    expect((await createEnv('cascade-env', WAIT)).code).toBe(0);
    expect((await createLake('cascade-lake', 'cascade-env')).code).toBe(0);
    expect((await createHub('cascade-etl', 'cascade-env')).code).toBe(0);
    await ok(['opdb', 'databases', 'create', '--environment-name', 'cascade-env', '--database-name', 'cascade-db', ...WAIT]);
    const services = await em.json<{ result: Array<{ name: string; clusters: string[] }> }>(
      env('data-services', 'list', '--environment', 'cascade-env'),
    );
    expect(services.result).toEqual([{ name: 'opdb', clusters: ['cascade-db'] }]);

    await ok(env('stop', '--environment-name', 'cascade-env', ...WAIT));
    expect(await status('cascade-env')).toBe('ENV_STOPPED');
    expect([await lakeStatus(), await hubStatus(), await dbStatus()]).toEqual(['STOPPED', 'STOPPED', 'STOPPED']);
    expect((await freeipa('cascade-env')).status).toBe('STOPPED');

    await ok(env('start', '--environment-name', 'cascade-env', ...WAIT));
    expect(await status('cascade-env')).toBe('AVAILABLE');
    expect([await lakeStatus(), await hubStatus(), await dbStatus()]).toEqual(['RUNNING', 'STOPPED', 'AVAILABLE']);
  });

  test('with --with-datahub-start the Data Hubs start too', async () => {
    await ok(env('stop', '--environment-name', 'cascade-env', ...WAIT));
    await ok(env('start', '--environment-name', 'cascade-env', '--with-datahub-start', ...WAIT));
    expect([await lakeStatus(), await hubStatus()]).toEqual(['RUNNING', 'AVAILABLE']);
  });

  test('FreeIPA vertical scaling needs the environment stopped; the new instance type shows in describe', async () => {
    const running = await em.cli(
      env('freeipa', 'scale', 'vertical', '--environment', 'cascade-env', '--instance-template', 'instanceType=m5.xlarge'),
    );
    expect(running.code).toBe(1);
    expect(running.stderr).toMatch(
      /FAILED_PRECONDITION: environment cascade-env is AVAILABLE; FreeIPA vertical scaling needs it ENV_STOPPED/,
    );
    await ok(env('stop', '--environment-name', 'cascade-env', ...WAIT));
    const azureType = await em.cli(
      env('freeipa', 'scale', 'vertical', '--environment', 'cascade-env', '--instance-template', 'instanceType=Standard_D4s_v3'),
    );
    expect(azureType.code).toBe(1);
    expect(azureType.stderr).toMatch(/INVALID_ARGUMENT: Standard_D4s_v3 is not an instance type of AWS/);
    await ok(env('freeipa', 'scale', 'vertical', '--environment', 'cascade-env', '--instance-template', 'instanceType=m5.xlarge', ...WAIT));
    const d = await em.json<{ environment: { freeipa: { instances: Array<{ instanceVmType: string }> } } }>(
      env('describe', '--environment-name', 'cascade-env'),
    );
    expect(d.environment.freeipa.instances.map((i) => i.instanceVmType)).toEqual(['m5.xlarge']);
    await ok(env('delete', '--environment-name', 'cascade-env', '--cascading', '--yes', ...WAIT));
  });
});

describe("FreeIPA's own operations", () => {
  test('scale up to HA and down to two servers, each --wait; the servers show in freeipa status', async () => {
    const up = await em.json<{ originalAvailabilityType: string; targetAvailabilityType: string }>(
      env('freeipa', 'scale', 'up', '--environment-name', 'sales-env', '--target-availability-type', 'HA', ...WAIT),
    );
    expect(up).toMatchObject({ operationName: 'UPSCALE', operationStatus: 'FINISHED' });
    const three = await freeipa('sales-env');
    expect(Object.values(three.instances).map((i) => i.status)).toEqual(['CREATED', 'CREATED', 'CREATED']);
    const again = await em.cli(
      env('freeipa', 'scale', 'up', '--environment-name', 'sales-env', '--target-availability-type', 'TWO_NODE_BASED'),
    );
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/FAILED_PRECONDITION: FreeIPA of environment sales-env has 3 servers \(HA\)/);
    await ok(env('freeipa', 'scale', 'down', '--environment-name', 'sales-env', '--target-availability-type', 'TWO_NODE_BASED', ...WAIT));
    expect(Object.keys((await freeipa('sales-env')).instances)).toEqual(Object.keys(three.instances).slice(0, 2));
  });

  test('one operation at a time: a second is refused while the first runs, and so is stopping the environment', async () => {
    expect((await clock('--pause')).code).toBe(0);
    try {
      const first = await ok(env('freeipa', 'orchestrator', 'update-state', '--environment', 'sales-env', '--output', 'json'));
      const operationId = (JSON.parse(first.stdout) as { operationId: string }).operationId;
      const second = await em.cli(env('freeipa', 'secrets', 'rotate', '--environment', 'sales-env', '--secret-types', 'SALT_PASSWORD'));
      expect(second.code).toBe(1);
      expect(second.stderr).toMatch(
        /FAILED_PRECONDITION: FreeIPA of environment sales-env is UPDATE_REQUESTED; a FreeIPA secret rotation needs it AVAILABLE/,
      );
      const stop = await em.cli(env('stop', '--environment-name', 'sales-env'));
      expect(stop.code).toBe(1);
      expect(stop.stderr).toMatch(
        /FreeIPA of environment sales-env is UPDATE_REQUESTED \(a FreeIPA orchestrator state update\); a stop waits until it is done/,
      );
      expect((await clock('--advance', '10m')).code).toBe(0);
      const op = await em.json<{ operationName: string; operationStatus: string }>(
        env('operations', 'describe', '--environment-name', 'sales-env', '--operation-id', operationId),
      );
      expect(op).toMatchObject({ operationName: 'UPDATE_ORCHESTRATOR_STATE', operationStatus: 'FINISHED' });
    } finally {
      await clock('--resume');
    }
  });

  test('upgrade-options lists newer images of its OS (and the next OS when allowed); upgrade --wait moves to the newest', async () => {
    type Options = { currentImage: { id: string; os: string }; images: Array<{ id: string; os: string }> };
    const options = await em.json<Options>(env('freeipa', 'upgrade-options', '--environment', 'sales-env'));
    expect(options.images.length).toBeGreaterThan(0);
    expect(new Set(options.images.map((i) => i.os))).toEqual(new Set([options.currentImage.os]));
    const major = await em.json<Options>(env('freeipa', 'upgrade-options', '--environment', 'sales-env', '--allow-major-os-upgrade'));
    expect(major.images.length).toBeGreaterThan(options.images.length);
    const bogus = await em.cli(
      env('freeipa', 'upgrade', '--environment-name', 'sales-env', '--image-id', major.images[major.images.length - 1]?.id ?? ''),
    );
    expect(bogus.code).toBe(1);
    expect(bogus.stderr).toMatch(/is not an upgrade of FreeIPA of environment sales-env/);
    await ok(env('freeipa', 'upgrade', '--environment-name', 'sales-env', ...WAIT));
    const after = await em.json<Options>(env('freeipa', 'upgrade-options', '--environment', 'sales-env'));
    expect(after.currentImage.id).toBe(options.images[options.images.length - 1]?.id);
    expect(after.images).toEqual([]);
    const newest = await em.cli(env('freeipa', 'upgrade', '--environment-name', 'sales-env'));
    expect(newest.code).toBe(1);
    expect(newest.stderr).toMatch(/runs the newest image of/);
  });

  test('secrets, IMDS and recipes; an unknown secret type or recipe is refused', async () => {
    const types = await em.json<{ freeipaSecretTypes: Array<{ secretType: string }> }>(
      env('freeipa', 'secrets', 'list-types', '--environment', 'sales-env'),
    );
    expect(types.freeipaSecretTypes.map((t) => t.secretType)).toContain('FREEIPA_ADMIN_PASSWORD');
    const bad = await em.cli(env('freeipa', 'secrets', 'rotate', '--environment', 'sales-env', '--secret-types', 'NO_SUCH_SECRET'));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_ARGUMENT: unknown FreeIPA secret type NO_SUCH_SECRET/);
    await ok(
      env(
        'freeipa',
        'secrets',
        'rotate',
        '--environment',
        'sales-env',
        '--secret-types',
        'FREEIPA_ADMIN_PASSWORD',
        'SALT_PASSWORD',
        ...WAIT,
      ),
    );
    const crn = (await em.json<{ environment: { crn: string } }>(env('describe', '--environment-name', 'sales-env'))).environment.crn;
    await ok(env('freeipa', 'imds', 'update-v1', '--environment-crn', crn, ...WAIT));
    const azure = await em.cli(env('freeipa', 'imds', 'update-v2', '--environment-crn', 'ops-env'));
    expect(azure.code).toBe(1);
    expect(azure.stderr).toMatch(/runs on AZURE; the instance metadata service version is AWS's/);
    await ok(env('freeipa', 'recipes', 'attach', '--environment', 'sales-env', '--recipes', 'install-monitoring-agent', 'harden-sshd'));
    await ok(env('freeipa', 'recipes', 'detach', '--environment', 'sales-env', '--recipes', 'harden-sshd'));
    const d = await em.json<{ environment: { freeipa: { recipes: string[] } } }>(env('describe', '--environment-name', 'sales-env'));
    expect(d.environment.freeipa.recipes).toEqual(['install-monitoring-agent']);
    const missing = await em.cli(env('freeipa', 'recipes', 'detach', '--environment', 'sales-env', '--recipes', 'harden-sshd'));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/NOT_FOUND: recipe harden-sshd is not attached/);
  });

  test('diagnostics collect --wait finishes; list shows it at 100%; a label that is no log is refused', async () => {
    const collect = (destination: string, ...labels: string[]): string[] =>
      env(
        'freeipa',
        'diagnostics',
        'collect',
        '--environment-name',
        'sales-env',
        '--destination',
        destination,
        '--description',
        'Weekly',
        '--labels',
        ...labels,
      );
    const badLabel = await em.cli(collect('LOCAL', 'nope'));
    expect(badLabel.code).toBe(1);
    expect(badLabel.stderr).toMatch(/INVALID_ARGUMENT: unknown log label nope/);
    const r = await ok([...collect('CLOUD_STORAGE', 'sssd', 'krb5kdc'), ...WAIT]);
    expect(r.stderr).toMatch(/FINISHED/);
    const list = await em.json<{
      collections: Array<{ status: string; progressPercentage: number; collectionDetails: { output: string } }>;
    }>(env('freeipa', 'diagnostics', 'list', '--environment-name', 'sales-env'));
    expect(list.collections).toEqual([expect.objectContaining({ status: 'FINISHED', progressPercentage: 100 })]);
    expect(list.collections[0]?.collectionDetails.output).toMatch(/^s3a:\/\/sales-env-logs\/diagnostics\//);
  });

  test('repair: refused while the servers are healthy, done with --force --wait (freeipa repair-status follows it)', async () => {
    const healthy = await em.cli(env('freeipa', 'repair', '--environment-name', 'sales-env'));
    expect(healthy.code).toBe(1);
    expect(healthy.stderr).toMatch(/FAILED_PRECONDITION: the FreeIPA servers of environment sales-env are healthy/);
    const before = Object.keys((await freeipa('sales-env')).instances);
    const r = await em.json<{ status: string }>(
      env('freeipa', 'repair', '--environment-name', 'sales-env', '--force', '--repair-type', 'REBUILD', ...WAIT),
    );
    expect(r.status).toBe('COMPLETED');
    const after = await freeipa('sales-env');
    expect(Object.keys(after.instances)).toHaveLength(before.length);
    for (const id of Object.keys(after.instances)) expect(before).not.toContain(id);
  });

  test('a fail-upgrade- environment: upgrade --wait fails (exit 5), FreeIPA shows UPDATE_FAILED; retry --wait succeeds', async () => {
    expect((await createEnv('fail-upgrade-ipa', WAIT)).code).toBe(0);
    const up = await em.cli(env('freeipa', 'upgrade', '--environment-name', 'fail-upgrade-ipa', ...WAIT));
    expect(up.code).toBe(5);
    expect(up.stderr).toMatch(/FAILED/);
    const failed = await freeipa('fail-upgrade-ipa');
    expect(failed.status).toBe('UPDATE_FAILED');
    expect(Object.values(failed.instances).map((i) => i.status)).toEqual(['UNHEALTHY']);
    const scale = await em.cli(env('freeipa', 'scale', 'up', '--environment-name', 'fail-upgrade-ipa', '--target-availability-type', 'HA'));
    expect(scale.code).toBe(1);
    expect(scale.stderr).toMatch(/is UPDATE_FAILED; a FreeIPA upscale needs it AVAILABLE/);
    await ok(env('freeipa', 'retry', '--environment', 'fail-upgrade-ipa', ...WAIT));
    expect((await freeipa('fail-upgrade-ipa')).status).toBe('AVAILABLE');
    const nothing = await em.cli(env('freeipa', 'retry', '--environment', 'fail-upgrade-ipa'));
    expect(nothing.code).toBe(1);
    expect(nothing.stderr).toMatch(/nothing to retry/);
  });
});

describe('user sync from the users and groups of iam', () => {
  type SyncState = { state: string; userSyncOperationId?: string };
  const syncState = (name: string): Promise<SyncState> => em.json<SyncState>(env('users', 'sync-state', '--environment-name', name));

  test('a new iam user makes the environment STALE; users sync --wait brings it UP_TO_DATE', async () => {
    await ok(env('users', 'sync', '--environment-names', 'sales-env', ...WAIT));
    expect((await syncState('sales-env')).state).toBe('UP_TO_DATE');
    await ok([
      'iam',
      'users',
      'create',
      '--identity-provider-user-id',
      'jdoe',
      '--email',
      'jdoe@example.com',
      '--first-name',
      'Jane',
      '--last-name',
      'Doe',
    ]);
    expect((await syncState('sales-env')).state).toBe('STALE');
    expect(
      (await em.json<{ syncPendingState: string }>(env('users', 'automated-sync-status', '--environment-name', 'sales-env')))
        .syncPendingState,
    ).toBe('SYNC_PENDING');
    const sync = await em.json<{ operationId: string; status: string; success: Array<{ environmentCrn: string }> }>(
      env('users', 'sync', '--environment-names', 'sales-env', ...WAIT),
    );
    expect(sync.status).toBe('COMPLETED');
    expect(sync.success).toHaveLength(1);
    expect(await syncState('sales-env')).toEqual({ state: 'UP_TO_DATE', userSyncOperationId: sync.operationId });
    const last = await em.json<{ operationId: string; status: string }>(env('users', 'last-sync', '--environment', 'sales-env'));
    expect(last).toMatchObject({ operationId: sync.operationId, status: 'COMPLETED' });
    const auto = await em.json<{ syncPendingState: string; lastSyncStatus: { status: string } }>(
      env('users', 'automated-sync-status', '--environment-name', 'sales-env'),
    );
    expect(auto).toMatchObject({ syncPendingState: 'SYNCED', lastSyncStatus: { status: 'SUCCESS' } });
    const byId = await em.json<{ status: string }>(env('users', 'sync-status', '--operation-id', sync.operationId));
    expect(byId.status).toBe('COMPLETED');
  });

  test('a fail-usersync- environment fails its first sync (exit 5, SYNC_FAILED), the next one succeeds', async () => {
    expect((await createEnv('fail-usersync-env', WAIT)).code).toBe(0);
    const first = await em.cli(env('users', 'sync', '--environment-names', 'fail-usersync-env', ...WAIT));
    expect(first.code).toBe(5);
    expect(first.stderr).toMatch(/failed on purpose/);
    expect((await syncState('fail-usersync-env')).state).toBe('SYNC_FAILED');
    await ok(env('users', 'sync', '--environment-names', 'fail-usersync-env', ...WAIT));
    expect((await syncState('fail-usersync-env')).state).toBe('UP_TO_DATE');
  });

  test('set-password: the account policy is checked; a good one --wait completes; an unknown sync is NOT_FOUND', async () => {
    const short = await em.cli(env('users', 'set-password', '--password', 'short'));
    expect(short.code).toBe(1);
    expect(short.stderr).toMatch(/INVALID_ARGUMENT: the password does not meet the workload password policy/);
    const set = await em.json<{ operationType: string; status: string }>(
      env('users', 'set-password', '--password', 'N3w-Workl0ad-Passw0rd', ...WAIT),
    );
    expect(set).toMatchObject({ operationType: 'SET_PASSWORD', status: 'COMPLETED' });
    const unknown = await em.cli(env('users', 'sync-status', '--operation-id', '6d1c1a4e-0000-4000-8000-000000000000'));
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/NOT_FOUND/);
  });
});

describe('what an environment hands out', () => {
  test('keytabs get: an MIT keytab of the caller in the FreeIPA realm', async () => {
    const kt = await em.json<{ contents: string }>(env('keytabs', 'get', '--environment-name', 'sales-env'));
    const bytes = Buffer.from(kt.contents, 'base64');
    expect(bytes.subarray(0, 2).toString('hex')).toBe('0502');
    expect(bytes.toString('latin1')).toMatch(/SALES-ENV\.[0-9A-F]{4}-[0-9A-F]{4}\.CLOUDERA\.SITE/);
    const nobody = await em.cli(
      env('keytabs', 'get', '--environment-name', 'sales-env', '--actor-crn', 'crn:altus:iam:us-west-1:acct:user:nobody'),
    );
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/NOT_FOUND: actor crn:altus:iam:us-west-1:acct:user:nobody is not a user or machine user/);
  });

  test('root-certificate get: the same self-signed CA every time, for the FreeIPA realm', async () => {
    const a = await em.json<{ contents: string }>(env('root-certificate', 'get', '--environment-name', 'sales-env'));
    const b = await em.json<{ contents: string }>(env('root-certificate', 'get', '--environment-name', 'sales-env'));
    expect(b.contents).toBe(a.contents);
    const cert = new X509Certificate(a.contents);
    expect(cert.subject).toMatch(/CN=Certificate Authority/);
    expect(cert.subject).toMatch(/O=SALES-ENV\./);
    expect(cert.ca).toBe(true);
    expect(cert.verify(cert.publicKey)).toBe(true);
  });
});

describe('changes of an environment', () => {
  test('subnets, SSH key, security groups and encryption key change at once; a bad SSH key or key ARN is refused', async () => {
    await ok(
      env('update', 'subnets', '--environment', 'sales-env', '--subnet-ids', 'subnet-0a1b2c3d4e5f67890', 'subnet-0c4d5e6f7a8b90123'),
    );
    await ok(env('update', 'ssh-key', '--environment', 'sales-env', '--new-public-key', SSH_KEY));
    await ok(
      env(
        'update',
        'security-access',
        '--environment',
        'sales-env',
        '--gateway-node-security-group-id',
        'sg-0a1',
        '--default-security-group-id',
        'sg-0f1',
      ),
    );
    const d = await em.json<{ environment: Record<string, unknown> }>(env('describe', '--environment-name', 'sales-env'));
    expect(d.environment).toMatchObject({
      network: { subnetIds: ['subnet-0a1b2c3d4e5f67890', 'subnet-0c4d5e6f7a8b90123'] },
      authentication: { publicKey: SSH_KEY },
      securityAccess: { securityGroupIdForKnox: 'sg-0a1', defaultSecurityGroupId: 'sg-0f1' },
    });
    const key = await em.cli(env('update', 'ssh-key', '--environment', 'sales-env', '--new-public-key', 'not-a-key'));
    expect(key.code).toBe(1);
    expect(key.stderr).toMatch(/INVALID_ARGUMENT: --new-public-key is not an OpenSSH public key/);
    const arn = 'arn:aws:kms:us-west-2:123456789012:key/1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';
    const enc = await em.json<{ awsDiskEncryptionParameters: { encryptionKeyArn: string } }>(
      env('update', 'encryption', 'aws', '--environment', 'sales-env', '--encryption-key-arn', arn),
    );
    expect(enc.awsDiskEncryptionParameters.encryptionKeyArn).toBe(arn);
    const azureOnly = await em.cli(env('update', 'availability-zones', '--environment', 'sales-env', '--availability-zones', '1', '2'));
    expect(azureOnly.code).toBe(1);
    expect(azureOnly.stderr).toMatch(/FAILED_PRECONDITION: environment sales-env runs on AWS/);
    await ok(env('update', 'availability-zones', '--environment', 'ops-env', '--availability-zones', '1', '2'));
    const zone = await em.cli(env('update', 'availability-zones', '--environment', 'ops-env', '--availability-zones', '7'));
    expect(zone.code).toBe(1);
    expect(zone.stderr).toMatch(/Azure availability zones are 1, 2, 3/);
  });

  test('ccm upgrade --wait passes through the CCM upgrade states; a second has nothing to upgrade', async () => {
    const r = await ok(env('ccm', 'upgrade', '--environment', 'sales-env', ...WAIT));
    expect(r.stdout).toMatch(/UPGRADE_CCM/);
    const again = await em.cli(env('ccm', 'upgrade', '--environment', 'sales-env'));
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/already runs the newest Cluster Connectivity Manager/);
  });

  test('endpoint gateway and compute cluster (Azure) take time and show in describe when done', async () => {
    await ok(
      env(
        'update',
        'endpoint-gateway',
        '--environment',
        'sales-env',
        '--endpoint-access-gateway-scheme',
        'PUBLIC',
        '--endpoint-access-gateway-subnet-ids',
        'subnet-0d1',
        ...WAIT,
      ),
    );
    const d = await em.json<{ environment: { network: Record<string, unknown> } }>(env('describe', '--environment-name', 'sales-env'));
    expect(d.environment.network).toMatchObject({ endpointAccessGatewayScheme: 'PUBLIC', endpointAccessGatewaySubnetIds: ['subnet-0d1'] });
    const wrongCloud = await em.cli(env('compute-cluster', 'initialize', 'azure', '--environment-name', 'sales-env'));
    expect(wrongCloud.code).toBe(1);
    await ok(
      env(
        'compute-cluster',
        'initialize',
        'azure',
        '--environment-name',
        'ops-env',
        '--compute-cluster-configuration',
        'privateCluster=true,outboundType=udr',
        ...WAIT,
      ),
    );
    const ops = await em.json<{ environment: Record<string, unknown> }>(env('describe', '--environment-name', 'ops-env'));
    expect(ops.environment).toMatchObject({
      computeClusterEnabled: true,
      azureComputeClusterConfiguration: { privateCluster: true, outboundType: 'udr' },
    });
  });
});

describe('cross-realm trust of a hybrid environment', () => {
  const KDC = JSON.stringify([{ fqdn: 'ad1.corp.example.com', ip: '10.20.0.10' }]);
  const REMOTE = 'crn:cdp:environments:us-west-1:9d74eee4-1cad-45d7-b645-7ccf9edbb73d:environment:0e5b7d21-93c4-4f8a-b6d2-1a7c9e3f5b80';
  const setup = (name: string, extra: string[] = []): Promise<RunResult> =>
    em.cli(
      env(
        'trust',
        'setup',
        '--environment',
        name,
        '--kdc-servers',
        KDC,
        '--kdc-realm',
        'corp.example.com',
        '--remote-environment-crn',
        REMOTE,
        ...extra,
      ),
    );

  test('only hybrid environments have a trust', async () => {
    const r = await setup('sales-env');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(
      /FAILED_PRECONDITION: environment sales-env is a PUBLIC_CLOUD environment; cross-realm trust is for HYBRID environments/,
    );
  });

  test('setup --wait needs finishing (TRUST_SETUP_FINISH_REQUIRED); the commands name both realms; finish, repair and cancel --wait', async () => {
    expect((await createEnv('hybrid-env', ['--environment-type', 'HYBRID', ...WAIT])).code).toBe(0);
    const noTrust = await em.cli(env('trust', 'setup-commands', '--environment', 'hybrid-env'));
    expect(noTrust.code).toBe(1);
    expect(noTrust.stderr).toMatch(/has no cross-realm trust/);
    expect((await setup('hybrid-env', WAIT)).code).toBe(0);
    expect(await status('hybrid-env')).toBe('TRUST_SETUP_FINISH_REQUIRED');
    const cmds = await em.json<{
      kdcType: string;
      activeDirectoryCommands: { commands: string };
      baseClusterCommands: { krb5Conf: string };
    }>(env('trust', 'setup-commands', '--environment', 'hybrid-env'));
    expect(cmds.kdcType).toBe('ACTIVE_DIRECTORY');
    expect(cmds.activeDirectoryCommands.commands).toMatch(/netdom trust HYBRID-ENV\.\S+ \/Domain:CORP\.EXAMPLE\.COM/);
    expect(cmds.baseClusterCommands.krb5Conf).toMatch(/CORP\.EXAMPLE\.COM = \{\n\s+kdc = ad1\.corp\.example\.com/);
    const early = await em.cli(env('trust', 'repair', '--environment', 'hybrid-env'));
    expect(early.code).toBe(1);
    await ok(env('trust', 'finish-setup', '--environment', 'hybrid-env', ...WAIT));
    expect(await status('hybrid-env')).toBe('AVAILABLE');
    await ok(env('trust', 'repair', '--environment', 'hybrid-env', ...WAIT));
    const cleanup = await em.json<{ activeDirectoryCommands: { commands: string } }>(
      env('trust', 'cleanup-commands', '--environment', 'hybrid-env'),
    );
    expect(cleanup.activeDirectoryCommands.commands).toMatch(/\/remove/);
    await ok(env('trust', 'cancel', '--environment', 'hybrid-env', '--yes', ...WAIT));
    expect((await em.cli(env('trust', 'setup-commands', '--environment', 'hybrid-env'))).code).toBe(1);
  });

  test('two KDC servers are refused; nothing changes', async () => {
    const two = JSON.stringify([
      { fqdn: 'ad1.corp.example.com', ip: '10.20.0.10' },
      { fqdn: 'ad2.corp.example.com', ip: '10.20.0.11' },
    ]);
    const r = await em.cli(
      env(
        'trust',
        'setup',
        '--environment',
        'hybrid-env',
        '--kdc-servers',
        two,
        '--kdc-realm',
        'CORP.EXAMPLE.COM',
        '--remote-environment-crn',
        REMOTE,
      ),
    );
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/INVALID_ARGUMENT: give one KDC server/);
    expect(await status('hybrid-env')).toBe('AVAILABLE');
  });
});

describe('a private cloud environment', () => {
  /** The flags that name a Cloudera Manager and its base cluster. */
  const manager = (address: string): string[] => [
    '--address',
    address,
    '--user',
    'admin',
    '--authentication-token',
    'pw',
    '--cluster-names',
    'base',
  ];

  test('check-manager finds the base cluster; create private --wait registers it; it has no FreeIPA and takes no AWS data lake', async () => {
    const check = await em.json<{ clusters: Array<{ name: string; exposedServices: Array<{ type: string }> }> }>(
      env('connectivity', 'check-manager', ...manager('https://cm.corp.example.com:7183')),
    );
    expect(check.clusters[0]?.exposedServices.map((s) => s.type)).toEqual(expect.arrayContaining(['HDFS', 'RANGER', 'ATLAS']));
    const down = await em.json<{ clusters: Array<{ clusterValidationMessages: Array<{ severity: string }> }> }>(
      env('connectivity', 'check-manager', ...manager('https://fail-cm.corp.example.com:7183')),
    );
    expect(down.clusters[0]?.clusterValidationMessages[0]?.severity).toBe('ERROR');
    const r = await ok(
      env('create', 'private', '--environment-name', 'onprem-env', ...manager('https://cm.corp.example.com:7183'), ...WAIT),
    );
    expect(r.stderr).toMatch(/ENVIRONMENT_INITIALIZATION_IN_PROGRESS/);
    const d = await em.json<{ environment: Record<string, unknown> }>(env('describe', '--environment-name', 'onprem-env'));
    expect(d.environment).toMatchObject({ status: 'AVAILABLE', cloudPlatform: 'OPENSHIFT' });
    expect(d.environment).not.toHaveProperty('freeipa');
    const ipa = await em.cli(env('freeipa', 'status', '--environment-name', 'onprem-env'));
    expect(ipa.code).toBe(1);
    expect(ipa.stderr).toMatch(/private cloud environment; it has no FreeIPA/);
    const lake = await em.cli([
      'datalake',
      'create',
      'aws',
      '--datalake-name',
      'onprem-lake',
      '--environment-name',
      'onprem-env',
      '--cloud-provider-configuration',
      LAKE_CFG,
    ]);
    expect(lake.code).toBe(1);
    expect(lake.stderr).toMatch(/INVALID_ARGUMENT: environment onprem-env is an OPENSHIFT environment/);
    const bad = await em.cli(env('create', 'private', '--environment-name', 'bad-env', ...manager('cm.corp')));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_ARGUMENT: cm.corp is not the address of a Cloudera Manager/);
    await ok(env('settings', 'set', '--environment-name', 'onprem-env', '--settings', '{"backup.enabled":"true"}'));
    const settings = await em.json<{ settings: Record<string, string> }>(
      env('settings', 'get', '--environment-name', 'onprem-env', '--attrs', 'backup.enabled', 'backup.location'),
    );
    expect(settings.settings).toEqual({ 'backup.enabled': 'true' });
  });
});

describe('the account', () => {
  test('telemetry: defaults, set with rules, test-rules; a rule that is no regular expression is refused', async () => {
    const defaults = await em.json<{ workloadAnalytics: boolean; rules: unknown[] }>(env('telemetry', 'account', 'defaults'));
    expect(defaults.workloadAnalytics).toBe(true);
    const rules = JSON.stringify([{ value: 'acct-[0-9]{6}', replacement: 'acct-XXXXXX' }]);
    await ok(env('telemetry', 'account', 'set', '--no-workload-analytics', '--rules', rules));
    const now = await em.json<{ workloadAnalytics: boolean; rules: Array<{ value: string }> }>(env('telemetry', 'account', 'describe'));
    expect(now).toEqual({
      workloadAnalytics: false,
      reportDeploymentLogs: false,
      rules: [{ value: 'acct-[0-9]{6}', replacement: 'acct-XXXXXX' }],
    });
    const tested = await em.json<{ output: string }>(
      env('telemetry', 'account', 'test-rules', '--test-input', 'invoice for acct-123456', '--rules', rules),
    );
    expect(tested.output).toBe('invoice for acct-XXXXXX');
    const bad = await em.cli(env('telemetry', 'account', 'set', '--rules', JSON.stringify([{ value: '([unclosed' }])));
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/INVALID_ARGUMENT: rule 1: \(\[unclosed is not a regular expression/);
    await ok(env('telemetry', 'update', '--environment-name', 'sales-env', '--no-workload-analytics'));
    expect(
      (await em.json<{ environment: { workloadAnalytics: boolean } }>(env('describe', '--environment-name', 'sales-env'))).environment
        .workloadAnalytics,
    ).toBe(false);
  });

  test('audit credentials: set aws twice keeps one credential (same CRN); list; delete', async () => {
    const role = 'arn:aws:iam::123456789012:role/cdp-audit-archiver';
    const a = await em.json<{ credential: { crn: string; credentialName: string } }>(
      env('audit-credentials', 'set', 'aws', '--role-arn', role),
    );
    const b = await em.json<{ credential: { crn: string; awsCredentialProperties: { roleArn: string } } }>(
      env('audit-credentials', 'set', 'aws', '--role-arn', `${role}-v2`),
    );
    expect(b.credential.crn).toBe(a.credential.crn);
    expect(b.credential.awsCredentialProperties.roleArn).toBe(`${role}-v2`);
    const gov = await em.cli(env('audit-credentials', 'set', 'aws-gov', '--role-arn', role));
    expect(gov.code).toBe(1);
    expect(gov.stderr).toMatch(/is not an IAM role ARN of the aws-us-gov partition/);
    const list = await em.json<{ credentials: Array<{ credentialName: string }> }>(env('audit-credentials', 'list'));
    expect(list.credentials.map((c) => c.credentialName)).toEqual([a.credential.credentialName]);
    await ok(env('audit-credentials', 'delete', '--credential-name', a.credential.crn, '--yes'));
    expect((await em.json<{ credentials: unknown[] }>(env('audit-credentials', 'list'))).credentials).toEqual([]);
  });

  test('credential prerequisites carry a base64 policy; an AWS credential update verifies its role (fail- roles fail)', async () => {
    const p = await em.json<{ aws: { externalId: string; policyJson: string } }>(
      env('credentials', 'prerequisites', '--cloud-platform', 'AWS'),
    );
    const policy = JSON.parse(Buffer.from(p.aws.policyJson, 'base64').toString('utf8')) as { Statement: unknown[] };
    expect(policy.Statement.length).toBeGreaterThan(0);
    const failing = await em.cli(
      env(
        'credentials',
        'update',
        'aws',
        '--credential-name',
        'team-cred',
        '--role-arn',
        'arn:aws:iam::123456789012:role/fail-cross-account',
        '--verify-permissions',
      ),
    );
    expect(failing.code).toBe(1);
    expect(failing.stderr).toMatch(/FAILED_PRECONDITION: the control plane could not assume/);
    const r = await em.json<{ credential: { awsCredentialProperties: { roleArn: string } } }>(
      env(
        'credentials',
        'update',
        'aws',
        '--credential-name',
        'team-cred',
        '--role-arn',
        'arn:aws:iam::123456789012:role/cdp-cross-account-v2',
        '--verify-permissions',
      ),
    );
    expect(r.credential.awsCredentialProperties.roleArn).toBe('arn:aws:iam::123456789012:role/cdp-cross-account-v2');
  });

  test('storage and database checks answer their result; fail- names fail on purpose', async () => {
    const crn =
      (await em.json<{ credentials: Array<{ crn: string }> }>(env('credentials', 'list', '--credential-name', 'team-cred'))).credentials[0]
        ?.crn ?? '';
    const validate = (location: string): Promise<Record<string, unknown>> =>
      em.json(
        env(
          'storage',
          'validate-aws',
          '--credential-crn',
          crn,
          '--storage-location',
          location,
          '--instance-profile',
          'arn:aws:iam::123456789012:instance-profile/logs',
        ),
      );
    expect(await validate('s3a://team-logs/logs')).toEqual({ status: 'OK' });
    expect(await validate('s3a://fail-logs/logs')).toMatchObject({ status: 'ACCESS_DENIED' });
    expect(await validate('https://team-logs/logs')).toMatchObject({ status: 'ERROR' });
    const db = await em.json<{ result: string }>(
      env(
        'connectivity',
        'check-database',
        '--host',
        'fail-db.corp',
        '--port',
        '5432',
        '--name',
        'cdp',
        '--username',
        'u',
        '--password',
        'p',
      ),
    );
    expect(db.result).toBe('FAILURE');
  });
});

describe('bad input', () => {
  test('an environment that does not exist is NOT_FOUND for every kind of operation', async () => {
    for (const args of [
      env('freeipa', 'scale', 'up', '--environment-name', 'no-such-env', '--target-availability-type', 'HA'),
      env('users', 'sync-state', '--environment-name', 'no-such-env'),
      env('keytabs', 'get', '--environment-name', 'no-such-env'),
      env('ccm', 'upgrade', '--environment', 'no-such-env'),
    ]) {
      const r = await em.cli(args);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/NOT_FOUND: environment no-such-env not found/);
    }
  });

  test('a FreeIPA of four servers is refused and nothing is made', async () => {
    const r = await createEnv('big-ipa-env', ['--free-ipa', 'instanceCountByGroup=4']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/INVALID_ARGUMENT: FreeIPA runs one to three servers/);
    expect((await em.cli(env('describe', '--environment-name', 'big-ipa-env'))).code).toBe(1);
  });

  test('a value outside the model is refused before it is sent (exit 2)', async () => {
    const r = await em.cli(env('freeipa', 'scale', 'up', '--environment-name', 'sales-env', '--target-availability-type', 'HUGE'));
    expect(r.code).toBe(2);
  });
});
