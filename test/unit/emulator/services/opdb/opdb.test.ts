/**
 * The emulator's operational database service (opdb, COD), driven through
 * the library's client against an emulator in this process, on a paused
 * clock the tests move: a database's lifecycle (create, stop, start,
 * update, upgrade, drop) in the states of its StatusType, the fail- rule,
 * names unique per environment, snapshots unique per database and
 * restored only into an AVAILABLE database, a drop refused while a
 * database holds snapshots, restores or diagnostics (and taking them with
 * it when forced), and the answers computed from a database (client
 * connectivity, the runtimes an upgrade can go to, the environments the
 * service runs in).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import type { opdb } from '../../../../../src/lib/sdk/index.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
});

afterAll(async () => {
  await emu?.stop();
});

const at = (environmentName: string, databaseName: string) => ({ environmentName, databaseName });
const status = async (environmentName: string, databaseName: string): Promise<string | undefined> =>
  (await emu.client.opdb.describeDatabase(at(environmentName, databaseName))).databaseDetails?.status;
/** A database made and left to become AVAILABLE (its create takes five emulated minutes). */
async function available(environmentName: string, databaseName: string): Promise<void> {
  await emu.client.opdb.createDatabase(at(environmentName, databaseName));
  emu.clock.advance('5m');
  expect(await status(environmentName, databaseName)).toBe('AVAILABLE');
}

describe('a database', () => {
  test('is created in its environment, REQUESTED, then CREATE_IN_PROGRESS until five minutes have passed, then AVAILABLE; what it shows is made from its name and environment', async () => {
    const made = await emu.client.opdb.createDatabase(at('sales-env', 'orders'));
    expect(made.databaseDetails).toMatchObject({
      databaseName: 'orders',
      environmentName: 'sales-env',
      status: 'REQUESTED',
      dbVersion: '7.2.18',
      storageLocation: 's3a://sales-env-cod/orders',
      hueEndpoint: 'https://orders-gateway.sales-env.cod.emulator.invalid/orders/cdp-proxy/hue/',
      crn: expect.stringMatching(/^crn:cdp:opdb:us-west-1:[^:]+:database:[0-9a-f-]{36}$/),
    });
    const env = await emu.client.environments.describeEnvironment({ environmentName: 'sales-env' });
    expect(made.databaseDetails?.environmentCrn).toBe(env.environment.crn);
    emu.clock.advance('30s');
    expect(await status('sales-env', 'orders')).toBe('CREATE_IN_PROGRESS');
    emu.clock.advance('3m30s');
    expect(await status('sales-env', 'orders')).toBe('CREATE_IN_PROGRESS');
    emu.clock.advance('1m');
    expect(await status('sales-env', 'orders')).toBe('AVAILABLE');
  });

  test('names are unique in an environment (ALREADY_EXISTS, 409), not across environments', async () => {
    const again = await refused(emu.client.opdb.createDatabase(at('sales-env', 'orders')));
    expect([again.code, again.status]).toEqual(['ALREADY_EXISTS', 409]);
    expect(again.message).toBe('database orders already exists in environment sales-env');
    const elsewhere = await emu.client.opdb.createDatabase(at('ops-env', 'orders'));
    expect(elsewhere.databaseDetails?.environmentName).toBe('ops-env');
  });

  test('an unknown database or environment is NOT_FOUND (404), naming what is missing', async () => {
    const db = await refused(emu.client.opdb.describeDatabase(at('sales-env', 'nothing')));
    expect([db.code, db.status, db.message]).toEqual(['NOT_FOUND', 404, 'database nothing not found in environment sales-env']);
    const env = await refused(emu.client.opdb.describeDatabase(at('no-such-env', 'orders')));
    expect([env.code, env.status]).toEqual(['NOT_FOUND', 404]);
    expect(env.message).toMatch(/^environment no-such-env not found; this account has sales-env, /);
  });

  test('listings show the databases of one environment, or of every environment', async () => {
    const inSales = await emu.client.opdb.listDatabases({ environmentName: 'sales-env' });
    expect(inSales.databases.map((d) => d.databaseName)).toEqual(['orders']);
    const everywhere = await emu.client.opdb.listDatabases({});
    expect(everywhere.databases.map((d) => `${d.databaseName}@${d.environmentName}`).sort()).toEqual([
      'orders@ops-env',
      'orders@sales-env',
    ]);
  });

  test('stop and start: STOP_REQUESTED then STOPPED; a second stop is refused while the first runs; start only from STOPPED', async () => {
    const startRunning = await refused(emu.client.opdb.startDatabase(at('sales-env', 'orders')));
    expect([startRunning.code, startRunning.status]).toEqual(['FAILED_PRECONDITION', 409]);
    const stopped = await emu.client.opdb.stopDatabase(at('sales-env', 'orders'));
    expect(stopped).toEqual({ wasStopped: true, previousStatus: 'AVAILABLE' });
    expect(await status('sales-env', 'orders')).toBe('STOP_REQUESTED');
    const twice = await refused(emu.client.opdb.stopDatabase(at('sales-env', 'orders')));
    expect([twice.code, twice.message]).toEqual([
      'FAILED_PRECONDITION',
      'database orders is STOP_REQUESTED; stop needs it AVAILABLE or STOP_FAILED',
    ]);
    emu.clock.advance('3m');
    expect(await status('sales-env', 'orders')).toBe('STOPPED');
    const started = await emu.client.opdb.startDatabase(at('sales-env', 'orders'));
    expect(started).toEqual({ wasStarted: true, previousStatus: 'STOPPED' });
    expect(await status('sales-env', 'orders')).toBe('START_REQUESTED');
    emu.clock.advance('3m');
    expect(await status('sales-env', 'orders')).toBe('AVAILABLE');
  });

  test('an update passes through UPDATE_REQUESTED, then UPDATE_IN_PROGRESS (the order a client polling it sees), and ends AVAILABLE', async () => {
    const update = await emu.client.opdb.updateDatabase({ ...at('sales-env', 'orders'), numDesiredRestworkerNodes: 2 });
    expect(update.status).toBe('UPDATE_REQUESTED');
    emu.clock.advance('1m30s');
    expect(await status('sales-env', 'orders')).toBe('UPDATE_IN_PROGRESS');
    emu.clock.advance('1m30s');
    expect(await status('sales-env', 'orders')).toBe('AVAILABLE');
  });
});

