/**
 * The lakehouse optimizer of the emulator in-process (no HTTP): tasks on the
 * clock and the table statuses they drive, environments paging, policy
 * versions, and the resourceScope rule.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import { ApiError } from '../../../../../src/lib/emulator/errors.js';
import { PRE_CREATED } from '../../../../../src/lib/emulator/shared/pre-created.js';
import { Store } from '../../../../../src/lib/emulator/store.js';
import { validateRequest } from '../../../../../src/lib/core/validate.js';
import { loadService } from '../../../../../src/lib/model/index.js';
import { operations } from '../../../../../src/lib/model/services/lakehouse/wire.js';
import type { Caller, Doc } from '../../../../../src/lib/emulator/types.js';
import { clockAt, refusal, serviceCaller } from '../../../../helpers/emulator-unit.js';

const ACCOUNT = 'acct-1';
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const caller: Caller = { accountId: ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin`, kind: 'user' };

let store: Store;
let now: number;
let hub: string;
const clock = clockAt(() => now);

const lakehouse = await serviceCaller('lakehouseopt', () => ({ store, clock, caller, info }));

const call = (op: string, req: Doc = {}): Doc => lakehouse.call(op, req);

const fails = (op: string, req: Doc): ApiError => refusal(() => call(op, req), op);

const TABLE = (): Doc => ({ datahubCrn: hub, namespace: 'sales', tableName: 'orders' });
const statusOf = (table = 'orders'): unknown =>
  (call('listTables', { datahubCrn: hub, namespace: 'sales' }).tables as Doc[]).find((t) => t.tableName === table)?.status;

beforeEach(() => {
  store = new Store(':memory:', ACCOUNT);
  now = Date.parse('2026-01-01T00:00:00Z');
  const envs = call('listEnvironments', { pageToken: 'ALL' }).environments as Doc[];
  hub = String(envs.find((e) => e.isCloEnabled)?.datahubCrn);
  call('createPolicy', { datahubCrn: hub, policyName: 'p1', resources: { script: 'compaction', arguments: '{"a":1}' } });
  call('createTablePoliciesAssociations', { ...TABLE(), policies: ['p1'] });
});

describe('lakehouseopt emulator backend', () => {
  test('implements every wire operation', () => {
    expect(Object.keys(operations).filter((op) => !lakehouse.serves(op))).toEqual([]);
    expect(Object.keys(operations)).toHaveLength(30);
  });

  test('environments page by pageToken; ALL returns every one', () => {
    // The optimizer's environments are the account's AWS and Azure ones.
    const total = PRE_CREATED.filter((e) => e.platform !== 'GCP').length;
    const first = call('listEnvironments', { pageSize: total - 1 });
    expect((first.environments as unknown[]).length).toBe(total - 1);
    expect(first.totalEnvironments).toBe(total);
    const rest = call('listEnvironments', { pageSize: total - 1, pageToken: first.nextPageToken });
    expect((rest.environments as unknown[]).length).toBe(1);
    expect(rest.nextPageToken).toBeUndefined();
    expect((call('listEnvironments', { pageSize: 1, pageToken: 'ALL' }).environments as unknown[]).length).toBe(total);
  });

  test('an environment without the optimizer answers null hub fields; an unknown one is NOT_FOUND', () => {
    const off = (call('listEnvironments', { pageToken: 'ALL' }).environments as Doc[]).find((e) => !e.isCloEnabled);
    expect(off).toMatchObject({ datahubName: null, datahubCrn: null, status: null });
    expect(call('getCloDatahub', { environmentCrn: off?.environmentCrn })).toEqual({
      environmentName: off?.environmentName,
      environmentCrn: off?.environmentCrn,
      datahubName: null,
      datahubCrn: null,
      cloudPlatform: off?.cloudPlatform,
      status: null,
    });
    expect(call('getDatahubCrn', { environmentCrn: off?.environmentCrn })).toEqual({ datahubCrn: null });
    expect(fails('getCloDatahub', { environmentCrn: `crn:cdp:environments:us-west-1:${ACCOUNT}:environment:nope` }).code).toBe('NOT_FOUND');
  });

  test('a task goes INIT -> SUBMITTED -> COMPLETED; the table turns SUCCESS, then UNAVAILABLE', () => {
    expect(statusOf()).toBe('UNAVAILABLE');
    const dry = call('executePolicy', { ...TABLE(), policyName: 'p1' });
    expect(Object.keys(dry)).toEqual(['dryRunResult']);
    const { executionResult } = call('executePolicy', { ...TABLE(), policyName: 'p1', dryRun: false }) as { executionResult: Doc };
    const task = (): Doc | undefined =>
      (call('listTasks', { datahubCrn: hub, pageSize: 10 }).tasks as Doc[]).find((t) => t.taskId === executionResult.taskId);
    expect(task()?.status).toBe('INIT');
    now += 60_000;
    expect(task()?.status).toBe('SUBMITTED');
    now += 5 * 60_000;
    expect(task()?.status).toBe('COMPLETED');
    expect(statusOf()).toBe('SUCCESS');
    now += 2 * 86_400_000;
    expect(statusOf()).toBe('UNAVAILABLE');
  });

  test('tasks page newest first with nextPageToken', () => {
    for (let i = 0; i < 3; i++) {
      call('executePolicy', { ...TABLE(), policyName: 'p1', dryRun: false });
      now += 1000;
    }
    const first = call('listTasks', { datahubCrn: hub, pageSize: 2 });
    const items = first.tasks as Doc[];
    expect(items).toHaveLength(2);
    expect(Number(items[0]?.createdAt)).toBeGreaterThan(Number(items[1]?.createdAt));
    const rest = call('listTasks', { datahubCrn: hub, pageSize: 2, pageToken: first.nextPageToken });
    expect((rest.tasks as unknown[]).length).toBe(1);
    expect(rest.nextPageToken).toBeUndefined();
  });

  test('an unknown policy is NOT_FOUND and a taken name ALREADY_EXISTS, in the same words from every operation', () => {
    for (const op of ['getPolicy', 'downloadPolicy', 'getAssociations', 'updatePolicy', 'createAssociations'])
      expect(fails(op, { datahubCrn: hub, policyName: 'nope', resources: { script: 'x' }, associations: [] }).message).toBe(
        'policy nope not found',
      );
    expect(fails('createPolicy', { datahubCrn: hub, policyName: 'P1', resources: { script: 'x' } }).message).toBe(
      'policy P1 already exists',
    );
  });

  test('pause and unpause', () => {
    call('pauseTable', TABLE());
    expect(statusOf()).toBe('PAUSED');
    expect(fails('executePolicy', { ...TABLE(), policyName: 'p1', dryRun: false }).code).toBe('FAILED_PRECONDITION');
    expect(Object.keys(call('executePolicy', { ...TABLE(), policyName: 'p1' }))).toEqual(['dryRunResult']);
    const since = (call('getTableStatusDetails', TABLE()).pausedTable as { details: Doc }).details.pausedSince;
    now += 60_000;
    expect(call('pauseTable', TABLE())).toEqual({});
    expect((call('getTableStatusDetails', TABLE()).pausedTable as { details: Doc }).details.pausedSince).toBe(since);
    call('unpauseTable', TABLE());
    expect(statusOf()).toBe('UNAVAILABLE');
    expect(fails('unpauseTable', TABLE()).code).toBe('FAILED_PRECONDITION');
  });

  test('versions, namespace-wide associations and delete by scope', () => {
    call('updatePolicy', { datahubCrn: hub, policyName: 'p1', resources: { arguments: '{"a":2}' } });
    const p = call('getPolicy', { datahubCrn: hub, policyName: 'p1' });
    expect((p.versions as string[]).length).toBe(2);
    expect(fails('createPolicy', { datahubCrn: hub, policyName: 'bad', resources: { script: 'x', arguments: 'not json' } }).code).toBe(
      'INVALID_ARGUMENT',
    );
    call('createAssociations', { datahubCrn: hub, policyName: 'p1', associations: [{ namespace: 'finance' }] });
    const tables = call('getAssociatedTables', { datahubCrn: hub, policyName: 'p1' }).associatedTables as Array<{
      namespace: string;
      tables: Doc[];
    }>;
    expect(tables.find((t) => t.namespace === 'finance')?.tables.every((t) => t.isAssociated)).toBe(true);
    expect((call('getAssociationDetails', { datahubCrn: hub }).starAssociation as unknown[]).length).toBe(1);
    // The policy still covers finance: the table loses it, no version is deleted.
    expect(call('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'spark_catalog.sales.orders' }).deletedPolicies).toBe(
      0,
    );
    expect((call('getPolicy', { datahubCrn: hub, policyName: 'p1' }).versions as string[]).length).toBe(2);
    expect(fails('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'spark_catalog.finance.ledger' }).message).toContain(
      'namespace finance',
    );
    expect(fails('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'other.sales.orders' }).code).toBe('NOT_FOUND');
    expect(call('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'spark_catalog.*' }).deletedPolicies).toBe(2);
    expect(call('listPolicies', { datahubCrn: hub }).policies).toEqual([]);
  });

  test('REMOVEALL and REPLACEALL refuse to leave a table with a policy of its namespace; APPEND is fine', () => {
    call('createPolicy', { datahubCrn: hub, policyName: 'wide', resources: { script: 'compaction' } });
    call('createAssociations', { datahubCrn: hub, policyName: 'wide', associations: [{ namespace: 'sales' }] });
    const e = fails('changeTablePolicy', { ...TABLE(), operation: 'REMOVEALL' });
    expect(e.code).toBe('FAILED_PRECONDITION');
    expect(e.message).toContain('namespace sales');
    expect(fails('changeTablePolicy', { ...TABLE(), operation: 'REPLACEALL', policies: ['p1'] }).code).toBe('FAILED_PRECONDITION');
    // Nothing changed: the request was refused as a whole.
    expect((call('getTablePolicies', TABLE()).policies as Doc[]).map((p) => p.policyName)).toEqual(['p1', 'wide']);
    call('changeTablePolicy', { ...TABLE(), operation: 'REPLACEALL', policies: ['wide'] });
    expect((call('getTablePolicies', TABLE()).policies as Doc[]).map((p) => p.policyName)).toEqual(['wide']);
  });
});

describe('scheduled policies', () => {
  const MIN = 60_000;
  const scheduled = (): Doc[] => (call('listTasks', { datahubCrn: hub, pageSize: 100 }).tasks as Doc[]).filter((t) => t.policy === 'sched');
  const create = (args: Doc): Doc =>
    call('createPolicy', { datahubCrn: hub, policyName: 'sched', resources: { script: 'compaction', arguments: JSON.stringify(args) } });

  test('runs on the clock, one task per covered table at every fire; a paused table is skipped', () => {
    create({ schedule: '*/5 * * * *', timezone: 'UTC' });
    call('createTablePoliciesAssociations', { ...TABLE(), policies: ['sched'] });
    now += 17 * MIN;
    const times = scheduled()
      .map((t) => Number(t.createdAt))
      .sort((a, b) => a - b);
    const start = Date.parse('2026-01-01T00:00:00Z');
    expect(times).toEqual([5, 10, 15].map((m) => start + m * MIN));
    call('pauseTable', TABLE());
    now += 10 * MIN;
    expect(scheduled()).toHaveLength(3);
    call('unpauseTable', TABLE());
    now += 5 * MIN;
    expect(scheduled().map((t) => Number(t.createdAt))).toContain(start + 30 * MIN);
    expect(scheduled()).toHaveLength(4);
  });

  test('a new version schedules from when it is made; the time zone shifts the fire times', () => {
    create({ schedule: '0 * * * *' });
    call('createTablePoliciesAssociations', { ...TABLE(), policies: ['sched'] });
    now += 30 * MIN;
    expect(scheduled()).toHaveLength(0);
    call('updatePolicy', {
      datahubCrn: hub,
      policyName: 'sched',
      resources: { arguments: JSON.stringify({ schedule: '0 * * * *', timezone: 'Asia/Kolkata' }) },
    });
    now += 60 * MIN;
    // Whole hours in Kolkata (UTC+05:30) are half past in UTC; 00:30, when the version was made, is not a run of it.
    expect(scheduled().map((t) => new Date(Number(t.createdAt)).toISOString())).toEqual(['2026-01-01T01:30:00.000Z']);
  });

  test('bad schedules and time zones are INVALID_ARGUMENT, on create and on update', () => {
    for (const args of [{ schedule: '* * * *' }, { schedule: '60 * * * *' }, { schedule: 5 }, { timezone: 'Mars/Olympus' }]) {
      const e = fails('createPolicy', { datahubCrn: hub, policyName: 'bad', resources: { script: 'x', arguments: JSON.stringify(args) } });
      expect(e.code).toBe('INVALID_ARGUMENT');
    }
    expect(
      fails('updatePolicy', { datahubCrn: hub, policyName: 'p1', resources: { arguments: JSON.stringify({ schedule: '0 0 32 * *' }) } })
        .code,
    ).toBe('INVALID_ARGUMENT');
  });
});

describe('lakehouse rules', () => {
  const scopeIssues = async (resourceScope?: string): Promise<string[]> => {
    const svc = await loadService('lakehouse');
    const o = svc.operation('deletePolicy');
    return validateRequest(svc.shapes, o.input, { datahubCrn: 'h', policyName: 'p', resourceScope }, o.cli.rules).map((i) => i.message);
  };

  test('resourceScope: <catalog>.<namespace>.<table>, or <catalog>.* for every namespace', async () => {
    expect(await scopeIssues('spark_catalog.sales.orders')).toEqual([]);
    expect(await scopeIssues('spark_catalog.*')).toEqual([]);
    expect(await scopeIssues('spark_catalog.*.*')).toEqual([]);
    expect(await scopeIssues('spark_catalog.sales')).toHaveLength(1);
    expect(await scopeIssues('spark_catalog.*.orders')).toHaveLength(1);
    expect(await scopeIssues('spark_catalog.sales.*')).toHaveLength(1);
    expect(await scopeIssues('.sales.orders')).toHaveLength(1);
    expect(await scopeIssues(undefined)).toHaveLength(1);
  });
});
