/**
 * Starting, finding and stopping emulator processes. A running emulator is
 * described by `emulator.json` in its data directory (pid, port, admin
 * token; mode 0600); `stop` signals only the process named there, and only
 * after that process confirms it is the one.
 */
import { spawn } from 'node:child_process';
import { closeSync, fstatSync, openSync, readSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic, type Env } from '../core/config.js';
import { READ_LIMITS, readBounded } from '../core/bounded-read.js';
import { CdpError, fileProblem } from '../core/errors.js';
import { bootstrap, type BootstrapResult } from './bootstrap.js';
import { privateDir, tighten } from './data-dir.js';
import { parseSeed, SeedError, type SeedFile } from './seed.js';
import { Emulator, type FaultSettings } from './server.js';
import { StateError } from './state.js';

export interface StartOptions {
  readonly dataDir: string;
  readonly port: number;
  readonly timeScale: number;
  readonly faults?: FaultSettings;
  /** A seed file (seed.ts) to apply once the account exists. */
  readonly seed?: string;
  readonly log?: (line: string) => void;
}

/** Exit code of an emulator process that refused to start over bad input (a seed file, a data directory it cannot read). */
export const EXIT_REFUSED = 2;

/** Reads and parses a seed file; a bad one is a usage error naming the file and line. */
export function readSeed(path: string): SeedFile {
  let text: string;
  try {
    text = readBounded(path, { label: 'the seed file', maxBytes: READ_LIMITS.request }).toString('utf8');
  } catch (err) {
    if (err instanceof CdpError) throw new CdpError({ kind: 'usage', code: 'SEED_FILE', message: err.message });
    throw new CdpError({ kind: 'usage', code: 'SEED_FILE', message: `cannot read the seed file ${path}: ${fileProblem(err)}` });
  }
  try {
    return parseSeed(text, path);
  } catch (err) {
    if (err instanceof SeedError) throw new CdpError({ kind: 'usage', code: 'SEED_FILE', message: err.message });
    throw err;
  }
}

export interface PidFile {
  readonly pid: number;
  readonly port: number;
  readonly adminToken: string;
  readonly accountId: string;
  readonly startedAt: string;
}

export const defaultDataDir = (env: Env = process.env): string =>
  env.CDPCTL_EMULATOR_DIR || join(env.HOME || homedir(), '.cdpctl', 'emulator');
export const DEFAULT_PORT = 48480;
const pidPath = (dataDir: string): string => join(dataDir, 'emulator.json');

export function readPidFile(dataDir: string): PidFile | undefined {
  try {
    return JSON.parse(readBounded(pidPath(dataDir), { label: 'the pid file', maxBytes: READ_LIMITS.settings }).toString('utf8')) as PidFile;
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
  readonly accountId: string;
  readonly region: string;
  readonly dataDir: string;
  readonly timeScale: number;
  /** The emulated time and whether the clock is paused (see emulator clock). */
  readonly clock?: { readonly now: string; readonly paused: boolean };
  readonly stats: { requests: number; faults: number; errors: number };
}

export async function health(port: number, timeoutMs = 1000): Promise<Health | undefined> {
  const http = await import('node:http');
  return new Promise((resolve) => {
    const req = http.get(
      { host: '127.0.0.1', port, path: '/_emulator/health', headers: { host: `localhost:${port}` }, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          try {
            resolve(res.statusCode === 200 ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as Health) : undefined);
          } catch {
            resolve(undefined);
          }
        });
      },
    );
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
  });
}

/** The emulator running for a data directory, if its pid file names a live process that answers as itself. */
export async function running(dataDir: string): Promise<{ pid: PidFile; health: Health } | undefined> {
  const pid = readPidFile(dataDir);
  if (!pid || !alive(pid.pid)) return undefined;
  const h = await health(pid.port);
  return h && h.pid === pid.pid ? { pid, health: h } : undefined;
}

