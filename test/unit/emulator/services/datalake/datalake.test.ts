/**
 * The emulator's data lake service, driven through the library's client
 * against an emulator in this process, on a paused clock the tests move: a
 * lake's create on its own platform (REQUESTED, external database, stack,
 * RUNNING), names unique in the account, actions only from the states they
 * start in, the fail- and fail-<action>- rules with retryDatalake and
 * recoverDatalake, upgrades among the images newer than the lake's,
 * resizes and horizontal scaling that change its instance groups once they
 * succeed, backups and restores step by step (one at a time, cancelled only
 * while STARTED or IN_PROGRESS, restored only from a SUCCESSFUL backup),
 * certificates expiring as time passes, getOperation, and a delete (refused
 * while other work runs unless forced; an environment's delete is refused
 * while it has a lake).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import type { datalake } from '../../../../../src/lib/sdk/index.js';
import { AWS_LAKE_STORAGE, runningAwsLake } from '../../../../helpers/lake.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

const AZURE_STORAGE = {
  cloudProviderConfiguration: {
    managedIdentity: '/subscriptions/sub1/resourceGroups/rg1/providers/Microsoft.ManagedIdentity/userAssignedIdentities/idbroker',
    storageLocation: 'abfs://data@opsstore.dfs.core.windows.net',
  },
};

const describeLake = async (datalakeName: string): Promise<datalake.DatalakeDetails> =>
  (await emu.client.datalake.describeDatalake({ datalakeName })).datalake;
const statusOf = async (datalakeName: string): Promise<string | undefined> => (await describeLake(datalakeName)).status;
const groupsOf = async (datalakeName: string): Promise<string[]> =>
  ((await describeLake(datalakeName)).instanceGroups ?? []).map((g) => `${g.name}:${g.instances.length}`);
/** An AWS lake made and left to run. */
async function running(
  datalakeName: string,
  environmentName: string,
  more: Partial<datalake.CreateAWSDatalakeRequest> = {},
): Promise<void> {
  expect(await runningAwsLake(emu, datalakeName, environmentName, more)).toBe('RUNNING');
}

