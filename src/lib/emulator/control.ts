/**
 * Starting, finding and stopping emulator processes. A running emulator is
 * described by `emulator.json` in its data directory (pid, port, admin
 * token, the console's sign-in secret; mode 0600), read only from a data
 * directory that passes data-dir.ts; `stop` signals only the process named
 * there, and only after the process answering on its port has proved it
 * holds that file's admin token (identity.ts).
 */
import { spawn } from 'node:child_process';
import type { OutgoingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import { closeSync, constants, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Env } from '../core/config.js';
import { READ_LIMITS, readBounded } from '../core/bounded-read.js';
import { CdpError, fileProblem, cdpError } from '../core/errors.js';
import { bootstrap, StartRefusal, writeEmulatorProfile, type BootstrapResult } from './bootstrap.js';
import { checkDataDir, DATA_DIR_ENTRIES, openPrivateFile, writePrivateFile } from './data-dir.js';
import { CHALLENGE_HEADER, newChallenge, proves } from './identity.js';
import { consoleLink } from './console/secret.js';
import {
  DEFAULT_PROFILE,
  forget,
  loopbackPort,
  readInstance,
  profileOf,
  profileSections,
  register,
  registered,
  releaseProfile,
  unregister,
  type Release,
  type RunningEntry,
} from './instances.js';
import { parseSeed, SeedError, type SeedFile } from './seed.js';
import type { Emulator, FaultSettings } from './server.js';
import { StateError } from './state.js';

export interface StartOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly timeScale: number;
  readonly faults?: FaultSettings;
  /** A seed file (seed.ts) to apply once the account exists. */
  readonly seed?: string;
  readonly log?: (line: string) => void;
  /** The profile to write (default: the one the data directory remembers, else `emulator`). */
  readonly profile?: string;
  /** A new account gets only its admin user: no pre-created environments. */
  readonly empty?: boolean;
}

/** The console's address with its secret (console/secret.ts), as the emulator's starter is shown it. */
export function consoleAddress(pid: Pick<PidFile, 'port' | 'consoleToken'>): string {
  const base = `http://localhost:${pid.port}`;
  return pid.consoleToken ? consoleLink(base, '/console', pid.consoleToken) : `${base}/console`;
}

const usage = (code: string, message: string): CdpError => cdpError({ kind: 'usage', code, message });
const failed = (code: string, message: string): CdpError => cdpError({ kind: 'service', code, message });

/** Exit code of an emulator process that refused to start over bad input (a seed file, a data directory it cannot read). */
export const EXIT_REFUSED = 2;

/** Reads and parses a seed file; a bad one is a usage error naming the file and line. */
export function readSeed(path: string): SeedFile {
  let text: string;
  try {
    text = readBounded(path, { label: 'the seed file', maxBytes: READ_LIMITS.request }).toString('utf8');
  } catch (err) {
    throw usage('SEED_FILE', err instanceof CdpError ? err.message : `cannot read the seed file ${path}: ${fileProblem(err)}`);
  }
  try {
    return parseSeed(text, path);
  } catch (err) {
    throw err instanceof SeedError ? usage('SEED_FILE', err.message) : err;
  }
}

export interface PidFile {
  readonly pid: number;
  readonly port: number;
  readonly adminToken: string;
  /** The secret the console's sign-in pages ask for (console/secret.ts); carried in the links the emulator gives out. */
  readonly consoleToken?: string;
  readonly accountId: string;
  readonly startedAt: string;
}

export const defaultDataDir = (env: Env = process.env): string =>
  env.CDPCTL_EMULATOR_DIR || join(env.HOME || homedir(), '.cdpctl', 'emulator');

/**
 * The data directory an emulator command is about: that of the running
 * instance writing `--profile`, else `--data-dir`, else the default one.
 */
export async function emulatorDir(
  flags: { readonly 'data-dir'?: string; readonly profile?: string },
  env: Env = process.env,
): Promise<string> {
  if (flags.profile === undefined) return flags['data-dir'] ?? defaultDataDir(env);
  const found = (await runningInstances(env)).find((i) => i.entry.profile === flags.profile)?.entry.dataDir;
  if (!found) throw failed('NOT_RUNNING', `no running emulator writes profile "${flags.profile}" (see cdpctl emulator status)`);
  return found;
}
const pidPath = (dataDir: string): string => join(dataDir, 'emulator.json');

