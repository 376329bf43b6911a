/**
 * The emulator engine through the real binary: the driven clock (a paused
 * clock holds a new data lake in its first state until advanced), export and
 * import (stopped and running), seed files at start (and a bad one refused
 * naming its line, nothing applied), and the request log followed while
 * calls are made, without bodies.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, start, startEmulator, startEmulatorProcess, tempHome, type TestEmulator } from '../helpers/cli.js';

const LAKE = [
  'datalake',
  'create',
  'aws',
  '--environment-name',
  'sales-env',
  '--cloud-provider-configuration',
  'instanceProfile=arn:aws:iam::123456789012:instance-profile/idbroker,storageBucketLocation=s3a://engine-bucket/lake',
];

interface Clock {
  now: string;
  nowMs: number;
  paused: boolean;
  timeScale: number;
}

let em: TestEmulator;

beforeAll(async () => {
  em = await startEmulator();
});

afterAll(async () => {
  await em?.stop();
});

/** An emulator command's JSON answer (emulator commands take no --profile). */
async function emulatorJson<T>(e: TestEmulator, args: readonly string[]): Promise<T> {
  const r = await e.raw(['emulator', ...args, '--data-dir', e.dataDir, '--output', 'json']);
  if (r.code !== 0) throw new Error(`cdpctl emulator ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

const clock = (e: TestEmulator, ...flags: string[]): Promise<Clock> => emulatorJson<Clock>(e, ['clock', ...flags]);
const lakeStatus = async (name: string): Promise<string> =>
  (await em.json<{ datalake: { status: string } }>(['datalake', 'describe', '--datalake-name', name])).datalake.status;

describe('the driven clock', () => {
  test('paused, a new data lake stays REQUESTED; advanced 15 minutes it is RUNNING; resumed the clock runs', async () => {
    const paused = await clock(em, '--pause');
    expect(paused.paused).toBe(true);
    const created = await em.json<{ datalake: { status: string } }>([...LAKE, '--datalake-name', 'clock-lake']);
    expect(created.datalake.status).toBe('REQUESTED');
    expect(await lakeStatus('clock-lake')).toBe('REQUESTED');
    // Waiting on a paused clock gets nowhere: the wait times out (exit 6).
    const wait = await em.cli([...LAKE, '--datalake-name', 'clock-wait-lake', '--wait', '--wait-timeout', '1', '--poll-interval', '0.2']);
    expect(wait.code).toBe(6);
    expect(await lakeStatus('clock-lake')).toBe('REQUESTED');
    const stillPaused = await clock(em);
    expect(stillPaused.nowMs).toBe(paused.nowMs);
    const advanced = await clock(em, '--advance', '15m');
    expect(advanced).toMatchObject({ paused: true, nowMs: paused.nowMs + 15 * 60_000 });
    expect(await lakeStatus('clock-lake')).toBe('RUNNING');
    const resumed = await clock(em, '--resume');
    expect(resumed.paused).toBe(false);
    const status = await emulatorJson<{ clockPaused: boolean }>(em, ['status']);
    expect(status.clockPaused).toBe(false);
  });

  test('text output; bad flags are usage errors (exit 2); a stopped emulator has no clock (exit 1)', async () => {
    const text = await em.raw(['emulator', 'clock', '--data-dir', em.dataDir]);
    expect(text.stdout).toMatch(/^\d{4}-\d\d-\d\dT[\d:.]+Z {2}running \(time scale 1000, .*real time\)\n$/);
    const both = await em.raw(['emulator', 'clock', '--pause', '--resume', '--data-dir', em.dataDir]);
    expect(both.code).toBe(2);
    const bad = await em.raw(['emulator', 'clock', '--advance', '15 minutes', '--data-dir', em.dataDir]);
    expect([bad.code, bad.stderr]).toEqual([2, expect.stringContaining('--advance takes a duration such as 30s, 15m')]);
    const none = await em.raw(['emulator', 'clock', '--data-dir', join(em.home, 'nothing-here')]);
    expect([none.code, none.stderr]).toEqual([1, expect.stringContaining('NOT_RUNNING')]);
  });
});

describe('export and import', () => {
  test('export, stop, reset, import, start: the same state, the clock as it was; no admin token, no private key', async () => {
    const e = await startEmulatorProcess();
    try {
      await e.json(['iam', 'groups', 'create', '--group-name', 'exported-group']);
      await e.json(['iam', 'machine-users', 'create', '--machine-user-name', 'exported-mu']);
      await e.json([...LAKE, '--datalake-name', 'exported-lake']);
      await clock(e, '--pause');
      const before = {
        groups: await e.json(['iam', 'groups', 'list']),
        machineUsers: await e.json(['iam', 'machine-users', 'list']),
        lakes: await e.json(['datalake', 'list']),
        clock: await clock(e),
      };
      const file = join(e.home, 'state.json');
      const exported = await e.raw(['emulator', 'export', '--file', file, '--data-dir', e.dataDir]);
      expect([exported.code, exported.stderr]).toEqual([0, expect.stringMatching(/^exported \d+ records to /)]);
      const text = readFileSync(file, 'utf8');
      const pid = JSON.parse(readFileSync(join(e.dataDir, 'emulator.json'), 'utf8')) as { adminToken: string };
      const creds = readFileSync(join(e.home, '.cdp', 'credentials'), 'utf8');
      const privateKey = /cdp_private_key = (.+)/.exec(creds)?.[1] ?? 'missing';
      expect(text).not.toContain(pid.adminToken);
      expect(text).not.toContain(privateKey);
      expect((await e.raw(['emulator', 'stop', '--data-dir', e.dataDir])).code).toBe(0);
      expect((await e.raw(['emulator', 'reset', '--data-dir', e.dataDir])).code).toBe(0);
      const imported = await e.raw(['emulator', 'import', '--file', file, '--data-dir', e.dataDir]);
      expect([imported.code, imported.stderr]).toEqual([0, expect.stringContaining('into the stopped emulator')]);
      const restarted = await run(
        ['emulator', 'start', '--port', String(e.port), '--data-dir', e.dataDir, '--time-scale', '1000', '--detach'],
        {
          home: e.home,
        },
      );
      expect(restarted.code).toBe(0);
      expect({
        groups: await e.json(['iam', 'groups', 'list']),
        machineUsers: await e.json(['iam', 'machine-users', 'list']),
        lakes: await e.json(['datalake', 'list']),
        clock: await clock(e),
      }).toEqual({ ...before, clock: { ...before.clock, aheadMs: expect.any(Number) } });
      // Import into a running emulator elsewhere: same state, and its profile still works (a new admin key).
      const other = await startEmulator();
      try {
        const into = await other.raw(['emulator', 'import', '--file', file, '--data-dir', other.dataDir]);
        expect([into.code, into.stderr]).toEqual([0, expect.stringContaining('into the running emulator')]);
        expect(await other.json(['iam', 'groups', 'list'])).toEqual(before.groups);
        expect((await clock(other)).nowMs).toBe(before.clock.nowMs);
      } finally {
        await other.stop();
      }
    } finally {
      await e.stop();
    }
  });

  test('a file that is not an export is refused (exit 2) and changes nothing', async () => {
    const file = join(em.home, 'not-state.json');
    writeFileSync(file, JSON.stringify({ hello: 'world' }));
    const r = await em.raw(['emulator', 'import', '--file', file, '--data-dir', em.dataDir]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringContaining('is not an emulator state export')]);
    expect(await lakeStatus('clock-lake')).toBe('RUNNING');
  });
});

describe('seed files', () => {
  test('applied at start as the admin; applied once; a bad file is refused naming its line and nothing is loaded', async () => {
    const home = tempHome();
    const seed = join(home, 'seed.yaml');
    writeFileSync(
      seed,
      [
        '# fixtures for CI',
        '- iam createGroup: {groupName: data-eng}',
        '- iam createMachineUser:',
        '    machineUserName: etl',
        '- iam addMachineUserToGroup: {groupName: data-eng, machineUserName: etl}',
        `- datalake createAWSDatalake: {datalakeName: seeded-lake, environmentName: sales-env, cloudProviderConfiguration: {instanceProfile: "arn:aws:iam::123456789012:instance-profile/x", storageBucketLocation: "s3a://seeded-bucket/lake"}}`,
        '',
      ].join('\n'),
    );
    const bad = join(home, 'bad.yaml');
    writeFileSync(bad, '- iam createGroup: {groupName: ops}\n- iam createGroup: {groupNam: typo}\n');
    const dataDir = join(home, 'seeded');
    const startWith = (file: string): ReturnType<typeof run> =>
      run(['emulator', 'start', '--port', '0', '--data-dir', dataDir, '--time-scale', '1000', '--detach', '--seed', file], { home });
    try {
      const refused = await startWith(bad);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`${bad} line 2: iam createGroup: INVALID_ARGUMENT: unknown field "groupNam"`);
      expect(refused.stderr).toContain('nothing of the seed file was applied');
      const started = await startWith(seed);
      expect(started.code).toBe(0);
      const groups = await run(['iam', 'groups', 'list', '--profile', 'emulator', '-o', 'json'], { home });
      const names = (JSON.parse(groups.stdout) as { groups: Array<{ groupName: string }> }).groups.map((g) => g.groupName);
      expect(names).toEqual(['data-eng']);
      const members = await run(['iam', 'groups', 'list-members', '--group-name', 'data-eng', '--profile', 'emulator', '-o', 'json'], {
        home,
      });
      expect(JSON.parse(members.stdout).memberCrns).toEqual([expect.stringContaining(':machineUser:etl/')]);
      const lake = await run(['datalake', 'describe', '--datalake-name', 'seeded-lake', '--profile', 'emulator', '-o', 'json'], { home });
      expect(lake.code).toBe(0);
      // Started again with the same file: skipped, not applied twice.
      await run(['emulator', 'stop', '--data-dir', dataDir], { home });
      expect((await startWith(seed)).code).toBe(0);
      expect(readFileSync(join(dataDir, 'emulator.log'), 'utf8')).toMatch(/seed .*seed\.yaml was applied before; skipped/);
    } finally {
      await run(['emulator', 'stop', '--data-dir', dataDir], { home });
    }
  });
});

describe('the request log', () => {
  test('follow shows each call as it is answered: request id, operation, caller, status, duration; never a body', async () => {
    const me = await em.json<{ user: { crn: string } }>(['iam', 'users', 'get']);
    // The follower prints the last request logged (this getUser), then what comes after it.
    const follow = start(['emulator', 'log', '--follow', '--tail', '1', '--output', 'json', '--data-dir', em.dataDir], { home: em.home });
    try {
      await follow.waitFor(/"operation":"getUser"/);
      await em.json(['iam', 'groups', 'create', '--group-name', 'logged-group']);
      const key = await em.json<{ privateKey: string }>(['iam', 'access-keys', 'create', '--type', 'V2']);
      expect((await em.cli(['iam', 'groups', 'delete', '--group-name', 'no-such-group', '--yes'])).code).toBe(1);
      await follow.waitFor(/"operation":"deleteGroup"/);
      const lines = follow
        .stdout()
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const created = lines.find((l) => l.operation === 'createGroup');
      expect(created).toEqual({
        time: expect.stringMatching(/Z$/),
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        service: 'iam',
        operation: 'createGroup',
        caller: me.user.crn,
        status: 200,
        durationMs: expect.any(Number),
      });
      expect(lines.find((l) => l.operation === 'deleteGroup')).toMatchObject({ status: 404, code: 'NOT_FOUND' });
      expect(follow.stdout()).not.toContain(key.privateKey);
      expect(follow.stdout()).not.toContain('logged-group');
    } finally {
      follow.child.kill('SIGINT');
      await follow.done;
    }
    const tail = await em.raw(['emulator', 'log', '--tail', '1', '--data-dir', em.dataDir]);
    expect(tail.stdout).toMatch(/^\S+Z {2}[0-9a-f-]{36} {2}iam deleteGroup {2}user:\S+ {2}404 NOT_FOUND {2}[\d.]+ ms\n$/);
  });
});