describe('creating', () => {
  test('a lake passes REQUESTED, EXTERNAL_DATABASE_CREATION_IN_PROGRESS and STACK_CREATION_IN_PROGRESS, then is RUNNING as a LIGHT_DUTY lake', async () => {
    const made = await emu.client.datalake.createAWSDatalake({
      datalakeName: 'stage-lake',
      environmentName: 'staging-aws',
      ...AWS_LAKE_STORAGE,
    });
    expect(made.datalake).toMatchObject({
      datalakeName: 'stage-lake',
      status: 'REQUESTED',
      crn: expect.stringMatching(/^crn:cdp:datalake:us-west-1:[^:]+:datalake:[0-9a-f-]{36}$/),
    });
    expect(made.operationId).toEqual(expect.any(String));
    const seen: Array<string | undefined> = [];
    for (const step of ['0m', '30s', '3m', '6m30s']) {
      emu.clock.advance(step);
      seen.push(await statusOf('stage-lake'));
    }
    expect(seen).toEqual(['REQUESTED', 'EXTERNAL_DATABASE_CREATION_IN_PROGRESS', 'STACK_CREATION_IN_PROGRESS', 'RUNNING']);
    const lake = await describeLake('stage-lake');
    expect(lake).toMatchObject({ shape: 'LIGHT_DUTY', cloudPlatform: 'AWS' });
    expect(await groupsOf('stage-lake')).toEqual(['master:1', 'idbroker:1']);
    const op = await emu.client.datalake.getOperation({ datalakeName: 'stage-lake' });
    expect(op).toMatchObject({ operationId: made.operationId, operationName: 'PROVISION', operationStatus: 'FINISHED' });
  });

  test('a lake is made on its own platform only: an AWS environment takes no Azure or GovCloud lake (INVALID_ARGUMENT)', async () => {
    const azure = await refused(
      emu.client.datalake.createAzureDatalake({ datalakeName: 'azure-lake', environmentName: 'staging-aws', ...AZURE_STORAGE }),
    );
    expect([azure.code, azure.status]).toEqual(['INVALID_ARGUMENT', 400]);
    expect(azure.message).toBe('environment staging-aws is an AWS environment; a AZURE data lake needs one of its own platform');
    const gov = await refused(
      emu.client.datalake.createAWSGovCloudDatalake({ datalakeName: 'gov-lake', environmentName: 'staging-aws', ...AWS_LAKE_STORAGE }),
    );
    expect(gov.code).toBe('INVALID_ARGUMENT');
    const ok = await emu.client.datalake.createAzureDatalake({ datalakeName: 'ops-lake', environmentName: 'ops-env', ...AZURE_STORAGE });
    expect(ok.datalake.status).toBe('REQUESTED');
  });

  test('names are unique in the account (ALREADY_EXISTS, 409); a runtime must be one of listRuntimes', async () => {
    const dup = await refused(
      emu.client.datalake.createAWSDatalake({ datalakeName: 'stage-lake', environmentName: 'sales-env', ...AWS_LAKE_STORAGE }),
    );
    expect([dup.code, dup.status, dup.message]).toEqual(['ALREADY_EXISTS', 409, 'a data lake named stage-lake already exists']);
    const runtimes = await emu.client.datalake.listRuntimes({});
    expect(runtimes.versions.map((v) => v.runtimeVersion)).toEqual(['7.2.16', '7.2.17', '7.2.18', '7.3.1']);
    expect(runtimes.versions.filter((v) => v.defaultRuntimeVersion).map((v) => v.runtimeVersion)).toEqual(['7.2.18']);
    const old = await refused(
      emu.client.datalake.createAWSDatalake({
        datalakeName: 'old-lake',
        environmentName: 'sales-env',
        runtime: '6.0',
        ...AWS_LAKE_STORAGE,
      }),
    );
    expect([old.code, old.message]).toEqual([
      'INVALID_ARGUMENT',
      'runtime 6.0 is not supported; choose one of 7.2.16, 7.2.17, 7.2.18, 7.3.1',
    ]);
  });

  test('an unknown lake is NOT_FOUND (404); listings filter by environment and name', async () => {
    const missing = await refused(describeLake('no-such-lake'));
    expect([missing.code, missing.status, missing.message]).toEqual(['NOT_FOUND', 404, 'data lake no-such-lake not found']);
    const inStaging = await emu.client.datalake.listDatalakes({ environmentName: 'staging-aws' });
    expect(inStaging.datalakes.map((d) => d.datalakeName)).toEqual(['stage-lake']);
    const byName = await emu.client.datalake.listDatalakes({ datalakeName: 'OPS-LAKE' });
    expect(byName.datalakes.map((d) => d.datalakeName)).toEqual(['ops-lake']);
  });
});

