/** The one rule for the paths records keep (uploads.ts). */
import { describe, expect, test } from '@jest/globals';
import { existsSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isUploadName, readUpload, removeUpload, uploadOf } from '../../../src/lib/emulator/uploads.js';

function dataDir(): { dir: string; uploads: string; outside: string } {
  const home = mkdtempSync(join(tmpdir(), 'cdpctl-uploads-'));
  const dir = join(home, 'emu');
  const uploads = join(dir, 'uploads');
  mkdirSync(uploads, { recursive: true, mode: 0o700 });
  writeFileSync(join(uploads, 'f-1'), 'mine');
  const outside = join(home, 'outside.txt');
  writeFileSync(outside, 'not mine');
  return { dir, uploads, outside };
}

describe('stored paths', () => {
  test('name a plain file directly in the uploads directory of this data directory, or nothing', () => {
    const { dir, uploads, outside } = dataDir();
    expect(uploadOf(dir, join(uploads, 'f-1'))).toBe(join(uploads, 'f-1'));
    for (const stored of [
      outside,
      `${uploads}/../../outside.txt`,
      `${uploads}/..`,
      `${uploads}/.`,
      `${uploads}/a/b`,
      `${uploads}/`,
      42,
      undefined,
    ])
      expect([stored, uploadOf(dir, stored)]).toEqual([stored, undefined]);
    expect(uploadOf(undefined, join(uploads, 'f-1'))).toBeUndefined();
    expect(uploadOf(join(dir, 'other'), join(uploads, 'f-1'))).toBeUndefined();
    expect(['f-1', 'a.b_c-d'].every(isUploadName)).toBe(true);
    expect(['.', '..', 'a/b', '', 'x\u0000'].some(isUploadName)).toBe(false);
  });

  test('are read and deleted without following a link; a path out of the rule reads as gone and deletes nothing', () => {
    const { dir, uploads, outside } = dataDir();
    expect(readUpload(dir, join(uploads, 'f-1'), 100)?.toString()).toBe('mine');
    symlinkSync(outside, join(uploads, 'link'));
    expect(readUpload(dir, join(uploads, 'link'), 100)).toBeUndefined();
    expect(readUpload(dir, outside, 100)).toBeUndefined();
    removeUpload(dir, outside);
    removeUpload(dir, join(uploads, 'link'));
    expect(existsSync(outside)).toBe(true);
    expect(existsSync(join(uploads, 'link'))).toBe(false);
    removeUpload(dir, join(uploads, 'f-1'));
    expect(existsSync(join(uploads, 'f-1'))).toBe(false);
  });
});
