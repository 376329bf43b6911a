/**
 * Credentials and config, compatible with the official CLI's files and
 * variables (DESIGN "Credentials, config, endpoints"). Reading is cheap and
 * synchronous; writing is atomic (temp file + rename) under a lock file so
 * that concurrent `configure set` runs never lose a key.
 */
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { decode } from 'ini';
import { authError, usageError } from './errors.js';

export type Env = Readonly<Record<string, string | undefined>>;
type IniData = Record<string, Record<string, unknown>>;

export interface Paths {
  readonly credentials: string;
  readonly config: string;
}

export function configPaths(env: Env = process.env): Paths {
  const home = env.HOME || homedir();
  return {
    credentials: env.CDP_SHARED_CREDENTIALS_FILE || join(home, '.cdp', 'credentials'),
    config: env.CDP_CONFIG_FILE || join(home, '.cdp', 'config'),
  };
}

export function readIni(path: string): IniData {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    return {};
  }
  return decode(text) as IniData;
}

/** The config file names non-default profiles `[profile NAME]`; both forms are read. */
function section(data: IniData, profile: string, configStyle: boolean): Record<string, unknown> | undefined {
  if (configStyle && profile !== 'default') return data[`profile ${profile}`] ?? data[profile];
  return data[profile];
}

export function sectionName(profile: string, file: 'credentials' | 'config'): string {
  return file === 'config' && profile !== 'default' ? `profile ${profile}` : profile;
}

export interface ProfileSettings {
  readonly profile: string;
  /** Explicitly chosen (flag or CDP_PROFILE): then it must exist. */
  readonly explicit: boolean;
  /** Chosen with --profile: then, as with the official CLI, its credentials win over CDP_ACCESS_KEY_ID/CDP_PRIVATE_KEY. */
  readonly fromFlag?: boolean;
  readonly values: Readonly<Record<string, string>>;
  readonly paths: Paths;
}

function strings(obj: Record<string, unknown> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(obj ?? {})) if (typeof v === 'string' || typeof v === 'number') out[k] = String(v);
  return out;
}

/** Merges the profile's config and credentials sections (credentials win). */
export function loadProfile(flagProfile: string | undefined, env: Env = process.env): ProfileSettings {
  const paths = configPaths(env);
  const profile = flagProfile || env.CDP_DEFAULT_PROFILE || env.CDP_PROFILE || 'default';
  const explicit = Boolean(flagProfile || env.CDP_DEFAULT_PROFILE || env.CDP_PROFILE);
  const config = section(readIni(paths.config), profile, true);
  const creds = section(readIni(paths.credentials), profile, false);
  if (explicit && !config && !creds) {
    throw authError('PROFILE_NOT_FOUND', `profile "${profile}" was not found`, [
      `Looked in ${paths.credentials} and ${paths.config}.`,
      'Create it with: cdpctl configure --profile ' + profile,
    ]);
  }
  return { profile, explicit, fromFlag: Boolean(flagProfile), values: { ...strings(config), ...strings(creds) }, paths };
}

export interface Credentials {
  /** Empty when the credentials are a bearer token. */
  readonly accessKeyId: string;
  readonly privateKey: string;
  /** A bearer token to send instead of signing (an --auth-config file's access_token, or cdp_access_token). */
  readonly accessToken?: string;
  readonly source: string;
}

/** The official CLI's legacy --auth-config file: JSON with access_key_id and private_key, or access_token. */
function authConfigCredentials(path: string): Credentials {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    throw authError('NO_CREDENTIALS', `Config file ${path} not found`);
  }
  let conf: Record<string, unknown>;
  try {
    conf = JSON.parse(text) as Record<string, unknown>;
  } catch {
    throw authError('BAD_CREDENTIALS', `--auth-config ${path} is not valid JSON`);
  }
  const str = (k: string): string => (typeof conf[k] === 'string' ? (conf[k] as string) : '');
  if ('access_key_id' in conf || 'private_key' in conf) {
    if (!str('access_key_id') || !str('private_key'))
      throw authError('BAD_CREDENTIALS', `--auth-config ${path} needs both access_key_id and private_key`);
    return { accessKeyId: str('access_key_id'), privateKey: str('private_key'), source: `auth config ${path}` };
  }
  if (str('access_token')) return { accessKeyId: '', privateKey: '', accessToken: str('access_token'), source: `auth config ${path}` };
  throw authError('BAD_CREDENTIALS', `--auth-config ${path} has neither access_key_id nor access_token`);
}

/**
 * Credentials in the official CLI's order: CDP_ACCESS_KEY_ID/CDP_PRIVATE_KEY
 * (unless a profile was named with --profile), the --auth-config file, then
 * the profile (a key pair, or cdp_access_token). CDP_PRIVATE_KEY may be a
 * key file's path.
 */