describe('actions from the states they start in', () => {
  test('a resize needs the lake RUNNING; validationOnly checks without starting; the new shape applies once it has succeeded', async () => {
    await emu.client.datalake.createAWSDatalake({ datalakeName: 'young-lake', environmentName: 'sales-env', ...AWS_LAKE_STORAGE });
    const young = await refused(emu.client.datalake.resizeDatalake({ datalakeName: 'young-lake', targetSize: 'MEDIUM_DUTY_HA' }));
    expect([young.code, young.status, young.message]).toEqual([
      'FAILED_PRECONDITION',
      409,
      'data lake young-lake is REQUESTED; resizing needs it RUNNING',
    ]);
    const check = await emu.client.datalake.resizeDatalake({
      datalakeName: 'stage-lake',
      targetSize: 'MEDIUM_DUTY_HA',
      validationOnly: true,
    });
    expect([check.status, check.statusReason, check.operationId]).toEqual(['RUNNING', 'resize to MEDIUM_DUTY_HA is possible', undefined]);
    const resize = await emu.client.datalake.resizeDatalake({ datalakeName: 'stage-lake', targetSize: 'MEDIUM_DUTY_HA' });
    expect(resize).toMatchObject({ status: 'RESIZE_IN_PROGRESS', operationId: expect.any(String) });
    expect(await groupsOf('stage-lake')).toEqual(['master:1', 'idbroker:1']);
    emu.clock.advance('15m');
    expect((await describeLake('stage-lake')).shape).toBe('MEDIUM_DUTY_HA');
    expect(await groupsOf('stage-lake')).toEqual(['master:2', 'gateway:2', 'core:3', 'auxiliary:1', 'idbroker:2']);
    const same = await refused(emu.client.datalake.resizeDatalake({ datalakeName: 'stage-lake', targetSize: 'MEDIUM_DUTY_HA' }));
    expect(same.message).toBe('data lake stage-lake already has the MEDIUM_DUTY_HA shape');
  });

  test('horizontal scaling sets the count of a scale-out group, made when missing', async () => {
    const scaled = await emu.client.datalake.scaleHorizontally({
      datalakeName: 'stage-lake',
      instanceGroupName: 'solr_scale_out',
      instanceGroupDesiredCount: 2,
    });
    expect(scaled).toMatchObject({ datalakeName: 'stage-lake', operationId: expect.any(String) });
    expect(await statusOf('stage-lake')).toBe('DATALAKE_HORIZONTAL_SCALE_IN_PROGRESS');
    emu.clock.advance('4m');
    expect(await groupsOf('stage-lake')).toContain('solr_scale_out:2');
    await emu.client.datalake.scaleHorizontally({
      datalakeName: 'stage-lake',
      instanceGroupName: 'solr_scale_out',
      instanceGroupDesiredCount: 1,
    });
    emu.clock.advance('4m');
    expect(await groupsOf('stage-lake')).toContain('solr_scale_out:1');
  });

  test('stop (STOP_IN_PROGRESS, then STOPPED) and start; each refused outside its states', async () => {
    const start = await refused(emu.client.datalake.startDatalake({ datalakeName: 'stage-lake' }));
    expect(start.message).toBe('data lake stage-lake is RUNNING; start needs it STOPPED or START_FAILED');
    await emu.client.datalake.stopDatalake({ datalakeName: 'stage-lake' });
    expect(await statusOf('stage-lake')).toBe('STOP_IN_PROGRESS');
    emu.clock.advance('3m');
    expect(await statusOf('stage-lake')).toBe('STOPPED');
    const backup = await refused(emu.client.datalake.backupDatalake({ datalakeName: 'stage-lake' }));
    expect(backup.message).toBe('data lake stage-lake is STOPPED; a backup needs it RUNNING');
    await emu.client.datalake.startDatalake({ datalakeName: 'stage-lake' });
    expect(await statusOf('stage-lake')).toBe('START_IN_PROGRESS');
    emu.clock.advance('4m');
    expect(await statusOf('stage-lake')).toBe('RUNNING');
  });

  test('IMDS settings are for AWS lakes, SKU migration for Azure lakes; unknown secret types are INVALID_ARGUMENT', async () => {
    emu.clock.advance('10m');
    const imds = await refused(emu.client.datalake.updateToAwsImdsV2({ crn: 'ops-lake' }));
    expect([imds.code, imds.message]).toEqual(['FAILED_PRECONDITION', 'data lake ops-lake runs on AZURE; IMDS settings are for AWS']);
    const sku = await refused(emu.client.datalake.migrateSkus({ datalakeName: 'stage-lake' }));
    expect(sku.message).toBe('data lake stage-lake runs on AWS; SKU migration is for Azure');
    const standard = await refused(emu.client.datalake.migrateSkus({ datalakeName: 'ops-lake' }));
    expect(standard.message).toBe('data lake ops-lake already uses the STANDARD SKU');
    const types = await emu.client.datalake.listDatalakeSecretTypes({ datalake: 'stage-lake' });
    expect(types.datalakeSecretTypes.map((s) => s.secretType)).toContain('SALT_PASSWORD');
    const bad = await refused(emu.client.datalake.rotateSecrets({ datalake: 'stage-lake', secretTypes: ['NO_SUCH_SECRET'] }));
    expect([bad.code, bad.message]).toEqual(['INVALID_ARGUMENT', 'unknown secret type NO_SUCH_SECRET; see listDatalakeSecretTypes']);
  });

  test('replaceRecipes answers what each group gained and lost; an unknown group is NOT_FOUND', async () => {
    const first = await emu.client.datalake.replaceRecipes({
      datalake: 'stage-lake',
      instanceGroupRecipes: [{ instanceGroupName: 'master', recipeNames: ['a', 'b'] }],
    });
    expect(first).toEqual({ attachedRecipes: [{ instanceGroupName: 'master', recipeNames: ['a', 'b'] }], detachedRecipes: [] });
    const second = await emu.client.datalake.replaceRecipes({
      datalake: 'stage-lake',
      instanceGroupRecipes: [{ instanceGroupName: 'master', recipeNames: ['b', 'c'] }],
    });
    expect(second).toEqual({
      attachedRecipes: [{ instanceGroupName: 'master', recipeNames: ['c'] }],
      detachedRecipes: [{ instanceGroupName: 'master', recipeNames: ['a'] }],
    });
    const unknown = await refused(
      emu.client.datalake.replaceRecipes({
        datalake: 'stage-lake',
        instanceGroupRecipes: [{ instanceGroupName: 'nothing', recipeNames: [] }],
      }),
    );
    expect([unknown.code, unknown.message]).toEqual(['NOT_FOUND', 'data lake stage-lake has no instance group nothing']);
  });
});

