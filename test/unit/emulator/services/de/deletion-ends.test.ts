/**
 * How a Data Engineering delete ends, as automation that polls describe
 * itself sees it (cdpy and the Ansible collection's de modules; issue 28):
 * a disabled service passes through ClusterDeletionInProgress and stays
 * visible as ClusterDeletionCompleted, listed unless removeDeleted is true,
 * for a day of emulator time; its name is free at once. Driven by raw signed
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

/** Enables service etl-svc in sales-env; answers its id. */
async function enable(): Promise<string> {
  const made = await ok('enableService', {
    name: 'etl-svc',
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