/** The pid file of a data directory (which is checked first: an unsafe one is refused, data-dir.ts); undefined when there is none that reads. */
export function readPidFile(dataDir: string): PidFile | undefined {
  if (!checkDataDir(dataDir, { create: false })) return undefined;
  try {
    const v = JSON.parse(
      readBounded(pidPath(dataDir), { label: 'the pid file', maxBytes: READ_LIMITS.settings, noFollow: true }).toString('utf8'),
    ) as PidFile;
    return Number.isInteger(v.pid) && v.pid > 0 && Number.isInteger(v.port) && typeof v.adminToken === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export interface Health {
  readonly pid: number;
  readonly port: number;
  /** The profile it writes. */
  readonly profile?: string;
  readonly accountId: string;
  readonly region: string;
  readonly dataDir: string;
  readonly timeScale: number;
  /** The emulated time and whether the clock is paused (see emulator clock). */
  readonly clock?: { readonly now: string; readonly paused: boolean };
  readonly stats: { requests: number; faults: number; errors: number };
}

/** The most of a health answer read: it is a few hundred bytes. */
const HEALTH_MAX_BYTES = 64 * 1024;

/**
 * The health answer on a port, or undefined: the whole answer must arrive
 * within `timeoutMs` (a deadline, not an idle timeout, so a port that drips
 * a byte at a time cannot hold a caller), within HEALTH_MAX_BYTES. With a
 * `challenge`, the answer carries the emulator's proof of it (identity.ts).
 */
export async function health(port: number, timeoutMs = 1000, challenge?: string): Promise<(Health & { proof?: unknown }) | undefined> {
  try {
    const headers = challenge ? { [CHALLENGE_HEADER]: challenge } : {};
    const answer = await ask(port, 'GET', '/_emulator/health', { headers, timeoutMs, maxBytes: HEALTH_MAX_BYTES });
    return answer.status === 200 ? (JSON.parse(answer.text) as Health) : undefined;
  } catch {
    return undefined;
  }
}

/** One request to the emulator on a loopback port: the answer's status and body; an error when the connection fails or is cut. */
async function ask(
  port: number,
  method: string,
  path: string,
  opts: { headers?: OutgoingHttpHeaders; body?: Buffer; timeoutMs?: number; maxBytes?: number },
): Promise<{ status?: number; text: string }> {
  const http = await import('node:http');
  let deadline: NodeJS.Timeout | undefined;
  try {
    return await new Promise((resolve, reject) => {
      const headers = { host: `localhost:${port}`, ...opts.headers };
      const req = http.request({ host: '127.0.0.1', port, method, path, headers, agent: false }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (c: Buffer) => {
          size += c.length;
          if (size > (opts.maxBytes ?? Infinity)) req.destroy();
          else chunks.push(c);
        });
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      if (opts.timeoutMs !== undefined) deadline = setTimeout(() => req.destroy(), opts.timeoutMs);
      req.on('error', reject);
      req.on('close', () => reject(new Error('the connection closed before the answer')));
      req.end(opts.body);
    });
  } finally {
    clearTimeout(deadline);
  }
}

/**
 * The emulator running for a data directory: its pid file names a live
 * process, and what answers on the port says it is that pid and proves it
 * holds the pid file's admin token.
 */
export async function running(dataDir: string): Promise<{ pid: PidFile; health: Health } | undefined> {
  const pid = readPidFile(dataDir);
  if (!pid || !alive(pid.pid)) return undefined;
  const challenge = newChallenge();
  const h = await health(pid.port, 1000, challenge);
  if (!h || h.pid !== pid.pid || !proves(h.proof, pid.adminToken, challenge, pid.pid)) return undefined;
  const { proof: _proof, ...answer } = h;
  return { pid, health: answer };
}

/** Runs an emulator in this process until SIGINT/SIGTERM. */
export async function startInProcess(
  opts: StartOptions,
  env: Env = process.env,
): Promise<{ emu: Emulator; boot: BootstrapResult; stop: () => Promise<void> }> {
  const already = await running(opts.dataDir);
  if (already)
    throw usage(
      'ALREADY_RUNNING',
      `an emulator for ${opts.dataDir} is already running on port ${already.pid.port} (pid ${already.pid.pid})`,
    );
  const seed = opts.seed ? readSeed(opts.seed) : undefined;
  const profile = profileOf(opts.dataDir, opts.profile);
  await refuseTakenProfile(opts.dataDir, profile, env);
  const startedAt = new Date().toISOString();
  let emu: Emulator;
  const pidFile = (accountId: string): PidFile => ({
    pid: process.pid,
    port: emu.port,
    adminToken: emu.adminToken,
    consoleToken: emu.consoleToken,
    accountId,
    startedAt,
  });
  // The server (every service's module, ~45 ms to load) is loaded only to run an emulator here: the commands
  // that start one detached, stop one or ask one something load this file and need none of it.
  const server = await import('./server.js');
  try {
    emu = new server.Emulator({
      dataDir: opts.dataDir,
      port: opts.port,
      timeScale: opts.timeScale,
      faults: opts.faults,
      log: opts.log,
      profile,
      // After an import the account may be another one: the profile and the pid file follow.
      onStateReplaced: async () => {
        const b = await bootstrap(emu, env, { dataDir: opts.dataDir, profile });
        writePrivateFile(pidPath(opts.dataDir), JSON.stringify(pidFile(b.accountId)));
      },
      repairProfile: () => repairProfile(emu, profile, env),
    });
  } catch (err) {
    throw err instanceof StateError ? usage('STATE_FORMAT', err.message) : err;
  }
  try {
    await emu.start();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw err;
    throw usage('PORT_IN_USE', `port ${opts.port} is in use; choose another with --port (0 picks a free one)`);
  }
  let boot: BootstrapResult;
  try {
    boot = await bootstrap(emu, env, { dataDir: opts.dataDir, profile, empty: opts.empty });
  } catch (err) {
    await emu.stop();
    throw err instanceof StartRefusal ? usage('NOT_EMPTY', err.message) : err;
  }
  if (seed) {
    try {
      const applied = emu.applySeed(seed);
      opts.log?.(applied ? `seed ${seed.name} applied (${seed.steps.length} operations)` : `seed ${seed.name} was applied before; skipped`);
    } catch (err) {
      await emu.stop();
      throw err instanceof SeedError ? usage('SEED_FILE', `${err.message}; nothing of the seed file was applied`) : err;
    }
  }
  writePrivateFile(pidPath(opts.dataDir), JSON.stringify(pidFile(boot.accountId)));
  register({ dataDir: opts.dataDir, port: emu.port, pid: process.pid, profile }, env);
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    const port = emu.port;
    await emu.stop();
    unregister(opts.dataDir, process.pid, env);
    // No profile is left naming a dead port: given back to what it held, or removed (instances.ts).
    const { release } = await releaseProfile(opts.dataDir, port, env, async (p) => (await health(p)) !== undefined);
    opts.log?.(
      `profile "${profile}" ${release === 'restored' ? 'restored to what it held before' : release === 'removed' ? 'removed' : 'left as it is (it names something else now)'}`,
    );
    const current = readPidFile(opts.dataDir);
    if (current?.pid === process.pid) rmSync(pidPath(opts.dataDir), { force: true });
  };
  return { emu, boot, stop };
}

/** Starts a detached emulator process and returns once it answers. */
export async function startDetached(
  opts: StartOptions,
  env: Env = process.env,
): Promise<{ pid: PidFile; health: Health; already: boolean; repaired?: ProfileRepair }> {
  // Starting what already runs is not an error for a background start: scripts can call it unconditionally.
  const already = await running(opts.dataDir);
  if (already) {
    const profile = already.health.profile ?? profileOf(opts.dataDir);
    if (opts.profile && opts.profile !== profile)
      throw usage(
        'ALREADY_RUNNING',
        `the emulator for ${opts.dataDir} is already running and writes profile "${profile}"; stop it (cdpctl emulator stop --data-dir ${opts.dataDir}) to start it with profile "${opts.profile}"`,
      );
    if (opts.empty)
      throw usage(
        'ALREADY_RUNNING',
        `the emulator for ${opts.dataDir} is already running; --empty applies to a new account only (use another --data-dir)`,
      );
    const repaired = (await adminRequest(already.pid, 'POST', '/_emulator/profile')) as unknown as ProfileRepair;
    return { ...already, already: true, repaired };
  }
  await refuseTakenProfile(opts.dataDir, profileOf(opts.dataDir, opts.profile), env);
  // The emulator process runs the bundle the build makes of main.js (scripts/bundle.mjs): one file loads
  // in a fraction of the time ~180 modules take, and start-up is what every CI job waits for.
  const main = fileURLToPath(new URL('../../emulator/main.mjs', import.meta.url));
  const logFile = join(opts.dataDir, 'emulator.log');
  checkDataDir(opts.dataDir, { create: true });
  const out = openPrivateFile(logFile);
  // A bad seed file is refused here, before anything starts.
  if (opts.seed) readSeed(opts.seed);
  // fd 3: a pipe the emulator writes a line to once it answers (main.ts), so that the wait below ends then rather than at its next poll.
  const args = [main, '--data-dir', opts.dataDir, '--port', String(opts.port), '--time-scale', String(opts.timeScale), '--ready-fd', '3'];
  if (opts.seed) args.push('--seed', resolve(opts.seed));
  if (opts.profile) args.push('--profile', opts.profile);
  if (opts.empty) args.push('--empty');
  if (opts.faults && opts.faults.rate > 0)
    args.push('--fault-rate', String(opts.faults.rate), '--fault-kinds', opts.faults.kinds.join(','));
  if (opts.faults && opts.faults.latencyMs > 0) args.push('--fault-latency', String(opts.faults.latencyMs));
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', out, out, 'pipe'],
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
  });
  closeSync(out);
  let exited: number | null = null;
  // A pause between polls ends early once the emulator writes its ready line or exits; a ring between pauses ends the next one.
  let rang = false;
  let wake: (() => void) | undefined;
  const ring = (): void => {
    rang = true;
    wake?.();
  };
  const pause = (ms: number): Promise<void> =>
    new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        wake = undefined;
        rang = false;
        resolve();
      };
      const timer = setTimeout(done, rang ? 0 : ms);
      wake = done;
    });
  child.on('exit', (code) => {
    exited = code ?? 1;
    ring();
  });
  const readyPipe = child.stdio[3] as Readable | null;
  readyPipe?.on('data', ring).on('error', () => undefined);
  child.unref();
  try {
    return await waitForStart(opts.dataDir, child.pid, logFile, () => exited, pause);
  } finally {
    // Nothing of the child may keep this process alive once the wait is over.
    readyPipe?.destroy();
  }
}