describe('upgrades', () => {
  test("the candidates are the images newer than the lake's; an upgrade takes the newest, and applies its runtime once it has succeeded", async () => {
    await running('older-lake', 'lakehouse-aws', { runtime: '7.2.17' });
    const shown = await emu.client.datalake.upgradeDatalake({ datalakeName: 'older-lake', showAvailableImages: true });
    expect(shown.current?.componentVersions?.cdp).toBe('7.2.17');
    expect(shown.upgradeCandidates?.map((i) => i.componentVersions?.cdp)).toEqual(['7.2.18', '7.2.18', '7.3.1', '7.3.1']);
    const locked = await emu.client.datalake.upgradeDatalake({
      datalakeName: 'older-lake',
      lockComponents: true,
      showAvailableImages: true,
    });
    expect(locked).toMatchObject({ upgradeCandidates: [], reason: 'no newer image is available' });
    const bad = await refused(emu.client.datalake.upgradeDatalake({ datalakeName: 'older-lake', runtime: '1.0' }));
    expect([bad.code, bad.message]).toEqual(['INVALID_ARGUMENT', 'runtime 1.0 is not supported']);
    const dry = await emu.client.datalake.upgradeDatalake({ datalakeName: 'older-lake', runtime: '7.2.18', dryRun: true });
    expect(dry.reason).toBe('the upgrade can run');
    expect(await statusOf('older-lake')).toBe('RUNNING');
    const up = await emu.client.datalake.upgradeDatalake({ datalakeName: 'older-lake', runtime: '7.2.18' });
    expect(up.upgradeCandidates?.map((i) => i.componentVersions?.cdp)).toEqual(['7.2.18']);
    expect(await statusOf('older-lake')).toBe('DATALAKE_UPGRADE_IN_PROGRESS');
    emu.clock.advance('12m');
    expect(await statusOf('older-lake')).toBe('RUNNING');
    const after = await emu.client.datalake.upgradeDatalake({ datalakeName: 'older-lake', showAvailableImages: true });
    expect(after.current?.componentVersions?.cdp).toBe('7.2.18');
    // setCatalog names the image catalog the lake's upgrades read from then on.
    expect(after.current?.imageCatalogName).toBe('cdp-default');
    expect(await emu.client.datalake.setCatalog({ datalake: 'older-lake', catalogName: 'my-catalog' })).toEqual({});
    const next = await emu.client.datalake.upgradeDatalake({ datalakeName: 'older-lake', showAvailableImages: true });
    expect([next.current?.imageCatalogName, ...(next.upgradeCandidates ?? []).map((i) => i.imageCatalogName)]).toEqual(
      Array(1 + (next.upgradeCandidates ?? []).length).fill('my-catalog'),
    );
  });

  test('the database server goes up one version or to the one asked for, never back, the same one only with force', async () => {
    const up = await emu.client.datalake.startDatabaseUpgrade({ datalake: 'older-lake', targetVersion: 'VERSION_14' });
    expect(up).toMatchObject({ targetVersion: 'VERSION_14', operationId: expect.any(String) });
    emu.clock.advance('8m');
    const back = await refused(emu.client.datalake.startDatabaseUpgrade({ datalake: 'older-lake', targetVersion: 'VERSION_11' }));
    expect([back.code, back.message]).toEqual([
      'FAILED_PRECONDITION',
      'the database server is at VERSION_14; it cannot go back to VERSION_11',
    ]);
    const same = await refused(emu.client.datalake.startDatabaseUpgrade({ datalake: 'older-lake', targetVersion: 'VERSION_14' }));
    expect(same.message).toBe('the database server is already at VERSION_14; use --force to run the upgrade again');
    const forced = await emu.client.datalake.startDatabaseUpgrade({ datalake: 'older-lake', targetVersion: 'VERSION_14', force: true });
    expect(forced.targetVersion).toBe('VERSION_14');
    emu.clock.advance('8m');
  });
});