/** Runs an emulator in this process until SIGINT/SIGTERM. */
export async function startInProcess(
  opts: StartOptions,
  env: Env = process.env,
): Promise<{ emu: Emulator; boot: BootstrapResult; stop: () => Promise<void> }> {
  const already = await running(opts.dataDir);
  if (already) {
    throw new CdpError({
      kind: 'usage',
      code: 'ALREADY_RUNNING',
      message: `an emulator for ${opts.dataDir} is already running on port ${already.pid.port} (pid ${already.pid.pid})`,
    });
  }
  const seed = opts.seed ? readSeed(opts.seed) : undefined;
  const startedAt = new Date().toISOString();
  let emu: Emulator;
  const pidFile = (accountId: string): PidFile => ({ pid: process.pid, port: emu.port, adminToken: emu.adminToken, accountId, startedAt });
  try {
    emu = new Emulator({
      dataDir: opts.dataDir,
      port: opts.port,
      timeScale: opts.timeScale,
      faults: opts.faults,
      log: opts.log,
      // After an import the account may be another one: the profile and the pid file follow.
      onStateReplaced: async () => {
        const b = await bootstrap(emu, env);
        writeFileAtomic(pidPath(opts.dataDir), JSON.stringify(pidFile(b.accountId)));
      },
    });
  } catch (err) {
    if (err instanceof StateError) throw new CdpError({ kind: 'usage', code: 'STATE_FORMAT', message: err.message });
    throw err;
  }
  try {
    await emu.start();
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') {
      throw new CdpError({
        kind: 'usage',
        code: 'PORT_IN_USE',
        message: `port ${opts.port} is in use; choose another with --port (0 picks a free one)`,
      });
    }
    throw err;
  }
  const boot = await bootstrap(emu, env);
  if (seed) {
    try {
      const applied = emu.applySeed(seed);
      opts.log?.(applied ? `seed ${seed.name} applied (${seed.steps.length} operations)` : `seed ${seed.name} was applied before; skipped`);
    } catch (err) {
      await emu.stop();
      if (err instanceof SeedError)
        throw new CdpError({ kind: 'usage', code: 'SEED_FILE', message: `${err.message}; nothing of the seed file was applied` });
      throw err;
    }
  }
  writeFileAtomic(pidPath(opts.dataDir), JSON.stringify(pidFile(boot.accountId)));
  let stopped = false;
  const stop = async (): Promise<void> => {
    if (stopped) return;
    stopped = true;
    await emu.stop();
    const current = readPidFile(opts.dataDir);
    if (current?.pid === process.pid) rmSync(pidPath(opts.dataDir), { force: true });
  };
  return { emu, boot, stop };
}

/** Starts a detached emulator process and returns once it answers. */
export async function startDetached(
  opts: StartOptions,
  env: Env = process.env,
): Promise<{ pid: PidFile; health: Health; already: boolean }> {
  // Starting what already runs is not an error for a background start: scripts can call it unconditionally.
  const already = await running(opts.dataDir);
  if (already) return { ...already, already: true };
  const main = join(dirname(fileURLToPath(import.meta.url)), 'main.js');
  const logFile = join(opts.dataDir, 'emulator.log');
  privateDir(opts.dataDir);
  const out = openSync(logFile, 'a', 0o600);
  tighten(logFile, 0o600);
  // A bad seed file is refused here, before anything starts.
  if (opts.seed) readSeed(opts.seed);
  const args = [main, '--data-dir', opts.dataDir, '--port', String(opts.port), '--time-scale', String(opts.timeScale)];
  if (opts.seed) args.push('--seed', resolve(opts.seed));
  if (opts.faults && opts.faults.rate > 0)
    args.push('--fault-rate', String(opts.faults.rate), '--fault-kinds', opts.faults.kinds.join(','));
  if (opts.faults && opts.faults.latencyMs > 0) args.push('--fault-latency', String(opts.faults.latencyMs));
  const child = spawn(process.execPath, args, {
    detached: true,
    stdio: ['ignore', out, out],
    env: { ...process.env, ...env } as NodeJS.ProcessEnv,
  });
  closeSync(out);
  let exited: number | null = null;
  child.on('exit', (code) => (exited = code ?? 1));
  child.unref();
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (exited !== null) {
      const lines = tailOf(logFile).trim().split('\n');
      const refusal = lines.filter((l) => l.startsWith('emulator refused: ')).pop();
      if (exited === EXIT_REFUSED && refusal)
        throw new CdpError({ kind: 'usage', code: 'EMULATOR_REFUSED', message: refusal.slice('emulator refused: '.length) });
      const tail = lines.slice(-3).join(' | ');
      throw new CdpError({
        kind: 'service',
        code: 'EMULATOR_FAILED',
        message: `the emulator exited during start (code ${exited})${tail ? `: ${tail}` : ''}`,
      });
    }
    const found = await running(opts.dataDir);
    if (found && found.pid.pid === child.pid) return { ...found, already: false };
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new CdpError({ kind: 'network', code: 'EMULATOR_TIMEOUT', message: `the emulator did not answer within 30 s; see ${logFile}` });
}

