/**
 * Test helpers that use cdpctl the way a user does: spawn bin/run.js in a
 * temporary HOME, and start emulators through `cdpctl emulator start`.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startInProcess } from '../../src/lib/emulator/control.js';
import { parseDuration } from '../../src/lib/emulator/clock.js';
import { parseFaults } from '../../src/lib/emulator/serve.js';
import { emulatorWaitClock } from '../../src/lib/sdk/emulator.js';
import type { Clock } from '../../src/lib/core/clock.js';
import { runInProcess } from './in-process.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BIN = join(ROOT, 'bin', 'run.js');

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env?: Record<string, string | undefined>;
  readonly input?: string | Buffer;
  readonly timeoutMs?: number;
  /** Working directory (default: this process's). */
  readonly cwd?: string;
}

/** A clean environment: no CDP_* or proxy variables from the developer's shell. */
export function baseEnv(home: string): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined) continue;
    if (/^(CDP_|CDPCTL_|HTTPS?_PROXY|https?_proxy|NO_PROXY|no_proxy|NODE_OPTIONS|FORCE_COLOR)/.test(k)) continue;
    env[k] = v;
  }
  env.HOME = home;
  env.NO_COLOR = '1';
  env.CI = 'true';
  env.OCLIF_SKIP_NEW_VERSION_CHECK = 'true';
  return env;
}

export function run(args: readonly string[], opts: RunOptions & { home: string }): Promise<RunResult> {
  return start(args, opts).done;
}

/**
 * Runs cdpctl in this process where it can (in-process.ts: the fast path,
 * with the HOME and variables a process would get), else as a process: a
 * line the fast path leaves to oclif, or one that needs a working directory.
 */
export async function runCli(args: readonly string[], opts: RunOptions & { home: string; clock?: Clock }): Promise<RunResult> {
  const { clock, ...rest } = opts;
  const inProcess =
    opts.cwd === undefined
      ? await runInProcess(args, { root: ROOT, env: withEnv(baseEnv(opts.home), opts.env), input: opts.input, clock })
      : undefined;
  return inProcess ?? run(args, rest);
}

/** A cdpctl run in progress: its output so far, signals to send, and its result. */
export interface Running {
  readonly child: ChildProcessWithoutNullStreams;
  readonly stdout: () => string;
  readonly stderr: () => string;
  /** Resolves once stdout or stderr matches. */
  waitFor(pattern: RegExp): Promise<RegExpMatchArray>;
  readonly done: Promise<RunResult>;
}

export function start(args: readonly string[], opts: RunOptions & { home: string }): Running {
  const env = { ...baseEnv(opts.home), ...opts.env };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  const child = spawn(process.execPath, [BIN, ...args], {
    env: env as NodeJS.ProcessEnv,
    stdio: ['pipe', 'pipe', 'pipe'],
    cwd: opts.cwd,
  });
  let stdout = '';
  let stderr = '';
  const watchers = new Set<() => void>();
  child.stdout.on('data', (c: Buffer) => {
    stdout += c.toString();
    watchers.forEach((w) => w());
  });
  child.stderr.on('data', (c: Buffer) => {
    stderr += c.toString();
    watchers.forEach((w) => w());
  });
  const done = new Promise<RunResult>((resolvePromise, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      watchers.forEach((w) => w());
      resolvePromise({ code: code ?? (signal ? 128 : 1), stdout, stderr });
    });
  });
  let exited = false;
  void done.then(() => (exited = true));
  child.stdin.on('error', () => undefined);
  child.stdin.end(opts.input ?? '');
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    done,
    waitFor: (pattern) =>
      new Promise((resolvePromise, reject) => {
        const check = (): void => {
          const m = pattern.exec(stdout) ?? pattern.exec(stderr);
          if (m) {
            watchers.delete(check);
            resolvePromise(m);
          } else if (exited || child.exitCode !== null) {
            watchers.delete(check);
            reject(new Error(`cdpctl ended before printing ${String(pattern)}:\n${stdout}${stderr}`));
          }
        };
        watchers.add(check);
        check();
      }),
  };
}

export function tempHome(prefix = 'cdpctl-test-'): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

