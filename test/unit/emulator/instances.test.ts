/**
 * Emulator instances that do not step on each other (instances.ts), in a
 * HOME of the test's own: what a data directory remembers (instance.json),
 * the profile it writes, a profile's sections read and written in the two
 * files as the official CLI names them, the port a loopback endpoint names,
 * a profile given back when its instance stops (restored, removed or left
 * untouched), and the registry of running instances.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from '@jest/globals';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Env } from '../../../src/lib/core/config.js';
import {
  DEFAULT_PROFILE,
  endpointOf,
  forget,
  loopbackPort,
  profileOf,
  profileSections,
  readInstance,
  register,
  registered,
  releaseProfile,
  unregister,
  writeInstance,
  writeProfile,
  type ProfileSections,
} from '../../../src/lib/emulator/instances.js';

let root: string;
let env: Env;
let n = 0;
/** A data directory of its own for one test. */
const dataDir = (): string => join(root, `data-${++n}`);

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cdpctl-instances-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

beforeEach(() => {
  const home = join(root, `home-${++n}`);
  mkdirSync(home);
  env = { HOME: home };
});

const emulatorAt = (port: number): ProfileSections => ({
  config: { endpoint_url: endpointOf(port), cdp_endpoint_url: endpointOf(port), cdp_region: 'us-west-1' },
  credentials: { cdp_access_key_id: `key-${port}`, cdp_private_key: 'secret' },
});
const REAL: ProfileSections = {
  config: { cdp_region: 'eu-1', cdp_endpoint_url: 'https://api.eu-1.cdp.cloudera.com/' },
  credentials: { cdp_access_key_id: 'real', cdp_private_key: 'real-secret' },
};

describe('what a data directory remembers', () => {
  test('instance.json round-trips; a missing, unreadable or profile-less file reads as nothing', () => {
    const dir = dataDir();
    expect(readInstance(dir)).toBeUndefined();
    writeInstance(dir, { profile: 'ci', previous: null, empty: true });
    expect(readInstance(dir)).toEqual({ profile: 'ci', previous: null, empty: true });
    writeFileSync(join(dir, 'instance.json'), '{ not json');
    expect(readInstance(dir)).toBeUndefined();
    writeFileSync(join(dir, 'instance.json'), '{"previous": null}');
    expect(readInstance(dir)).toBeUndefined();
  });

  test('the profile it writes: the one asked for, else the one it remembers, else emulator', () => {
    const dir = dataDir();
    expect(profileOf(dir)).toBe(DEFAULT_PROFILE);
    expect(DEFAULT_PROFILE).toBe('emulator');
    writeInstance(dir, { profile: 'ci' });
    expect(profileOf(dir)).toBe('ci');
    expect(profileOf(dir, 'other')).toBe('other');
  });
});

describe('profiles', () => {
  test('written to both files under the names the official CLI reads ("profile NAME" in config), and read back', async () => {
    await writeProfile('ci', emulatorAt(4242), env);
    const config = readFileSync(join(String(env.HOME), '.cdp', 'config'), 'utf8');
    const credentials = readFileSync(join(String(env.HOME), '.cdp', 'credentials'), 'utf8');
    expect(config).toContain('[profile ci]');
    expect(credentials).toContain('[ci]');
    expect(profileSections('ci', env)).toEqual(emulatorAt(4242));
    expect(profileSections('nobody', env)).toEqual({});
  });

  test('a section left out is removed; other profiles stay', async () => {
    await writeProfile('keep', REAL, env);
    await writeProfile('ci', emulatorAt(4242), env);
    await writeProfile('ci', { config: { cdp_region: 'us-west-1' } }, env);
    expect(profileSections('ci', env)).toEqual({ config: { cdp_region: 'us-west-1' } });
    expect(profileSections('keep', env)).toEqual(REAL);
  });

  test('the files the environment names are the ones written', async () => {
    const named = { ...env, CDP_CONFIG_FILE: join(root, `cfg-${n}`), CDP_SHARED_CREDENTIALS_FILE: join(root, `creds-${n}`) };
    await writeProfile('default', emulatorAt(5000), named);
    expect(readFileSync(String(named.CDP_CONFIG_FILE), 'utf8')).toContain('[default]');
    expect(profileSections('default', named)).toEqual(emulatorAt(5000));
    expect(profileSections('default', env)).toEqual({});
  });

  test('loopbackPort: the port of a loopback endpoint (cdp_endpoint_url first), none for any other', () => {
    expect(loopbackPort(emulatorAt(4242))).toBe(4242);
    expect(loopbackPort({ config: { endpoint_url: 'http://127.0.0.1:80' } })).toBe(80);
    expect(loopbackPort({ config: { cdp_endpoint_url: 'http://[::1]:9/', endpoint_url: 'http://localhost:1/' } })).toBe(9);
    expect(loopbackPort(REAL)).toBeUndefined();
    expect(loopbackPort({ config: { endpoint_url: 'https://localhost:4242/' } })).toBeUndefined();
    expect(loopbackPort({ config: { endpoint_url: 'http://localhost.example.com:4242/' } })).toBeUndefined();
    expect(loopbackPort({})).toBeUndefined();
  });
});