/** The last 64 KiB of a log file (what a failed start said last), or nothing. */
function tailOf(path: string): string {
  try {
    const fd = openSync(path, 'r');
    try {
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

/** Stops the emulator of a data directory: SIGTERM to the pid it recorded, then waits. */
export async function stopEmulator(dataDir: string): Promise<PidFile | undefined> {
  const found = await running(dataDir);
  if (!found) {
    const stale = readPidFile(dataDir);
    if (stale && !alive(stale.pid)) rmSync(pidPath(dataDir), { force: true });
    return undefined;
  }
  process.kill(found.pid.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline && alive(found.pid.pid)) await new Promise((r) => setTimeout(r, 50));
  if (alive(found.pid.pid))
    throw new CdpError({ kind: 'service', code: 'STOP_FAILED', message: `the emulator (pid ${found.pid.pid}) did not stop within 15 s` });
  return found.pid;
}

/** Deletes all emulator state. Refuses while it runs: stop it first. */
export async function resetEmulator(dataDir: string): Promise<void> {
  if (await running(dataDir)) {
    throw new CdpError({ kind: 'usage', code: 'RUNNING', message: 'the emulator is running; stop it first (cdpctl emulator stop)' });
  }
  for (const f of ['state.db', 'state.db-wal', 'state.db-shm', 'emulator.json', 'requests.log', 'requests.1.log'])
    rmSync(join(dataDir, f), { force: true });
  rmSync(join(dataDir, 'uploads'), { recursive: true, force: true });
}

/** The emulator running for a data directory, or NOT_RUNNING naming what to do. */
export async function requireRunning(dataDir: string, what: string): Promise<{ pid: PidFile; health: Health }> {
  const found = await running(dataDir);
  if (!found)
    throw new CdpError({
      kind: 'service',
      code: 'NOT_RUNNING',
      message: `no emulator is running for ${dataDir}; ${what} (cdpctl emulator start --detach)`,
    });
  return found;
}

/** A request to a running emulator's admin API, with the token from its pid file. */
export async function adminRequest(pid: PidFile, method: 'GET' | 'POST', path: string, body?: unknown): Promise<Record<string, unknown>> {
  const http = await import('node:http');
  const payload = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: pid.port,
        method,
        path,
        headers: {
          host: `localhost:${pid.port}`,
          'x-emulator-admin': pid.adminToken,
          ...(payload ? { 'content-type': 'application/json', 'content-length': payload.length } : {}),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          let out: Record<string, unknown>;
          try {
            out = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
          } catch {
            return reject(
              new CdpError({ kind: 'service', code: 'EMULATOR_ANSWER', message: `the emulator answered ${path} with no JSON` }),
            );
          }
          if (res.statusCode === 200) return resolve(out);
          const kind = res.statusCode === 400 ? 'usage' : 'service';
          reject(
            new CdpError({ kind, code: String(out.code ?? 'EMULATOR_ERROR'), message: String(out.message ?? `status ${res.statusCode}`) }),
          );
        });
      },
    );
    req.on('error', (err) =>
      reject(new CdpError({ kind: 'network', code: 'NETWORK_ERROR', message: `the emulator did not answer: ${err.message}` })),
    );
    req.end(payload);
  });
}
