/**
 * Starting, finding and stopping emulators (control.ts), in this process
 * with a HOME and data directories of the test's own: an emulator started
 * in process writes its pid file, registers, writes its profile and is
 * found as running (its health naming this process); a second one for the
 * same data directory, or on a profile another one writes, is refused;
 * `--profile` finds the data directory of the instance writing it; admin
 * requests carry the pid file's token; a reset is refused while it runs;
 * stopping it takes the pid file and registry entry away and gives the
 * profile back; bad seeds, a taken port and --empty on a full store are
 * refused before anything is left running.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../../src/lib/core/config.js';
import { CdpError } from '../../../src/lib/core/errors.js';
import {
  adminRequest,
  defaultDataDir,
  emulatorDir,
  readPidFile,
  readSeed,
  requireRunning,
  resetEmulator,
  running,
  runningInstances,
  startInProcess,
  stopEmulator,
} from '../../../src/lib/emulator/control.js';
import { profileSections, registered } from '../../../src/lib/emulator/instances.js';

let root: string;
let env: Env;
let a: Awaited<ReturnType<typeof startInProcess>>;
let dirA: string;

const start = (dataDir: string, more: Partial<Parameters<typeof startInProcess>[0]> = {}) =>
  startInProcess({ dataDir, port: 0, timeScale: 1, ...more }, env);

/** The CdpError a promise is refused with. */
async function refusedWith(p: Promise<unknown>): Promise<CdpError> {
  const outcome = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(outcome instanceof CdpError)) throw new Error(`expected a CdpError, got ${String(outcome)}`);
  return outcome;
}

/** The CdpError a start is refused with; a start that succeeds is stopped again, so that a failing test does not leave it running. */
async function refusedStart(dataDir: string, more: Partial<Parameters<typeof startInProcess>[0]> = {}): Promise<CdpError> {
  const started = await start(dataDir, more).catch((e: unknown) => e);
  if (started instanceof CdpError) return started;
  if (started && typeof started === 'object' && 'stop' in started) await (started as { stop: () => Promise<void> }).stop();
  throw new Error(`the start for ${dataDir} was not refused`);
}

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'cdpctl-control-'));
  const home = join(root, 'home');
  mkdirSync(home);
  env = { HOME: home };
  dirA = join(root, 'a');
  a = await start(dirA);
});

