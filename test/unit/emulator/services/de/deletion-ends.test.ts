/**
 * How a Data Engineering delete ends, as automation that polls describe
 * itself sees it (cdpy and the Ansible collection's de modules; issue 28):
 * a disabled service passes through ClusterDeletionInProgress and stays
 * visible as ClusterDeletionCompleted, listed unless removeDeleted is true,
 * for a day of emulator time; its name is free at once. A deleted virtual
 * cluster passes through AppDeletionInitiated and AppDeletionInProgress and
 * stays visible as AppDeleted, to describeVc and listVcs alike (clients
 * filter those out of the list themselves), for a day. Driven by raw signed
 * HTTP against an emulator in this process on a paused clock, polled in
 * 30-second steps as a client's loop would.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { parsePrivateKey, type SigningKey } from '../../../../../src/lib/core/signing.js';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { AWS_LAKE_STORAGE } from '../../../../helpers/lake.js';
import { postJson, type Reply } from '../../../../reliability/helpers.js';

let emu: RunningEmulator;
let key: SigningKey;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  key = parsePrivateKey(emu.credentials.accessKeyId, emu.credentials.privateKey);
  await emu.client.datalake.createAWSDatalake({ datalakeName: 'sales-lake', environmentName: 'sales-env', ...AWS_LAKE_STORAGE });
  emu.clock.advance('10m');
});

afterAll(async () => {
  await emu?.stop();
});

const call = (op: string, body: unknown): Promise<Reply> => postJson(emu.port, key, `/api/v1/de/${op}`, body);

/** The body of a call that must succeed. */
async function ok(op: string, body: unknown): Promise<Record<string, unknown>> {
  const r = await call(op, body);
  expect({ op, status: r.status }).toEqual({ op, status: 200 });
  return r.json ?? {};
}

/**
 * A client's describe loop: the statuses it sees, each once, in order, every
 * 30 s of emulator time until `done` holds (NOT_FOUND shows as NOT_FOUND, and
 * ends the loop), at most two hours.
 */
async function poll(describe: () => Promise<Reply>, status: (r: Reply) => unknown, done: (s: string) => boolean): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 240; i++) {
    const r = await describe();
    const s = r.status === 404 ? 'NOT_FOUND' : String(status(r));
    if (seen[seen.length - 1] !== s) seen.push(s);
    if (s === 'NOT_FOUND' || done(s)) break;
    emu.clock.advance('30s');
  }
  return seen;
}

const serviceStatus = (r: Reply): unknown => (r.json?.service as Record<string, unknown> | undefined)?.status;
const listed = async (removeDeleted?: boolean): Promise<Array<[unknown, unknown]>> => {
  const body = await ok('listServices', removeDeleted === undefined ? {} : { removeDeleted });
  return (body.services as Array<Record<string, unknown>>).map((s) => [s.name, s.status]);
};

/** Enables a service in sales-env; answers its id. */
async function enable(name = 'etl-svc'): Promise<string> {
  const made = await ok('enableService', {
    name,
    env: 'sales-env',
    instanceType: 'm5.2xlarge',
    minimumInstances: 1,
    maximumInstances: 4,
  });
  return String((made.service as Record<string, unknown>).clusterId);
}