describe('the fail- rule', () => {
  test('a database named fail-... fails its create (CREATE_FAILED)', async () => {
    await emu.client.opdb.createDatabase(at('staging-aws', 'fail-db'));
    emu.clock.advance('5m');
    expect(await status('staging-aws', 'fail-db')).toBe('CREATE_FAILED');
  });

  test('fail-stop-... fails only its first stop (STOP_FAILED); the stop tried again succeeds', async () => {
    await available('staging-aws', 'fail-stop-db');
    await emu.client.opdb.stopDatabase(at('staging-aws', 'fail-stop-db'));
    emu.clock.advance('3m');
    expect(await status('staging-aws', 'fail-stop-db')).toBe('STOP_FAILED');
    expect(await emu.client.opdb.stopDatabase(at('staging-aws', 'fail-stop-db'))).toEqual({
      wasStopped: true,
      previousStatus: 'STOP_FAILED',
    });
    emu.clock.advance('3m');
    expect(await status('staging-aws', 'fail-stop-db')).toBe('STOPPED');
  });
});

describe('upgrades', () => {
  test('describeUpgradeDatabase computes the runtimes newer than the one the database runs', async () => {
    const up = await emu.client.opdb.describeUpgradeDatabase({ environment: 'sales-env', database: 'orders' });
    expect(up).toMatchObject({
      isRuntimeUpgradeAvailable: true,
      isOSUpgradeAvailable: true,
      statusReason: 'runtime 7.3.1 available',
      currentComponentVersion: { cdp: '7.2.18' },
    });
    expect(up.availableComponentVersions?.map((v) => v.cdp)).toEqual(['7.3.1']);
  });

  test('prepare checks the runtime asked for; upgrade refuses an older runtime, goes to the newest, then has nothing newer', async () => {
    const unknown = await refused(emu.client.opdb.prepareUpgradeDatabase({ environment: 'sales-env', database: 'orders', runtime: '9.9' }));
    expect([unknown.code, unknown.message]).toEqual([
      'FAILED_PRECONDITION',
      'runtime 9.9 is not available; available: 7.2.17, 7.2.18, 7.3.1',
    ]);
    const ready = await emu.client.opdb.prepareUpgradeDatabase({ environment: 'sales-env', database: 'orders', runtime: '7.3.1' });
    expect(ready.statusReason).toBe('the database is ready to upgrade to 7.3.1');
    const back = await refused(emu.client.opdb.upgradeDatabase({ environment: 'sales-env', database: 'orders', runtime: '7.2.17' }));
    expect([back.code, back.message]).toEqual(['FAILED_PRECONDITION', 'runtime 7.2.17 is not newer than 7.2.18; available: 7.3.1']);
    await emu.client.opdb.upgradeDatabase({ environment: 'sales-env', database: 'orders' });
    expect(await status('sales-env', 'orders')).toBe('UPDATE_REQUESTED');
    emu.clock.advance('30s');
    expect(await status('sales-env', 'orders')).toBe('UPDATE_IN_PROGRESS');
    const busy = await refused(emu.client.opdb.upgradeDatabase({ environment: 'sales-env', database: 'orders', osUpgradeOnly: true }));
    expect([busy.code, busy.message]).toEqual([
      'FAILED_PRECONDITION',
      'database orders is UPDATE_IN_PROGRESS; an upgrade needs it AVAILABLE',
    ]);
    emu.clock.advance('2m30s');
    const after = await emu.client.opdb.describeDatabase(at('sales-env', 'orders'));
    expect(after.databaseDetails).toMatchObject({ status: 'AVAILABLE', dbVersion: '7.3.1' });
    const newest = await refused(emu.client.opdb.upgradeDatabase({ environment: 'sales-env', database: 'orders' }));
    expect(newest.message).toBe('database orders already runs the newest runtime 7.3.1');
    const none = await emu.client.opdb.describeUpgradeDatabase({ environment: 'sales-env', database: 'orders' });
    expect(none).toMatchObject({ isRuntimeUpgradeAvailable: false, availableComponentVersions: [] });
  });
});