/** Waits until the emulator a detached start spawned answers; its exit or a timeout is an error. */
async function waitForStart(
  dataDir: string,
  pid: number | undefined,
  logFile: string,
  exitCode: () => number | null,
  pause: (ms: number) => Promise<void>,
): Promise<{ pid: PidFile; health: Health; already: boolean }> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    const exited = exitCode();
    if (exited !== null) {
      const lines = tailOf(logFile).trim().split('\n');
      const refusal = lines.filter((l) => l.startsWith('emulator refused: ')).pop();
      if (exited === EXIT_REFUSED && refusal) throw usage('EMULATOR_REFUSED', refusal.slice('emulator refused: '.length));
      const tail = lines.slice(-3).join(' | ');
      throw failed('EMULATOR_FAILED', `the emulator exited during start (code ${exited})${tail ? `: ${tail}` : ''}`);
    }
    const found = await running(dataDir);
    if (found && found.pid.pid === pid) return { ...found, already: false };
    await pause(50);
  }
  throw cdpError({ kind: 'network', code: 'EMULATOR_TIMEOUT', message: `the emulator did not answer within 30 s; see ${logFile}` });
}

/** The last 64 KiB of a log file (what a failed start said last), or nothing. */
function tailOf(path: string): string {
  try {
    const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
    try {
      if (!fstatSync(fd).isFile()) return '';
      const size = fstatSync(fd).size;
      const buf = Buffer.alloc(Math.min(size, 64 * 1024));
      readSync(fd, buf, 0, buf.length, size - buf.length);
      return buf.toString('utf8');
    } finally {
      closeSync(fd);
    }
  } catch {
    return '';
  }
}

