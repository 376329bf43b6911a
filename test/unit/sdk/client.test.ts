/**
 * The library's client as a script uses it, against an emulator started by
 * the library in this process: typed calls by official names, paging as
 * async iterators, the CLI's waiters, the CLI's checks before sending, and
 * errors as classes carrying the API's code, HTTP status and request id;
 * profiles and CDP_* variables resolved as the CLI resolves them.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  AuthError,
  CdpClient,
  CdpError,
  ServiceError,
  UsageError,
  WaitFailedError,
  WaitTimeoutError,
  type iam,
} from '../../../src/lib/sdk/index.js';
import { startEmulator, type RunningEmulator } from '../../../src/lib/sdk/emulator.js';
import { runInProcess } from '../../helpers/in-process.js';
import { ROOT } from '../../helpers/cli.js';

let emu: RunningEmulator;
let home: string;

beforeAll(async () => {
  emu = await startEmulator({ timeScale: 60 });
  home = mkdtempSync(join(tmpdir(), 'cdpctl-sdk-'));
});

afterAll(async () => {
  await emu?.stop();
  rmSync(home, { recursive: true, force: true });
});

/** The requests the emulator has answered for one operation. */
const answered = (operation: string): number => emu.requests().filter((r) => r.operation === operation).length;

describe('calls', () => {
  test('an operation by its API name answers the parsed response', async () => {
    const me = await emu.client.iam.getUser();
    expect(me.user).toMatchObject({ email: 'admin@example.com', crn: expect.stringMatching(/^crn:altus:iam:us-west-1:/) });
    const made = await emu.client.iam.createGroup({ groupName: 'sdk-readers' });
    expect(made.group.groupName).toBe('sdk-readers');
    const listed = await emu.client.iam.listGroups({ groupNames: ['sdk-readers'] });
    expect(listed.groups.map((g: iam.Group) => g.groupName)).toEqual(['sdk-readers']);
  });

  test('call() reaches an operation by its names; an unknown service or operation is a UsageError', async () => {
    expect(await emu.client.call('iam', 'getUser', {})).toMatchObject({ user: { email: 'admin@example.com' } });
    await expect(emu.client.call('iam', 'getUserz', {})).rejects.toThrow(UsageError);
    await expect(emu.client.call('nope', 'getUser', {})).rejects.toMatchObject({ code: 'UNKNOWN_SERVICE' });
  });

  test('every service is there by its official name', () => {
    for (const name of [
      'iam',
      'environments',
      'datalake',
      'datahub',
      'dw',
      'ml',
      'de',
      'df',
      'dfworkload',
      'opdb',
      'cloudprivatelinks',
      'lakehouseopt',
    ])
      expect(typeof (emu.client as unknown as Record<string, Record<string, unknown>>)[name]?.paginate).toBe('object');
  });
});

describe('errors', () => {
  test("the API's error is a ServiceError with its code, HTTP status and request id", async () => {
    const err = await emu.client.iam.getUser({ userId: 'no-such-user' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ServiceError);
    expect(err).toBeInstanceOf(CdpError);
    const e = err as ServiceError;
    expect([e.code, e.status, e.service, e.operation]).toEqual(['NOT_FOUND', 404, 'iam', 'getUser']);
    expect(emu.requests().find((r) => r.requestId === e.requestId)).toMatchObject({ operation: 'getUser', status: 404 });
  });

  test('a request the model refuses is a UsageError naming the field, and nothing is sent', async () => {
    const before = answered('createGroup');
    const missing = await emu.client.iam.createGroup({} as iam.CreateGroupRequest).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(UsageError);
    expect((missing as UsageError).message).toMatch(/groupName/);
    const tooLong = await emu.client.iam.listUsers({ pageSize: 5000 }).catch((e: unknown) => e);
    expect(tooLong).toBeInstanceOf(UsageError);
    const notAnObject = await emu.client.iam.createGroup('x' as unknown as iam.CreateGroupRequest).catch((e: unknown) => e);
    expect(notAnObject).toBeInstanceOf(UsageError);
    expect(answered('createGroup')).toBe(before);
  });

  test('a key the control plane does not know is an AuthError (401)', async () => {
    const stranger = emu.createClient({
      credentials: { accessKeyId: '00000000-0000-0000-0000-000000000000', privateKey: emu.credentials.privateKey },
    });
    const err = await stranger.iam.getUser().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AuthError);
    expect((err as AuthError).status).toBe(401);
  });
});

