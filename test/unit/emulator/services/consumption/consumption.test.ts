/**
 * The emulator's consumption service, driven through the library's client
 * against an emulator in this process, on a paused clock the tests move:
 * compute usage computed from how long things ran on the emulator clock,
 * one record a running thing and clock hour of the range (its part of the
 * hour), at the list rate of its kind; every environment's FreeIPA runs
 * until the environment stops; a stop or suspend takes a thing down from
 * its start; the range is known only up to now; pages as the model pages.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunningEmulator } from '../../../../../src/lib/sdk/emulator.js';
import type { consumption } from '../../../../../src/lib/sdk/index.js';
import { refused } from '../../../../helpers/refused.js';

const HOUR = 3_600_000;

let emu: RunningEmulator;
/** The first whole clock hour after the emulator started: the tests' hour 0. */
let h0 = 0;

beforeAll(async () => {
  emu = await startEmulator({ paused: true });
  const now = emu.clock.now().getTime();
  h0 = Math.ceil(now / HOUR) * HOUR;
  emu.clock.advance(h0 - now);
});

afterAll(async () => {
  await emu?.stop();
});

const at = (hours: number): string => new Date(h0 + hours * HOUR).toISOString();
const usage = async (from: number, to: number, pageSize?: number): Promise<consumption.ListComputeUsageRecordsResponse> =>
  emu.client.consumption.listComputeUsageRecords({ fromTimestamp: at(from), toTimestamp: at(to), ...(pageSize ? { pageSize } : {}) });
const of = (records: readonly consumption.ComputeUsageRecord[] | undefined, name: string) =>
  (records ?? []).filter((r) => r.clusterName === name);

describe('what ran, hour by hour', () => {
  test('a compute cluster made on the hour and suspended three and a half hours later ran 1, 1, 1 and 0.5 hours, at its list rate', async () => {
    const sales = (await emu.client.environments.describeEnvironment({ environmentName: 'sales-env' })).environment.crn;
    const made = await emu.client.compute.createCluster({ environment: sales, name: 'usage-k8s', tags: { team: 'data' } });
    emu.clock.advance('3h30m');
    await emu.client.compute.suspendCluster({ clusterCrn: made.clusterCrn ?? '' });
    emu.clock.advance('2h30m');
    const records = of((await usage(0, 6)).records, 'usage-k8s');
    expect(records.map((r) => [r.usageStartTimestamp, r.usageEndTimestamp, r.hours, r.quantity, r.grossCharge])).toEqual([
      [at(0), at(1), 1, 1, 0.4],
      [at(1), at(2), 1, 1, 0.4],
      [at(2), at(3), 1, 1, 0.4],
      [at(3), at(4), 0.5, 0.5, 0.2],
    ]);
    expect(records[0]).toMatchObject({
      quantityType: 'INSTANCE_USAGE',
      serviceFeature: 'COMPUTE_CLUSTER',
      clusterType: 'COMPUTE_CLUSTER',
      clusterCrn: made.clusterCrn,
      environmentName: 'sales-env',
      environmentCrn: sales,
      listRate: 0.4,
      userTags: '{"team":"data"}',
    });
  });

  test("every environment's FreeIPA runs, on its cloud's instance type, at the FreeIPA rate", async () => {
    const first = (await usage(0, 1)).records ?? [];
    const freeipa = first.filter((r) => r.clusterType === 'FREEIPA');
    expect(freeipa.map((r) => r.clusterName)).toEqual([
      'analytics-azure-freeipa',
      'gov-env-freeipa',
      'lakehouse-aws-freeipa',
      'ml-env-freeipa',
      'ops-env-freeipa',
      'sales-env-freeipa',
      'staging-aws-freeipa',
    ]);
    expect(of(first, 'ops-env-freeipa')[0]).toMatchObject({
      instanceType: 'Standard_D2s_v3',
      serviceFeature: 'FREEIPA',
      listRate: 0.08,
      hours: 1,
    });
    expect(of(first, 'ml-env-freeipa')[0]?.instanceType).toBe('e2-standard-4');
  });

  test('a range that starts within an hour counts only its part of that hour', async () => {
    const half = await usage(0.5, 1);
    expect(of(half.records, 'sales-env-freeipa').map((r) => [r.usageStartTimestamp, r.usageEndTimestamp, r.hours])).toEqual([
      [at(0.5), at(1), 0.5],
    ]);
  });

  test("an environment's stop takes its FreeIPA down from the stop's start", async () => {
    await emu.client.environments.stopEnvironment({ environmentName: 'staging-aws' });
    emu.clock.advance('2h');
    const records = of((await usage(5, 8)).records, 'staging-aws-freeipa');
    expect(records.map((r) => [r.usageStartTimestamp, r.hours])).toEqual([[at(5), 1]]);
  });
});

describe('ranges and pages', () => {
  test('usage is known up to now: a range after now has no records, nor one before anything ran', async () => {
    expect((await usage(100, 101)).records).toEqual([]);
    expect((await usage(-100, -99)).records).toEqual([]);
  });

  test('a range that ends before it starts is INVALID_ARGUMENT (400)', async () => {
    const reversed = await refused(usage(1, 0));
    expect([reversed.code, reversed.status, reversed.message]).toEqual([
      'INVALID_ARGUMENT',
      400,
      'fromTimestamp must not be after toTimestamp',
    ]);
  });

  test('records come in pages; the paginator reads them all, in hour order', async () => {
    const whole = (await usage(0, 6)).records ?? [];
    expect(whole.length).toBeGreaterThan(10);
    const first = await usage(0, 6, 5);
    expect(first.records).toHaveLength(5);
    expect(first.nextPageToken).toEqual(expect.any(String));
    const all: consumption.ComputeUsageRecord[] = [];
    for await (const r of emu.client.consumption.paginate.listComputeUsageRecords(
      { fromTimestamp: at(0), toTimestamp: at(6) },
      { pageSize: 5 },
    ))
      all.push(r);
    expect(all).toEqual(whole);
    const starts = all.map((r) => r.usageStartTimestamp ?? '');
    expect(starts).toEqual([...starts].sort());
  });
});
