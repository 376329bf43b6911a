/**
 * Emulator instances that do not step on each other. Each data directory
 * remembers the profile it writes (`instance.json`: by default `emulator`,
 * else what `emulator start --profile NAME` chose), and what that profile
 * held before the instance first took it, so that stopping the instance
 * gives it back (or removes it) rather than leaving it pointing at a dead
 * port. Every running instance is listed in the user's registry
 * (`~/.cdpctl/running/`, one small file each), which `emulator status`
 * reads and which keeps two instances from writing one profile.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { READ_LIMITS, readBounded } from '../core/bounded-read.js';
import { configPaths, readIni, sectionName, updateIni, writeFileAtomic, type Env } from '../core/config.js';
import type { IniData } from '../core/ini.js';
import { checkDataDir, writePrivateFile } from './data-dir.js';

/** A small JSON file of ours: a regular file (never a FIFO that would hang the reader), never through a link, within bounds. */
const readSmallJson = (path: string, label: string): unknown =>
  JSON.parse(readBounded(path, { label, maxBytes: READ_LIMITS.settings, noFollow: true }).toString('utf8'));

export const DEFAULT_PROFILE = 'emulator';

/** What a profile holds in the two files. */
export interface ProfileSections {
  readonly config?: Readonly<Record<string, string>>;
  readonly credentials?: Readonly<Record<string, string>>;
}

/** What a data directory remembers of its instance. */
export interface InstanceFile {
  readonly profile: string;
  /** The profile's sections before this instance first wrote it (none: it did not exist). */
  readonly previous?: ProfileSections | null;
  /** The account was made empty (`emulator start --empty`). */
  readonly empty?: boolean;
  /** What became of the profile when the instance last stopped. */
  readonly released?: Release;
}

const instancePath = (dataDir: string): string => join(dataDir, 'instance.json');

export function readInstance(dataDir: string): InstanceFile | undefined {
  try {
    const v = readSmallJson(instancePath(dataDir), 'instance.json') as InstanceFile;
    return typeof v.profile === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

export function writeInstance(dataDir: string, file: InstanceFile): void {
  checkDataDir(dataDir, { create: true });
  writePrivateFile(instancePath(dataDir), JSON.stringify(file, null, 2) + '\n');
}

/** The profile a data directory writes: the one asked for, else the one it remembers, else `emulator`. */
export function profileOf(dataDir: string, asked?: string): string {
  return asked ?? readInstance(dataDir)?.profile ?? DEFAULT_PROFILE;
}

/** A profile's sections as they are now. */
export function profileSections(profile: string, env: Env): ProfileSections {
  const paths = configPaths(env);
  const config = readIni(paths.config)[sectionName(profile, 'config')];
  const credentials = readIni(paths.credentials)[sectionName(profile, 'credentials')];
  return { ...(config ? { config } : {}), ...(credentials ? { credentials } : {}) };
}

/** The loopback endpoint of an emulator on a port, as profiles name it. */
export const endpointOf = (port: number): string => `http://localhost:${port}/`;

/** The port a profile's endpoint names when it is a loopback one. */
export function loopbackPort(sections: ProfileSections): number | undefined {
  const url = sections.config?.cdp_endpoint_url ?? sections.config?.endpoint_url;
  const m = url ? /^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):(\d+)\/?$/.exec(url) : undefined;
  return m ? Number(m[2]) : undefined;
}

/** Writes a profile's sections (a section left out is removed). */
export async function writeProfile(profile: string, sections: ProfileSections, env: Env): Promise<void> {
  const paths = configPaths(env);
  const put = (file: 'config' | 'credentials', values: Readonly<Record<string, string>> | undefined) => (data: IniData) => {
    const name = sectionName(profile, file);
    if (values) data[name] = { ...values };
    else delete data[name];
  };
  await updateIni(paths.credentials, put('credentials', sections.credentials));
  await updateIni(paths.config, put('config', sections.config));
}

/** What became of a profile when its instance stopped. */
export type Release = 'restored' | 'removed' | 'untouched';

/**
 * Gives a profile back when its instance stops: restores what it held
 * before the instance took it (unless that too named an emulator that no
 * longer answers), else removes it; a profile that already names something
 * else is left as it is.
 */
export async function releaseProfile(
  dataDir: string,
  port: number,
  env: Env,
  answers: (port: number) => Promise<boolean>,
): Promise<{ profile: string; release: Release }> {
  const inst = readInstance(dataDir);
  const profile = inst?.profile ?? DEFAULT_PROFILE;
  const now = profileSections(profile, env);
  let release: Release = 'untouched';
  if (loopbackPort(now) === port) {
    const previous = inst?.previous ?? undefined;
    const prevPort = previous ? loopbackPort(previous) : undefined;
    const keep = previous !== undefined && (prevPort === undefined || (prevPort !== port && (await answers(prevPort))));
    await writeProfile(profile, keep ? previous : {}, env);
    release = keep ? 'restored' : 'removed';
  }
  writeInstance(dataDir, { profile, ...(inst?.empty ? { empty: true } : {}), released: release });
  return { profile, release };
}

// ---- the registry of running instances -------------------------------------------

/** One running instance, as the registry lists it. */
export interface RunningEntry {
  readonly dataDir: string;
  readonly port: number;
  readonly pid: number;
  readonly profile: string;
}

const registryDir = (env: Env): string => join(env.HOME || homedir(), '.cdpctl', 'running');
const entryName = (dataDir: string): string => `${createHash('sha256').update(resolve(dataDir)).digest('hex').slice(0, 16)}.json`;

export function register(entry: RunningEntry, env: Env): void {
  const dir = registryDir(env);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileAtomic(join(dir, entryName(entry.dataDir)), JSON.stringify({ ...entry, dataDir: resolve(entry.dataDir) }) + '\n');
}

export function unregister(dataDir: string, pid: number, env: Env): void {
  const path = join(registryDir(env), entryName(dataDir));
  try {
    const e = readSmallJson(path, 'a running entry') as RunningEntry;
    if (e.pid === pid) rmSync(path, { force: true });
  } catch {
    // Not registered: nothing to take away.
  }
}

/** The registry's entries (not checked: an entry may name an instance that died). */
export function registered(env: Env): RunningEntry[] {
  const dir = registryDir(env);
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.flatMap((n) => {
    try {
      const e = readSmallJson(join(dir, n), 'a running entry') as RunningEntry;
      const valid = typeof e.dataDir === 'string' && Number.isInteger(e.port) && Number.isInteger(e.pid) && typeof e.profile === 'string';
      return valid ? [e] : [];
    } catch {
      // A half-written or foreign file, or anything not a regular file: skipped.
      return [];
    }
  });
}

/** Drops an entry whose instance no longer runs. */
export function forget(entry: RunningEntry, env: Env): void {
  unregister(entry.dataDir, entry.pid, env);
}
