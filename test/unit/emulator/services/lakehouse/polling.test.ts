/**
 * Polling a lakehouse optimizer task as automation does it (issue 28 item
 * 4): the library's client against an emulator in this process, on a paused
 * clock, reading listTasks in a loop (no waiter). The task passes through
 * the SDK's documented TaskObject.status values in order, INIT ->
 * SUBMITTED -> COMPLETED (FAILED for a failing run), and nothing else; the
 * table's own status keeps its vocabulary (SUCCESS, ERROR).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';

let emu: RunningEmulator;
let hub: string;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  const envs = await emu.client.lakehouseopt.listEnvironments({ pageToken: 'ALL' });
  hub = String(envs.environments?.find((e) => e.isCloEnabled)?.datahubCrn);
});

afterAll(async () => {
  await emu?.stop();
});

/** A policy on one table that never runs on its own schedule (30 February never comes), run once for real. */
async function runOnce(policyName: string, tableName: string): Promise<string> {
  const at = { datahubCrn: hub, namespace: 'sales', tableName };
  await emu.client.lakehouseopt.createPolicy({
    datahubCrn: hub,
    policyName,
    resources: { script: 'compaction', arguments: JSON.stringify({ schedule: '0 2 30 2 *' }) },
  });
  await emu.client.lakehouseopt.createTablePoliciesAssociations({ ...at, policies: [policyName] });
  const run = await emu.client.lakehouseopt.executePolicy({ ...at, policyName, dryRun: false });
  return String(run.executionResult?.taskId);
}

/** Polls listTasks every 15 emulated seconds for 5 minutes; the task's statuses as seen, repeats folded. */
async function poll(taskId: string): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i <= 20; i++) {
    const out = await emu.client.lakehouseopt.listTasks({ datahubCrn: hub });
    const status = String(out.tasks?.find((t) => t.taskId === taskId)?.status);
    if (seen[seen.length - 1] !== status) seen.push(status);
    emu.clock.advance('15s');
  }
  return seen;
}

describe('a lakehouse optimizer task, polled with listTasks', () => {
  test('goes INIT -> SUBMITTED -> COMPLETED, and the table shows SUCCESS', async () => {
    const taskId = await runOnce('nightly-poll', 'orders');
    expect(await poll(taskId)).toEqual(['INIT', 'SUBMITTED', 'COMPLETED']);
    const tables = await emu.client.lakehouseopt.listTables({ datahubCrn: hub, namespace: 'sales' });
    expect(tables.tables?.find((t) => t.tableName === 'orders')?.status).toBe('SUCCESS');
    const details = await emu.client.lakehouseopt.getTableStatusDetails({
      datahubCrn: hub,
      namespace: 'sales',
      tableName: 'orders',
      status: 'SUCCESS',
    });
    expect(details.recentTask?.actions?.map((a) => a.status)).toEqual(['COMPLETED']);
  });

  test('a fail- policy goes INIT -> SUBMITTED -> FAILED, and the table shows ERROR', async () => {
    const taskId = await runOnce('fail-poll', 'customers');
    expect(await poll(taskId)).toEqual(['INIT', 'SUBMITTED', 'FAILED']);
    const tables = await emu.client.lakehouseopt.listTables({ datahubCrn: hub, namespace: 'sales' });
    expect(tables.tables?.find((t) => t.tableName === 'customers')?.status).toBe('ERROR');
    const details = await emu.client.lakehouseopt.getTableStatusDetails({
      datahubCrn: hub,
      namespace: 'sales',
      tableName: 'customers',
      status: 'ERROR',
    });
    expect(details.recentTask?.policyName).toBe('fail-poll');
  });
});