describe('snapshots and restores', () => {
  const snapshot = (snapshotName: string, tableName = 'sales.orders'): opdb.CreateSnapshotRequest => ({
    ...at('sales-env', 'orders'),
    snapshotName,
    tableName,
    snapshotLocation: 's3a://backups/orders',
  });

  test('a snapshot of a table is NEW, then IN_PROGRESS, then SUCCESSFUL; its name is unique per database; listings filter by table', async () => {
    const made = await emu.client.opdb.createSnapshot(snapshot('nightly'));
    expect(made).toMatchObject({ environmentName: 'sales-env', databaseName: 'orders', status: 'NEW' });
    emu.clock.advance('5m');
    const listed = await emu.client.opdb.listSnapshots({ ...at('sales-env', 'orders'), tableName: 'sales.orders' });
    expect(listed.snapshots).toEqual([
      expect.objectContaining({ snapshotName: 'nightly', tableName: 'sales.orders', status: 'SUCCESSFUL' }),
    ]);
    const other = await emu.client.opdb.listSnapshots({ ...at('sales-env', 'orders'), tableName: 'sales.refunds' });
    expect(other.snapshots).toEqual([]);
    const dup = await refused(emu.client.opdb.createSnapshot(snapshot('nightly', 'sales.refunds')));
    expect([dup.code, dup.status, dup.message]).toEqual(['ALREADY_EXISTS', 409, 'snapshot nightly already exists in database orders']);
  });

  test('a snapshot needs its database AVAILABLE', async () => {
    await emu.client.opdb.createDatabase(at('ops-env', 'target'));
    const creating = await refused(
      emu.client.opdb.createSnapshot({ ...at('ops-env', 'target'), snapshotName: 's', tableName: 't', snapshotLocation: 's3a://b/s' }),
    );
    expect([creating.code, creating.message]).toEqual([
      'FAILED_PRECONDITION',
      'database target is REQUESTED; a snapshot needs it AVAILABLE',
    ]);
  });

  test('a restore takes a snapshot into an AVAILABLE database of any environment, numbered, and is listed with the source', async () => {
    const into = { ...at('sales-env', 'orders'), snapshotName: 'nightly', targetEnvironmentName: 'ops-env', targetDatabaseName: 'target' };
    const early = await refused(emu.client.opdb.restoreSnapshot(into));
    expect(early.message).toBe('database target is REQUESTED; a restore into it needs it AVAILABLE');
    emu.clock.advance('5m');
    const missing = await refused(emu.client.opdb.restoreSnapshot({ ...into, snapshotName: 'weekly' }));
    expect([missing.code, missing.message]).toEqual(['NOT_FOUND', 'snapshot weekly not found in database orders']);
    const restore = await emu.client.opdb.restoreSnapshot(into);
    expect(restore).toMatchObject({ snapshotName: 'nightly', targetDatabaseName: 'target', status: 'IN_PROGRESS', commandID: 1 });
    emu.clock.advance('5m');
    const listed = await emu.client.opdb.listRestoreSnapshots(at('sales-env', 'orders'));
    expect(listed.restoreSnapshots).toEqual([
      expect.objectContaining({ restoreId: 1, snapshotName: 'nightly', targetEnvironmentName: 'ops-env', status: 'SUCCESSFUL' }),
    ]);
  });

  test('diagnostics are collected IN_PROGRESS, then FINISHED', async () => {
    const made = await emu.client.opdb.collectDiagnostics({ ...at('sales-env', 'orders'), endTime: '2026-01-01T00:00:00Z' });
    expect(made.diagnosticsBundle).toMatchObject({ status: 'IN_PROGRESS', endTime: '2026-01-01T00:00:00Z' });
    emu.clock.advance('3m');
    const listed = await emu.client.opdb.listDiagnostics(at('sales-env', 'orders'));
    expect(listed.diagnosticsBundles?.map((d) => d.status)).toEqual(['FINISHED']);
  });

  test('a drop is refused while the database holds snapshots, restores or diagnostics; with force it takes them along', async () => {
    const held = await refused(emu.client.opdb.dropDatabase(at('sales-env', 'orders')));
    expect([held.code, held.status]).toEqual(['FAILED_PRECONDITION', 409]);
    expect(held.message).toMatch(
      /^database orders still has snapshot nightly, restore 1, diagnostics [0-9a-f-]{36}; delete them first, or delete with force$/,
    );
    const dropped = await emu.client.opdb.dropDatabase({ ...at('sales-env', 'orders'), force: true });
    expect(dropped.status).toBe('PRE_DELETE_IN_PROGRESS');
    const twice = await refused(emu.client.opdb.dropDatabase({ ...at('sales-env', 'orders'), force: true }));
    expect(twice.message).toBe('database orders is already being deleted');
    const snapshots = await emu.client.opdb.listSnapshots(at('sales-env', 'orders'));
    expect(snapshots.snapshots).toEqual([]);
  });

  // "DELETED - A snapshot existed but was just deleted. DELETING - A snapshot is being deleted." (opdb.yaml:973)
  test('a deleted snapshot is DELETING, then DELETED and still listed for an hour; its name is free again', async () => {
    const target = at('ops-env', 'target');
    const one = { ...target, snapshotName: 'one', tableName: 't', snapshotLocation: 's3a://b/s' };
    await emu.client.opdb.createSnapshot(one);
    emu.clock.advance('5m');
    const deleted = await emu.client.opdb.deleteSnapshot({ ...target, snapshotName: 'one' });
    expect(deleted).toMatchObject({ snapshotName: 'one', status: 'DELETING' });
    const statuses = async (): Promise<Array<[string | undefined, string | undefined]>> =>
      ((await emu.client.opdb.listSnapshots(target)).snapshots ?? []).map((x) => [x.snapshotName, x.status]);
    expect(await statuses()).toEqual([['one', 'DELETING']]);
    emu.clock.advance('2m');
    expect(await statuses()).toEqual([['one', 'DELETED']]);
    const again = await refused(emu.client.opdb.deleteSnapshot({ ...target, snapshotName: 'one' }));
    expect(again.code).toBe('NOT_FOUND');
    await emu.client.opdb.createSnapshot(one);
    emu.clock.advance('5m');
    expect(await statuses()).toEqual([
      ['one', 'DELETED'],
      ['one', 'SUCCESSFUL'],
    ]);
    // An hour from when the delete ended (two minutes after it began).
    emu.clock.advance('54m');
    expect(await statuses()).toEqual([
      ['one', 'DELETED'],
      ['one', 'SUCCESSFUL'],
    ]);
    emu.clock.advance('1m');
    expect(await statuses()).toEqual([['one', 'SUCCESSFUL']]);
  });

  test('a deleted snapshot, still listed, does not hold its database up: the drop needs no force for it', async () => {
    const db = at('staging-aws', 'kept-snapshots');
    await available('staging-aws', 'kept-snapshots');
    await emu.client.opdb.createSnapshot({ ...db, snapshotName: 'gone', tableName: 't', snapshotLocation: 's3a://b/g' });
    emu.clock.advance('5m');
    await emu.client.opdb.deleteSnapshot({ ...db, snapshotName: 'gone' });
    emu.clock.advance('2m');
    expect((await emu.client.opdb.listSnapshots(db)).snapshots?.map((x) => x.status)).toEqual(['DELETED']);
    expect((await emu.client.opdb.dropDatabase(db)).status).toBe('PRE_DELETE_IN_PROGRESS');
  });

  test('nor does a snapshot being deleted; a live one still does', async () => {
    const db = at('staging-aws', 'going-snapshots');
    await available('staging-aws', 'going-snapshots');
    for (const snapshotName of ['going', 'staying'])
      await emu.client.opdb.createSnapshot({ ...db, snapshotName, tableName: 't', snapshotLocation: `s3a://b/${snapshotName}` });
    emu.clock.advance('5m');
    await emu.client.opdb.deleteSnapshot({ ...db, snapshotName: 'going' });
    await expect(emu.client.opdb.dropDatabase(db)).rejects.toThrow(/still has snapshot staying; delete them first/);
    await emu.client.opdb.deleteSnapshot({ ...db, snapshotName: 'staying' });
    expect((await emu.client.opdb.listSnapshots(db)).snapshots?.map((x) => x.status)).not.toContain('DELETED');
    expect((await emu.client.opdb.dropDatabase(db)).status).toBe('PRE_DELETE_IN_PROGRESS');
  });
});

