/**
 * The emulator as a library (`cdpctl/emulator`), as a test in a user's own
 * project starts it: in memory or on a data directory, a free port, a
 * client bound to it, its clock under the test's hand, its request log,
 * a profile for the CLI on request, and nothing left behind by stop.
 */
import { describe, expect, test } from '@jest/globals';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../../../src/lib/sdk/index.js';
import { startEmulator } from '../../../src/lib/sdk/emulator.js';
import { ROOT } from '../../helpers/cli.js';
import { runInProcess } from '../../helpers/in-process.js';

const LAKE = {
  datalakeName: 'clock-lake',
  environmentName: 'sales-env',
  cloudProviderConfiguration: {
    instanceProfile: 'arn:aws:iam::123456789012:instance-profile/x',
    storageBucketLocation: 's3a://sales-data/lake',
  },
};

describe('startEmulator', () => {
  test('in memory: its own port and account, isolated from another one; stop leaves nothing on disk', async () => {
    // Its temporary directory (for uploads) is named by its process, so other test processes' do not count.
    const ours = (): string[] => readdirSync(tmpdir()).filter((f) => f.startsWith(`cdpctl-emulator-${process.pid}-`));
    const before = ours();
    const a = await startEmulator();
    const b = await startEmulator();
    expect(ours()).toHaveLength(before.length + 2);
    try {
      expect(a.port).not.toBe(b.port);
      expect(a.endpoint).toBe(`http://localhost:${a.port}/`);
      expect(a.accountId).not.toBe(b.accountId);
      await a.client.iam.createGroup({ groupName: 'only-in-a' });
      const inB = await b.client.iam.listGroups({});
      expect(inB.groups.map((g) => g.groupName)).not.toContain('only-in-a');
    } finally {
      await a.stop();
      await b.stop();
      await a.stop();
    }
    expect(ours()).toEqual(before);
    await expect(a.client.iam.getUser()).rejects.toMatchObject({ kind: 'network' });
  });

  test('on a data directory: the state survives a stop and a second start', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'cdpctl-emu-data-'));
    try {
      const first = await startEmulator({ dataDir });
      await first.client.iam.createGroup({ groupName: 'kept' });
      await first.stop();
      expect(existsSync(join(dataDir, 'state.db'))).toBe(true);
      const second = await startEmulator({ dataDir });
      try {
        expect((await second.client.iam.listGroups({ groupNames: ['kept'] })).groups).toHaveLength(1);
        expect(second.accountId).toBe(first.accountId);
      } finally {
        await second.stop();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  test('the clock: paused, a new lake stays REQUESTED; advance("15m") makes it RUNNING; a bad duration is a UsageError', async () => {
    const emu = await startEmulator({ paused: true });
    try {
      expect(emu.clock.paused).toBe(true);
      await emu.client.datalake.createAWSDatalake(LAKE);
      const status = async (): Promise<string | undefined> =>
        (await emu.client.datalake.describeDatalake({ datalakeName: 'clock-lake' })).datalake?.status;
      expect(await status()).toBe('REQUESTED');
      const at = emu.clock.now().getTime();
      emu.clock.advance('15m');
      expect(emu.clock.now().getTime() - at).toBe(15 * 60_000);
      expect(await status()).toBe('RUNNING');
      expect(() => emu.clock.advance('soon')).toThrow(UsageError);
      expect(() => emu.clock.advance(-5)).toThrow(UsageError);
      emu.clock.resume();
      expect(emu.clock.paused).toBe(false);
    } finally {
      await emu.stop();
    }
  });

  test('the request log names every answered call, never a body', async () => {
    const emu = await startEmulator();
    try {
      await emu.client.iam.createGroup({ groupName: 'logged' });
      await emu.client.iam.getUser({ userId: 'missing' }).catch(() => undefined);
      const log = emu.requests();
      expect(log.map((e) => [e.operation, e.status])).toEqual([
        ['createGroup', 200],
        ['getUser', 404],
      ]);
      expect(JSON.stringify(log)).not.toContain('logged');
    } finally {
      await emu.stop();
    }
  });

  test('empty: only the admin, no pre-created environments; a seed file is applied', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cdpctl-emu-seed-'));
    const seed = join(dir, 'seed.yaml');
    writeFileSync(seed, '- iam createGroup: { groupName: seeded }\n');
    const emu = await startEmulator({ empty: true, seed });
    try {
      expect((await emu.client.environments.listEnvironments({})).environments).toEqual([]);
      expect((await emu.client.iam.listGroups({})).groups.map((g) => g.groupName)).toEqual(['seeded']);
    } finally {
      await emu.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('writeProfile points a CLI profile at it; bad options are UsageErrors', async () => {
    const home = mkdtempSync(join(tmpdir(), 'cdpctl-emu-home-'));
    const emu = await startEmulator();
    try {
      await emu.writeProfile('mine', { HOME: home });
      const r = await runInProcess(['iam', 'users', 'get', '--profile', 'mine'], { root: ROOT, env: { HOME: home } });
      expect(r?.code).toBe(0);
      expect(JSON.parse(r?.stdout ?? '{}')).toMatchObject({ user: { email: 'admin@example.com' } });
    } finally {
      await emu.stop();
      rmSync(home, { recursive: true, force: true });
    }
    await expect(startEmulator({ timeScale: 0 })).rejects.toThrow(UsageError);
    await expect(startEmulator({ seed: '/nonexistent/seed.yaml' })).rejects.toMatchObject({ code: 'SEED_FILE' });
    // An item the emulator refuses: a UsageError too, naming the line, and nothing applied.
    const dir = mkdtempSync(join(tmpdir(), 'cdpctl-emu-badseed-'));
    writeFileSync(join(dir, 'seed.yaml'), '- iam createGroup: { groupName: fine }\n- iam getUser: { userId: nobody }\n');
    const refused = await startEmulator({ seed: join(dir, 'seed.yaml') }).catch((e: unknown) => e);
    rmSync(dir, { recursive: true, force: true });
    expect(refused).toBeInstanceOf(UsageError);
    expect(refused).toMatchObject({
      code: 'SEED_FILE',
      message: expect.stringMatching(/line 2: iam getUser: NOT_FOUND.*nothing of the seed file was applied/),
    });
  });
});