export function resolveCredentials(settings: ProfileSettings, env: Env = process.env, opts: { authConfig?: string } = {}): Credentials {
  if (env.CDP_ACCESS_KEY_ID && env.CDP_PRIVATE_KEY && !settings.fromFlag) {
    let key = env.CDP_PRIVATE_KEY;
    try {
      if (key.length < 4096 && existsSync(key) && statSync(key).isFile()) key = readFileSync(key, 'utf8');
    } catch {
      // Not a readable path: the value is the key itself.
    }
    return { accessKeyId: env.CDP_ACCESS_KEY_ID, privateKey: key, source: 'environment' };
  }
  if (opts.authConfig) return authConfigCredentials(opts.authConfig);
  const id = settings.values.cdp_access_key_id;
  const key = settings.values.cdp_private_key;
  if (id && key) return { accessKeyId: id, privateKey: key, source: `profile ${settings.profile}` };
  const token = settings.values.cdp_access_token;
  if (token) return { accessKeyId: '', privateKey: '', accessToken: token, source: `profile ${settings.profile}` };
  throw authError('NO_CREDENTIALS', `no credentials found for profile "${settings.profile}"`, [
    `Looked in CDP_ACCESS_KEY_ID/CDP_PRIVATE_KEY, ${settings.paths.credentials} and ${settings.paths.config}.`,
    'Run `cdpctl configure` to add them, or `cdpctl emulator start` for a local profile named emulator.',
  ]);
}

/** Warns (returns a message) when a credentials file can be read by others. */
export function permissionWarning(path: string): string | undefined {
  if (process.platform === 'win32') return undefined;
  try {
    const mode = statSync(path).mode & 0o077;
    if (mode !== 0) return `${path} is readable by other users; run: chmod 600 ${path}`;
  } catch {
    // No file, nothing to warn about.
  }
  return undefined;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));

/** Runs fn while holding `<path>.lock`; a lock older than 30 s is taken as abandoned. */
export async function withFileLock<T>(path: string, fn: () => T): Promise<T> {
  const lock = `${path}.lock`;
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const deadline = Date.now() + 30_000;
  for (let attempt = 0; ; attempt++) {
    try {
      closeSync(openSync(lock, 'wx', 0o600));
      break;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      try {
        if (Date.now() - statSync(lock).mtimeMs > 30_000) unlinkSync(lock);
      } catch {
        // Released meanwhile.
      }
      if (Date.now() > deadline) throw usageError(`could not lock ${path}: ${lock} is held by another process`);
      await sleep(Math.min(5 + attempt * 5, 100) * (0.5 + Math.random()));
    }
  }
  try {
    return fn();
  } finally {
    try {
      unlinkSync(lock);
    } catch {
      // Already gone.
    }
  }
}

/** Writes a file atomically with mode 0600. */
export function writeFileAtomic(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  renameSync(tmp, path);
}

/**
 * Writes INI the way Python's configparser reads it: values verbatim, never
 * quoted (a quoted base64 key would be read with its quotes).
 */
export function encodeIni(data: IniData): string {
  const out: string[] = [];
  for (const [name, section] of Object.entries(data)) {
    if (typeof section !== 'object' || section === null) continue;
    out.push(`[${name}]`);
    for (const [k, v] of Object.entries(section)) {
      if (v === undefined || v === null || typeof v === 'object') continue;
      out.push(`${k} = ${String(v)}`);
    }
    out.push('');
  }
  return out.join('\n');
}

/** Read-modify-write of one INI file under its lock. */
export async function updateIni(path: string, change: (data: IniData) => void): Promise<void> {
  await withFileLock(path, () => {
    const data = readIni(path);
    change(data);
    writeFileAtomic(path, encodeIni(data));
  });
}

/** Keys that belong in the credentials file rather than config. */
export const CREDENTIAL_KEYS = new Set(['cdp_access_key_id', 'cdp_private_key', 'cdp_access_token']);

export async function setValue(profile: string, key: string, value: string, env: Env = process.env): Promise<string> {
  const paths = configPaths(env);
  const file = CREDENTIAL_KEYS.has(key) ? 'credentials' : 'config';
  const path = paths[file];
  await updateIni(path, (data) => {
    const name = sectionName(profile, file);
    data[name] = { ...(data[name] ?? {}), [key]: value };
  });
  return path;
}

/**
 * Writes a profile's access key to the credentials file in one locked,
 * atomic rewrite (other profiles and keys stay; mode 0600), as `cdp login`
 * saves what the console sends and `cdp logout` blanks it. Newlines of a PEM
 * key are written as the two characters `\n`. Returns the file's path.
 */
export async function setCredentials(profile: string, accessKeyId: string, privateKey: string, env: Env = process.env): Promise<string> {
  const path = configPaths(env).credentials;
  await updateIni(path, (data) => {
    const name = sectionName(profile, 'credentials');
    data[name] = { ...(data[name] ?? {}), cdp_access_key_id: accessKeyId, cdp_private_key: privateKey.replace(/[\r\n]+/g, '\\n') };
  });
  return path;
}