describe('computed answers', () => {
  test('client connectivity: HBase, Phoenix and REST through the gateway its name and environment give, and its Kerberos realm', async () => {
    const conn = await emu.client.opdb.describeClientConnectivity(at('ops-env', 'target'));
    expect(conn.connectors?.map((c) => [c.name, c.kind, c.requiresKerberos])).toEqual([
      ['hbase', 'LIBRARY', true],
      ['phoenix-thin-jdbc', 'JDBC', false],
      ['hbase-rest', 'SERVICE', false],
    ]);
    expect(conn.connectors?.[1]?.configuration?.jdbcUrl).toBe(
      'jdbc:phoenix:thin:url=https://target-gateway.ops-env.cod.emulator.invalid/target/cdp-proxy-api/avatica/;serialization=PROTOBUF;authentication=BASIC',
    );
    expect(conn.kerberosConfiguration).toMatchObject({
      realm: 'OPSENV.EMULATOR.INVALID',
      kdcHost: 'ipa.target-gateway.ops-env.cod.emulator.invalid',
    });
  });

  test('a database made without Kerberos shows no realm and no connector requires it', async () => {
    await emu.client.opdb.createDatabase({ ...at('ops-env', 'plain'), disableKerberos: true });
    const conn = await emu.client.opdb.describeClientConnectivity(at('ops-env', 'plain'));
    expect(conn.kerberosConfiguration).toBeUndefined();
    expect(conn.connectors?.every((c) => c.requiresKerberos === false)).toBe(true);
  });

  test('the supported environments are the AVAILABLE ones not on GCP', async () => {
    const supported = await emu.client.opdb.listSupportedEnvironments({});
    const names = supported.environments?.map((e) => e.name) ?? [];
    expect(names).toContain('sales-env');
    expect(names).toContain('ops-env');
    expect(names).not.toContain('ml-env');
  });
});