describe('giving a profile back when its instance stops', () => {
  const never = async (): Promise<boolean> => false;
  const always = async (): Promise<boolean> => true;

  test('what it held before (a real control plane) is restored', async () => {
    const dir = dataDir();
    writeInstance(dir, { profile: 'ci', previous: REAL });
    await writeProfile('ci', emulatorAt(4242), env);
    expect(await releaseProfile(dir, 4242, env, never)).toEqual({ profile: 'ci', release: 'restored' });
    expect(profileSections('ci', env)).toEqual(REAL);
    expect(readInstance(dir)).toEqual({ profile: 'ci', released: 'restored' });
  });

  test('a profile the instance made is removed', async () => {
    const dir = dataDir();
    writeInstance(dir, { profile: 'emulator', previous: null, empty: true });
    await writeProfile('emulator', emulatorAt(4242), env);
    expect((await releaseProfile(dir, 4242, env, never)).release).toBe('removed');
    expect(profileSections('emulator', env)).toEqual({});
    expect(readInstance(dir)).toEqual({ profile: 'emulator', empty: true, released: 'removed' });
  });

  test('what it held before is restored if it named another emulator that still answers, else removed', async () => {
    const dir = dataDir();
    writeInstance(dir, { profile: 'ci', previous: emulatorAt(5000) });
    await writeProfile('ci', emulatorAt(4242), env);
    const asked: number[] = [];
    expect((await releaseProfile(dir, 4242, env, async (p) => (asked.push(p), true))).release).toBe('restored');
    expect(asked).toEqual([5000]);
    expect(profileSections('ci', env)).toEqual(emulatorAt(5000));
    writeInstance(dir, { profile: 'ci', previous: emulatorAt(5000) });
    await writeProfile('ci', emulatorAt(4242), env);
    expect((await releaseProfile(dir, 4242, env, never)).release).toBe('removed');
    // What named this very port before is not brought back either.
    writeInstance(dir, { profile: 'ci', previous: emulatorAt(4242) });
    await writeProfile('ci', emulatorAt(4242), env);
    expect((await releaseProfile(dir, 4242, env, always)).release).toBe('removed');
  });

  test('a profile that names something else by now is left untouched', async () => {
    const dir = dataDir();
    writeInstance(dir, { profile: 'ci', previous: null });
    await writeProfile('ci', emulatorAt(6000), env);
    expect((await releaseProfile(dir, 4242, env, always)).release).toBe('untouched');
    expect(profileSections('ci', env)).toEqual(emulatorAt(6000));
  });
});

describe('the registry of running instances', () => {
  test('an instance is listed once per data directory, the latest entry winning; taken away only by its own pid', () => {
    const dir = dataDir();
    register({ dataDir: dir, port: 4242, pid: 100, profile: 'emulator' }, env);
    register({ dataDir: `${dir}/.`, port: 4343, pid: 101, profile: 'emulator' }, env);
    expect(registered(env)).toEqual([{ dataDir: dir, port: 4343, pid: 101, profile: 'emulator' }]);
    unregister(dir, 100, env);
    expect(registered(env)).toHaveLength(1);
    forget({ dataDir: dir, port: 4343, pid: 101, profile: 'emulator' }, env);
    expect(registered(env)).toEqual([]);
  });

  test('half-written or foreign files are skipped; no registry at all is an empty list', () => {
    expect(registered(env)).toEqual([]);
    register({ dataDir: dataDir(), port: 1, pid: 2, profile: 'a' }, env);
    const dir = join(String(env.HOME), '.cdpctl', 'running');
    writeFileSync(join(dir, 'broken.json'), '{"dataDir": "/x", "port": ');
    writeFileSync(join(dir, 'foreign.json'), '{"dataDir": "/x", "port": "1", "pid": 2, "profile": "a"}');
    writeFileSync(join(dir, 'notes.txt'), 'not an entry');
    expect(registered(env).map((e) => e.profile)).toEqual(['a']);
  });
});
