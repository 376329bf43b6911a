/**
 * lakehouse through the real binary against the emulator: the built-in
 * environments and Data Hub, a policy created, associated with a table,
 * run as a dry run and for real, its task listed until it ends, table
 * status, pause and unpause, versions and download with --decode, delete by
 * scope, paging of environments, and the client-side rules.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

let em: TestEmulator;
let hub: string;
let envCrn: string;

const HUB = (): string[] => ['--datahub-crn', hub];
const ORDERS = (): string[] => [...HUB(), '--namespace', 'sales', '--table-name', 'orders'];
// 30 February never comes: these policies never run on their schedule, so only the runs a test starts make tasks.
const RESOURCES = JSON.stringify({ script: 'compaction', arguments: JSON.stringify({ schedule: '0 2 30 2 *', timezone: 'UTC' }) });

interface Task {
  taskId: string;
  status: string;
  policy: string;
  table: string;
  details: string;
}

/** Moves the emulator's clock forward (emulator clock --advance): tasks and schedules follow it, however slow the machine. */
async function advance(by: string): Promise<void> {
  const r = await em.raw(['emulator', 'clock', '--advance', by, '--data-dir', em.dataDir]);
  if (r.code !== 0) throw new Error(`emulator clock --advance ${by} exited ${r.code}: ${r.stderr}`);
}

/** The task once it has ended: a task takes 2.5 emulated minutes, so the clock moves 5. */
async function taskEnded(taskId: string): Promise<Task> {
  await advance('5m');
  const out = await em.json<{ tasks: Task[] }>(['lakehouse', 'tasks', 'list', ...HUB()]);
  const t = out.tasks.find((x) => x.taskId === taskId);
  if (!t || (t.status !== 'COMPLETED' && t.status !== 'FAILED')) throw new Error(`task ${taskId} has not ended: ${JSON.stringify(t)}`);
  return t;
}

/** policies delete with a resource scope; its answer. */
const deletePolicy = (name: string, scope: string): Promise<{ deletedPolicies: number }> =>
  em.json(['lakehouse', 'policies', 'delete', ...HUB(), '--policy-name', name, '--resource-scope', scope, '--yes']);

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

describe('lakehouse environments and hub', () => {
  test('environments list: one with the optimizer enabled', async () => {
    const out = await em.json<{
      environments: Array<{
        environmentCrn: string;
        environmentName: string;
        cloudPlatform: string;
        isCloEnabled: boolean;
        datahubCrn?: string;
      }>;
      totalEnvironments: number;
    }>(['lakehouse', 'environments', 'list']);
    expect(out.environments.length).toBe(out.totalEnvironments);
    const on = out.environments.filter((e) => e.isCloEnabled);
    expect(on).toHaveLength(1);
    hub = on[0]?.datahubCrn ?? '';
    envCrn = on[0]?.environmentCrn ?? '';
    expect(hub).toMatch(/^crn:cdp:datahub:/);
    const off = out.environments.find((e) => !e.isCloEnabled);
    // The seed: hub fields and status are null where the optimizer is not enabled.
    expect(off).toMatchObject({ datahubCrn: null, datahubName: null, status: null });
    // The optimizer runs on two platforms, and its environments are those (the account's GCP ml-env is not among them).
    expect(new Set(out.environments.map((e) => e.cloudPlatform))).toEqual(new Set(['AWS', 'AZURE']));
    expect(out.environments.map((e) => e.environmentName)).not.toContain('ml-env');
  });

  test('environments page by pageToken; ALL ignores the page size', async () => {
    const paged = await em.json<{ environments: unknown[]; totalEnvironments: number }>([
      'lakehouse',
      'environments',
      'list',
      '--page-size',
      '1',
    ]);
    expect(paged.environments.length).toBeGreaterThan(1);
    expect(paged.environments).toHaveLength(paged.totalEnvironments);
    const first = await em.json<{ environments: unknown[]; nextPageToken?: string }>([
      'lakehouse',
      'environments',
      'list',
      '--max-items',
      '1',
      '--page-size',
      '1',
    ]);
    expect(first.environments).toHaveLength(1);
    expect(first.nextPageToken).toMatch(/^\S+$/);
    const all = await em.json<{ environments: unknown[]; totalEnvironments: number }>([
      'lakehouse',
      'environments',
      'list',
      '--starting-token',
      'ALL',
      '--page-size',
      '1',
      '--no-paginate',
    ]);
    expect(all.environments).toHaveLength(all.totalEnvironments);
  });

  test('datahub describe, datahub crn, health, namespaces, scripts, timezones', async () => {
    const dh = await em.json<{ datahubCrn: string; environmentCrn: string }>([
      'lakehouse',
      'datahub',
      'describe',
      '--environment-crn',
      envCrn,
    ]);
    expect(dh).toMatchObject({ datahubCrn: hub, environmentCrn: envCrn });
    const crn = await em.cli(['lakehouse', 'datahub', 'crn', '--environment-crn', envCrn, '--query', 'datahubCrn', '--output', 'text']);
    expect(crn.stdout.trim()).toBe(hub);
    const health = await em.json<{ result: Record<string, { isHealthy: boolean }> }>(['lakehouse', 'health', ...HUB(), '--scope', 'Full']);
    expect(Object.values(health.result).every((r) => r.isHealthy)).toBe(true);
    const ns = await em.json<{ namespaces: string[] }>(['lakehouse', 'namespaces', 'list', ...HUB()]);
    expect(ns.namespaces).toContain('sales');
    const names = await em.json<{ tables: string[] }>(['lakehouse', 'tables', 'names', ...HUB(), '--namespace', 'sales']);
    expect(names.tables).toContain('orders');
    const scripts = await em.json<{ scripts: Array<{ name: string }> }>(['lakehouse', 'scripts', 'list', ...HUB()]);
    expect(scripts.scripts.map((s) => s.name)).toContain('compaction');
    const tz = await em.json<{ timezones: Array<{ id: string }> }>(['lakehouse', 'timezones', 'list']);
    expect(tz.timezones.map((t) => t.id)).toContain('UTC');
    const unknown = await em.cli(['lakehouse', 'namespaces', 'list', '--datahub-crn', 'crn:cdp:datahub:us-west-1:x:cluster:nope']);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('NOT_FOUND');
  });
});

