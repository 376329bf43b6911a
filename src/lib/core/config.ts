/**
 * Credentials and config, compatible with the official CLI's files and
 * variables (DESIGN "Credentials, config, endpoints"). The files are read as
 * configparser reads them (ini.ts). Reading is cheap and synchronous;
 * writing edits the file in place (comments and other keys stay), atomically
 * (temp file + rename) under a lock file so that concurrent `configure set`
 * runs never lose a key.
 */
import { closeSync, lstatSync, mkdirSync, openSync, readlinkSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { READ_LIMITS, readBounded, type ReadBounds } from './bounded-read.js';
import { authError, CdpError, fileProblem, usageError } from './errors.js';
import { IniDocument, IniError, type IniData } from './ini.js';

export type Env = Readonly<Record<string, string | undefined>>;

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

/** A file the official CLI could not read either: said with its line, nothing written. */
function badFile(path: string, err: IniError): never {
  throw authError('BAD_CONFIG_FILE', `${path} cannot be read: ${err.message}`, [
    "The official CLI reads this file with Python's configparser and refuses it too; fix that line.",
  ]);
}

/** The bounds of every file of settings this module reads: a regular file of a few MiB. */
const settingsFile = (label: string): ReadBounds => ({ label, maxBytes: READ_LIMITS.settings });

function readDocument(path: string): IniDocument {
  let text: string;
  try {
    text = readBounded(path, settingsFile('profile file')).toString('utf8');
  } catch (err) {
    // A file that is not there (or cannot be opened) holds no settings; one that is no file at all, or too big, is refused.
    if (err instanceof CdpError) throw err;
    return IniDocument.parse('');
  }
  try {
    return IniDocument.parse(text);
  } catch (err) {
    if (err instanceof IniError) badFile(path, err);
    throw err;
  }
}

/** The sections of an INI file as the official CLI reads them; a missing file is empty. */
export function readIni(path: string): IniData {
  return readDocument(path).data();
}

/** The profile a config file section is for, as the official CLI splits `[profile NAME]` (shlex); else undefined. */
export function configProfile(section: string): string | undefined {
  if (section === 'default') return 'default';
  if (!section.startsWith('profile')) return undefined;
  const parts = [...section.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((m) => m[1] ?? m[2] ?? m[3] ?? '');
  return parts.length === 2 && parts[0] === 'profile' ? parts[1] : undefined;
}

/**
 * The names of the profiles the credentials and config files hold, sorted.
 * `read` reads one file (a caller that must not fail, such as completion,
 * passes one that reads an unreadable file as empty).
 */
export function profileNames(env: Env = process.env, read: (path: string) => IniData = readIni): string[] {
  const paths = configPaths(env);
  const names = new Set(Object.keys(read(paths.credentials)));
  for (const k of Object.keys(read(paths.config))) {
    const name = configProfile(k);
    if (name) names.add(name);
  }
  return [...names].sort();
}

/** The config file names non-default profiles `[profile NAME]`; both forms are read. */
function section(data: IniData, profile: string, configStyle: boolean): Record<string, string> | undefined {
  if (configStyle && profile !== 'default') {
    const named = Object.keys(data).filter((k) => configProfile(k) === profile);
    const key = named[named.length - 1];
    return key !== undefined ? data[key] : data[profile];
  }
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

/**
 * Merges the profile's config and credentials sections (credentials win).
 * A profile named explicitly must exist, unless `missingOk` (a login that
 * is about to create it).
 */
export function loadProfile(flagProfile: string | undefined, env: Env = process.env, opts: { missingOk?: boolean } = {}): ProfileSettings {
  const paths = configPaths(env);
  const profile = flagProfile || env.CDP_DEFAULT_PROFILE || env.CDP_PROFILE || 'default';
  const explicit = Boolean(flagProfile || env.CDP_DEFAULT_PROFILE || env.CDP_PROFILE);
  const config = section(readIni(paths.config), profile, true);
  const creds = section(readIni(paths.credentials), profile, false);
  if (explicit && !config && !creds && !opts.missingOk) {
    throw authError('PROFILE_NOT_FOUND', `profile "${profile}" was not found`, [
      `Looked in ${paths.credentials} and ${paths.config}.`,
      'Create it with: cdpctl configure --profile ' + profile,
    ]);
  }
  return { profile, explicit, fromFlag: Boolean(flagProfile), values: { ...config, ...creds }, paths };
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
    text = readBounded(path, settingsFile('--auth-config')).toString('utf8');
  } catch (err) {
    if (err instanceof CdpError) throw err;
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
    return { accessKeyId: env.CDP_ACCESS_KEY_ID, privateKey: keyFromEnvironment(env.CDP_PRIVATE_KEY), source: 'environment' };
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

/** Text that is a key itself rather than a file's path: PEM, or 44 characters (an Ed25519 seed, as the official CLI decides). */
const isKeyText = (v: string): boolean => v.includes('-----BEGIN') || v.trim().length === 44;

/** Text that reads as a file's path (and so may be shown; key material never is). */
const looksLikePath = (v: string): boolean => v.length < 300 && /^(~|\.{0,2}\/|[A-Za-z]:\\)|\.(pem|key|der|txt)$/i.test(v);

/**
 * CDP_PRIVATE_KEY is first a key file's path (as the official CLI reads
 * it), else the key itself. A value that is no key and names no readable
 * file says so ("no such file"), not what OpenSSL makes of a path.
 */
function keyFromEnvironment(value: string): string {
  if (isKeyText(value)) return value;
  try {
    if (value.length >= 4096) throw Object.assign(new Error('not a path'), { code: 'ENOENT' });
    return readBounded(value, settingsFile('CDP_PRIVATE_KEY')).toString('utf8');
  } catch (err) {
    if (err instanceof CdpError) throw err;
    const what = looksLikePath(value) ? `names the key file ${value}` : 'is neither a key nor the path of a key file';
    throw authError('NO_CREDENTIALS', `CDP_PRIVATE_KEY ${what}: ${fileProblem(err)}`, [
      'Set CDP_PRIVATE_KEY to the path of a key file, or to the key itself (PEM, or the 44-character Ed25519 key).',
    ]);
  }
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

/**
 * Runs fn while holding `<file>.lock` next to the file the path stands for
 * (through symbolic links, so every name of one file shares one lock); a
 * lock older than 30 s is taken as abandoned.
 */
export async function withFileLock<T>(path: string, fn: () => T): Promise<T> {
  const file = linkTarget(path);
  const lock = `${file}.lock`;
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
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

/**
 * The file a path stands for: itself, or what its symbolic links lead to
 * (a ~/.cdp/credentials kept in a dotfiles repository), so that a rewrite
 * replaces the file and keeps the link. A path that does not exist yet, or
 * a dangling link's target, is written as it is. Only the user's own links
 * (or root's) are followed, as the kernel's protected_symlinks would have
 * it: one another user planted (in a shared /tmp) is refused.
 */
export function linkTarget(path: string): string {
  let at = path;
  const uid = process.geteuid?.();
  for (let hops = 0; hops < 32; hops++) {
    let st;
    try {
      st = lstatSync(at);
    } catch {
      return at;
    }
    if (!st.isSymbolicLink()) return at;
    if (uid !== undefined && st.uid !== uid && st.uid !== 0)
      throw usageError(`${path}: ${at} is a symbolic link of another user (uid ${st.uid}); cdpctl does not write through it`);
    at = resolve(dirname(at), readlinkSync(at));
  }
  throw usageError(`${path}: too many levels of symbolic links`);
}

/** Writes a file atomically with mode 0600; a symbolic link is written through (linkTarget), never replaced. */
export function writeFileAtomic(path: string, text: string): void {
  const target = linkTarget(path);
  mkdirSync(dirname(target), { recursive: true, mode: 0o700 });
  // A new file (O_EXCL, an unguessable name): nothing planted there is written through.
  const tmp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600, flag: 'wx' });
  renameSync(tmp, target);
}

/**
 * Read-modify-write of one INI file under its lock. `change` edits the
 * sections' own keys (DEFAULT is a section here); the file is then edited
 * in place, so comments, order and other keys stay as they were.
 */
export async function updateIni(path: string, change: (data: IniData) => void): Promise<void> {
  await withFileLock(path, () => {
    const doc = readDocument(path);
    const before = doc.raw();
    const after = structuredClone(before);
    change(after);
    try {
      doc.apply(before, after);
    } catch (err) {
      if (err instanceof IniError) throw usageError(`${path}: ${err.reason}`);
      throw err;
    }
    writeFileAtomic(path, doc.toString());
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

/** Removes a key from a profile; the file's path, or undefined when the key was not set there. */
export async function unsetValue(profile: string, key: string, env: Env = process.env): Promise<string | undefined> {
  const file = CREDENTIAL_KEYS.has(key) ? 'credentials' : 'config';
  const path = configPaths(env)[file];
  let removed = false;
  await updateIni(path, (data) => {
    const values = data[sectionName(profile, file)];
    if (values && key in values) {
      delete values[key];
      removed = true;
    }
  });
  return removed ? path : undefined;
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