export interface TestEmulator {
  readonly home: string;
  readonly dataDir: string;
  readonly port: number;
  /** Runs cdpctl with --profile emulator appended. */
  cli(args: readonly string[], opts?: RunOptions): Promise<RunResult>;
  /** Runs cdpctl as it is. */
  raw(args: readonly string[], opts?: RunOptions): Promise<RunResult>;
  /**
   * Moves the emulator's clock on by a duration (`5m`), as `emulator clock
   * --advance` does: where a test needs work to have gone on between two
   * commands (in-process commands take no time of their own).
   */
  advance(by: string): Promise<void>;
  /** Parses stdout as JSON; fails the test with stderr when the exit code is not 0. */
  json<T = Record<string, unknown>>(args: readonly string[], opts?: RunOptions): Promise<T>;
  stop(): Promise<void>;
}

/** What a test's emulator starts with: its time scale, more `emulator start` flags, a HOME of the test's own. */
export interface EmulatorStart {
  readonly timeScale?: number;
  /** More `emulator start` flags: --seed FILE, --empty, --profile NAME, --fault-rate R, --fault-kinds K, --fault-latency MS. */
  readonly extra?: readonly string[];
  readonly home?: string;
}

/**
 * Starts an emulator on a free port in a temp HOME, inside this process:
 * the same start as `cdpctl emulator start` (the profile written, the pid
 * file and the running list, so that `emulator clock`, `export` or `log`
 * run as processes find it), its commands run in this process too
 * (in-process.ts), and a wait moves its clock rather than waiting. A test
 * that must stop or kill the emulator's process uses startEmulatorProcess.
 */
export async function startEmulator(opts: EmulatorStart = {}): Promise<TestEmulator> {
  const home = opts.home ?? tempHome();
  const dataDir = join(home, 'emu');
  const env = baseEnv(home);
  const extra = startFlags(opts.extra ?? []);
  const started = await startInProcess(
    {
      dataDir,
      port: 0,
      timeScale: opts.timeScale ?? 1000,
      seed: extra.seed,
      profile: extra.profile,
      empty: extra.empty,
      faults: parseFaults(extra.faultRate, extra.faultKinds, extra.faultLatency),
    },
    env,
  );
  const clock = emulatorWaitClock(started.emu);
  const raw = async (args: readonly string[], o: RunOptions = {}): Promise<RunResult> => {
    if (args[0] === 'emulator' && (args[1] === 'stop' || args[1] === 'reset'))
      throw new Error(`this emulator runs in the test's process: "emulator ${args[1]}" would stop the test; use startEmulatorProcess`);
    return runCli(args, { ...o, home, clock });
  };
  const advance = async (by: string): Promise<void> => {
    const ms = parseDuration(by);
    if (ms === undefined) throw new Error(`not a duration: ${by}`);
    started.emu.driveClock({ advanceMs: ms });
  };
  return testEmulator({ home, dataDir, port: started.emu.port, raw, advance, stop: started.stop });
}

/**
 * Starts an emulator as its own process, `cdpctl emulator start --detach`,
 * the way a user would: for tests that stop, restart or kill it.
 */
export async function startEmulatorProcess(opts: EmulatorStart = {}): Promise<TestEmulator> {
  const home = opts.home ?? tempHome();
  const dataDir = join(home, 'emu');
  const started = await run(
    [
      'emulator',
      'start',
      '--port',
      '0',
      '--data-dir',
      dataDir,
      '--time-scale',
      String(opts.timeScale ?? 1000),
      '--detach',
      ...(opts.extra ?? []),
    ],
    { home },
  );
  if (started.code !== 0) throw new Error(`emulator start failed (${started.code}): ${started.stderr}${started.stdout}`);
  const m = /localhost:(\d+)/.exec(started.stdout);
  const port = Number(m?.[1]);
  // Its commands still run in this process where they can (their waits in real time: the clock is the emulator process's).
  const raw = (args: readonly string[], o: RunOptions = {}): Promise<RunResult> => runCli(args, { ...o, home });
  return testEmulator({
    home,
    dataDir,
    port,
    raw,
    advance: async (by) => {
      const r = await run(['emulator', 'clock', '--advance', by, '--data-dir', dataDir], { home });
      if (r.code !== 0) throw new Error(`emulator clock --advance ${by}: ${r.stderr}`);
    },
    stop: async () => void (await run(['emulator', 'stop', '--data-dir', dataDir], { home })),
  });
}

