/**
 * The Data Warehouse as the API says it is (issue 28), driven through the
 * library's client against an emulator in this process on a paused clock,
 * the way automation polls describe itself: a deleted diagnostic job stays
 * visible as `Deleted` for a day of emulator time (DiagnosticDataJobStatus
 * has `Deleted` and the list's status filter takes it), a backup's delete
 * names its delete request with the CRN type CDP gives it, templates name
 * their entity as the response description does, and a loop polling
 * describe sees each documented state of an action in order.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import { refused } from '../../../../helpers/refused.js';

let emu: RunningEmulator;
let clusterId = '';
let dbcId = '';
let vwId = '';

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  const environmentCrn = (await emu.client.environments.describeEnvironment({ environmentName: 'sales-env' })).environment.crn;
  clusterId = (await emu.client.dw.createAwsCluster({ environmentCrn })).clusterId ?? '';
  emu.clock.advance('20m');
  dbcId = (await emu.client.dw.listDbcs({ clusterId })).dbcs?.[0]?.id ?? '';
  vwId = (await emu.client.dw.createVw({ clusterId, dbcId, vwType: 'hive', name: 'polled' })).vwId ?? '';
  emu.clock.advance('5m');
});

afterAll(async () => {
  await emu?.stop();
});

/** The three kinds of diagnostic job, each through its own operations. */
const kinds = [
  {
    kind: 'cluster',
    create: () => emu.client.dw.createClusterDiagnosticDataJob({ clusterId, destination: 'DOWNLOAD' }),
    describe: (jobId: string) => emu.client.dw.describeClusterDiagnosticDataJob({ clusterId, jobId }),
    list: (status?: 'Deleted' | 'Succeeded') => emu.client.dw.listClusterDiagnosticDataJobs({ clusterId, ...(status ? { status } : {}) }),
    remove: (jobId: string) => emu.client.dw.deleteClusterDiagnosticDataJob({ clusterId, jobId }),
  },
  {
    kind: 'dbc',
    create: () => emu.client.dw.createDbcDiagnosticDataJob({ clusterId, dbcId, destination: 'DOWNLOAD' }),
    describe: (jobId: string) => emu.client.dw.describeDbcDiagnosticDataJob({ clusterId, dbcId, jobId }),
    list: (status?: 'Deleted' | 'Succeeded') =>
      emu.client.dw.listDbcDiagnosticDataJobs({ clusterId, dbcId, ...(status ? { status } : {}) }),
    remove: (jobId: string) => emu.client.dw.deleteDbcDiagnosticDataJob({ clusterId, dbcId, jobId }),
  },
  {
    kind: 'vw',
    create: () => emu.client.dw.createVwDiagnosticDataJob({ clusterId, vwId, destination: 'DOWNLOAD' }),
    describe: (jobId: string) => emu.client.dw.describeVwDiagnosticDataJob({ clusterId, vwId, jobId }),
    list: (status?: 'Deleted' | 'Succeeded') => emu.client.dw.listVwDiagnosticDataJobs({ clusterId, vwId, ...(status ? { status } : {}) }),
    remove: (jobId: string) => emu.client.dw.deleteVwDiagnosticDataJob({ clusterId, vwId, jobId }),
  },
];

describe('a deleted diagnostic job', () => {
  test.each(kinds)(
    '$kind: describe answers it Deleted, lists show it (the status filter selects it), for 24 h; deleted even while Running',
    async (k) => {
      const done = (await k.create()).id ?? '';
      emu.clock.advance('3m');
      expect((await k.describe(done)).job?.status).toBe('Succeeded');
      const running = (await k.create()).id ?? '';
      expect((await k.describe(running)).job?.status).toBe('Starting');
      await k.remove(done);
      await k.remove(running);
      for (const id of [done, running]) expect((await k.describe(id)).job).toMatchObject({ jobId: id, status: 'Deleted' });
      // Listing is "a list of jobs along with their current status" (dw.yaml:92): the deleted ones are in it, as Deleted.
      expect((await k.list()).jobs?.map((j) => [j.jobId, j.status])).toEqual([
        [done, 'Deleted'],
        [running, 'Deleted'],
      ]);
      expect((await k.list('Deleted')).jobs?.map((j) => j.jobId)).toEqual([done, running]);
      expect((await k.list('Succeeded')).jobs).toEqual([]);
      // Deleting it again: it is already deleted.
      expect((await refused(k.remove(done))).code).toBe('NOT_FOUND');
      emu.clock.advance('23h');
      expect((await k.describe(done)).job?.status).toBe('Deleted');
      emu.clock.advance('1h');
      expect((await refused(k.describe(done))).code).toBe('NOT_FOUND');
      expect((await k.list()).jobs).toEqual([]);
    },
  );
});

