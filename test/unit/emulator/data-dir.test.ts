/**
 * The data directory's permissions (data-dir.ts): only its owner may read
 * it. privateDir makes a directory (parents too) 0700, privateFile a file
 * 0600, and both tighten what an older cdpctl left looser; what is already
 * tight, or missing, is left as it is.
 */
import { afterAll, beforeAll, describe, expect, test } from '@jest/globals';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { privateDir, privateFile, tighten } from '../../../src/lib/emulator/data-dir.js';

let root: string;
const mode = (path: string): number => statSync(path).mode & 0o777;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'cdpctl-data-dir-'));
});

afterAll(() => {
  rmSync(root, { recursive: true, force: true });
});

describe('the data directory', () => {
  test('privateDir makes the directory and its parents, the directory 0700', () => {
    const dir = join(root, 'a', 'b', 'emulator');
    privateDir(dir);
    expect(mode(dir)).toBe(0o700);
  });

  test('privateDir tightens a directory left group- or world-readable, and keeps what it holds', () => {
    const dir = join(root, 'loose');
    mkdirSync(dir, { mode: 0o755 });
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'state.db'), 'x');
    privateDir(dir);
    expect(mode(dir)).toBe(0o700);
    expect(existsSync(join(dir, 'state.db'))).toBe(true);
  });

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

  test('tighten leaves a tight path as it is (an owner-only 0400 stays 0400) and a missing one alone', () => {
    const readOnly = join(root, 'read-only');
    writeFileSync(readOnly, 'x');
    chmodSync(readOnly, 0o400);
    tighten(readOnly, 0o600);
    expect(mode(readOnly)).toBe(0o400);
    expect(() => tighten(join(root, 'missing'), 0o600)).not.toThrow();
  });
});