/**
 * Stops the emulator of a data directory: SIGTERM to the pid it recorded,
 * then waits; then gives its profile back (restored to what it held before,
 * or removed), so that no profile names a dead port.
 */
export async function stopEmulator(dataDir: string): Promise<(PidFile & { profile: string; release: Release }) | undefined> {
  const found = await running(dataDir);
  if (!found) {
    const stale = readPidFile(dataDir);
    if (stale && !alive(stale.pid)) rmSync(pidPath(dataDir), { force: true });
    return undefined;
  }
  process.kill(found.pid.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && alive(found.pid.pid)) await new Promise((r) => setTimeout(r, 50));
  if (alive(found.pid.pid)) throw failed('STOP_FAILED', `the emulator (pid ${found.pid.pid}) did not stop within 15 s`);
  // The emulator gave its profile back as it stopped (instances.ts) and wrote down how.
  const inst = readInstance(dataDir);
  return { ...found.pid, profile: inst?.profile ?? DEFAULT_PROFILE, release: inst?.released ?? 'untouched' };
}

/** What `start` did about the profile of an emulator that was already running. */
export interface ProfileRepair {
  readonly profile: string;
  readonly repaired: boolean;
  /** Where the profile pointed before it was repaired (none: it was missing). */
  readonly was?: string;
}