describe('a disabled service', () => {
  let clusterId = '';

  beforeAll(async () => {
    clusterId = await enable();
    emu.clock.advance('20m');
  });

  test('passes through ClusterDeletionInProgress and ends ClusterDeletionCompleted, which describe keeps answering', async () => {
    await ok('disableService', { clusterId });
    const seen = await poll(
      () => call('describeService', { clusterId }),
      serviceStatus,
      (s) => s === 'ClusterDeletionCompleted',
    );
    expect(seen).toEqual(['ClusterDeletionInProgress', 'ClusterDeletionCompleted']);
    emu.clock.advance('3h');
    expect(serviceStatus(await call('describeService', { clusterId }))).toBe('ClusterDeletionCompleted');
  });

  test('listServices shows it unless removeDeleted is true', async () => {
    expect(await listed()).toEqual([['etl-svc', 'ClusterDeletionCompleted']]);
    expect(await listed(false)).toEqual([['etl-svc', 'ClusterDeletionCompleted']]);
    expect(await listed(true)).toEqual([]);
  });

  test('it cannot be disabled or changed again (NOT_FOUND), and its name is free for a new service', async () => {
    const again = await call('disableService', { clusterId });
    expect([again.status, again.json?.code]).toEqual([404, 'NOT_FOUND']);
    const update = await call('updateService', { clusterId, maximumInstances: 8 });
    expect([update.status, update.json?.code]).toEqual([404, 'NOT_FOUND']);
    const vc = await call('createVc', { name: 'vc1', clusterId, cpuRequests: '10', memoryRequests: '40Gi' });
    expect([vc.status, vc.json?.code, vc.json?.message]).toEqual([404, 'NOT_FOUND', 'Data Engineering service etl-svc is deleted']);
    const fresh = await enable();
    expect(fresh).not.toBe(clusterId);
    expect(await listed(true)).toEqual([['etl-svc', 'ClusterCreationInProgress']]);
  });

  test('after a day of emulator time it is gone: NOT_FOUND, and listed nowhere', async () => {
    emu.clock.advance('21h');
    const gone = await call('describeService', { clusterId });
    expect([gone.status, gone.json?.code]).toEqual([404, 'NOT_FOUND']);
    expect(await listed()).toEqual([['etl-svc', 'ClusterCreationCompleted']]);
  });
});

describe('a deleted virtual cluster', () => {
  let clusterId = '';
  let vcId = '';
  const vcStatus = (r: Reply): unknown => (r.json?.vc as Record<string, unknown> | undefined)?.status;
  const vcs = async (): Promise<Array<[unknown, unknown]>> =>
    ((await ok('listVcs', { clusterId })).vcs as Array<Record<string, unknown>>).map((v) => [v.vcName, v.status]);

  beforeAll(async () => {
    clusterId = await enable('vc-svc');
    emu.clock.advance('20m');
    const made = await ok('createVc', { name: 'etl-daily', clusterId, cpuRequests: '10', memoryRequests: '40Gi' });
    vcId = String((made.Vc as Record<string, unknown>).vcId);
    emu.clock.advance('5m');
  });

  test('passes through AppDeletionInitiated and AppDeletionInProgress and ends AppDeleted, which describeVc keeps answering', async () => {
    await ok('deleteVc', { clusterId, vcId });
    const seen = await poll(
      () => call('describeVc', { clusterId, vcId }),
      vcStatus,
      (s) => s === 'AppDeleted',
    );
    expect(seen).toEqual(['AppDeletionInitiated', 'AppDeletionInProgress', 'AppDeleted']);
    emu.clock.advance('3h');
    expect(vcStatus(await call('describeVc', { clusterId, vcId }))).toBe('AppDeleted');
  });

  test('listVcs shows it as AppDeleted (clients filter those out themselves); its name is free for a new one', async () => {
    expect(await vcs()).toEqual([['etl-daily', 'AppDeleted']]);
    const again = await call('deleteVc', { clusterId, vcId });
    expect([again.status, again.json?.code]).toEqual([404, 'NOT_FOUND']);
    await ok('createVc', { name: 'etl-daily', clusterId, cpuRequests: '10', memoryRequests: '40Gi' });
    expect(await vcs()).toEqual([
      ['etl-daily', 'AppDeleted'],
      ['etl-daily', 'AppInstalling'],
    ]);
  });

  test('a backup takes only the live virtual clusters, and the service-wide suspend status names only them', async () => {
    emu.clock.advance('5m');
    const { backupID } = await ok('createBackup', { serviceId: clusterId });
    emu.clock.advance('5m');
    const logs = await ok('getBackupLogs', { backupID });
    expect(String((logs.logs as string[])[0])).toMatch(/1 virtual cluster\(s\): etl-daily$/);
    const status = await ok('getSuspendResumeStatus', { clusterId });
    expect(status.statusMessage).toMatch(/^virtual cluster etl-daily is AppInstalled$/);
  });

  test('after a day of emulator time it is gone: NOT_FOUND, and no longer listed', async () => {
    emu.clock.advance('21h');
    const gone = await call('describeVc', { clusterId, vcId });
    expect([gone.status, gone.json?.code]).toEqual([404, 'NOT_FOUND']);
    expect(await vcs()).toEqual([['etl-daily', 'AppInstalled']]);
  });
});
