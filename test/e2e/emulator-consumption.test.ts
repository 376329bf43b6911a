/**
 * Compute usage against the emulator, through the binary: records are
 * computed from how long things ran on the emulator clock, driven here with
 * `cdpctl emulator clock --pause/--advance`. A database (an engine resource,
 * which keeps its past actions) and a data lake (which keeps only its
 * current one) made and stopped at known times give exactly the hours they
 * ran, hour by hour; a database started again runs again; one that failed
 * to be made ran only until it failed; each environment's FreeIPA runs too.
 * Records are clipped to the range asked for, paged, and bad ranges are
 * refused.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { startEmulator, type RunResult, type TestEmulator } from '../helpers/cli.js';

interface UsageRecord {
  clusterName: string;
  environmentName?: string;
  serviceFeature: string;
  clusterType: string;
  cloudProvider?: string;
  usageStartTimestamp: string;
  usageEndTimestamp: string;
  hours: number;
  quantity: number;
  instanceCount: number;
  instanceType?: string;
  listRate: number;
  grossCharge: number;
}

const HOUR = 3_600_000;
const MINUTE = 60_000;
const LAKE = [
  'datalake',
  'create',
  'aws',
  '--datalake-name',
  'usage-lake',
  '--environment-name',
  'staging-aws',
  '--cloud-provider-configuration',
  'instanceProfile=arn:aws:iam::123456789012:instance-profile/idbroker,storageBucketLocation=s3a://usage-bucket/lake',
];
const DB = ['--environment-name', 'sales-env', '--database-name'];

let em: TestEmulator;
/** When the database and the lake were made, stopped, and the database started again; and the end of it all. */
let made: number;
let stopped: number;
let restarted: number;
let end: number;

const iso = (ms: number): string => new Date(ms).toISOString();

async function clock(...flags: string[]): Promise<number> {
  const r = await em.raw(['emulator', 'clock', ...flags, '--data-dir', em.dataDir, '--output', 'json']);
  if (r.code !== 0) throw new Error(r.stderr);
  return (JSON.parse(r.stdout) as { nowMs: number }).nowMs;
}

const usage = async (from: number, to: number, ...more: string[]): Promise<UsageRecord[]> =>
  (
    await em.json<{ records?: UsageRecord[] }>([
      'consumption',
      'compute-usage',
      'list',
      '--from-timestamp',
      iso(from),
      '--to-timestamp',
      iso(to),
      ...more,
    ])
  ).records ?? [];

const hoursOf = (records: readonly UsageRecord[], name: string): number =>
  records.filter((r) => r.clusterName === name).reduce((h, r) => h + r.hours, 0);

beforeAll(async () => {
  em = await startEmulator();
  made = await clock('--pause');
  await em.json(['opdb', 'databases', 'create', ...DB, 'usage-db']);
  await em.json(['opdb', 'databases', 'create', ...DB, 'fail-db']);
  await em.json(LAKE);
  stopped = await clock('--advance', '2h30m');
  await em.json(['opdb', 'databases', 'stop', ...DB, 'usage-db']);
  await em.json(['datalake', 'stop', '--datalake-name', 'usage-lake']);
  restarted = await clock('--advance', '1h');
  await em.json(['opdb', 'databases', 'start', ...DB, 'usage-db']);
  end = await clock('--advance', '45m');
});

afterAll(async () => {
  await em?.stop();
});

