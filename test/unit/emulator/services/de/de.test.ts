/**
 * The emulator's Data Engineering service (de), driven through the
 * library's client against an emulator in this process, on a paused clock
 * the tests move: a service enabled only where the environment's data lake
 * runs, with the rules its settings follow; its lifecycle in the service's
 * own words (ClusterCreationInProgress... ClusterCreationCompleted), its
 * init log read off the clock; virtual clusters (quota, Spark version by
 * service version, access, suspend and resume with their status); the
 * multi-step upgrade (prepare, backup, upgrade, resume, each only after the
 * one before, cancel only before the upgrade step); backups (cancelled only
 * while pending, deleted once ended, listed with filters and order) and a
 * service restored from one with its virtual clusters; a disable that
 * takes the virtual clusters with it.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { UsageError, type de } from '../../../../../src/lib/sdk/index.js';
import { AWS_LAKE_STORAGE } from '../../../../helpers/lake.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
let salesCrn = '';

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  salesCrn = (await emu.client.environments.describeEnvironment({ environmentName: 'sales-env' })).environment.crn;
});

afterAll(async () => {
  await emu?.stop();
});

const SERVICE: de.EnableServiceRequest = {
  name: 'etl-svc',
  env: 'sales-env',
  instanceType: 'm5.2xlarge',
  minimumInstances: 1,
  maximumInstances: 4,
};
const serviceStatus = async (clusterId: string): Promise<string | undefined> =>
  (await emu.client.de.describeService({ clusterId })).service?.status;
const vcStatus = async (clusterId: string, vcId: string): Promise<string | undefined> =>
  (await emu.client.de.describeVc({ clusterId, vcId })).vc?.status;

let svc = '';
let vc = '';

describe('enabling a service', () => {
  test('needs the environment to have a data lake, and the lake RUNNING (FAILED_PRECONDITION)', async () => {
    const none = await refused(emu.client.de.enableService(SERVICE));
    expect([none.code, none.status, none.message]).toEqual([
      'FAILED_PRECONDITION',
      409,
      'environment sales-env has no data lake; a Data Engineering service needs a running one',
    ]);
    await emu.client.datalake.createAWSDatalake({
      datalakeName: 'sales-lake',
      environmentName: 'sales-env',
      ...AWS_LAKE_STORAGE,
    });
    const creating = await refused(emu.client.de.enableService(SERVICE));
    expect(creating.message).toBe(
      'data lake sales-lake of environment sales-env is REQUESTED; a Data Engineering service needs it RUNNING',
    );
    emu.clock.advance('10m');
  });

  test('its settings follow the rules of its environment: a valid name, subnets of the environment, Azure settings only on Azure, not private and public at once', async () => {
    const name = await refused(emu.client.de.enableService({ ...SERVICE, name: '1x' }));
    expect([name.code, name.status]).toEqual(['INVALID_ARGUMENT', 400]);
    expect(name.message).toMatch(/^service name 1x is not valid/);
    const subnet = await refused(emu.client.de.enableService({ ...SERVICE, subnets: ['subnet-elsewhere'] }));
    expect(subnet.message).toBe(
      'subnet subnet-elsewhere is not a subnet of environment sales-env; it has sales-env-subnet-a, sales-env-subnet-b, sales-env-subnet-c',
    );
    const azure = await refused(emu.client.de.enableService({ ...SERVICE, azureFilesharePrivateDNSZoneId: 'zone' }));
    expect(azure.message).toBe('azureFilesharePrivateDNSZoneId apply to Azure environments only; environment sales-env is on AWS');
    const both = await refused(emu.client.de.enableService({ ...SERVICE, enablePrivateNetwork: true, enablePublicEndpoint: true }));
    expect(both.message).toBe('a fully private service (enablePrivateNetwork) has no public endpoint (enablePublicEndpoint)');
    const range = await emu.client.de.enableService({ ...SERVICE, minimumInstances: 5 }).catch((e: unknown) => e);
    expect(range).toBeInstanceOf(UsageError);
    expect((await emu.client.de.listServices({})).services).toEqual([]);
  });

  test('a service is ClusterCreationInProgress, ClusterProvisioningInProgress, then ClusterCreationCompleted; the previous version when asked', async () => {
    const made = await emu.client.de.enableService({ ...SERVICE, deployPreviousVersion: true, networkOutboundType: 'UDR' });
    svc = made.service?.clusterId ?? '';
    expect(svc).toMatch(/^cluster-[a-z0-9]{8}$/);
    expect(made.service).toMatchObject({
      name: 'etl-svc',
      environmentName: 'sales-env',
      environmentCrn: salesCrn,
      status: 'ClusterCreationInProgress',
      resources: { instance_type: 'm5.2xlarge', min_instances: '1', max_instances: '4', initial_instances: '1', root_vol_size: '200' },
    });
    const dup = await refused(emu.client.de.enableService(SERVICE));
    expect([dup.code, dup.status, dup.message]).toEqual([
      'ALREADY_EXISTS',
      409,
      'Data Engineering service etl-svc already exists in environment sales-env',
    ]);
    emu.clock.advance('2m');
    expect(await serviceStatus(svc)).toBe('ClusterProvisioningInProgress');
    emu.clock.advance('14m');
    const up = (await emu.client.de.describeService({ clusterId: svc })).service;
    // The request's enum writes UDR; the service shows it as its description does ("Currently 'udr' is the only supported").
    expect(up).toMatchObject({
      status: 'ClusterCreationCompleted',
      version: '1.24.1',
      previousVersionDeployed: true,
      networkOutboundType: 'udr',
    });
  });

  test('the init log has a line as the service begins, as it enters each state and as it ends, as far as the clock has got', async () => {
    const { logs } = await emu.client.de.getServiceInitLogs({ serviceID: svc });
    expect(logs.map((l) => l.replace(/^\S+ /, ''))).toEqual([
      `INFO enabling Data Engineering service etl-svc (${svc}) in environment sales-env`,
      'INFO ClusterCreationInProgress',
      'INFO ClusterProvisioningInProgress',
      expect.stringMatching(/^INFO service etl-svc is ready: version 1\.24\.1, endpoint /),
    ]);
    const page = await emu.client.de.getServiceInitLogs({ serviceID: svc, pageSize: 2 });
    expect(page.logs).toHaveLength(2);
    expect(page.nextToken).toEqual(expect.any(String));
  });

  test('the kubeconfig names the caller and the service; an unknown service is NOT_FOUND', async () => {
    const { kubeconfig } = await emu.client.de.getKubeconfig({ clusterId: svc });
    expect(kubeconfig).toContain(`current-context: ${svc}`);
    expect(kubeconfig).toContain('- name: admin');
    const missing = await refused(emu.client.de.describeService({ clusterId: 'cluster-nothing0' }));
    expect([missing.code, missing.status]).toEqual(['NOT_FOUND', 404]);
  });
});

describe('virtual clusters', () => {
  test('need their service up; a quota is a number of cores and an amount of memory; Spark versions go by the service version', async () => {
    const early = await emu.client.de.enableService({ ...SERVICE, name: 'early-svc' });
    const notUp = await refused(
      emu.client.de.createVc({ clusterId: early.service?.clusterId ?? '', name: 'vc', cpuRequests: '4', memoryRequests: '8Gi' }),
    );
    expect(notUp.message).toBe(
      'Data Engineering service early-svc is ClusterCreationInProgress; a new virtual cluster needs it ClusterCreationCompleted or ClusterUpgradeFailed',
    );
    const cpu = await refused(emu.client.de.createVc({ clusterId: svc, name: 'vc', cpuRequests: 'lots', memoryRequests: '8Gi' }));
    expect([cpu.code, cpu.message]).toEqual(['INVALID_ARGUMENT', 'cpuRequests lots is not a number of CPU cores, such as 40']);
    const spark = await refused(
      emu.client.de.createVc({ clusterId: svc, name: 'vc', cpuRequests: '4', memoryRequests: '8Gi', sparkVersion: 'SPARK3_5_4' }),
    );
    expect(spark.message).toBe('SPARK3_5_4 needs Data Engineering 1.25.0 or later; service etl-svc runs 1.24.1');
  });

  test('a virtual cluster is AppInstalling, then AppInstalled, with the quota it asked and what runs beside its jobs; names unique per service', async () => {
    const made = await emu.client.de.createVc({
      clusterId: svc,
      name: 'vc1',
      cpuRequests: '20',
      memoryRequests: '80Gi',
      aclUsers: 'ana, bo',
    });
    vc = made.Vc?.vcId ?? '';
    expect(vc).toMatch(/^dex-app-[a-z0-9]{8}$/);
    expect(made.Vc).toMatchObject({
      status: 'AppInstalling',
      sparkVersion: 'SPARK3_5',
      resources: { cpuRequests: '20', memRequests: '80Gi', actualCpuRequests: '24', actualMemoryRequests: '96Gi' },
      accessControl: { users: ['ana', 'bo'] },
    });
    const dup = await refused(emu.client.de.createVc({ clusterId: svc, name: 'vc1', cpuRequests: '4', memoryRequests: '8Gi' }));
    expect([dup.code, dup.message]).toEqual(['ALREADY_EXISTS', 'virtual cluster vc1 already exists in Data Engineering service etl-svc']);
    emu.clock.advance('4m');
    const listed = await emu.client.de.listVcs({ clusterId: svc });
    expect(listed.vcs?.map((v) => [v.vcName, v.status])).toEqual([['vc1', 'AppInstalled']]);
  });

  test('suspend (AppSuspending, then AppSuspended) and resume, with getSuspendResumeStatus telling the step and the next one', async () => {
    expect((await emu.client.de.suspendVc({ clusterId: svc, vcId: vc })).status).toBe('suspending virtual cluster vc1');
    expect(await emu.client.de.getSuspendResumeStatus({ clusterId: svc, vcId: vc })).toEqual({
      statusMessage: 'suspending virtual cluster vc1: AppSuspending',
      allStepsCompleted: false,
    });
    emu.clock.advance('2m');
    expect(await emu.client.de.getSuspendResumeStatus({ clusterId: svc, vcId: vc })).toEqual({
      statusMessage: 'virtual cluster vc1 is suspended',
      nextStep: 'resume',
      allStepsCompleted: true,
    });
    const twice = await refused(emu.client.de.suspendVc({ clusterId: svc, vcId: vc }));
    expect(twice.message).toBe('virtual cluster vc1 is AppSuspended; suspend needs it AppInstalled');
    await emu.client.de.resumeVc({ clusterId: svc, vcId: vc });
    expect(await vcStatus(svc, vc)).toBe('AppResuming');
    emu.clock.advance('3m');
    expect(await vcStatus(svc, vc)).toBe('AppInstalled');
  });

  test('an update replaces who may use it', async () => {
    const updated = await emu.client.de.updateVc({ clusterId: svc, vcId: vc, aclUsers: 'cy', viewOnlyGroups: ['analysts'] });
    expect(updated.Vc?.accessControl).toMatchObject({ users: ['cy'], viewOnlyGroups: ['analysts'] });
  });
});

describe('the upgrade in steps', () => {
  test('prepare, backup, upgrade, resume: each only once the one before has ended; cancel only before the upgrade step', async () => {
    const status = () => emu.client.de.getUpgradeStatus({ clusterId: svc });
    const step = (s: de.UpgradeServiceRequest['step']) => emu.client.de.upgradeService({ clusterId: svc, step: s });
    expect(await status()).toEqual({
      upgradeStatusMessage: 'version 1.25.0 is available (the service runs 1.24.1); begin with the prepare step',
      nextStep: 'prepare',
      allStepsCompleted: false,
    });
    const outOfTurn = await refused(step('backup'));
    expect([outOfTurn.code, outOfTurn.message]).toEqual([
      'FAILED_PRECONDITION',
      'service etl-svc has no upgrade under way; begin with the prepare step',
    ]);
    expect((await step('prepare')).message).toBe('prepare step triggered successfully');
    const early = await refused(step('backup'));
    expect(early.message).toBe('the prepare step of service etl-svc is still running');
    emu.clock.advance('3m');
    expect((await status()).nextStep).toBe('backup');
    const skip = await refused(step('upgrade'));
    expect(skip.message).toBe('the next step of the upgrade of service etl-svc is backup, not upgrade');
    await step('backup');
    emu.clock.advance('5m');
    expect((await status()).nextStep).toBe('upgrade');
    await step('upgrade');
    expect(await serviceStatus(svc)).toBe('ClusterUpgradeInProgress');
    const cancel = await refused(step('cancel'));
    expect(cancel.message).toBe('the upgrade step of service etl-svc has begun; the upgrade cannot be cancelled');
    emu.clock.advance('12m');
    expect((await status()).nextStep).toBe('resume');
    await step('resume');
    emu.clock.advance('3m');
    expect(await status()).toEqual({ upgradeStatusMessage: 'upgraded from 1.24.1 to 1.25.0', allStepsCompleted: true });
    expect((await emu.client.de.describeService({ clusterId: svc })).service).toMatchObject({
      status: 'ClusterCreationCompleted',
      version: '1.25.0',
    });
  });
});

describe('backups', () => {
  test('the backup step made a real backup of the service, completed, numbered, with its virtual clusters', async () => {
    const { backups } = await emu.client.de.listBackups({});
    expect(backups.map((b) => [b.id, b.serviceName, b.status, b.description])).toEqual([
      [1, 'etl-svc', 'completed', 'before the upgrade to 1.25.0'],
    ]);
    const logs = await emu.client.de.getBackupLogs({ backupID: 1 });
    expect(logs.logs[0]).toMatch(/INFO backup 1 of service etl-svc \(cluster-[a-z0-9]{8}\), 1 virtual cluster\(s\): vc1$/);
  });

  test('a backup is pending, then running, then ends (failed when its description starts with fail-); cancelled only while pending; deleted only once ended', async () => {
    const pathRefused = await refused(emu.client.de.createBackup({ serviceId: svc, backupPath: '/absolute' }));
    expect([pathRefused.code, pathRefused.message]).toEqual([
      'INVALID_ARGUMENT',
      'backupPath /absolute must be a folder relative to the service backup location, without a file name',
    ]);
    const { backupID } = await emu.client.de.createBackup({ serviceId: svc, description: 'manual' });
    expect(backupID).toBe(2);
    expect((await emu.client.de.describeBackup({ backupID })).backup.status).toBe('pending');
    const busy = await refused(emu.client.de.deleteBackup({ backupID }));
    expect(busy.message).toBe('backup 2 is pending; cancel it (while pending) or wait until it ends, then delete it');
    await emu.client.de.cancelBackup({ backupID });
    expect((await emu.client.de.describeBackup({ backupID })).backup.status).toBe('cancelled');
    const again = await refused(emu.client.de.cancelBackup({ backupID }));
    expect(again.message).toBe('backup 2 is cancelled; cancel needs it pending');
    await emu.client.de.deleteBackup({ backupID });
    const gone = await refused(emu.client.de.describeBackup({ backupID }));
    expect([gone.code, gone.status]).toEqual(['NOT_FOUND', 404]);
    const third = await emu.client.de.createBackup({ serviceId: svc, description: 'fail-on-purpose' });
    emu.clock.advance('1m');
    expect((await emu.client.de.describeBackup({ backupID: third.backupID })).backup.status).toBe('running');
    const running = await refused(emu.client.de.cancelBackup({ backupID: third.backupID }));
    expect(running.message).toBe(`backup ${third.backupID} is running; cancel needs it pending`);
    emu.clock.advance('4m');
    expect((await emu.client.de.describeBackup({ backupID: third.backupID })).backup.status).toBe('failed');
  });

  test('listings filter (field(operator)argument) and order, newest first by default', async () => {
    const all = await emu.client.de.listBackups({});
    expect(all.backups.map((b) => b.id)).toEqual([3, 1]);
    const ascending = await emu.client.de.listBackups({ order: 'ASC' });
    expect(ascending.backups.map((b) => b.id)).toEqual([1, 3]);
    const completed = await emu.client.de.listBackups({ filter: ['status(eq)completed'] });
    expect(completed.backups.map((b) => b.id)).toEqual([1]);
    const like = await emu.client.de.listBackups({ filter: ['environment(like)sales%', 'id(gt)1'] });
    expect(like.backups.map((b) => b.id)).toEqual([3]);
    const bad = await refused(emu.client.de.listBackups({ filter: ['owner(eq)x'] }));
    expect([bad.code, bad.status]).toEqual(['INVALID_ARGUMENT', 400]);
  });
});

describe('disabling and restoring', () => {
  test('a disable takes the virtual clusters with it (ClusterDeletionInProgress)', async () => {
    expect((await emu.client.de.disableService({ clusterId: svc })).status).toBe('ClusterDeletionInProgress');
    expect((await emu.client.de.listVcs({ clusterId: svc })).vcs).toEqual([]);
    const twice = await refused(emu.client.de.disableService({ clusterId: svc }));
    expect(twice.message).toBe('Data Engineering service etl-svc is already being deleted');
    emu.clock.advance('6m');
  });

  test('a service is restored from a completed backup into its environment only, under its name, with its virtual clusters', async () => {
    const opsCrn = (await emu.client.environments.describeEnvironment({ environmentName: 'ops-env' })).environment.crn;
    const elsewhere = await refused(emu.client.de.restoreService({ backupID: 1, environmentCrn: opsCrn }));
    expect([elsewhere.code, elsewhere.message]).toEqual([
      'INVALID_ARGUMENT',
      'backup 1 was taken in environment sales-env; a service can be restored only into the environment it was backed up from',
    ]);
    const failed = await refused(emu.client.de.restoreService({ backupID: 3, environmentCrn: salesCrn }));
    expect(failed.message).toBe('backup 3 is failed; a restore needs it completed');
    const { serviceID } = await emu.client.de.restoreService({ backupID: 1, environmentCrn: salesCrn });
    expect(serviceID).not.toBe(svc);
    const restored = (await emu.client.de.describeService({ clusterId: serviceID })).service;
    expect(restored).toMatchObject({ name: 'etl-svc', status: 'ClusterRestoreInProgress', version: '1.24.1' });
    const vcs = await emu.client.de.listVcs({ clusterId: serviceID });
    expect(vcs.vcs?.map((v) => [v.vcName, v.status])).toEqual([['vc1', 'AppInstalling']]);
    emu.clock.advance('18m');
    expect(await serviceStatus(serviceID)).toBe('ClusterCreationCompleted');
    expect((await emu.client.de.listVcs({ clusterId: serviceID })).vcs?.map((v) => v.status)).toEqual(['AppInstalled']);
    const taken = await refused(emu.client.de.restoreService({ backupID: 1, environmentCrn: salesCrn }));
    expect(taken.message).toBe('environment sales-env already has a service named etl-svc; give another --service-name');
  });
});
