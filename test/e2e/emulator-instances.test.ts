/**
 * The emulator a team builds its CI on, through bin/run.js: instances with
 * profiles of their own and parallel calls against both without
 * cross-talk; a start that repairs a stale profile and says so; a stop that
 * leaves no profile pointing at a dead port (restoring what was there, or
 * removing it); `status` listing every instance; `--empty` accounts; a
 * `--wait` that polls in emulated time and so sees a jump of the clock at
 * its next poll; the emulator process telling its starter when it
 * answers (so a start waits for no poll); and the CI recipe of
 * docs/getting-started.md, run as written there.
 */
import { afterAll, describe, expect, test } from '@jest/globals';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { Readable } from 'node:stream';
import { join } from 'node:path';
import { ROOT, run, runCli, start, tempHome, type RunResult } from '../helpers/cli.js';

const homes: string[] = [];
afterAll(async () => {
  for (const home of homes) {
    await run(['emulator', 'stop', '--data-dir', join(home, 'a')], { home });
    await run(['emulator', 'stop', '--data-dir', join(home, 'b')], { home });
    rmSync(home, { recursive: true, force: true });
  }
});

function newHome(): { home: string; cdpctl: (args: readonly string[], input?: string) => Promise<RunResult> } {
  const home = tempHome('cdpctl-instances-');
  homes.push(home);
  return { home, cdpctl: (args, input) => runCli(args, { home, ...(input !== undefined ? { input } : {}) }) };
}

const ok = (r: RunResult): RunResult => {
  if (r.code !== 0) throw new Error(`exit ${r.code}: ${r.stderr}${r.stdout}`);
  return r;
};
const config = (home: string): string => readFileSync(join(home, '.cdp', 'config'), 'utf8');