/** The states a describe loop sees, reading every 15 s of emulator time until `done` (or 30 min); NOT_FOUND when it is gone. */
async function polled(read: () => Promise<string | undefined>, done: (state: string) => boolean): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i <= 120; i++) {
    const state = await read().catch((e: unknown) => {
      if ((e as { code?: string }).code === 'NOT_FOUND') return 'NOT_FOUND';
      throw e;
    });
    if (seen.at(-1) !== state) seen.push(String(state));
    if (done(String(state))) break;
    emu.clock.advance('15s');
  }
  return seen;
}

// The order StatusType (opdb.yaml:824) and SnapshotStatusType (opdb.yaml:971) name them in, a request before its progress.
describe('a loop polling describe, as automation does', () => {
  const db = at('staging-aws', 'polled');
  const dbStatus = (): Promise<string | undefined> => status('staging-aws', 'polled');

  test('sees a create REQUESTED, then CREATE_IN_PROGRESS, then AVAILABLE', async () => {
    await emu.client.opdb.createDatabase(db);
    expect(await polled(dbStatus, (s) => s === 'AVAILABLE')).toEqual(['REQUESTED', 'CREATE_IN_PROGRESS', 'AVAILABLE']);
  });

  test('sees a snapshot NEW, then IN_PROGRESS, then SUCCESSFUL', async () => {
    await emu.client.opdb.createSnapshot({ ...db, snapshotName: 'polled', tableName: 't', snapshotLocation: 's3a://b/p' });
    const snapshotStatus = async (): Promise<string | undefined> => (await emu.client.opdb.listSnapshots(db)).snapshots?.[0]?.status;
    expect(await polled(snapshotStatus, (s) => s === 'SUCCESSFUL')).toEqual(['NEW', 'IN_PROGRESS', 'SUCCESSFUL']);
  });

  test('sees an upgrade UPDATE_REQUESTED, then UPDATE_IN_PROGRESS, then AVAILABLE', async () => {
    await emu.client.opdb.upgradeDatabase({ environment: 'staging-aws', database: 'polled' });
    expect(await polled(dbStatus, (s) => s === 'AVAILABLE')).toEqual(['UPDATE_REQUESTED', 'UPDATE_IN_PROGRESS', 'AVAILABLE']);
  });

  test('sees a drop PRE_DELETE_IN_PROGRESS, then DELETE_IN_PROGRESS, then the database is gone', async () => {
    await emu.client.opdb.dropDatabase({ ...db, force: true });
    expect(await polled(dbStatus, (s) => s === 'NOT_FOUND')).toEqual(['PRE_DELETE_IN_PROGRESS', 'DELETE_IN_PROGRESS', 'NOT_FOUND']);
  });
});

describe('waiting through the library', () => {
  test('wait.createDatabase moves the clock until the database is AVAILABLE', async () => {
    emu.clock.resume();
    try {
      const done = await emu.client.opdb.wait.createDatabase(at('lakehouse-aws', 'waited'));
      expect(done.state).toBe('AVAILABLE');
    } finally {
      emu.clock.pause();
    }
  });
});
