/**
 * The emulator as a library: `import { startEmulator } from 'cdpctl/emulator'`.
 * A whole control plane in the calling process, on a free loopback port,
 * with its state in memory (or in a data directory of its own), a client
 * bound to it, its clock under the caller's hand, and its request log: made
 * for tests under jest, vitest or node:test. It writes no profile and
 * registers nowhere unless asked (`writeProfile`), so tests running side by
 * side never meet.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Clock as ClientClock } from '../core/clock.js';
import { type Env } from '../core/config.js';
import { UsageError } from '../core/errors.js';
import { createAdminKey, ensureAccount, StartRefusal } from '../emulator/bootstrap.js';
import { parseDuration } from '../emulator/clock.js';
import { consoleAddress, readSeed } from '../emulator/control.js';
import { SeedError } from '../emulator/seed.js';
import { endpointOf, writeProfile as writeProfileSections } from '../emulator/instances.js';
import type { LogEntry } from '../emulator/request-log.js';
import { Emulator } from '../emulator/server.js';
import { StateError } from '../emulator/state.js';
import { CdpClient, type ClientOptions } from './client.js';

export interface StartEmulatorOptions {
  /** Keep the state in this directory (it survives stop, and a later start resumes it); default in memory, gone at stop. */
  readonly dataDir?: string;
  /** The loopback port; default 0, a free one. */
  readonly port?: number;
  /** How much faster than real time emulated time runs; default 60, as `cdpctl emulator start`. */
  readonly timeScale?: number;
  /** Start with the clock paused: nothing changes state until `clock.advance()` or a wait moves it. */
  readonly paused?: boolean;
  /** A new account gets only its admin user: no pre-created environments. */
  readonly empty?: boolean;
  /** A seed file (the format of `cdpctl emulator start --seed`) applied once the account exists. */
  readonly seed?: string;
  /** The region its CRNs and endpoints name; default us-west-1. */
  readonly region?: string;
  /** Faults injected into API answers (docs/reliability.md). */
  readonly faults?: EmulatorFaults;
}

/** Faults injected into API answers: what a client meets from a control plane having a bad day. */
export interface EmulatorFaults {
  /** Fraction (0..1) of API requests answered with a fault instead. */
  readonly rate?: number;
  /** Extra milliseconds before every answer. */
  readonly latencyMs?: number;
  /** Which faults to draw from (default 503 and 429): `reset` drops the connection after the request arrived, unprocessed. */
  readonly kinds?: ReadonlyArray<'503' | '429' | 'reset'>;
}

/** What a wait clock needs of the emulator's clock (kept apart from the emulator's class, so that the public declarations name none of its insides). */
interface DrivenClock {
  readonly clock: { readonly scale: number; readonly paused: boolean; advance(ms: number): void };
}

/** The emulator's clock, driven by the caller. */
export interface EmulatorClock {
  /** Emulated now. */
  now(): Date;
  /** Moves emulated time forward: milliseconds, or a duration such as `90s`, `15m`, `2h30m`, `1d`. */
  advance(by: number | string): void;
  /** Stops emulated time where it is. */
  pause(): void;
  /** Lets emulated time run again. */
  resume(): void;
  readonly paused: boolean;
  /** How much faster than real time it runs while not paused. */
  readonly timeScale: number;
}

/** One line of the request log: who asked for what and how it ended (never a body). */
export type RequestLogEntry = LogEntry;

export interface RunningEmulator {
  /** `http://localhost:PORT/`: the endpoint of every service. */
  readonly endpoint: string;
  /** `http://localhost:PORT/console?token=…`: the console, with the secret every console page asks for. */
  readonly consoleUrl: string;
  readonly port: number;
  readonly accountId: string;
  readonly region: string;
  /** The account admin's access key. */
  readonly credentials: { readonly accessKeyId: string; readonly privateKey: string };
  /** A client bound to this emulator as its admin; its waits move the emulator's clock instead of sleeping. */
  readonly client: CdpClient;
  readonly clock: EmulatorClock;
  /** Another client bound to this emulator (other options, another key), whose waits also move the clock. */
  createClient(options?: Omit<ClientOptions, 'endpointUrl'>): CdpClient;
  /** The API requests answered so far, oldest first (the most recent thousand). */
  requests(): readonly RequestLogEntry[];
  /**
   * Points a profile of the CLI at this emulator, in the files the
   * environment names ($HOME/.cdp/credentials and config, or
   * $CDP_SHARED_CREDENTIALS_FILE and $CDP_CONFIG_FILE): for tests that run
   * `cdpctl` or `cdp` itself. Default profile `emulator`, environment process.env.
   */
  writeProfile(name?: string, env?: Env): Promise<void>;
  /** Closes its listeners and drops its state (unless it has a data directory). Safe to call twice. */
  stop(): Promise<void>;
}

