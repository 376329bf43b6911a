/**
 * The data directory as a careful daemon opens it (data-dir.ts): only its
 * owner may read it and nobody else may change it. checkDataDir makes a
 * directory (parents too) 0700, tightens one an older cdpctl left readable
 * by others and refuses one others can write or that holds a link among its
 * entries; privateFile makes a file 0600 and tightens a looser one without
 * emptying it; nothing is reached through a link, and a file is replaced by
 * a rename rather than written through one. The refusals of other users'
 * directories are in test/reliability/data-dir.test.ts (they need root).
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  checkDataDir,
  checkPrivateFile,
  openPrivateFile,
  privateFile,
  privateSubdir,
  writePrivateFile,
} from '../../../src/lib/emulator/data-dir.js';

let root: string;
const mode = (path: string): number => statSync(path).mode & 0o777;
let n = 0;
const fresh = (): string => {
  const dir = join(root, `d${n++}`);
  mkdirSync(dir, { mode: 0o700 });
  return dir;
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cdpctl-data-dir-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the data directory', () => {
  test('checkDataDir makes the directory and its parents, the directory 0700; without create a missing one is reported', () => {
    const dir = join(root, 'a', 'b', 'emulator');
    expect(checkDataDir(dir, { create: false })).toBe(false);
    expect(existsSync(dir)).toBe(false);
    expect(checkDataDir(dir, { create: true })).toBe(true);
    expect(mode(dir)).toBe(0o700);
  });

  test('checkDataDir tightens a directory left group- or world-readable, and keeps what it holds', () => {
    const dir = join(root, 'loose');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'state.db'), 'x');
    checkDataDir(dir, { create: true });
    expect(mode(dir)).toBe(0o700);
    expect(existsSync(join(dir, 'state.db'))).toBe(true);
  });

  test('checkDataDir refuses one others can write, and a link among its entries, saying what to do', () => {
    const open = fresh();
    chmodSync(open, 0o770);
    expect(() => checkDataDir(open, { create: true })).toThrow(/can be written by other users \(mode 0770\); run: chmod 700/);
    expect(mode(open)).toBe(0o770);
    const linked = fresh();
    symlinkSync(join(root, 'elsewhere.log'), join(linked, 'requests.log'));
    expect(() => checkDataDir(linked, { create: true })).toThrow(/requests\.log is a symbolic link/);
  });

  test('privateSubdir makes a directory 0700 inside it and refuses a link in its place', () => {
    const dir = fresh();
    privateSubdir(join(dir, 'uploads'));
    expect(mode(join(dir, 'uploads'))).toBe(0o700);
    const other = fresh();
    symlinkSync(fresh(), join(other, 'uploads'));
    expect(() => privateSubdir(join(other, 'uploads'))).toThrow(/is a symbolic link/);
  });
});

describe('its files', () => {
  test('privateFile makes a missing file 0600, tightens one its group or others may read, and never empties it', () => {
    const made = join(root, 'made.db');
    privateFile(made);
    expect(mode(made)).toBe(0o600);
    const loose = join(root, 'loose.db');
    writeFileSync(loose, 'kept');
    chmodSync(loose, 0o644);
    privateFile(loose);
    expect(mode(loose)).toBe(0o600);
    expect(statSync(loose).size).toBe(4);
    // Readable by its group alone is loose too.
    const group = join(root, 'group.db');
    writeFileSync(group, 'x');
    chmodSync(group, 0o640);
    privateFile(group);
    expect(mode(group)).toBe(0o600);
  });

  test('checkPrivateFile leaves a tight file as it is (an owner-only 0400 stays 0400), a missing one alone, and refuses a link', () => {
    const readOnly = join(root, 'read-only');
    writeFileSync(readOnly, 'x');
    chmodSync(readOnly, 0o400);
    checkPrivateFile(readOnly);
    expect(mode(readOnly)).toBe(0o400);
    expect(() => checkPrivateFile(join(root, 'missing'))).not.toThrow();
    const link = join(root, 'journal-link');
    symlinkSync(readOnly, link);
    expect(() => checkPrivateFile(link)).toThrow(/is a symbolic link/);
  });

  test('openPrivateFile refuses a link and a FIFO instead of appending through them', () => {
    const dir = fresh();
    const victim = join(root, 'victim.txt');
    writeFileSync(victim, 'keep');
    chmodSync(victim, 0o644);
    symlinkSync(victim, join(dir, 'emulator.log'));
    expect(() => openPrivateFile(join(dir, 'emulator.log'))).toThrow(/is a symbolic link/);
    expect([readFileSync(victim, 'utf8'), mode(victim)]).toEqual(['keep', 0o644]);
    execFileSync('mkfifo', [join(dir, 'requests.log')]);
    expect(() => openPrivateFile(join(dir, 'requests.log'))).toThrow(/not a regular file/);
  });

  test('writePrivateFile replaces a link with the file, never writing through it, and leaves no temporary file', () => {
    const dir = fresh();
    const victim = join(root, 'target.json');
    writeFileSync(victim, 'keep');
    symlinkSync(victim, join(dir, 'instance.json'));
    writePrivateFile(join(dir, 'instance.json'), '{"profile":"p"}');
    expect(readFileSync(victim, 'utf8')).toBe('keep');
    expect(lstatSync(join(dir, 'instance.json')).isSymbolicLink()).toBe(false);
    expect(readFileSync(join(dir, 'instance.json'), 'utf8')).toBe('{"profile":"p"}');
    expect(mode(join(dir, 'instance.json'))).toBe(0o600);
    expect(execFileSync('ls', ['-A', dir], { encoding: 'utf8' }).trim()).toBe('instance.json');
  });
});