describe('failing on purpose, retry and recovery', () => {
  test('fail-upgrade-... fails its first upgrade (DATALAKE_UPGRADE_FAILED, its operation FAILED); retryDatalake runs it again and it succeeds', async () => {
    await running('fail-upgrade-lake', 'lakehouse-aws', { runtime: '7.2.17' });
    const { operationId } = await emu.client.datalake.upgradeDatalake({ datalakeName: 'fail-upgrade-lake', runtime: '7.2.18' });
    emu.clock.advance('12m');
    expect(await statusOf('fail-upgrade-lake')).toBe('DATALAKE_UPGRADE_FAILED');
    const op = await emu.client.datalake.getOperation({ datalakeName: 'fail-upgrade-lake' });
    expect(op).toMatchObject({ operationId, operationName: 'UPGRADE', operationStatus: 'FAILED' });
    const retried = await emu.client.datalake.retryDatalake({ datalakeName: 'fail-upgrade-lake' });
    expect(retried.operationId).not.toBe(operationId);
    expect(await statusOf('fail-upgrade-lake')).toBe('DATALAKE_UPGRADE_IN_PROGRESS');
    const again = await refused(emu.client.datalake.retryDatalake({ datalakeName: 'fail-upgrade-lake' }));
    expect(again.message).toBe('data lake fail-upgrade-lake is DATALAKE_UPGRADE_IN_PROGRESS; only a failed operation can be retried');
    emu.clock.advance('12m');
    expect(await statusOf('fail-upgrade-lake')).toBe('RUNNING');
    const { upgradeCandidates } = await emu.client.datalake.upgradeDatalake({
      datalakeName: 'fail-upgrade-lake',
      showAvailableImages: true,
    });
    expect(upgradeCandidates?.every((i) => i.componentVersions?.cdp !== '7.2.17')).toBe(true);
  });

  test('recoverDatalake brings a lake back after a failed resize, keeping its shape; it is refused from RUNNING', async () => {
    await running('fail-resize-lake', 'lakehouse-aws');
    const running_ = await refused(emu.client.datalake.recoverDatalake({ datalakeName: 'fail-resize-lake' }));
    expect(running_.message).toBe(
      'data lake fail-resize-lake is RUNNING; recover needs it DATALAKE_UPGRADE_FAILED or RESIZE_FAILED or RECOVERY_FAILED',
    );
    await emu.client.datalake.resizeDatalake({ datalakeName: 'fail-resize-lake', targetSize: 'ENTERPRISE' });
    emu.clock.advance('15m');
    expect(await statusOf('fail-resize-lake')).toBe('RESIZE_FAILED');
    await emu.client.datalake.recoverDatalake({ datalakeName: 'fail-resize-lake' });
    expect(await statusOf('fail-resize-lake')).toBe('RECOVERY_IN_PROGRESS');
    emu.clock.advance('8m');
    expect(await describeLake('fail-resize-lake')).toMatchObject({ status: 'RUNNING', shape: 'LIGHT_DUTY' });
  });

  test('a lake named fail-... fails its create (PROVISIONING_FAILED)', async () => {
    await emu.client.datalake.createAWSDatalake({ datalakeName: 'fail-lake', environmentName: 'sales-env', ...AWS_LAKE_STORAGE });
    emu.clock.advance('10m');
    expect(await statusOf('fail-lake')).toBe('PROVISIONING_FAILED');
  });
});