/**
 * A client clock whose pauses move the emulator's clock rather than
 * waiting: a poll `ms` later, in the emulator's time, at once (a paused
 * emulator clock stays where it is, as it would in real time). The wait
 * measures itself on it (so timeouts still end a wait); signatures keep
 * the system's time, which the emulator checks them against.
 */
export function emulatorWaitClock(emu: DrivenClock): ClientClock {
  let slept = 0;
  return {
    now: () => Date.now() + slept,
    async sleep(ms, signal) {
      if (signal?.aborted) return;
      slept += ms;
      if (!emu.clock.paused) emu.clock.advance(ms * emu.clock.scale);
      // Lets what else is running (another request, a timer) have its turn.
      await new Promise<void>((resolve) => setImmediate(resolve));
    },
    every(ms, tick) {
      const timer = setInterval(tick, ms);
      timer.unref();
      return () => clearInterval(timer);
    },
  };
}

/** Starts an emulator in this process; resolves once it answers. */
export async function startEmulator(options: StartEmulatorOptions = {}): Promise<RunningEmulator> {
  const scale = options.timeScale ?? 60;
  if (!(Number.isFinite(scale) && scale > 0))
    throw new UsageError({ code: 'INVALID_INPUT', message: `timeScale must be a number above 0; got ${scale}` });
  const seed = options.seed ? readSeed(options.seed) : undefined;
  const own = options.dataDir === undefined;
  // In memory, the data directory only receives uploads, and goes at stop.
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), `cdpctl-emulator-${process.pid}-`));
  const faults = options.faults
    ? { rate: options.faults.rate ?? 0, latencyMs: options.faults.latencyMs ?? 0, kinds: options.faults.kinds ?? ['503', '429'] }
    : undefined;
  let emu: Emulator;
  try {
    emu = new Emulator({ dataDir, port: options.port ?? 0, timeScale: scale, region: options.region, faults, inMemory: own });
  } catch (err) {
    if (own) rmSync(dataDir, { recursive: true, force: true });
    if (err instanceof StateError) throw new UsageError({ code: 'STATE_FORMAT', message: err.message });
    throw err;
  }
  const cleanUp = async (): Promise<void> => {
    await emu.stop();
    if (own) rmSync(dataDir, { recursive: true, force: true });
  };
  let key: { accessKeyId: string; privateKey: string };
  try {
    await emu.start();
    ensureAccount(emu, { empty: options.empty });
    key = emu.store.transaction(() => createAdminKey(emu, emu.store.meta('adminCrn') ?? ''));
    if (seed) emu.applySeed(seed);
    if (options.paused) emu.driveClock({ pause: true });
  } catch (err) {
    await cleanUp();
    if (err instanceof StartRefusal) throw new UsageError({ code: 'NOT_EMPTY', message: err.message });
    if (err instanceof SeedError)
      throw new UsageError({ code: 'SEED_FILE', message: `${err.message}; nothing of the seed file was applied` });
    throw err;
  }
  const endpoint = endpointOf(emu.port);
  const waitClock = emulatorWaitClock(emu);
  const clients: CdpClient[] = [];
  const createClient = (more: Omit<ClientOptions, 'endpointUrl'> = {}): CdpClient => {
    const made = new CdpClient(
      { credentials: key, env: {}, ...more, endpointUrl: endpoint, region: more.region ?? emu.region },
      { waitClock },
    );
    clients.push(made);
    return made;
  };
  const client = createClient();
  const clock: EmulatorClock = {
    now: () => new Date(emu.clock.now()),
    advance(by) {
      const ms = typeof by === 'number' ? by : parseDuration(by);
      if (ms === undefined || !(ms >= 0))
        throw new UsageError({
          code: 'INVALID_INPUT',
          message: `advance takes milliseconds or a duration such as 30s, 15m, 2h, 1d or 1h30m; got ${JSON.stringify(by)}`,
        });
      emu.driveClock({ advanceMs: ms });
    },
    pause: () => void emu.driveClock({ pause: true }),
    resume: () => void emu.driveClock({ resume: true }),
    get paused() {
      return emu.clock.paused;
    },
    timeScale: scale,
  };
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => {
    stopped ??= (async () => {
      for (const c of clients) c.close();
      await cleanUp();
    })();
    return stopped;
  };
  return {
    endpoint,
    consoleUrl: consoleAddress({ port: emu.port, consoleToken: emu.consoleToken }),
    port: emu.port,
    accountId: emu.account,
    region: emu.region,
    credentials: key,
    client,
    clock,
    createClient,
    requests: () => emu.recentRequests(),
    async writeProfile(name = 'emulator', env: Env = process.env) {
      await writeProfileSections(
        name,
        {
          credentials: { cdp_access_key_id: key.accessKeyId, cdp_private_key: key.privateKey },
          config: { endpoint_url: endpoint, cdp_endpoint_url: endpoint, cdp_region: emu.region },
        },
        env,
      );
    },
    stop,
  };
}