/** Points the instance's profile at it again when it names another port or holds a key the emulator does not take. */
async function repairProfile(emu: Emulator, profile: string, env: Env): Promise<ProfileRepair> {
  const before = profileSections(profile, env);
  const adminCrn = emu.store.meta('adminCrn') ?? '';
  const was = before.config?.cdp_endpoint_url ?? before.config?.endpoint_url;
  const { keyCreated } = await writeEmulatorProfile(emu, profile, adminCrn, env);
  const repaired = keyCreated || loopbackPort(before) !== emu.port || before.config?.endpoint_url !== before.config?.cdp_endpoint_url;
  return { profile, repaired, ...(repaired && was ? { was } : {}) };
}

/** Refuses to start an instance on a profile another running instance writes. */
async function refuseTakenProfile(dataDir: string, profile: string, env: Env): Promise<void> {
  for (const e of registered(env)) {
    if (resolve(e.dataDir) === resolve(dataDir) || e.profile !== profile) continue;
    const other = await runningListed(e);
    if (!other) {
      forget(e, env);
      continue;
    }
    throw usage(
      'PROFILE_IN_USE',
      `profile "${profile}" belongs to the emulator running for ${e.dataDir} on port ${e.port}; give this one a profile of its own with --profile NAME`,
    );
  }
}

/** The emulator a registry entry names, if it runs; a data directory no longer safe to use (data-dir.ts) runs nothing to trust. */
async function runningListed(e: RunningEntry): Promise<Awaited<ReturnType<typeof running>>> {
  try {
    return await running(e.dataDir);
  } catch {
    return undefined;
  }
}

/** Every emulator running for this user (the registry), with its health; entries of dead ones are dropped. */
export async function runningInstances(env: Env = process.env): Promise<Array<{ entry: RunningEntry; health: Health }>> {
  const out: Array<{ entry: RunningEntry; health: Health }> = [];
  for (const e of registered(env)) {
    const found = await runningListed(e);
    if (found) out.push({ entry: e, health: found.health });
    else forget(e, env);
  }
  return out.sort((a, b) => a.entry.port - b.entry.port);
}

/** Deletes all emulator state. Refuses while it runs: stop it first. */
export async function resetEmulator(dataDir: string): Promise<void> {
  if (await running(dataDir)) throw usage('RUNNING', 'the emulator is running; stop it first (cdpctl emulator stop)');
  // Everything but the log of the emulator's own process and the profile it remembers (instance.json).
  for (const f of DATA_DIR_ENTRIES)
    if (f !== 'emulator.log' && f !== 'instance.json') rmSync(join(dataDir, f), { recursive: true, force: true });
}

/** The emulator running for a data directory, or NOT_RUNNING naming what to do. */
export async function requireRunning(dataDir: string, what: string, env: Env = process.env): Promise<{ pid: PidFile; health: Health }> {
  const found = await running(dataDir);
  if (found) return found;
  const elsewhere = await runningElsewhere(dataDir, env);
  throw failed(
    'NOT_RUNNING',
    `no emulator is running for ${dataDir}; ${what} (cdpctl emulator start --detach)${elsewhere ? `; ${elsewhere}` : ''}`,
  );
}

/**
 * The emulators running for other data directories, and the flags that reach them, for a command that found none
 * for its own (one started with another --data-dir is the usual cause); empty when there are none.
 */
export async function runningElsewhere(dataDir: string, env: Env = process.env): Promise<string> {
  const others = (await runningInstances(env)).filter((i) => resolve(i.entry.dataDir) !== resolve(dataDir));
  const [only] = others;
  if (!only) return '';
  if (others.length > 1)
    return `${others.length} are running for other data directories (cdpctl emulator status lists them): give --data-dir or --profile`;
  const { dataDir: dir, profile } = only.entry;
  return `one is running for ${dir} (profile "${profile}"): give --data-dir ${dir} or --profile ${profile}`;
}

/** A request to a running emulator's admin API, with the token from its pid file. */
export async function adminRequest(pid: PidFile, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const headers = {
    'x-emulator-admin': pid.adminToken,
    ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
  };
  let answer: Awaited<ReturnType<typeof ask>>;
  try {
    answer = await ask(pid.port, method, path, { headers, body: payload });
  } catch (err) {
    throw cdpError({ kind: 'network', code: 'NETWORK_ERROR', message: `the emulator did not answer: ${(err as Error).message}` });
  }
  let out: Record<string, unknown>;
  try {
    out = JSON.parse(answer.text) as Record<string, unknown>;
  } catch {
    throw failed('EMULATOR_ANSWER', `the emulator answered ${path} with no JSON`);
  }
  if (answer.status === 200) return out;
  const kind = answer.status === 400 ? 'usage' : 'service';
  throw cdpError({ kind, code: String(out.code ?? 'EMULATOR_ERROR'), message: String(out.message ?? `status ${answer.status}`) });
}