describe('backups and restores', () => {
  let first = '';

  test('a backup is STARTED, IN_PROGRESS step by step, then SUCCESSFUL; one at a time per lake', async () => {
    const made = await emu.client.datalake.backupDatalake({ datalakeName: 'stage-lake', backupName: 'nightly' });
    first = made.backupId;
    expect(made).toMatchObject({ status: 'STARTED', backupLocation: `s3a://lake-bucket/data/backups/${first}`, endTime: '' });
    expect(made.operationStates?.adminOperations?.precheckStoragePermission).toMatchObject({ status: 'IN_PROGRESS' });
    const busy = await refused(emu.client.datalake.backupDatalake({ datalakeName: 'stage-lake', backupName: 'second' }));
    expect([busy.code, busy.message]).toEqual(['FAILED_PRECONDITION', `data lake stage-lake is busy with backup ${first}`]);
    emu.clock.advance('1m');
    const midway = await emu.client.datalake.backupDatalakeStatus({ datalakeName: 'stage-lake', backupId: first });
    expect(midway).toMatchObject({ status: 'IN_PROGRESS', totalPredictedDurationInMinutes: '5' });
    expect(midway.operationStates?.adminOperations?.stopServices?.status).toBe('SUCCESSFUL');
    expect(midway.operationStates?.adminOperations?.startServices?.status).toBe('INIT');
    emu.clock.advance('4m');
    const done = await emu.client.datalake.backupDatalakeStatus({ datalakeName: 'stage-lake', backupName: 'nightly' });
    expect(done.status).toBe('SUCCESSFUL');
    const listed = await emu.client.datalake.listDatalakeBackups({ datalakeName: 'stage-lake' });
    expect(listed.backups?.map((b) => [b.backupName, b.status])).toEqual([['nightly', 'SUCCESSFUL']]);
  });

  test('cancelBackup only while STARTED or IN_PROGRESS; the backup is then CANCELLED', async () => {
    const ended = await refused(emu.client.datalake.cancelBackup({ backupId: first }));
    expect([ended.code, ended.message]).toEqual([
      'FAILED_PRECONDITION',
      `backup ${first} is SUCCESSFUL; only a backup that is STARTED or IN_PROGRESS can be cancelled`,
    ]);
    const second = await emu.client.datalake.backupDatalake({ datalakeName: 'stage-lake', backupName: 'second' });
    const cancelled = await emu.client.datalake.cancelBackup({ backupId: second.backupId });
    expect(cancelled.result).toBe(`backup ${second.backupId} cancelled; pending steps were marked cancelled`);
    expect((await emu.client.datalake.backupDatalakeStatus({ datalakeName: 'stage-lake', backupId: second.backupId })).status).toBe(
      'CANCELLED',
    );
    const unknown = await refused(emu.client.datalake.cancelBackup({ backupId: 'no-such-backup' }));
    expect([unknown.code, unknown.status]).toEqual(['NOT_FOUND', 404]);
  });

  test('a restore takes the backup named (or the latest SUCCESSFUL one), runs to SUCCESSFUL, and is found by id or as the latest', async () => {
    const cancelled = await refused(emu.client.datalake.restoreDatalake({ datalakeName: 'stage-lake', backupName: 'second' }));
    expect(cancelled.message).toMatch(/^backup [0-9a-f-]{36} is CANCELLED; only a SUCCESSFUL backup can be restored$/);
    const restore = await emu.client.datalake.restoreDatalake({ datalakeName: 'stage-lake' });
    expect(restore).toMatchObject({ backupId: first, status: 'STARTED' });
    expect((await emu.client.datalake.restoreDatalakeStatus({ datalakeName: 'stage-lake' })).restoreId).toBe(restore.restoreId);
    emu.clock.advance('15m');
    const status = await emu.client.datalake.restoreDatalakeStatus({ datalakeName: 'stage-lake', restoreId: restore.restoreId });
    expect(status.status).toBe('SUCCESSFUL');
  });

  test('a restore from a location containing fail- fails; an unknown backup name is NOT_FOUND', async () => {
    const failing = await emu.client.datalake.restoreDatalake({
      datalakeName: 'stage-lake',
      backupId: first,
      backupLocationOverride: 's3a://fail-bucket/x',
    });
    emu.clock.advance('15m');
    const status = await emu.client.datalake.restoreDatalakeStatus({ datalakeName: 'stage-lake', restoreId: failing.restoreId });
    expect(status.status).toBe('FAILED');
    const missing = await refused(emu.client.datalake.backupDatalakeStatus({ datalakeName: 'stage-lake', backupName: 'weekly' }));
    expect([missing.code, missing.message]).toEqual(['NOT_FOUND', 'backup weekly of data lake stage-lake not found']);
  });
  test('cancelRestore with force marks every unfinished step cancelled; the restore is CANCELLED', async () => {
    const restore = await emu.client.datalake.restoreDatalake({ datalakeName: 'stage-lake', backupName: 'nightly' });
    const cancelled = await emu.client.datalake.cancelRestore({ restoreId: restore.restoreId, force: true });
    expect(cancelled.result).toBe(`restore ${restore.restoreId} cancelled; unfinished steps were marked cancelled`);
    const status = await emu.client.datalake.restoreDatalakeStatus({ datalakeName: 'stage-lake', restoreId: restore.restoreId });
    expect(status.status).toBe('CANCELLED');
    const again = await refused(emu.client.datalake.cancelRestore({ restoreId: restore.restoreId }));
    expect(again.message).toBe(`restore ${restore.restoreId} is CANCELLED; only a restore that is STARTED or IN_PROGRESS can be cancelled`);
  });
});