describe('paging', () => {
  beforeAll(async () => {
    for (let i = 0; i < 7; i++) await emu.client.iam.createMachineUser({ machineUserName: `sdk-pager-${i}` });
  });

  test('paginate yields every item of every page, asking a page at a time', async () => {
    const before = answered('listMachineUsers');
    const names: string[] = [];
    for await (const m of emu.client.iam.paginate.listMachineUsers({}, { pageSize: 2 })) names.push(m.machineUserName);
    expect(names.filter((n) => n.startsWith('sdk-pager-'))).toEqual(Array.from({ length: 7 }, (_, i) => `sdk-pager-${i}`));
    expect(answered('listMachineUsers') - before).toBe(Math.ceil(names.length / 2));
  });

  test('maxItems stops early; pages gives each whole answer with its token; a bad option sends nothing', async () => {
    const first: string[] = [];
    for await (const m of emu.client.iam.paginate.listMachineUsers({}, { maxItems: 3, pageSize: 2 })) first.push(m.machineUserName);
    expect(first).toHaveLength(3);
    const pages = [];
    for await (const page of emu.client.iam.pages.listMachineUsers({}, { pageSize: 3 })) pages.push(page);
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages[0]?.nextToken).toEqual(expect.any(String));
    expect(pages.at(-1)?.nextToken).toBeUndefined();
    const before = answered('listMachineUsers');
    const bad = emu.client.iam.paginate.listMachineUsers({}, { pageSize: 0 });
    await expect(bad.next()).rejects.toThrow(UsageError);
    expect(answered('listMachineUsers')).toBe(before);
  });
});

describe('waiting', () => {
  test("wait.<op> sends the request and polls as --wait does; the emulator's clock moves instead of the test waiting", async () => {
    const before = emu.clock.now().getTime();
    const states: string[] = [];
    const done = await emu.client.opdb.wait.createDatabase(
      { environmentName: 'sales-env', databaseName: 'sdk-orders' },
      { onState: (s) => states.push(s) },
    );
    expect(done.state).toBe('AVAILABLE');
    expect(done.final).toMatchObject({ databaseDetails: { databaseName: 'sdk-orders', status: 'AVAILABLE' } });
    expect(done.response).toMatchObject({ databaseDetails: { databaseName: 'sdk-orders' } });
    expect(states.at(-1)).toBe('AVAILABLE');
    expect(states.length).toBeGreaterThan(1);
    expect(emu.clock.now().getTime() - before).toBeGreaterThan(60_000);
  });

  test('work that fails is a WaitFailedError; a wait on an answer already had sends no second request', async () => {
    const failed = await emu.client.opdb.wait
      .createDatabase({ environmentName: 'sales-env', databaseName: 'fail-sdk' })
      .catch((e: unknown) => e);
    expect(failed).toBeInstanceOf(WaitFailedError);
    const response = await emu.client.opdb.dropDatabase({ environmentName: 'sales-env', databaseName: 'sdk-orders' });
    const drops = answered('dropDatabase');
    const dropped = await emu.client.opdb.wait.dropDatabase({ environmentName: 'sales-env', databaseName: 'sdk-orders' }, { response });
    expect(dropped.state).toBe('DELETE_COMPLETED');
    expect(answered('dropDatabase')).toBe(drops);
  });

  test('a paused clock holds the work where it is: the wait ends in a WaitTimeoutError, at once', async () => {
    emu.clock.pause();
    try {
      const started = Date.now();
      const err = await emu.client.opdb.wait
        .createDatabase({ environmentName: 'sales-env', databaseName: 'sdk-paused' }, { timeoutSeconds: 600 })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(WaitTimeoutError);
      expect(Date.now() - started).toBeLessThan(30_000);
      const db = await emu.client.opdb.describeDatabase({ environmentName: 'sales-env', databaseName: 'sdk-paused' });
      expect(db.databaseDetails?.status).not.toBe('AVAILABLE');
    } finally {
      emu.clock.resume();
    }
  });
});

describe('profiles and variables, resolved as the CLI resolves them', () => {
  const env = (): Record<string, string> => ({ HOME: home });

  test('a named profile, $CDP_PROFILE, and an unknown profile (UsageError, as the CLI exits 2)', async () => {
    await emu.writeProfile('sdk', env());
    const byOption = new CdpClient({ profile: 'sdk', env: env() });
    expect((await byOption.iam.getUser()).user.email).toBe('admin@example.com');
    const byVariable = new CdpClient({ env: { ...env(), CDP_PROFILE: 'sdk' } });
    expect((await byVariable.iam.getUser()).user.email).toBe('admin@example.com');
    byOption.close();
    byVariable.close();
    const unknown = await new CdpClient({ profile: 'nobody', env: env() }).iam.getUser().catch((e: unknown) => e);
    expect(unknown).toBeInstanceOf(CdpError);
    const cli = await runInProcess(['iam', 'users', 'get', '--profile', 'nobody'], { root: ROOT, env: env() });
    expect(cli?.code).toBe((unknown as CdpError).exitCode);
  });

  test('CDP_ACCESS_KEY_ID and CDP_PRIVATE_KEY sign when no profile is named, as in the CLI', async () => {
    await emu.writeProfile('default', env());
    const variables = { ...env(), CDP_ACCESS_KEY_ID: 'not-a-key', CDP_PRIVATE_KEY: emu.credentials.privateKey };
    const err = await new CdpClient({ env: variables }).iam.getUser().catch((e: unknown) => e);
    const cli = await runInProcess(['iam', 'users', 'get'], { root: ROOT, env: variables });
    expect(err).toBeInstanceOf(AuthError);
    expect(cli?.code).toBe(3);
    expect(cli?.stderr).toContain('not-a-key');
  });
});