describe('compute usage', () => {
  test('made and stopped at known times, a database and a data lake give exactly the hours they ran; started again, the database runs again', async () => {
    const all = await usage(made - HOUR, end + HOUR);
    const lake = 2.5;
    expect(hoursOf(all, 'usage-lake')).toBeCloseTo(lake, 9);
    expect(hoursOf(all, 'usage-db')).toBeCloseTo(2.5 + 0.75, 9);
    // Stopped, it ran in no hour between the stop and the start.
    const between = await usage(stopped + MINUTE, restarted);
    expect(hoursOf(between, 'usage-db')).toBe(0);
    expect(hoursOf(between, 'usage-lake')).toBe(0);
    const db = all.find((r) => r.clusterName === 'usage-db') as UsageRecord;
    expect(db).toMatchObject({
      environmentName: 'sales-env',
      cloudProvider: 'AWS',
      serviceFeature: 'OPERATIONAL_DATABASE',
      clusterType: 'DATABASE',
    });
    const lakeRecord = all.find((r) => r.clusterName === 'usage-lake') as UsageRecord;
    expect(lakeRecord).toMatchObject({ environmentName: 'staging-aws', serviceFeature: 'DATALAKE', clusterType: 'DATALAKE' });
    expect(lakeRecord.instanceCount).toBeGreaterThan(1);
    expect(lakeRecord.instanceType).toEqual(expect.any(String));
  });

  test('records are hourly: each within one clock hour, its instance hours and charge from its hours', async () => {
    const all = await usage(made - HOUR, end + HOUR);
    for (const r of all) {
      const from = Date.parse(r.usageStartTimestamp);
      const to = Date.parse(r.usageEndTimestamp);
      expect(Math.floor(from / HOUR)).toBe(Math.floor((to - 1) / HOUR));
      expect(r.hours).toBeLessThanOrEqual((to - from) / HOUR + 1e-9);
      expect(r.quantity).toBeCloseTo(r.hours * r.instanceCount, 9);
      expect(r.grossCharge).toBeCloseTo(r.quantity * r.listRate, 5);
    }
    // Every environment's FreeIPA runs.
    expect(all.some((r) => r.clusterName === 'sales-env-freeipa' && r.serviceFeature === 'FREEIPA')).toBe(true);
  });

  test('a range clips what ran: one hour inside a run is one hour', async () => {
    const inside = await usage(made + 30 * MINUTE, made + 90 * MINUTE);
    expect(hoursOf(inside, 'usage-db')).toBeCloseTo(1, 9);
    expect(hoursOf(inside, 'usage-lake')).toBeCloseTo(1, 9);
  });

  test('a database that failed to be made ran only until it failed', async () => {
    const all = await usage(made - HOUR, end + HOUR);
    const failed = hoursOf(all, 'fail-db');
    expect(failed).toBeGreaterThan(0);
    expect(failed).toBeLessThan(0.5);
    expect(hoursOf(await usage(made + HOUR, end), 'fail-db')).toBe(0);
  });

  test('paged: a few at a time, resumed with the token, the same records in the same order', async () => {
    const range = ['--from-timestamp', iso(made - HOUR), '--to-timestamp', iso(end + HOUR)];
    const first = await em.cli(['consumption', 'compute-usage', 'list', ...range, '--max-items', '3', '--output', 'json']);
    expect(first.code).toBe(0);
    const page = JSON.parse(first.stdout) as { records: UsageRecord[]; nextPageToken: string };
    expect(page.records.length).toBe(3);
    const rest = await usage(made - HOUR, end + HOUR, '--starting-token', page.nextPageToken);
    expect([...page.records, ...rest]).toEqual(await usage(made - HOUR, end + HOUR, '--page-size', '7'));
  });

  test('bad input: an inverted range is INVALID_ARGUMENT; no range or a page size of 0 is refused before sending', async () => {
    const inverted = await em.cli(['consumption', 'compute-usage', 'list', '--from-timestamp', iso(end), '--to-timestamp', iso(made)]);
    expect([inverted.code, inverted.stderr]).toEqual([1, expect.stringContaining('INVALID_ARGUMENT')]);
    const noRange: RunResult = await em.cli(['consumption', 'compute-usage', 'list', '--from-timestamp', iso(made)]);
    expect(noRange.code).toBe(2);
    const zero = await em.cli([
      'consumption',
      'compute-usage',
      'list',
      '--from-timestamp',
      iso(made),
      '--to-timestamp',
      iso(end),
      '--page-size',
      '0',
    ]);
    expect(zero.code).toBe(2);
  });
});