describe('certificates', () => {
  test("a lake's host certificates are VALID, then HOST_CERT_EXPIRING in their last 30 days; a renewal makes them VALID again", async () => {
    const state = async (): Promise<string | undefined> =>
      (await emu.client.datalake.listDatalakes({ datalakeName: 'ops-lake' })).datalakes[0]?.certificateExpirationState;
    expect(await state()).toBe('VALID');
    emu.clock.advance('330d');
    expect(await state()).toBe('VALID');
    emu.clock.advance('6d');
    expect(await state()).toBe('HOST_CERT_EXPIRING');
    await emu.client.datalake.renewPublicCertificate({ datalake: 'ops-lake' });
    emu.clock.advance('3m');
    expect(await state()).toBe('VALID');
  });
});

describe('diagnostics collections', () => {
  test("a collection RUNNING is the lake's operation; one of a kind at a time; cancelled, it is CANCELLED; the lake's delete takes its collections and backups with it", async () => {
    await running('diag-lake', 'lakehouse-aws');
    const { crn } = await describeLake('diag-lake');
    const made = await emu.client.datalake.collectDatalakeDiagnostics({ crn, destination: 'CLOUD_STORAGE', description: 'slow queries' });
    expect(made.operationId).toEqual(expect.any(String));
    const op = await emu.client.datalake.getOperation({ datalakeName: 'diag-lake' });
    expect(op).toMatchObject({ operationId: made.operationId, operationName: 'DIAGNOSTICS_COLLECTION', operationStatus: 'RUNNING' });
    // Not as another lake's.
    const other = await refused(emu.client.datalake.getOperation({ datalakeName: 'ops-lake', operationId: made.operationId }));
    expect(other.code).toBe('NOT_FOUND');
    const twice = await refused(emu.client.datalake.collectDatalakeDiagnostics({ crn, destination: 'LOCAL', description: 'again' }));
    expect(twice.code).toBe('FAILED_PRECONDITION');
    const cm = await emu.client.datalake.collectCmDiagnostics({ crn, destination: 'SUPPORT', caseNumber: '00123456', description: 'cm' });
    const listed = await emu.client.datalake.listDatalakeDiagnostics({ crn });
    expect(listed.collections?.map((c) => [c.flowId, c.status, c.collectionDetails?.destination])).toEqual([
      [made.operationId, 'RUNNING', 'CLOUD_STORAGE'],
      [cm.operationId, 'RUNNING', 'SUPPORT'],
    ]);
    expect(listed.collections?.[0]?.collectionDetails?.output).toBe(`s3a://lake-bucket/data/diagnostics/${made.operationId}.tar.gz`);
    emu.clock.advance('4m');
    await emu.client.datalake.cancelDatalakeDiagnostics({ crn });
    const after = await emu.client.datalake.listDatalakeDiagnostics({ crn });
    expect(after.collections?.map((c) => c.status)).toEqual(['FINISHED', 'CANCELLED']);
    await emu.client.datalake.backupDatalake({ datalakeName: 'diag-lake', backupName: 'before-delete' });
    emu.clock.advance('10m');
    const deleting = await emu.client.datalake.deleteDatalake({ datalakeName: 'diag-lake' });
    expect(deleting.operationId).toEqual(expect.any(String));
  });
});

