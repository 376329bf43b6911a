/**
 * The files the emulator keeps: uploaded bodies (flow definitions, assets,
 * reporting task definitions), one plain name each in `<data dir>/uploads`.
 * A record that keeps a file names it in a field called `storedAt` (the
 * file's path), and this is the one rule for such a path, wherever it is
 * read back: it must name a file directly in this data directory's uploads
 * directory, by a plain name (letters, digits, `.`, `_`, `-`; never `.` or
 * `..`), and it is read or deleted without following a link. A path that
 * breaks the rule (a record from a hostile export, a tampered state file)
 * is never read or deleted: the file reads as gone. `emulator import`
 * checks every `storedAt` of an export by the same rule (state.ts).
 */
import { randomBytes } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join, sep } from 'node:path';
import { readBounded } from '../core/bounded-read.js';
import { isPlainDir, privateSubdir } from './data-dir.js';

export const UPLOADS = 'uploads';
/** The field a record keeps its file's path in. */
export const STORED_AT = 'storedAt';

/** A plain file name of the uploads directory. */
export const isUploadName = (name: string): boolean => /^[A-Za-z0-9._-]{1,200}$/.test(name) && name !== '.' && name !== '..';

export const uploadsDir = (dataDir: string): string => join(dataDir, UPLOADS);

/** A new file name in the uploads directory (made, 0700, when missing; never a link). */
export function newUploadPath(dataDir: string): string {
  const dir = uploadsDir(dataDir);
  privateSubdir(dir);
  return join(dir, `${Date.now()}-${randomBytes(6).toString('hex')}`);
}

/** The file a stored path names when it keeps the rule; undefined otherwise. */
export function uploadOf(dataDir: string | undefined, stored: unknown): string | undefined {
  if (dataDir === undefined || typeof stored !== 'string') return undefined;
  const dir = uploadsDir(dataDir);
  if (!stored.startsWith(dir + sep)) return undefined;
  const name = stored.slice(dir.length + 1);
  return isUploadName(name) && isPlainDir(dir) ? join(dir, name) : undefined;
}

/** The bytes of a stored file (at most `maxBytes`), or undefined when it is gone or its path breaks the rule. */
export function readUpload(dataDir: string | undefined, stored: unknown, maxBytes: number): Buffer | undefined {
  const path = uploadOf(dataDir, stored);
  if (!path) return undefined;
  try {
    return readBounded(path, { label: 'a stored file', maxBytes, noFollow: true });
  } catch {
    return undefined;
  }
}

/** Deletes a stored file; a path that breaks the rule deletes nothing. */
export function removeUpload(dataDir: string | undefined, stored: unknown): void {
  const path = uploadOf(dataDir, stored);
  // rm removes a link itself, never what it points to.
  if (path) rmSync(path, { force: true });
}