describe('instances that do not step on each other', () => {
  test('two instances with their own profiles; parallel calls against both; status lists both; stop gives each profile back', async () => {
    const { home, cdpctl } = newHome();
    const a = ok(await cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', join(home, 'a'), '--time-scale', '1000']));
    // A second instance may not take the profile the first writes: refused, nothing started.
    const clash = await cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', join(home, 'b')]);
    expect([clash.code, clash.stderr]).toEqual([
      2,
      expect.stringContaining('PROFILE_IN_USE: profile "emulator" belongs to the emulator running for'),
    ]);
    ok(
      await cdpctl([
        'emulator',
        'start',
        '--detach',
        '--port',
        '0',
        '--data-dir',
        join(home, 'b'),
        '--profile',
        'emu-b',
        '--time-scale',
        '1000',
      ]),
    );
    expect(a.stdout).toMatch(/time scale 1000/);

    // Parallel scripts, each on its own profile: each account sees only its own groups.
    const make = (profile: string, n: number): Promise<RunResult[]> =>
      Promise.all(
        Array.from({ length: n }, (_, i) => cdpctl(['iam', 'groups', 'create', '--group-name', `${profile}-g${i}`, '--profile', profile])),
      );
    const [ra, rb] = await Promise.all([make('emulator', 4), make('emu-b', 4)]);
    for (const r of [...ra, ...rb]) ok(r);
    const groups = async (profile: string): Promise<string[]> =>
      (
        JSON.parse(ok(await cdpctl(['iam', 'groups', 'list', '--profile', profile, '-o', 'json'])).stdout) as {
          groups: Array<{ groupName: string }>;
        }
      ).groups
        .map((g) => g.groupName)
        .sort();
    expect(await groups('emulator')).toEqual(['emulator-g0', 'emulator-g1', 'emulator-g2', 'emulator-g3']);
    expect(await groups('emu-b')).toEqual(['emu-b-g0', 'emu-b-g1', 'emu-b-g2', 'emu-b-g3']);

    const status = JSON.parse(ok(await cdpctl(['emulator', 'status', '--output', 'json'])).stdout) as Array<{
      profile: string;
      dataDir: string;
      port: number;
      clock: string;
    }>;
    expect(status.map((s) => [s.profile, s.dataDir])).toEqual(
      expect.arrayContaining([
        ['emulator', join(home, 'a')],
        ['emu-b', join(home, 'b')],
      ]),
    );
    expect(status).toHaveLength(2);
    expect(status.every((s) => typeof s.clock === 'string' && s.port > 0)).toBe(true);

    // Emulator commands find an instance by its profile.
    const clock = JSON.parse(ok(await cdpctl(['emulator', 'clock', '--profile', 'emu-b', '--output', 'json'])).stdout) as {
      timeScale: number;
    };
    expect(clock.timeScale).toBe(1000);

    const stopB = ok(await cdpctl(['emulator', 'stop', '--profile', 'emu-b']));
    expect(stopB.stderr).toContain('profile "emu-b" removed');
    expect(config(home)).not.toContain('[profile emu-b]');
    // The data directory remembers its profile: started again without --profile, it writes emu-b.
    ok(await cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', join(home, 'b'), '--time-scale', '1000']));
    expect(await groups('emu-b')).toHaveLength(4);
    ok(await cdpctl(['emulator', 'stop', '--data-dir', join(home, 'b')]));
    // Nothing runs for b now: stopping it again is no error, and names the one that runs (a) with the flags that reach it.
    const reachA = `one is running for ${join(home, 'a')} (profile "emulator"): give --data-dir ${join(home, 'a')} or --profile emulator`;
    const stopNone = ok(await cdpctl(['emulator', 'stop', '--data-dir', join(home, 'b')]));
    expect(stopNone.stderr).toContain(`no emulator is running for that data directory; ${reachA}`);
    // The clock, which needs one, is refused with the same pointer.
    const noClock = await cdpctl(['emulator', 'clock', '--data-dir', join(home, 'b')]);
    expect([noClock.code, noClock.stderr]).toEqual([
      1,
      expect.stringContaining(`NOT_RUNNING: no emulator is running for ${join(home, 'b')}`),
    ]);
    expect(noClock.stderr).toContain(reachA);
    const stopA = ok(await cdpctl(['emulator', 'stop', '--data-dir', join(home, 'a')]));
    expect(stopA.stderr).toContain('profile "emulator" removed');
    const none = await cdpctl(['emulator', 'status']);
    expect(none.code).toBe(1);
  });

  test('start repairs a profile that points elsewhere; stop restores what the profile held before', async () => {
    const { home, cdpctl } = newHome();
    // The user's own profile named "emulator", pointing at a real control plane, before any emulator ran.
    ok(await cdpctl(['configure', 'set', 'cdp_endpoint_url', 'https://api.eu-1.cdp.cloudera.com/', '--profile', 'emulator']));
    ok(await cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', join(home, 'a'), '--time-scale', '1000']));
    ok(await cdpctl(['iam', 'users', 'get', '--profile', 'emulator']));

    // Something repoints the profile at a dead port: a start of the running instance repairs it, and says so.
    ok(await cdpctl(['configure', 'set', 'cdp_endpoint_url', 'http://localhost:1/', '--profile', 'emulator']));
    ok(await cdpctl(['configure', 'set', 'endpoint_url', 'http://localhost:1/', '--profile', 'emulator']));
    const again = ok(await cdpctl(['emulator', 'start', '--detach', '--data-dir', join(home, 'a')]));
    expect(again.stdout).toContain('already running');
    expect(again.stderr).toContain('profile "emulator" pointed at http://localhost:1/; repaired: it points at this emulator again');
    ok(await cdpctl(['iam', 'users', 'get', '--profile', 'emulator']));
    // A start that finds nothing wrong says nothing of repairs.
    expect(ok(await cdpctl(['emulator', 'start', '--detach', '--data-dir', join(home, 'a')])).stderr).not.toContain('repaired');

    const stop = ok(await cdpctl(['emulator', 'stop', '--data-dir', join(home, 'a')]));
    expect(stop.stderr).toContain('profile "emulator" restored to what it held before this emulator took it');
    const after = config(home);
    expect(after).toContain('cdp_endpoint_url = https://api.eu-1.cdp.cloudera.com/');
    expect(after).not.toMatch(/localhost/);
  });
});

describe('a clean account', () => {
  test('--empty: the account and its admin only; refused on a populated data directory', async () => {
    const { home, cdpctl } = newHome();
    ok(await cdpctl(['emulator', 'start', '--detach', '--empty', '--port', '0', '--data-dir', join(home, 'a'), '--time-scale', '1000']));
    const json = async (args: string[]): Promise<Record<string, unknown[]>> =>
      JSON.parse(ok(await cdpctl([...args, '--profile', 'emulator', '-o', 'json'])).stdout || '{}') as Record<string, unknown[]>;
    expect((await json(['environments', 'list'])).environments).toEqual([]);
    expect((await json(['environments', 'credentials', 'list'])).credentials).toEqual([]);
    expect((await json(['datalake', 'list'])).datalakes ?? []).toEqual([]);
    expect((await json(['opdb', 'databases', 'list'])).databases).toEqual([]);
    expect((await json(['iam', 'users', 'list'])).users).toHaveLength(1);
    const lake = await cdpctl([
      'opdb',
      'databases',
      'create',
      '--environment-name',
      'sales-env',
      '--database-name',
      'x',
      '--profile',
      'emulator',
    ]);
    expect([lake.code, lake.stderr]).toEqual([1, expect.stringContaining('environment sales-env not found; this account has none')]);
    ok(await cdpctl(['emulator', 'stop', '--data-dir', join(home, 'a')]));

    // A populated data directory cannot be made empty.
    ok(await cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', join(home, 'b'), '--profile', 'full']));
    ok(await cdpctl(['environments', 'list', '--profile', 'full']));
    ok(await cdpctl(['emulator', 'stop', '--data-dir', join(home, 'b')]));
    const refused = await cdpctl(['emulator', 'start', '--detach', '--empty', '--port', '0', '--data-dir', join(home, 'b')]);
    expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('--empty makes a new account only')]);
  });
});

describe('time that suits the use', () => {
  test('a --wait polls in emulated time: on a paused clock it keeps polling, and the poll after a jump of the clock ends it', async () => {
    const { home, cdpctl } = newHome();
    const dir = join(home, 'a');
    // The default time scale (60): the model's 30 s interval is half a second of real time.
    ok(await cdpctl(['emulator', 'start', '--detach', '--port', '0', '--data-dir', dir]));
    ok(await cdpctl(['emulator', 'clock', '--pause', '--data-dir', dir]));
    const create = [
      'opdb',
      'databases',
      'create',
      '--environment-name',
      'sales-env',
      '--database-name',
      'jumpy',
      '--profile',
      'emulator',
      '--wait',
    ];
    const waiting = start(create, { home });
    const polls = async (): Promise<number> =>
      ok(await cdpctl(['emulator', 'log', '--data-dir', dir]))
        .stdout.split('\n')
        .filter((l) => l.includes('describeDatabase')).length;
    // Many polls on a paused clock (at the model's own interval this would take minutes): the wait goes on.
    for (let i = 0; i < 600 && (await polls()) < 8; i++) await new Promise((r) => setTimeout(r, 100));
    expect(await polls()).toBeGreaterThanOrEqual(8);
    expect(waiting.child.exitCode).toBeNull();
    // The jump lands somewhere between these two instants (the clock command is a process of its own,
    // and a loaded machine can take a while to start it and to see it exit).
    const asked = Date.now();
    ok(await cdpctl(['emulator', 'clock', '--advance', '10m', '--data-dir', dir]));
    const jumped = Date.now();
    const done = await waiting.done;
    expect([done.code, JSON.parse(done.stdout).databaseDetails.status]).toEqual([0, 'AVAILABLE']);
    // The first poll that starts after the jump sees the new state and ends the wait: at least one poll
    // came after the clock was asked to move, and none after the one that followed the jump.
    const log = ok(await cdpctl(['emulator', 'log', '--data-dir', dir, '--output', 'json']))
      .stdout.trim()
      .split('\n');
    const arrived = log
      .map((l) => JSON.parse(l) as { time: string; operation: string })
      .filter((e) => e.operation === 'describeDatabase')
      .map((e) => Date.parse(e.time));
    expect(arrived.filter((t) => t >= asked).length).toBeGreaterThanOrEqual(1);
    expect(arrived.filter((t) => t > jumped).length).toBeLessThanOrEqual(1);
  });
});

describe('a start that waits for no poll', () => {
  test('the emulator process writes a line on --ready-fd once it answers, then closes it; without a seed it loads no yaml', async () => {
    const { home } = newHome();
    const dataDir = join(home, 'a');
    // What the process loaded through require (the yaml package is CommonJS), written when it exits.
    const probe = join(home, 'probe.cjs');
    writeFileSync(
      probe,
      "process.on('exit', () => process.stderr.write('PROBE ' + JSON.stringify(Object.keys(require.cache)) + '\\n'));\n",
    );
    const child = spawn(
      process.execPath,
      [join(ROOT, 'dist', 'emulator', 'main.mjs'), '--data-dir', dataDir, '--port', '0', '--profile', 'ready', '--ready-fd', '3'],
      { env: { ...process.env, HOME: home, NODE_OPTIONS: `--require ${probe}` }, stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
    );
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    const pipe = child.stdio[3] as Readable;
    let said = '';
    pipe.on('data', (d: Buffer) => (said += d.toString()));
    await new Promise((resolve) => pipe.on('end', resolve));
    expect(said).toBe('ready\n');
    // Once it says so, its pid file is there and it answers.
    const pidFile = JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8')) as { pid: number; port: number };
    expect(pidFile.pid).toBe(child.pid);
    const health = await fetch(`http://127.0.0.1:${pidFile.port}/_emulator/health`);
    expect(health.status).toBe(200);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(existsSync(join(dataDir, 'emulator.json'))).toBe(false);
    const files = JSON.parse(
      stderr
        .split('\n')
        .find((l) => l.startsWith('PROBE '))
        ?.slice('PROBE '.length) ?? 'null',
    ) as string[];
    expect(files.some((f) => f.includes('better-sqlite3'))).toBe(true);
    expect(files.filter((f) => f.includes(`node_modules/yaml/`))).toEqual([]);
  });
});

describe('the CI recipe of docs/getting-started.md', () => {
  test('runs as written', async () => {
    const { home } = newHome();
    const doc = readFileSync(join(ROOT, 'docs', 'getting-started.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## The emulator in a CI job'));
    const seed = /```yaml\n# fixtures\/ci-seed.yaml[^\n]*\n([\s\S]*?)```/.exec(section)?.[1];
    const script = /```sh\n(set -euo pipefail[\s\S]*?)```/.exec(section)?.[1];
    expect(seed).toContain('- iam createGroup:');
    expect(script).toContain('cdpctl emulator start --detach');
    writeFileSync(join(home, 'ci-seed.yaml'), seed ?? '');
    // `cdpctl` is bin/run.js; the seed file is where the recipe names it.
    const bin = join(home, 'bin');
    await run(['--version'], { home });
    writeFileSync(join(home, 'cdpctl'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin', 'run.js')}" "$@"\n`, { mode: 0o755 });
    const text = (script ?? '').replace('fixtures/ci-seed.yaml', join(home, 'ci-seed.yaml'));
    const { spawnSync } = await import('node:child_process');
    const r = spawnSync('bash', ['-c', text], {
      cwd: home,
      encoding: 'utf8',
      env: {
        ...process.env,
        HOME: home,
        PATH: `${home}:${bin}:${process.env.PATH ?? ''}`,
        NO_COLOR: '1',
        CI: 'true',
        CDP_PROFILE: '',
        NODE_OPTIONS: '',
      },
      timeout: 120_000,
    });
    expect([r.status, r.stderr]).toEqual([0, expect.any(String)]);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toContain('AVAILABLE');
    expect(lines.find((l) => l.startsWith('jdbc:'))).toMatch(/^jdbc:phoenix:thin:url=https:\/\/orders-gateway\.ci-env\./);
    // The log was shown at the end, and the stop left no profile behind.
    expect(r.stdout + r.stderr).toContain('createDatabase');
    expect(readFileSync(join(home, '.cdp', 'config'), 'utf8')).not.toContain('[profile ci]');
  });
});
