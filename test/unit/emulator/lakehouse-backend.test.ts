/**
 * The lakehouse optimizer of the emulator in-process (no HTTP): tasks on the
 * clock and the table statuses they drive, environments paging, policy
 * versions, and the resourceScope rule.
 */
import { beforeEach, describe, expect, test } from '@jest/globals';
import type { Clock } from '../../../src/lib/emulator/clock.js';
import { ApiError } from '../../../src/lib/emulator/errors.js';
import { Store } from '../../../src/lib/emulator/store.js';
import { handlers } from '../../../src/lib/emulator/services/lakehouseopt/handlers.js';
import { validateRequest } from '../../../src/lib/core/validate.js';
import { loadService } from '../../../src/lib/model/index.js';
import { operations } from '../../../src/lib/model/services/lakehouse/wire.js';
import type { Caller, Doc } from '../../../src/lib/emulator/types.js';

const ACCOUNT = 'acct-1';
const info = { accountId: ACCOUNT, region: 'us-west-1', baseUrl: 'http://localhost:4242' };
const caller: Caller = { accountId: ACCOUNT, actorCrn: `crn:altus:iam:us-west-1:${ACCOUNT}:user:admin`, kind: 'user' };

let store: Store;
let now: number;
let hub: string;
const clock = { now: () => now, iso: (at = now) => new Date(at).toISOString(), scale: 1 } as unknown as Clock;

function call(op: string, req: Doc = {}): Doc {
  const h = handlers[op];
  if (!h) throw new Error(`no handler for ${op}`);
  return store.transaction(() => h(req, { store, clock, caller, info }));
}

function fails(op: string, req: Doc): ApiError {
  try {
    call(op, req);
  } catch (e) {
    if (e instanceof ApiError) return e;
    throw e;
  }
  throw new Error(`${op} did not fail`);
}

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
    expect(Object.keys(operations).filter((op) => !handlers[op])).toEqual([]);
    expect(Object.keys(operations)).toHaveLength(30);
  });

  test('environments page by pageToken; ALL returns every one', () => {
    const first = call('listEnvironments', { pageSize: 2 });
    expect((first.environments as unknown[]).length).toBe(2);
    expect(first.totalEnvironments).toBe(3);
    const rest = call('listEnvironments', { pageSize: 2, pageToken: first.nextPageToken });
    expect((rest.environments as unknown[]).length).toBe(1);
    expect(rest.nextPageToken).toBeUndefined();
    expect((call('listEnvironments', { pageSize: 1, pageToken: 'ALL' }).environments as unknown[]).length).toBe(3);
    const off = (call('listEnvironments', { pageToken: 'ALL' }).environments as Doc[]).find((e) => !e.isCloEnabled);
    expect(fails('getCloDatahub', { environmentCrn: off?.environmentCrn }).code).toBe('FAILED_PRECONDITION');
  });

  test('a task goes INIT -> RUNNING -> SUCCESS; the table follows, then turns UNAVAILABLE', () => {
    expect(statusOf()).toBe('UNAVAILABLE');
    const dry = call('executePolicy', { ...TABLE(), policyName: 'p1' });
    expect(Object.keys(dry)).toEqual(['dryRunResult']);
    const { executionResult } = call('executePolicy', { ...TABLE(), policyName: 'p1', dryRun: false }) as { executionResult: Doc };
    const task = (): Doc | undefined =>
      (call('listTasks', { datahubCrn: hub, pageSize: 10 }).tasks as Doc[]).find((t) => t.taskId === executionResult.taskId);
    expect(task()?.status).toBe('INIT');
    now += 60_000;
    expect(task()?.status).toBe('RUNNING');
    now += 5 * 60_000;
    expect(task()?.status).toBe('SUCCESS');
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

  test('pause and unpause', () => {
    call('pauseTable', TABLE());
    expect(statusOf()).toBe('PAUSED');
    expect(fails('executePolicy', { ...TABLE(), policyName: 'p1', dryRun: false }).code).toBe('FAILED_PRECONDITION');
    expect(Object.keys(call('executePolicy', { ...TABLE(), policyName: 'p1' }))).toEqual(['dryRunResult']);
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
    expect(call('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'spark_catalog.sales.orders' }).deletedPolicies).toBe(
      1,
    );
    expect(fails('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'other.sales.orders' }).code).toBe('NOT_FOUND');
    expect(call('deletePolicy', { datahubCrn: hub, policyName: 'p1', resourceScope: 'spark_catalog.*' }).deletedPolicies).toBe(2);
    expect(call('listPolicies', { datahubCrn: hub }).policies).toEqual([]);
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