afterAll(async () => {
  await a?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('a started emulator', () => {
  test('writes its pid file (this process, its port, an admin token, its account), registers, and is found running', async () => {
    const pid = readPidFile(dirA);
    expect(pid).toMatchObject({
      pid: process.pid,
      port: a.emu.port,
      accountId: a.boot.accountId,
      adminToken: expect.stringMatching(/^[0-9a-f]{48}$/),
    });
    expect(registered(env)).toEqual([{ dataDir: dirA, port: a.emu.port, pid: process.pid, profile: 'emulator' }]);
    const found = await running(dirA);
    expect(found?.health).toMatchObject({ pid: process.pid, port: a.emu.port, profile: 'emulator', dataDir: dirA, timeScale: 1 });
    expect(profileSections('emulator', env).config?.cdp_endpoint_url).toBe(`http://localhost:${a.emu.port}/`);
    expect((await requireRunning(dirA, 'start it')).pid.port).toBe(a.emu.port);
  });

  test('a second start for the same data directory is refused (ALREADY_RUNNING)', async () => {
    const again = await refusedStart(dirA);
    expect([again.kind, again.code]).toEqual(['usage', 'ALREADY_RUNNING']);
    expect(again.message).toBe(`an emulator for ${dirA} is already running on port ${a.emu.port} (pid ${process.pid})`);
  });

  test('another data directory is refused the profile this one writes (PROFILE_IN_USE), and starts with one of its own', async () => {
    const dirB = join(root, 'b');
    const taken = await refusedStart(dirB);
    expect(taken.code).toBe('PROFILE_IN_USE');
    expect(taken.message).toMatch(/^profile "emulator" belongs to the emulator running for /);
    expect(existsSync(join(dirB, 'emulator.json'))).toBe(false);
    const b = await start(dirB, { profile: 'second' });
    try {
      const all = await runningInstances(env);
      expect(all.map((i) => i.entry.profile).sort()).toEqual(['emulator', 'second']);
      expect(await emulatorDir({ profile: 'second' }, env)).toBe(dirB);
      expect(await emulatorDir({ 'data-dir': '/somewhere' }, env)).toBe('/somewhere');
    } finally {
      await b.stop();
    }
    expect(profileSections('second', env)).toEqual({});
    const gone = await refusedWith(emulatorDir({ profile: 'second' }, env));
    expect([gone.code, gone.message]).toEqual(['NOT_RUNNING', 'no running emulator writes profile "second" (see cdpctl emulator status)']);
  });

  test('admin requests carry the token of the pid file; another token is PERMISSION_DENIED', async () => {
    const pid = readPidFile(dirA);
    if (!pid) throw new Error('no pid file');
    const clock = await adminRequest(pid, 'POST', '/_emulator/clock', { pause: true });
    expect(clock).toMatchObject({ paused: true });
    await adminRequest(pid, 'POST', '/_emulator/clock', { resume: true });
    const wrong = await refusedWith(adminRequest({ ...pid, adminToken: 'x'.repeat(48) }, 'GET', '/_emulator/clock'));
    expect([wrong.code, wrong.message]).toEqual(['PERMISSION_DENIED', 'admin requests need the token from the pid file']);
  });

  test('a reset is refused while it runs (RUNNING)', async () => {
    const r = await refusedWith(resetEmulator(dirA));
    expect([r.kind, r.code]).toEqual(['usage', 'RUNNING']);
    expect(existsSync(join(dirA, 'state.db'))).toBe(true);
  });
});

describe('stopping, and what is left', () => {
  test('stop takes the pid file and registry entry away and gives the profile back; then it is not running, and a reset deletes the state', async () => {
    const dir = join(root, 'c');
    const c = await start(dir, { profile: 'third' });
    expect(profileSections('third', env).config).toBeDefined();
    await c.stop();
    await c.stop();
    expect(readPidFile(dir)).toBeUndefined();
    expect(registered(env).map((e) => e.profile)).toEqual(['emulator']);
    expect(profileSections('third', env)).toEqual({});
    expect(await running(dir)).toBeUndefined();
    // A home whose registry names no emulator: the refusal says only what to do.
    const notRunning = await refusedWith(requireRunning(dir, 'start it first', { HOME: join(root, 'nobody') }));
    expect([notRunning.code, notRunning.message]).toEqual([
      'NOT_RUNNING',
      `no emulator is running for ${dir}; start it first (cdpctl emulator start --detach)`,
    ]);
    // One running for another data directory (a's) is named, with the flags that reach it.
    const elsewhere = await refusedWith(requireRunning(dir, 'start it first', env));
    expect(elsewhere.message).toBe(
      `no emulator is running for ${dir}; start it first (cdpctl emulator start --detach); one is running for ${dirA} (profile "emulator"): give --data-dir ${dirA} or --profile emulator`,
    );
    mkdirSync(join(dir, 'uploads'), { recursive: true });
    await resetEmulator(dir);
    for (const f of ['state.db', 'uploads']) expect(existsSync(join(dir, f))).toBe(false);
    expect(existsSync(join(dir, 'instance.json'))).toBe(true);
  });

  test('stopEmulator on a pid file whose process is gone removes the file and answers nothing', async () => {
    const dir = join(root, 'stale');
    mkdirSync(dir);
    const dead = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(join(dir, 'emulator.json'), JSON.stringify({ pid: dead, port: 1, adminToken: 'x', accountId: 'a', startedAt: '' }));
    expect(await stopEmulator(dir)).toBeUndefined();
    expect(existsSync(join(dir, 'emulator.json'))).toBe(false);
  });
});

describe('starts refused before anything runs', () => {
  test('a seed file that does not parse is a usage error naming its line (SEED_FILE); one whose item is refused says nothing was applied', async () => {
    const bad = join(root, 'bad-seed.yaml');
    writeFileSync(bad, '- iam createGroup: {groupName: a}\n- not an entry\n');
    const parsed = await refusedWith(Promise.resolve().then(() => readSeed(bad)));
    expect([parsed.kind, parsed.code]).toEqual(['usage', 'SEED_FILE']);
    expect(parsed.message).toMatch(new RegExp(`^${bad} line 2: each item is one`));
    const twice = join(root, 'twice-seed.yaml');
    writeFileSync(twice, '- iam createGroup: {groupName: a}\n- iam createGroup: {groupName: a}\n');
    const dir = join(root, 'seeded');
    const applied = await refusedStart(dir, { seed: twice, profile: 'seeded' });
    expect(applied.code).toBe('SEED_FILE');
    expect(applied.message).toMatch(/line 2: iam createGroup: ALREADY_EXISTS: .*; nothing of the seed file was applied$/);
    expect(readPidFile(dir)).toBeUndefined();
    expect(await running(dir)).toBeUndefined();
  });

  test('a port in use is PORT_IN_USE; --empty on a store with pre-created resources is NOT_EMPTY', async () => {
    const busy = await refusedStart(join(root, 'busy'), { port: a.emu.port, profile: 'busy' });
    expect([busy.code, busy.message]).toEqual([
      'PORT_IN_USE',
      `port ${a.emu.port} is in use; choose another with --port (0 picks a free one)`,
    ]);
    const full = join(root, 'full');
    const first = await start(full, { profile: 'full' });
    await first.stop();
    const empty = await refusedStart(full, { profile: 'full', empty: true });
    expect(empty.code).toBe('NOT_EMPTY');
    expect(await running(full)).toBeUndefined();
  });

  test('the default data directory is $CDPCTL_EMULATOR_DIR, else ~/.cdpctl/emulator', () => {
    expect(defaultDataDir({ HOME: '/home/u' })).toBe('/home/u/.cdpctl/emulator');
    expect(defaultDataDir({ HOME: '/home/u', CDPCTL_EMULATOR_DIR: '/data/emu' })).toBe('/data/emu');
  });
});