describe('a diagnostic job of something named fail-...', () => {
  test('fails: the fail- rule reads the name of the warehouse it is of', async () => {
    const failing = (await emu.client.dw.createVw({ clusterId, dbcId, vwType: 'hive', name: 'fail-diag' })).vwId ?? '';
    emu.clock.advance('5m');
    const job = (await emu.client.dw.createVwDiagnosticDataJob({ clusterId, vwId: failing, destination: 'DOWNLOAD' })).id ?? '';
    const fine = (await emu.client.dw.createVwDiagnosticDataJob({ clusterId, vwId, destination: 'DOWNLOAD' })).id ?? '';
    emu.clock.advance('3m');
    expect((await emu.client.dw.describeVwDiagnosticDataJob({ clusterId, vwId: failing, jobId: job })).job?.status).toBe('Failed');
    expect((await emu.client.dw.describeVwDiagnosticDataJob({ clusterId, vwId, jobId: fine })).job?.status).toBe('Succeeded');
  });
});

describe('identifiers', () => {
  test("a backup's delete answers the CRN of its delete request with the type deleteBackupRequest (as CDP's CRN types write it)", async () => {
    const { backupCrn } = await emu.client.dw.createBackup({ backupName: 'nightly' });
    emu.clock.advance('5m');
    const { deleteBackupCrn } = await emu.client.dw.deleteBackup({ backupCrn });
    expect(deleteBackupCrn).toMatch(/^crn:cdp:dw:us-west-1:[^:]+:deleteBackupRequest:[0-9a-f-]{36}$/);
  });
});

describe('fixed values', () => {
  // The response names a template's entity "one of the following: Hive, Impala, Hue, DataViz" (dw.yaml:6776); the request
  // lists "impala, hive, trino, hue, dbc, viz" (dw.yaml:6496): a request may name it either way.
  test('a resource template answers its entityType as the response description writes it, whichever way the request named it', async () => {
    const shown = async (templateId: string): Promise<string | undefined> =>
      (await emu.client.dw.listResourceTemplates({})).templates?.find((t) => t.id === templateId)?.entityType;
    const resources = { 'hue-backend': { cpu: 1, memory: '2Gi' } };
    const lower = (await emu.client.dw.createResourceTemplate({ name: 'hue-small', entityType: 'hue', resources })).templateId ?? '';
    const upper = (await emu.client.dw.createResourceTemplate({ name: 'hue-tiny', entityType: 'Hue', resources })).templateId ?? '';
    const viz = { viz: { cpu: 1, memory: '2Gi' } };
    const dataViz =
      (await emu.client.dw.createResourceTemplate({ name: 'viz-small', entityType: 'DataViz', resources: viz })).templateId ?? '';
    const short = (await emu.client.dw.createResourceTemplate({ name: 'viz-tiny', entityType: 'viz', resources: viz })).templateId ?? '';
    expect([await shown(lower), await shown(upper), await shown(dataViz), await shown(short)]).toEqual([
      'Hue',
      'Hue',
      'DataViz',
      'DataViz',
    ]);
    const builtIn = new Set((await emu.client.dw.listResourceTemplates({})).templates?.map((t) => t.entityType));
    expect([...builtIn].sort()).toEqual(['DataViz', 'Dbc', 'Hive', 'Hue', 'Impala', 'Trino']);
    const unknown = await refused(emu.client.dw.createResourceTemplate({ name: 'x', entityType: 'spark', resources }));
    expect([unknown.code, unknown.message]).toEqual([
      'INVALID_ARGUMENT',
      '--entity-type must be one of impala, hive, trino, hue, dbc, viz (or as answers name them: Impala, Hive, Trino, Hue, Dbc, DataViz)',
    ]);
    // A Data Visualization sized by a template made with DataViz finds it.
    const made = await emu.client.dw.createDataVisualization({ clusterId, name: 'dash', config: {}, resourceTemplate: 'viz-small' });
    expect(made.dataVisualizationId).toEqual(expect.any(String));
  });
});

/** The states a describe loop sees, reading every 15 s of emulator time until `done` (or 30 min). */
async function polled(read: () => Promise<string | undefined>, done: (state: string | undefined) => boolean): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i <= 120; i++) {
    const state = await read();
    if (seen.at(-1) !== state) seen.push(String(state));
    if (done(state)) break;
    emu.clock.advance('15s');
  }
  return seen;
}

describe('polling describe', () => {
  // Status values: "... Upgrading, PreUpgrade ..." (dw.yaml:4808); PreUpgrade comes first, as the Terraform provider waits.
  test('a Data Visualization upgrade is PreUpgrade, then Upgrading, then Running', async () => {
    const dataVisualizationId =
      (await emu.client.dw.createDataVisualization({ clusterId, name: 'upgraded', config: {}, imageVersion: '7.1.9-b12' }))
        .dataVisualizationId ?? '';
    emu.clock.advance('5m');
    const status = async (): Promise<string | undefined> =>
      (await emu.client.dw.describeDataVisualization({ clusterId, dataVisualizationId })).dataVisualization?.status;
    expect(await status()).toBe('Running');
    await emu.client.dw.upgradeDataVisualization({ clusterId, dataVisualizationId, imageVersion: '7.2.2-b31' });
    expect(await polled(status, (s) => s === 'Running')).toEqual(['PreUpgrade', 'Upgrading', 'Running']);
  });
});