function testEmulator(e: {
  home: string;
  dataDir: string;
  port: number;
  raw: (args: readonly string[], o?: RunOptions) => Promise<RunResult>;
  advance: (by: string) => Promise<void>;
  stop: () => Promise<void>;
}): TestEmulator {
  const { home, dataDir, port, raw } = e;
  const cli = (args: readonly string[], o: RunOptions = {}): Promise<RunResult> => raw([...args, '--profile', 'emulator'], o);
  return {
    home,
    dataDir,
    port,
    raw,
    cli,
    advance: e.advance,
    async json<T>(args: readonly string[], o: RunOptions = {}): Promise<T> {
      const r = await cli([...args, '--output', 'json'], o);
      if (r.code !== 0) throw new Error(`cdpctl ${args.join(' ')} exited ${r.code}: ${r.stderr}`);
      // An empty answer prints nothing, as the official CLI does: read as {}.
      return (r.stdout === '' ? {} : JSON.parse(r.stdout)) as T;
    },
    async stop(): Promise<void> {
      await e.stop();
      rmSync(home, { recursive: true, force: true });
    },
  };
}

/** The `emulator start` flags a test gives in `extra`, read as the emulator's process reads them. */
function startFlags(extra: readonly string[]): {
  seed?: string;
  profile?: string;
  empty: boolean;
  faultRate?: string;
  faultKinds?: string;
  faultLatency?: string;
} {
  const value = (name: string): string | undefined => {
    const i = extra.indexOf(`--${name}`);
    return i >= 0 ? extra[i + 1] : undefined;
  };
  const known = new Set(['--seed', '--profile', '--empty', '--fault-rate', '--fault-kinds', '--fault-latency']);
  for (const word of extra) if (word.startsWith('--') && !known.has(word)) throw new Error(`startEmulator: no in-process form of ${word}`);
  return {
    seed: value('seed'),
    profile: value('profile'),
    empty: extra.includes('--empty'),
    faultRate: value('fault-rate'),
    faultKinds: value('fault-kinds'),
    faultLatency: value('fault-latency'),
  };
}

/** The environment with a run's own variables laid over it (undefined removes one). */
function withEnv(base: Record<string, string>, more: RunOptions['env']): Record<string, string | undefined> {
  const env: Record<string, string | undefined> = { ...base, ...more };
  for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
  return env;
}

/**
 * The CRNs of the emulator's pre-created environments by name, found the way
 * a user finds them (`environments list`, which pages through them all
 * itself); see docs/emulator-services.md.
 */
export async function environmentCrns(em: TestEmulator): Promise<Record<string, string>> {
  const out = await em.json<{ environments: Array<{ environmentName: string; crn: string }> }>(['environments', 'list']);
  return Object.fromEntries(out.environments.map((e) => [e.environmentName, e.crn]));
}

/** The secret a running emulator's console asks for, as its pid file keeps it (what the links it gives out carry). */
export function consoleSecret(dataDir: string): string {
  return String((JSON.parse(readFileSync(join(dataDir, 'emulator.json'), 'utf8')) as { consoleToken?: string }).consoleToken);
}

/** --wait with quick polls and a minute's patience, for emulators started by startEmulator() (--time-scale 1000). */
export const FAST_WAIT: string[] = ['--wait', '--poll-interval', '0.05', '--wait-timeout', '60'];

/** `datalake create aws` of sales-lake in the pre-created sales-env: where the workflows of other services start. */
export const SALES_LAKE: string[] = [
  'datalake',
  'create',
  'aws',
  '--datalake-name',
  'sales-lake',
  '--environment-name',
  'sales-env',
  '--cloud-provider-configuration',
  'instanceProfile=arn:aws:iam::123456789012:instance-profile/dl-idbroker,storageBucketLocation=s3a://sales-data/lake',
];