describe('deleting', () => {
  test("an environment with a lake is not deleted; a lake's delete is refused while other work runs, unless forced", async () => {
    const env = await refused(emu.client.environments.deleteEnvironment({ environmentName: 'staging-aws' }));
    expect([env.code, env.message]).toEqual([
      'FAILED_PRECONDITION',
      'environment staging-aws still has data lake stage-lake; delete them first, or delete with --cascading',
    ]);
    await emu.client.datalake.createAWSDatalake({ datalakeName: 'busy-lake', environmentName: 'sales-env', ...AWS_LAKE_STORAGE });
    const busy = await refused(emu.client.datalake.deleteDatalake({ datalakeName: 'busy-lake' }));
    expect(busy.message).toBe('data lake busy-lake is REQUESTED; wait for it to finish or delete with --force');
    const forced = await emu.client.datalake.deleteDatalake({ datalakeName: 'busy-lake', force: true });
    expect(forced.operationId).toEqual(expect.any(String));
    expect(await statusOf('busy-lake')).toBe('DELETE_REQUESTED');
  });

  test('a delete passes DELETE_REQUESTED, stack and database deletion; a second delete is refused while it runs', async () => {
    await emu.client.datalake.deleteDatalake({ datalakeName: 'stage-lake' });
    expect(await statusOf('stage-lake')).toBe('DELETE_REQUESTED');
    const twice = await refused(emu.client.datalake.deleteDatalake({ datalakeName: 'stage-lake' }));
    expect(twice.message).toBe('data lake stage-lake is already being deleted');
    emu.clock.advance('1m');
    expect(await statusOf('stage-lake')).toBe('STACK_DELETION_IN_PROGRESS');
    emu.clock.advance('2m');
    expect(await statusOf('stage-lake')).toBe('EXTERNAL_DATABASE_DELETION_IN_PROGRESS');
  });

  test('a lake whose delete fails (fail-delete-...) is deleted with force, which cannot fail', async () => {
    await running('fail-delete-lake', 'sales-env');
    await emu.client.datalake.deleteDatalake({ datalakeName: 'fail-delete-lake' });
    emu.clock.advance('4m');
    expect(await statusOf('fail-delete-lake')).toBe('DELETE_FAILED');
    await emu.client.datalake.deleteDatalake({ datalakeName: 'fail-delete-lake', force: true });
    expect(await statusOf('fail-delete-lake')).toBe('DELETE_REQUESTED');
  });
});