describe('a maintenance policy', () => {
  let taskId: string;

  test('created, associated with a table, listed', async () => {
    expect((await em.cli(['lakehouse', 'policies', 'create', ...HUB(), '--policy-name', 'nightly', '--resources', RESOURCES])).code).toBe(
      0,
    );
    const dup = await em.cli(['lakehouse', 'policies', 'create', ...HUB(), '--policy-name', 'nightly', '--resources', RESOURCES]);
    expect(dup.code).toBe(1);
    const assoc = await em.json<{ associations: Array<{ namespace: string; tables: string[] }> }>([
      'lakehouse',
      'associations',
      'create',
      ...HUB(),
      '--policy-name',
      'nightly',
      '--associations',
      JSON.stringify([{ namespace: 'sales', tables: ['orders'] }]),
    ]);
    expect(assoc.associations).toEqual([{ namespace: 'sales', tables: ['orders'] }]);
    const tp = await em.json<{ policies: Array<{ policyName: string }> }>(['lakehouse', 'tables', 'policies', ...ORDERS()]);
    expect(tp.policies.map((p) => p.policyName)).toEqual(['nightly']);
    const names = await em.json<{ policyNames: string[] }>(['lakehouse', 'policies', 'names', ...HUB(), '--namespace', '*']);
    expect(names.policyNames).toEqual(['nightly']);
    const nsAssoc = await em.json<{ associatedNamespaces: Array<{ namespace: string; isAssociated: boolean }> }>([
      'lakehouse',
      'policies',
      'associated-namespaces',
      ...HUB(),
      '--policy-name',
      'nightly',
    ]);
    expect(nsAssoc.associatedNamespaces.find((n) => n.namespace === 'sales')?.isAssociated).toBe(true);
    expect(nsAssoc.associatedNamespaces.find((n) => n.namespace === 'finance')?.isAssociated).toBe(false);
    const details = await em.json<{ directionAssociation: Array<{ namespace: string; tables: Array<{ tableName: string }> }> }>([
      'lakehouse',
      'associations',
      'details',
      ...HUB(),
    ]);
    expect(details.directionAssociation[0]?.tables.map((t) => t.tableName)).toEqual(['orders']);
  });

  test('a dry run answers only dryRunResult; --decode shows its details', async () => {
    const dry = await em.json<Record<string, { actions?: string[]; details: string }>>([
      'lakehouse',
      'policies',
      'execute',
      ...ORDERS(),
      '--policy-name',
      'nightly',
    ]);
    expect(Object.keys(dry)).toEqual(['dryRunResult']);
    expect(dry.dryRunResult?.actions).toEqual(['rewrite_data_files']);
    const details = JSON.parse(Buffer.from(dry.dryRunResult?.details ?? '', 'base64').toString('utf8')) as { table: string };
    expect(details.table).toBe('spark_catalog.sales.orders');
    const yaml = await em.cli([
      'lakehouse',
      'policies',
      'execute',
      ...ORDERS(),
      '--policy-name',
      'nightly',
      '--decode',
      '--output',
      'yaml',
    ]);
    expect(yaml.code).toBe(0);
    expect(yaml.stdout).toContain('spark_catalog.sales.orders');
    const notAssociated = await em.cli([
      'lakehouse',
      'policies',
      'execute',
      ...HUB(),
      '--namespace',
      'sales',
      '--table-name',
      'returns',
      '--policy-name',
      'nightly',
    ]);
    expect(notAssociated.code).toBe(1);
  });

  test('a real run answers only executionResult with a task that runs to COMPLETED; the table shows SUCCESS', async () => {
    const run = await em.json<Record<string, { taskId?: string; details: string }>>([
      'lakehouse',
      'policies',
      'execute',
      ...ORDERS(),
      '--policy-name',
      'nightly',
      '--no-dry-run',
    ]);
    expect(Object.keys(run)).toEqual(['executionResult']);
    taskId = run.executionResult?.taskId ?? '';
    expect(taskId).toMatch(/^[0-9a-f-]{36}$/);
    const t = await taskEnded(taskId);
    expect(t).toMatchObject({ status: 'COMPLETED', policy: 'nightly', table: 'orders' });
    const tables = await em.json<{ tables: Array<{ tableName: string; status: string }> }>([
      'lakehouse',
      'tables',
      'list',
      ...HUB(),
      '--namespace',
      'sales',
    ]);
    expect(tables.tables.find((x) => x.tableName === 'orders')?.status).toBe('SUCCESS');
    expect(tables.tables.find((x) => x.tableName === 'returns')?.status).toBe('UNAVAILABLE');
    const st = await em.json<{ recentTask: { policyName: string; actions: Array<{ status: string }> } }>([
      'lakehouse',
      'tables',
      'status',
      ...ORDERS(),
    ]);
    expect(st.recentTask.policyName).toBe('nightly');
    expect(st.recentTask.actions[0]?.status).toBe('COMPLETED');
    const table = await em.cli(['lakehouse', 'tasks', 'list', ...HUB(), '--output', 'table']);
    expect(table.stdout).toContain(taskId);
  });

  test('pause stops maintenance (PAUSED, runs refused); unpause resumes it', async () => {
    expect((await em.cli(['lakehouse', 'tables', 'pause', ...ORDERS()])).code).toBe(0);
    const tables = await em.json<{ tables: Array<{ tableName: string; status: string }> }>([
      'lakehouse',
      'tables',
      'list',
      ...HUB(),
      '--namespace',
      'sales',
    ]);
    expect(tables.tables.find((x) => x.tableName === 'orders')?.status).toBe('PAUSED');
    const st = await em.json<{ pausedTable?: { message: string } }>(['lakehouse', 'tables', 'status', ...ORDERS()]);
    expect(st.pausedTable?.message).toContain('paused');
    const run = await em.cli(['lakehouse', 'policies', 'execute', ...ORDERS(), '--policy-name', 'nightly', '--no-dry-run']);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('paused');
    // any -> pauseTable -> PAUSED: pausing a paused table is a no-op that succeeds and keeps when it was paused.
    const again = await em.cli(['lakehouse', 'tables', 'pause', ...ORDERS()]);
    expect(again.code).toBe(0);
    const st2 = await em.json<{ pausedTable?: { details: { pausedSince: string } } }>(['lakehouse', 'tables', 'status', ...ORDERS()]);
    expect(st2.pausedTable?.details.pausedSince).toBe(
      (st as { pausedTable?: { details: { pausedSince: string } } }).pausedTable?.details.pausedSince,
    );
    expect((await em.cli(['lakehouse', 'tables', 'unpause', ...ORDERS()])).code).toBe(0);
    const after = await em.json<{ tables: Array<{ tableName: string; status: string }> }>([
      'lakehouse',
      'tables',
      'list',
      ...HUB(),
      '--namespace',
      'sales',
    ]);
    expect(after.tables.find((x) => x.tableName === 'orders')?.status).toBe('SUCCESS');
  });

  test('a fail- policy makes its task end FAILED and the table ERROR', async () => {
    expect(
      (await em.cli(['lakehouse', 'policies', 'create', ...HUB(), '--policy-name', 'fail-expire', '--resources', RESOURCES])).code,
    ).toBe(0);
    expect(
      (
        await em.cli([
          'lakehouse',
          'tables',
          'add-policies',
          ...HUB(),
          '--namespace',
          'finance',
          '--table-name',
          'ledger',
          '--policies',
          'fail-expire',
        ])
      ).code,
    ).toBe(0);
    const run = await em.json<{ executionResult: { taskId: string } }>([
      'lakehouse',
      'policies',
      'execute',
      ...HUB(),
      '--namespace',
      'finance',
      '--table-name',
      'ledger',
      '--policy-name',
      'fail-expire',
      '--no-dry-run',
    ]);
    const t = await taskEnded(run.executionResult.taskId);
    expect(t.status).toBe('FAILED');
    const tasks = await em.cli(['lakehouse', 'tasks', 'list', ...HUB(), '--namespace', 'finance', '--decode', '--output', 'yaml']);
    expect(tasks.stdout).toContain('failed');
    const tables = await em.json<{ tables: Array<{ tableName: string; status: string }> }>([
      'lakehouse',
      'tables',
      'list',
      ...HUB(),
      '--namespace',
      'finance',
    ]);
    expect(tables.tables.find((x) => x.tableName === 'ledger')?.status).toBe('ERROR');
  });

  test('update makes a new version; download --decode shows script and arguments', async () => {
    const newArgs = JSON.stringify({ schedule: '0 3 30 2 *' });
    expect(
      (
        await em.cli([
          'lakehouse',
          'policies',
          'update',
          ...HUB(),
          '--policy-name',
          'nightly',
          '--resources',
          JSON.stringify({ arguments: newArgs }),
        ])
      ).code,
    ).toBe(0);
    const p = await em.json<{ versions: string[]; policyDetail: { version: string; arguments: string } }>([
      'lakehouse',
      'policies',
      'describe',
      ...HUB(),
      '--policy-name',
      'nightly',
    ]);
    expect(p.versions).toHaveLength(2);
    expect(p.policyDetail.version).toBe(p.versions[1]);
    expect(Buffer.from(p.policyDetail.arguments, 'base64').toString()).toBe(newArgs);
    const raw = await em.json<{ script: string; arguments: string }>([
      'lakehouse',
      'policies',
      'download',
      ...HUB(),
      '--policy-name',
      'nightly',
      '--policy-version',
      p.versions[0] ?? '',
    ]);
    expect(Buffer.from(raw.arguments, 'base64').toString()).toContain('0 2 30 2 *');
    const shown = await em.cli(['lakehouse', 'policies', 'download', ...HUB(), '--policy-name', 'nightly', '--decode', '--output', 'yaml']);
    expect(shown.stdout).toContain('rewrite_data_files');
    expect(shown.stdout).toContain('0 3 30 2 *');
    const json = await em.cli(['lakehouse', 'policies', 'download', ...HUB(), '--policy-name', 'nightly', '--decode', '--output', 'json']);
    expect(JSON.parse(json.stdout).arguments).toBe(Buffer.from(newArgs).toString('base64'));
  });

  test('change-policy, unsubscribe and delete by scope', async () => {
    const tbl = [...HUB(), '--namespace', 'sales', '--table-name', 'customers'];
    expect(
      (await em.cli(['lakehouse', 'tables', 'change-policy', ...tbl, '--operation', 'APPEND', '--policies', 'nightly', 'fail-expire']))
        .code,
    ).toBe(0);
    expect(
      (await em.cli(['lakehouse', 'tables', 'change-policy', ...tbl, '--operation', 'REPLACEALL', '--policies', 'nightly'])).code,
    ).toBe(0);
    let tp = await em.json<{ policies: Array<{ policyName: string }> }>(['lakehouse', 'tables', 'policies', ...tbl]);
    expect(tp.policies.map((p) => p.policyName)).toEqual(['nightly']);
    const unsub = await em.json<{ policies: string[] }>([
      'lakehouse',
      'policies',
      'unsubscribe',
      ...tbl,
      '--policy-name',
      'nightly',
      '--yes',
    ]);
    expect(unsub.policies).toEqual([]);
    const returns = [...HUB(), '--namespace', 'sales', '--table-name', 'returns'];
    expect((await em.cli(['lakehouse', 'tables', 'add-policies', ...returns, '--policies', 'nightly'])).code).toBe(0);
    // deletedPolicies is the number of versions deleted: the table loses the policy, which lives on (on returns).
    const del = await deletePolicy('nightly', 'spark_catalog.sales.orders');
    expect(del.deletedPolicies).toBe(0);
    tp = await em.json(['lakehouse', 'tables', 'policies', ...ORDERS()]);
    expect(tp.policies).toEqual([]);
    const kept = await em.json<{ versions: string[] }>(['lakehouse', 'policies', 'describe', ...HUB(), '--policy-name', 'nightly']);
    expect(kept.versions).toHaveLength(2);
    const all = await deletePolicy('nightly', 'spark_catalog.*');
    expect(all.deletedPolicies).toBe(2);
    const gone = await em.cli(['lakehouse', 'policies', 'describe', ...HUB(), '--policy-name', 'nightly']);
    expect(gone.code).toBe(1);
    const listed = await em.json<{ policies: Array<{ policyName: string }> }>(['lakehouse', 'policies', 'list', ...HUB()]);
    expect(listed.policies.map((p) => p.policyName)).toEqual(['fail-expire']);
  });
});

describe('seed conformance', () => {
  interface Listed {
    taskId: string;
    status: string;
    policy: string;
    table: string;
    createdAt: number;
    details: string;
  }

  const policy = (name: string, args: Record<string, unknown>): Promise<RunResult> =>
    em.cli([
      'lakehouse',
      'policies',
      'create',
      ...HUB(),
      '--policy-name',
      name,
      '--resources',
      JSON.stringify({ script: 'compaction', arguments: JSON.stringify(args) }),
    ]);

  /** The tasks of a policy once there are at least n, moving the clock on by a step at a time. */
  async function tasksOf(name: string, n: number, step = '5m'): Promise<Listed[]> {
    for (let i = 0; i < 50; i++) {
      const out = await em.json<{ tasks: Listed[] }>(['lakehouse', 'tasks', 'list', ...HUB()]);
      const mine = out.tasks.filter((t) => t.policy === name);
      if (mine.length >= n) return mine;
      await advance(step);
    }
    throw new Error(`policy ${name} did not run ${n} times`);
  }

  test('an environment without the optimizer: datahub describe and crn answer null hub fields', async () => {
    const out = await em.json<{ environments: Array<{ environmentCrn: string; isCloEnabled: boolean }> }>([
      'lakehouse',
      'environments',
      'list',
    ]);
    const off = out.environments.find((e) => !e.isCloEnabled)?.environmentCrn ?? '';
    const dh = await em.json<Record<string, unknown>>(['lakehouse', 'datahub', 'describe', '--environment-crn', off]);
    expect(dh).toMatchObject({ environmentCrn: off, datahubCrn: null, datahubName: null, status: null });
    const crn = await em.json<Record<string, unknown>>(['lakehouse', 'datahub', 'crn', '--environment-crn', off]);
    expect(crn).toEqual({ datahubCrn: null });
  });

  test('delete by table scope on the last table of a policy deletes it with its versions', async () => {
    expect((await policy('solo', {})).code).toBe(0);
    const apps = [...HUB(), '--namespace', 'logs', '--table-name', 'app_events'];
    expect((await em.cli(['lakehouse', 'tables', 'add-policies', ...apps, '--policies', 'solo'])).code).toBe(0);
    const del = await deletePolicy('solo', 'spark_catalog.logs.app_events');
    expect(del.deletedPolicies).toBe(1);
    const gone = await em.cli(['lakehouse', 'policies', 'describe', ...HUB(), '--policy-name', 'solo']);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('NOT_FOUND');
  });

  test('REMOVEALL on a table covered through its namespace is refused, naming the namespace; nothing changes', async () => {
    expect((await policy('logs-wide', {})).code).toBe(0);
    expect(
      (
        await em.cli([
          'lakehouse',
          'associations',
          'create',
          ...HUB(),
          '--policy-name',
          'logs-wide',
          '--associations',
          JSON.stringify([{ namespace: 'logs' }]),
        ])
      ).code,
    ).toBe(0);
    const web = [...HUB(), '--namespace', 'logs', '--table-name', 'web_events'];
    const r = await em.cli(['lakehouse', 'tables', 'change-policy', ...web, '--operation', 'REMOVEALL']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('FAILED_PRECONDITION');
    expect(r.stderr).toContain('namespace logs');
    const tp = await em.json<{ policies: Array<{ policyName: string }> }>(['lakehouse', 'tables', 'policies', ...web]);
    expect(tp.policies.map((p) => p.policyName)).toEqual(['logs-wide']);
  });

  test('a scheduled policy runs on the emulator clock: */5 makes a task every 5 minutes', async () => {
    expect((await policy('every5', { schedule: '*/5 * * * *', timezone: 'UTC' })).code).toBe(0);
    const invoices = [...HUB(), '--namespace', 'finance', '--table-name', 'invoices'];
    expect((await em.cli(['lakehouse', 'tables', 'add-policies', ...invoices, '--policies', 'every5'])).code).toBe(0);
    const runs = await tasksOf('every5', 3);
    const times = runs.map((t) => t.createdAt).sort((a, b) => a - b);
    for (const t of times) expect(t % 300_000).toBe(0);
    for (let i = 1; i < times.length; i++) expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBe(300_000);
    expect(runs.every((t) => t.table === 'invoices')).toBe(true);
    const details = JSON.parse(Buffer.from(runs[0]?.details ?? '', 'base64').toString('utf8')) as { trigger: string };
    expect(details.trigger).toBe('SCHEDULE');
    const done = await tasksOf('every5', 4);
    expect(done.some((t) => t.status === 'COMPLETED')).toBe(true);
  });

  test('a schedule runs at the local times of its time zone', async () => {
    // 15 past the hour in Kolkata (UTC+05:30) is 45 past in UTC.
    expect((await policy('kolkata', { schedule: '15 * * * *', timezone: 'Asia/Kolkata' })).code).toBe(0);
    const customers = [...HUB(), '--namespace', 'sales', '--table-name', 'customers'];
    expect((await em.cli(['lakehouse', 'tables', 'add-policies', ...customers, '--policies', 'kolkata'])).code).toBe(0);
    const runs = await tasksOf('kolkata', 1, '1h');
    expect((runs[0]?.createdAt ?? 0) % 3_600_000).toBe(45 * 60_000);
  });

  test.each([
    ['a schedule of 4 fields', { schedule: '*/5 * * *' }, '5 fields'],
    ['a minute out of range', { schedule: '61 * * * *' }, 'minute'],
    ['a backwards range', { schedule: '0 9-5 * * *' }, 'backwards'],
    ['a step of 0', { schedule: '*/0 * * * *' }, 'step'],
    ['a time zone getTimezones does not list', { schedule: '0 2 * * *', timezone: 'Mars/Olympus' }, 'getTimezones'],
  ])('refused with INVALID_ARGUMENT: %s', async (_what, args, message) => {
    const r = await policy('bad-schedule', args);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('INVALID_ARGUMENT');
    expect(r.stderr).toContain(message);
  });
});

describe('lakehouse rules (exit 2, nothing sent)', () => {
  test.each([
    [
      'a scope without a table',
      ['policies', 'delete', '--datahub-crn', 'h', '--policy-name', 'p', '--resource-scope', 'spark_catalog.sales', '--yes'],
      'resourceScope',
    ],
    [
      'a table with namespace *',
      ['policies', 'delete', '--datahub-crn', 'h', '--policy-name', 'p', '--resource-scope', 'spark_catalog.*.orders', '--yes'],
      'leave the table out',
    ],
    ['no scope', ['policies', 'delete', '--datahub-crn', 'h', '--policy-name', 'p', '--yes'], 'resourceScope'],
    [
      'an unknown change-policy operation',
      ['tables', 'change-policy', '--datahub-crn', 'h', '--namespace', 'n', '--table-name', 't', '--operation', 'MERGE', '--policies', 'p'],
      'APPEND',
    ],
    ['an unknown health scope', ['health', '--datahub-crn', 'h', '--scope', 'Deep'], 'Full'],
    [
      'an unknown table status',
      ['tables', 'status', '--datahub-crn', 'h', '--namespace', 'n', '--table-name', 't', '--status', 'DONE'],
      'PAUSED',
    ],
  ])('%s', async (_name, args, message) => {
    const r = await em.cli(['lakehouse', ...args]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(message);
  });

  test('aliases answer --generate-skeleton', async () => {
    const r = await em.cli(['lakehouse', 'execute-policy', '--generate-skeleton']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ datahubCrn: '', namespace: '', tableName: '', policyName: '', dryRun: true });
    const clo = await em.cli(['lakehouse', 'get-clo-datahub', '--generate-skeleton']);
    expect(JSON.parse(clo.stdout)).toEqual({ environmentCrn: '' });
  });
});
